// The plan page (plan/index.html): reads the plan from the address's fragment, loads the
// parts of the build's data the plan names (plan/data/, as scripts of the site: shards.js,
// which the setup page reads too; plan.js addClaims keeps the claims with a release),
// runs the planner (plan.js) over them and shows the plan. The page's CSP allows no
// connection: nothing is fetched and nothing is sent. Every text from a publisher is inserted
// as text, never as HTML.
(function () {
  "use strict";
  var P = window.AshyamsPlan;
  var form = document.getElementById("plan-form");
  var dataEl = document.getElementById("plan-data");
  if (!P || !form || !dataEl) {
    return;
  }
  var meta = JSON.parse(dataEl.textContent);
  var S = window.AshyamsShards;
  var parts = S.loader("data/");
  var data = { claims: Object.create(null), projects: Object.create(null) };
  var added = new Set(); // the parts whose claims are in data
  var search = document.getElementById("plan-search");
  var matches = document.getElementById("plan-matches");
  var inputs = { openmw: document.getElementById("plan-openmw"), lua: document.getElementById("plan-lua"), root: document.getElementById("plan-root") };
  var baseBox = document.getElementById("plan-base");
  var status = document.getElementById("plan-status");
  var results = document.getElementById("plan-results");
  var req = P.parseFragment("");
  document.getElementById("plan-needs-script").hidden = true;
  form.hidden = false;

  var bidi = window.OpenMWCfg.bidi;
  function el(tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (a) {
      e.setAttribute(a, attrs[a]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === "") {
        continue;
      }
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return e;
  }
  function pub(s) {
    return el("bdi", {}, bidi(s));
  }
  function code(s) {
    return el("code", { "data-pub": "", dir: "auto" }, bidi(s));
  }
  function claim(key) {
    return Object.prototype.hasOwnProperty.call(data.claims, key) ? data.claims[key] : null;
  }
  function label(key) {
    var c = claim(key);
    return c ? bidi(P.label(c)) : key;
  }
  function claimLink(key) {
    var c = claim(key);
    if (!c) {
      return code(key);
    }
    return el("span", { "class": "who" }, el("a", { href: "../" + c.page }, pub(c.name)), " ",
      c.release ? pub(c.release.version) : "", " from ", pub(c.site_name));
  }
  function tokenOf(key) {
    var c = claim(key);
    return c.project + "@" + c.site;
  }
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  // loadParts adds the claims of the data parts names (shards.js) to data, each part once.
  function loadParts(names) {
    return parts.load(names).then(function (docs) {
      docs.forEach(function (d, i) {
        if (!added.has(names[i])) {
          added.add(names[i]);
          P.addClaims(data, S.claimsOf(d));
        }
      });
    });
  }
  // gather loads every part the plan of r reads (plan.js parts), round by round.
  function gather(r) {
    var names = P.parts(data, r, meta.shards.claims, function (n) { return added.has(n); });
    return names.length ? loadParts(names).then(function () { return gather(r); }) : Promise.resolve();
  }
  // refresh gathers the plan's data, then plans and shows it; a later refresh wins.
  var runs = 0;
  function refresh() {
    var run = ++runs;
    results.setAttribute("data-plan-loading", "");
    status.textContent = "Reading this index's data…";
    gather(req).then(function () {
      if (run === runs) {
        P.settleTargets(data, function (k) { return added.has(S.claimPart(k, meta.shards.claims)); });
        render(P.compute(data, req));
        results.removeAttribute("data-plan-loading");
      }
    }, function (e) {
      if (run === runs) {
        results.textContent = "";
        status.textContent = "This index's data for the plan could not be loaded (" + e.message + "), so nothing was planned. Reload the page to try again.";
        results.removeAttribute("data-plan-loading");
      }
    });
  }

  // The project box searches the project list's index (network-data/find/, find.js): its
  // words when first used, a project id's part when the query holds one, and the rows of the
  // best 20 matches with a current release (the planner plans releases). Offers are drawn for
  // the box's text as it is when they are ready.
  var F = window.AshyamsFind;
  var finder = S.loader(form.getAttribute("data-find"));
  var find = null;
  function loadNames() {
    return finder.load(["terms"]).then(function (d) {
      if (!find) {
        var ix = F.fromTerms(d[0]);
        if (ix instanceof Error) {
          throw ix;
        }
        var none = new Uint8Array(ix.n);
        F.rows(d[0].no_release).forEach(function (i) { none[i] = 1; });
        find = { ix: ix, chunk: d[0].chunk, none: none, rows: new Map() };
      }
      return find;
    });
  }
  // lookup is the rows (numbers and values) of at most 20 claims query q matches, best first.
  function lookup(q) {
    return loadNames().then(function (f) {
      var ids = F.needs(f.ix, q);
      return finder.load(ids).then(function (docs) {
        docs.forEach(function (doc, k) {
          var err = F.addIDs(f.ix, ids[k].slice(1), doc);
          if (err) {
            throw err;
          }
        });
        var scores = F.match(f.ix, q);
        var found = scores ? F.best(scores, 20, function (i) { return f.none[i] === 1; }) : [];
        var chunks = [];
        found.forEach(function (i) {
          var name = "r" + Math.floor(i / f.chunk);
          if (!f.rows.has(i) && chunks.indexOf(name) < 0) {
            chunks.push(name);
          }
        });
        return finder.load(chunks).then(function (parts) {
          parts.forEach(function (doc) {
            doc.rows.forEach(function (r, k) { f.rows.set(doc.from + k, r); });
          });
          return found.map(function (i) { return f.rows.get(i); });
        });
      });
    });
  }
  // rowToken is the claim token of a row of the index: project id @ site id.
  function rowToken(row) {
    return row[0].replace("/", "@");
  }
  // offer shows the claims the box's text matches, and resolves to them (rows).
  function offer() {
    var q = search.value;
    if (F.words(q).length === 0) {
      matches.textContent = "";
      matches.setAttribute("data-query", q);
      return Promise.resolve([]);
    }
    return lookup(q).then(function (found) {
      if (search.value !== q) {
        return found; // the player typed on: the newer offers draw
      }
      matches.textContent = "";
      matches.setAttribute("data-query", q);
      found.forEach(function (row) {
        var b = el("button", { type: "button", "data-add": rowToken(row) }, "Add ", pub(row[1]), " — ", pub(row[3]));
        b.addEventListener("click", function () {
          search.value = "";
          matches.textContent = "";
          addToken(rowToken(row));
        });
        matches.appendChild(el("li", {}, b));
      });
      if (!found.length) {
        matches.appendChild(el("li", { "class": "note" }, "No project in this index matches “", pub(q), "”."));
      }
      return found;
    });
  }
  var typing = 0;
  search.addEventListener("focus", function () { offer().catch(function () {}); });
  search.addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(function () { offer().catch(function () {}); }, 80);
  });

  function update() {
    var frag = P.fragment(req);
    if (frag !== location.hash && !(frag === "" && location.hash === "")) {
      try {
        history.replaceState(null, "", location.href.split("#")[0] + frag);
      } catch (e) {
        // Some file:// contexts refuse it; the plan still shows.
      }
    }
    refresh();
  }
  function fromHash() {
    req = P.parseFragment(location.hash);
    inputs.openmw.value = req.openmw;
    inputs.lua.value = req.lua;
    inputs.root.value = req.root;
    baseBox.checked = req.base;
    refresh();
  }
  function addToken(t) {
    if (req.add.indexOf(t) < 0) {
      req.add.push(t);
    }
    update();
  }
  function removeKey(key) {
    var c = claim(key), t = tokenOf(key);
    req.add = req.add.filter(function (x) { return x !== t && x !== c.project; });
    update();
  }
  // setSelection records sel as the player's changes from what the release offers.
  function setSelection(e, sel) {
    var p = e.c.project + ":";
    req.on = req.on.filter(function (x) { return x.indexOf(p) !== 0; });
    req.off = req.off.filter(function (x) { return x.indexOf(p) !== 0; });
    e.c.components.forEach(function (comp) {
      if (sel.has(comp.id) && !e.initial.has(comp.id)) {
        req.on.push(p + comp.id);
      } else if (!sel.has(comp.id) && e.initial.has(comp.id)) {
        req.off.push(p + comp.id);
      }
    });
    update();
  }

  // components shows a release's components as controls: a radio group for a one-only group
  // (with "none" when at most one), checkboxes otherwise; a control is disabled when the
  // change it makes would not be a valid selection.
  function components(e) {
    var c = e.c, box = el("div", { "class": "components" });
    var groups = new Map();
    c.groups.forEach(function (g) { groups.set(g.id, g); });
    function control(comp, type, name) {
      var id = "comp-" + e.c.project + "-" + comp.id;
      var input = el("input", { type: type, id: id, name: name, "data-component": comp.id });
      input.checked = e.sel.has(comp.id);
      var next = P.toggle(c, e.sel, comp.id, !input.checked);
      input.disabled = comp.required || (!next && !(type === "radio" && input.checked));
      if (type === "radio" && input.checked) {
        input.disabled = comp.required;
      }
      input.addEventListener("change", function () {
        var s = P.toggle(c, e.sel, comp.id, type === "radio" ? true : input.checked);
        if (s) {
          setSelection(e, s);
        } else {
          render(P.compute(data, req));
        }
      });
      var why = comp.required ? " (required)" : "";
      return el("div", { "class": "component" }, input, " ", el("label", { "for": id, "class": "inline" }, pub(comp.name), why));
    }
    var done = new Set();
    c.components.forEach(function (comp) {
      if (!comp.group || !groups.has(comp.group)) {
        box.appendChild(control(comp, "checkbox", ""));
        return;
      }
      if (done.has(comp.group)) {
        return;
      }
      done.add(comp.group);
      var g = groups.get(comp.group), one = g.select === "exactly-one" || g.select === "at-most-one";
      var fs = el("fieldset", { "data-group": g.id, "data-select": g.select },
        el("legend", {}, pub(g.name), " (" + { "exactly-one": "choose one", "at-most-one": "one or none", "at-least-one": "one or more", "any": "any" }[g.select] + ")"));
      var name = "group-" + c.project + "-" + g.id;
      c.components.forEach(function (m) {
        if (m.group === g.id) {
          fs.appendChild(control(m, one ? "radio" : "checkbox", one ? name : ""));
        }
      });
      if (g.select === "at-most-one") {
        var noneID = name + "-none", members = c.components.filter(function (m) { return m.group === g.id; });
        var none = el("input", { type: "radio", id: noneID, name: name });
        none.checked = !members.some(function (m) { return e.sel.has(m.id); });
        var cleared = members.reduce(function (s, m) { return s && (s.has(m.id) ? P.toggle(c, s, m.id, false) : s); }, e.sel);
        none.disabled = !cleared && !none.checked;
        none.addEventListener("change", function () {
          if (cleared) {
            setSelection(e, cleared);
          }
        });
        fs.appendChild(el("div", { "class": "component" }, none, " ", el("label", { "for": noneID, "class": "inline" }, "None")));
      }
      box.appendChild(fs);
    });
    return box;
  }

  function findingItem(f, plan) {
    var li = el("li", { "data-plan-finding": f.kind, "data-field": f.field || "" });
    if (f.key) {
      li.setAttribute("data-key", f.key);
      li.appendChild(el("span", { "class": "declared" }, "Declared by ", claimLink(f.key), ": "));
    }
    function relText(r) {
      var what = r.project ? "the project " : r.capability ? "the capability " : "";
      var name = r.name || r.project || r.capability || "an unnamed target";
      return el("span", {}, what, pub(name), r.version ? el("span", {}, " ", code(r.version)) : "");
    }
    var t = {
      "not-found": function () { return el("span", {}, "No listed claim in this index is ", code(f.token), ", so it was not added."); },
      "two-claims": function () { return el("span", {}, "the plan also names ", claimLink(f.other), ", another site's claim of the same project id. One claim of a project goes in a plan; the one named first is kept."); },
      "missing": function () { return el("span", {}, "requires ", relText(f.rel), ", which no project in this index publishes; the plan cannot include it."); },
      "version": function () { return el("span", {}, "requires ", relText(f.rel), "; ", claimLink(f.other), " is the release in this plan, outside it."); },
      "version-unchecked": function () { return el("span", {}, "requires ", relText(f.rel), ", which does not read as a constraint on ", claimLink(f.other), ", so it was not compared."); },
      "conflict": function () { return el("span", {}, "conflicts with ", claimLink(f.other), ", which is in this plan", f.rel.reason ? el("span", {}, " (“", pub(f.rel.reason), "”)") : "", "."); },
      "recommends": function () { return el("span", {}, "recommends ", relText(f.rel), f.rel.reason ? el("span", {}, " (“", pub(f.rel.reason), "”)") : "", "; not added: a recommendation is the player's choice."); },
      "runtime": function () { return el("span", {}, "runs on OpenMW ", code(f.constraint), "; your OpenMW, " + f.version + ", is outside it."); },
      "runtime-unchecked": function () { return el("span", {}, "runs on OpenMW ", code(f.constraint), ", which does not read as a constraint, so it was not compared."); },
      "lua": function () { return el("span", {}, "needs Lua API ", code(f.constraint), "; your revision, " + f.version + ", is outside it."); },
      "lua-unchecked": function () { return el("span", {}, "needs Lua API ", code(f.constraint), ", which does not read as a constraint, so it was not compared."); },
      "bad-version": function () { return el("span", {}, "The " + (f.what === "lua" ? "Lua API revision" : "OpenMW version") + " you gave, ", code(f.text), ", does not read as a version (numbers such as 0.49), so it was not compared."); },
      "release-status": function () { return el("span", {}, "the release in this plan is " + f.status + "."); },
      "no-openmw": function () { return el("span", {}, "the release says nothing about how OpenMW loads it (no openmw extension), so the plan writes no lines for it; its downloads are listed."); },
      "cycle": function () { return el("span", {}, "These projects require each other in a cycle, so no order puts each after what it requires: ", join(f.keys.map(claimLink)), "."); },
      "selection-refused": function () { return el("span", {}, "the link asks to turn component ", code(f.component), f.on ? " on" : " off", ", which would not be a valid selection, so it was not."); },
      "no-valid-selection": function () { return el("span", {}, "no valid selection of its components could be made from what it offers, so the plan writes no lines for it: a client must not install an invalid selection."); },
      "same-file": function () { return el("span", {}, "declares ", code(f.file), ", which ", claimLink(f.other), " declares too; it is loaded once, as the first declared it."); },
      "base-file": function () { return el("span", {}, "declares ", code(f.file), ", a file of the base game; it is loaded once, as the base game's."); },
      "needs-content": function () { return el("span", {}, code(f.file), " needs ", code(f.need), ", which no project in this plan declares and the base game does not ship."); },
      "needs-base": function () { return el("span", {}, "needs the base game's files, which this plan leaves out."); },
      "content-cycle": function () { return el("span", {}, "The content files ", join(f.files.map(code)), " need each other in a cycle; they are listed in the order declared."); },
      "refused": function () {
        var then = f.field === "root" ? "the plan uses " + plan.root + " instead." : /^settings/.test(f.field) ? "that setting is not written." :
          /sha256|filename/.test(f.field) ? "its SHA256SUMS line is not written." : "the plan writes no lines for it.";
        return el("span", {}, f.key ? el("span", {}, "its ", code(f.field), " ") : "The mods folder you gave, ", code(f.value), (f.key ? " " : ", ") + f.reason + ", so " + then);
      },
      "too-old": function () {
        return el("span", {}, "writes ", code(f.line), f.what === "config" ? ", which OpenMW reads from " + f.need + " on; your OpenMW, " + req.openmw + ", ignores it." :
          ", a Lua script, which OpenMW loads from " + f.need + " on; your OpenMW, " + req.openmw + ", stops at it.");
      },
      "link": function () { return el("span", {}, "The link's ", code(f.field), f.value ? el("span", {}, " value ", code(f.value)) : "", " " + f.reason + ", so it was left out."); }
    }[f.kind];
    li.appendChild(t ? t() : document.createTextNode(f.kind));
    return li;
  }
  function join(nodes) {
    var span = el("span");
    nodes.forEach(function (n, i) {
      if (i) {
        span.appendChild(document.createTextNode(", "));
      }
      span.appendChild(n);
    });
    return span;
  }
  function output(name, title, text, note) {
    var id = "out-" + name.replace(".", "-");
    return el("section", { "aria-labelledby": id }, el("h2", { id: id }, title), note ? el("p", { "class": "note" }, note) : "",
      el("pre", { "data-plan-output": name, tabindex: "0" }, text));
  }
  function size(n) {
    return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : n >= 1024 ? (n / 1024).toFixed(1) + " KiB" : n + " bytes";
  }

  function render(plan) {
    results.textContent = "";
    status.textContent = req.add.length ? plural(plan.entries.length, "project", "projects") + " in the plan, " + plural(plan.findings.length, "finding", "findings") + "." : "No project added yet.";
    if (!req.add.length) {
      return;
    }
    if (plan.asks.length) {
      results.appendChild(el("h2", { id: "choose" }, "Yours to choose (" + plan.asks.length + ")"));
      var ul = el("ul", { "class": "list" });
      plan.asks.forEach(function (a) {
        var li = el("li", { "data-plan-ask": a.kind }, a.by ? el("span", {}, claimLink(a.by), " requires ") : "",
          a.kind === "setting" ? el("span", {}, "The setting ", code("[" + a.category + "] " + a.setting), " is asked different values; settings.cfg holds one, so no line is written until you choose: ") :
          a.kind === "capability" ? el("span", {}, "the capability ", code(a.capability), ", which several claims provide: ") :
            el("span", {}, "the project id ", code(a.project), ", which several sites publish: "));
        a.options.forEach(function (k, i) {
          var set = a.kind === "setting" && claim(k).project + "[" + a.category + "]" + a.setting;
          var b = el("button", { type: "button", "data-choose": set || tokenOf(k) }, "Use ", set ? el("span", {}, code(a.values[i]), " (" + label(k) + ")") : label(k));
          b.addEventListener("click", function () {
            if (set) {
              req.set.push(set);
              update();
            } else {
              addToken(tokenOf(k));
            }
          });
          li.appendChild(b);
          li.appendChild(document.createTextNode(" "));
        });
        li.appendChild(el("span", { "class": "note" }, "This index does not choose for you."));
        ul.appendChild(li);
      });
      results.appendChild(ul);
    }
    if (plan.findings.length) {
      results.appendChild(el("h2", { id: "findings" }, "Findings (" + plan.findings.length + ")"));
      var fl = el("ul", { "class": "list" });
      plan.findings.forEach(function (f) { fl.appendChild(findingItem(f, plan)); });
      results.appendChild(fl);
    }
    results.appendChild(el("h2", { id: "projects" }, "Projects in the plan (" + plan.entries.length + ")"));
    var pl = el("ol", { "class": "list plan-projects" });
    plan.entries.forEach(function (e) {
      var why = e.why.added ? el("span", {}, " — added by you") : el("span", {}, " — required by ", claimLink(e.why.by));
      var li = el("li", { "data-key": e.key }, claimLink(e.key), why, " ", el("span", { "class": "note" }, "folder ", code(e.folder)));
      if (e.why.added) {
        var rm = el("button", { type: "button", "class": "remove" }, "Remove");
        rm.addEventListener("click", function () { removeKey(e.key); });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(rm);
      }
      if (e.c.components.length) {
        li.appendChild(components(e));
      }
      pl.appendChild(li);
    });
    results.appendChild(pl);
    results.appendChild(output("openmw.cfg", "openmw.cfg lines", P.text(plan.cfg, label,
      ["# Planned by AsHyAmS from the publishers' declarations; nothing was installed or verified."]),
      "Add these to the end of your openmw.cfg (or check them with Your setup first). Each run of lines follows a comment naming the claim that declared it."));
    if (plan.base.length) {
      results.appendChild(output("base", "The base game's lines", P.text(plan.base, label),
        "Only for an openmw.cfg that does not list the base game yet (the launcher writes these): put them before the lines above. OpenMW stops at a content file listed twice."));
    }
    results.appendChild(output("settings.cfg", "settings.cfg values", plan.settings.length ? P.text(plan.settings, label) : "",
      plan.settings.length ? "Values the releases ask for, each after the project that asked. Apply them only if you agree." : "No release in this plan asks for a setting."));
    var dl = el("ul", { "class": "list downloads" });
    plan.downloads.forEach(function (d) {
      var a = d.artifact, li = el("li", { "data-key": d.key }, claimLink(d.key), ": ", pub(a.filename), " (" + size(a.size) + (a.platform ? ", for " + a.platform.os + " " + a.platform.arch : "") + "), extract into ", code(d.folder), ". ");
      a.sources.forEach(function (s, i) {
        li.appendChild(el("a", { href: s.url, rel: "nofollow" }, s.kind === "mirror" ? "mirror" + (s.name ? " " + s.name : "") : "publisher's download"));
        li.appendChild(document.createTextNode(i < a.sources.length - 1 ? ", " : ". "));
      });
      if (a.sha256) {
        li.appendChild(el("span", {}, "SHA-256 (the publisher's claim): ", el("code", {}, a.sha256)));
      }
      dl.appendChild(li);
    });
    results.appendChild(el("h2", { id: "downloads" }, "Downloads (" + plan.downloads.length + ")"));
    results.appendChild(el("p", { "class": "note" }, "Addresses and digests are the publishers'. This index downloads nothing: check each file yourself."));
    results.appendChild(dl);
    results.appendChild(output("sha256sums", "SHA256SUMS", P.text(plan.sums, label),
      "The publishers' stated digests, for sha256sum -c in the folder you downloaded to. A match says the file is the one the publisher described, nothing more."));
  }

  // Add: a claim token or a project id as written, else the one project the words match.
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var v = search.value.trim();
    if (!v) {
      return;
    }
    var at = v.indexOf("@"), id = at < 0 ? v : v.slice(0, at);
    gather({ add: [id] }).then(function () {
      if (claim(v.replace("@", "/")) || Object.prototype.hasOwnProperty.call(data.projects, v)) {
        search.value = "";
        matches.textContent = "";
        addToken(v);
        return null;
      }
      return offer().then(function (found) {
        if (found.length === 1) {
          search.value = "";
          matches.textContent = "";
          addToken(rowToken(found[0]));
        } else {
          status.textContent = found.length ? plural(found.length, "project matches", "projects match") + " “" + v + "”: choose one below." :
            "No project in this index matches “" + v + "”.";
        }
      });
    }).catch(function () {
      status.textContent = "This index's data could not be loaded, so “" + v + "” was not looked up.";
    });
  });
  ["openmw", "lua", "root"].forEach(function (k) {
    inputs[k].addEventListener("change", function () {
      req[k] = inputs[k].value.trim();
      update();
    });
  });
  baseBox.addEventListener("change", function () {
    req.base = baseBox.checked;
    update();
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
