// The plan page (plan/index.html): reads the plan from the address's fragment, loads the
// data parts it names (plan/data/, scripts of the site: shards.js), runs the planner
// (plan.js) over them and draws the plan. The page's CSP allows no connection: nothing is
// fetched or sent. Every text from a publisher is inserted as text, never as HTML.
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
  function $(id) {
    return document.getElementById(id);
  }
  var search = $("plan-search"), matches = $("plan-matches"), status = $("plan-status"), results = $("plan-results");
  var inputs = { openmw: $("plan-openmw"), lua: $("plan-lua"), root: $("plan-root"), base: $("plan-base"), platform: $("plan-platform") };
  var req = P.parseFragment(""), last = null;
  $("plan-needs-script").hidden = true;
  form.hidden = false;

  var bidi = window.OpenMWCfg.bidi, el = S.elements();
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
    return !c ? code(key) : el("span", { "class": "who" }, el("a", { href: "../" + c.page }, pub(c.name)), " ",
      c.release ? pub(c.release.version) : "", " from ", pub(c.site_name));
  }
  function tokenOf(key) {
    var c = claim(key);
    return c.project + "@" + c.site;
  }
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }
  function join(nodes) {
    return nodes.map(function (n, i) { return [i ? ", " : "", n]; });
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
        var chunks = new Set();
        found.forEach(function (i) {
          if (!f.rows.has(i)) {
            chunks.add("r" + Math.floor(i / f.chunk));
          }
        });
        return finder.load(Array.from(chunks)).then(function (parts) {
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
    return (F.words(q).length ? lookup(q) : Promise.resolve([])).then(function (found) {
      if (search.value !== q) {
        return found; // the player typed on: the newer offers draw
      }
      matches.textContent = "";
      matches.setAttribute("data-query", q);
      found.forEach(function (row) {
        var b = el("button", { type: "button", "data-add": rowToken(row) }, "Add ", pub(row[1]), " — ", pub(row[3]));
        b.addEventListener("click", function () { addToken(rowToken(row)); });
        matches.appendChild(el("li", {}, b));
      });
      if (!found.length && F.words(q).length) {
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
    ["openmw", "lua", "root"].forEach(function (k) { inputs[k].value = req[k]; });
    inputs.base.checked = req.base;
    refresh();
  }
  // addToken adds a claim token or a project id, emptying the project box.
  function addToken(t) {
    search.value = matches.textContent = "";
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
      if (sel.has(comp.id) !== e.initial.has(comp.id)) {
        req[sel.has(comp.id) ? "on" : "off"].push(p + comp.id);
      }
    });
    update();
  }

  // components shows a release's components as controls: a radio group for a one-only group
  // (with "none" when at most one), checkboxes otherwise; a control is disabled when the
  // change it makes would not be a valid selection.
  function components(e) {
    var c = e.c, box = el("div", { "class": "components" }), groups = new Map(), done = new Set(), byGroup = new Map();
    c.groups.forEach(function (g) { groups.set(g.id, g); });
    c.components.forEach(function (x) {
      if (!byGroup.has(x.group)) {
        byGroup.set(x.group, []);
      }
      byGroup.get(x.group).push(x);
    });
    function control(id, text, checked, disabled, change, type, name) {
      var input = el("input", { type: type, id: id, name: name });
      input.checked = checked;
      input.disabled = disabled;
      input.addEventListener("change", change);
      return el("div", { "class": "component" }, input, " ", el("label", { "for": id, "class": "inline" }, text));
    }
    function comp(m, type, name) {
      var on = e.sel.has(m.id), next = P.toggle(c, e.sel, m.id, !on);
      var d = control("comp-" + c.project + "-" + m.id, [pub(m.name), m.required ? " (required)" : ""], on,
        m.required || !next && !(type === "radio" && on), function () {
          var s = P.toggle(c, e.sel, m.id, type === "radio" || d.firstChild.checked);
          if (s) {
            setSelection(e, s);
          } else {
            render(P.compute(data, req));
          }
        }, type, name);
      d.firstChild.setAttribute("data-component", m.id);
      return d;
    }
    c.components.forEach(function (m) {
      var g = groups.get(m.group);
      if (!g) {
        box.appendChild(comp(m, "checkbox", ""));
      } else if (!done.has(g.id)) {
        done.add(g.id);
        var one = g.select === "exactly-one" || g.select === "at-most-one", name = "group-" + c.project + "-" + g.id;
        var members = byGroup.get(g.id);
        var fs = el("fieldset", { "data-group": g.id, "data-select": g.select },
          el("legend", {}, pub(g.name), " (" + { "exactly-one": "choose one", "at-most-one": "one or none", "at-least-one": "one or more", "any": "any" }[g.select] + ")"),
          members.map(function (x) { return comp(x, one ? "radio" : "checkbox", one ? name : ""); }));
        if (g.select === "at-most-one") {
          var none = !members.some(function (x) { return e.sel.has(x.id); });
          var cleared = members.reduce(function (s, x) { return s && (s.has(x.id) ? P.toggle(c, s, x.id, false) : s); }, e.sel);
          fs.appendChild(control(name + "-none", "None", none, !cleared && !none, function () {
            if (cleared) {
              setSelection(e, cleared);
            }
          }, "radio", name));
        }
        box.appendChild(fs);
      }
    });
    return box;
  }

  // relText names what relationship r points at: a project, a capability, or neither.
  function relText(r) {
    return [r.project ? "the project " : r.capability ? "the capability " : "", pub(r.name || r.project || r.capability || "an unnamed target"),
      r.version ? [" ", code(r.version)] : ""];
  }
  function reason(r) {
    return r.reason ? [" (“", pub(r.reason), "”)"] : "";
  }
  var unchecked = ", which does not read as a constraint, so it was not compared.";
  function findingItem(f, plan) {
    var t = {
      "not-found": function () { return ["No listed claim in this index is ", code(f.token), ", so it was not added."]; },
      "two-claims": function () { return ["the plan also names ", claimLink(f.other), ", another site's claim of the same project id; a plan holds one claim of a project, the first named."]; },
      "missing": function () { return ["requires ", relText(f.rel), ", which no project in this index publishes; the plan cannot include it."]; },
      "version": function () { return ["requires ", relText(f.rel), "; ", claimLink(f.other), " is the release in this plan, outside it."]; },
      "version-unchecked": function () { return ["requires ", relText(f.rel), ", which does not read as a constraint on ", claimLink(f.other), ", so it was not compared."]; },
      "conflict": function () { return ["conflicts with ", claimLink(f.other), ", which is in this plan", reason(f.rel), "."]; },
      "recommends": function () { return ["recommends ", relText(f.rel), reason(f.rel), "; not added: a recommendation is the player's choice."]; },
      "platform": function () { return "has no build for " + platName(f.platform) + ", the platform you chose, so none of its builds is listed."; },
      "runtime": function () { return ["runs on OpenMW ", code(f.constraint), "; your OpenMW, " + f.version + ", is outside it."]; },
      "runtime-unchecked": function () { return ["runs on OpenMW ", code(f.constraint), unchecked]; },
      "lua": function () { return ["needs Lua API ", code(f.constraint), "; your revision, " + f.version + ", is outside it."]; },
      "lua-unchecked": function () { return ["needs Lua API ", code(f.constraint), unchecked]; },
      "bad-version": function () { return ["The " + (f.what === "lua" ? "Lua API revision" : "OpenMW version") + " you gave, ", code(f.text), ", does not read as a version (numbers such as 0.49), so it was not compared."]; },
      "release-status": function () { return "the release in this plan is " + f.status + "."; },
      "no-openmw": function () { return "the release does not say how OpenMW loads it (no openmw extension), so the plan writes no lines for it; its downloads are listed."; },
      "cycle": function () { return ["These projects require each other in a cycle, so no order puts each after what it requires: ", join(f.keys.map(claimLink)), "."]; },
      "selection-refused": function () { return ["the link asks to turn component ", code(f.component), f.on ? " on" : " off", ", which would not be a valid selection, so it was not."]; },
      "no-valid-selection": function () { return "no valid selection of its components could be made from what it offers, so the plan writes no lines for it."; },
      "same-file": function () { return ["declares ", code(f.file), ", which ", claimLink(f.other), " declares too; it is loaded once, as the first declared it."]; },
      "base-file": function () { return ["declares ", code(f.file), ", a file of the base game; it is loaded once, as the base game's."]; },
      "needs-content": function () { return [code(f.file), " needs ", code(f.need), ", which no project in this plan declares and the base game does not ship."]; },
      "needs-base": function () { return "needs the base game's files, which this plan leaves out."; },
      "content-cycle": function () { return ["The content files ", join(f.files.map(code)), " need each other in a cycle; they are listed in the order declared."]; },
      "refused": function () {
        var then = f.field === "root" ? "the plan uses " + plan.root + " instead." : /^settings/.test(f.field) ? "that setting is not written." :
          /sha256|filename/.test(f.field) ? "its SHA256SUMS line is not written." : "the plan writes no lines for it.";
        return [f.key ? ["its ", code(f.field), " "] : "The mods folder you gave, ", code(f.value), (f.key ? " " : ", ") + f.reason + ", so " + then];
      },
      "too-old": function () {
        return ["writes ", code(f.line), f.what === "config" ? ", which OpenMW reads from " + f.need + " on; your OpenMW, " + req.openmw + ", ignores it." :
          ", a Lua script, which OpenMW loads from " + f.need + " on; your OpenMW, " + req.openmw + ", stops at it."];
      },
      "link": function () { return ["The link's ", code(f.field), f.value ? [" value ", code(f.value)] : "", " " + f.reason + ", so it was left out."]; }
    }[f.kind];
    return el("li", f.key ? { "data-plan-finding": f.kind, "data-field": f.field || "", "data-key": f.key } : { "data-plan-finding": f.kind, "data-field": f.field || "" },
      f.key ? el("span", { "class": "declared" }, "Declared by ", claimLink(f.key), ": ") : "", t ? t() : f.kind);
  }
  // output is an output block: its heading, a note, the text and a button copying it.
  function output(name, title, text, note) {
    var id = "out-" + name.replace(".", "-");
    return el("section", { "aria-labelledby": id }, el("h2", { id: id }, title), note ? el("p", { "class": "note" }, note) : "",
      el("pre", { "data-plan-output": name, id: id + "-text", tabindex: "0" }, text),
      el("button", { type: "button", "data-copy": id + "-text", "aria-describedby": id }, "Copy"));
  }
  function size(n) {
    return n >= 1048576 ? (n / 1048576).toFixed(1) + " MiB" : n >= 1024 ? (n / 1024).toFixed(1) + " KiB" : n + " bytes";
  }
  // platName words a platform token (plan.js platformOf) as the claim pages do.
  function platName(f) {
    var p = f.split("-");
    return p[0] + " " + p[1] + (p[2] ? " (" + p.slice(2).join("-") + ")" : "");
  }
  // link is this plan's link: the page's own address when served, the index's published
  // one when the page is a file.
  function link() {
    return (/^https?:$/.test(location.protocol) ? location.origin + location.pathname : meta.index + "plan/") + P.fragment(req);
  }
  // shq quotes s for a shell in single quotes, a quote inside escaped as a POSIX shell reads
  // it or, for a Windows folder, as PowerShell does (which also ends a string at a
  // typographic single quote, so those are doubled too).
  function shq(s, win) {
    var out = ["'"];
    for (var i = 0; i < s.length; i++) {
      var c = s.charAt(i);
      out.push(c === "'" ? (win ? "''" : "'\\''") : win && c >= "\u2018" && c <= "\u201b" ? c + c : c);
    }
    return out.join("") + "'";
  }
  // platforms offers the platforms the plan's builds are for, and the one chosen.
  function platforms(plan) {
    var sel = inputs.platform, fs = new Set(req.platform ? [req.platform] : []);
    plan.entries.forEach(function (e) {
      e.c.artifacts.forEach(function (a) {
        var f = P.platformOf(a);
        if (f) {
          fs.add(f);
        }
      });
    });
    fs = Array.from(fs);
    $("plan-platform-box").hidden = !fs.length;
    sel.length = 1;
    fs.forEach(function (f) { sel.add(new Option(platName(f), f)); });
    sel.value = req.platform;
  }

  function render(plan) {
    last = plan;
    results.textContent = "";
    status.textContent = req.add.length ? plural(plan.entries.length, "project", "projects") + " in the plan, " + plural(plan.findings.length, "finding", "findings") + "." : "No project added yet.";
    $("plan-install").hidden = !req.add.length;
    platforms(plan);
    if (!req.add.length) {
      return;
    }
    var win = plan.root.charAt(0) !== "/";
    $("out-command-text").textContent = "ashyams install " + shq(link().split("'").join("%27"), win) + " --mods " + shq(plan.root, win) + "\n";
    function list(id, title, items) {
      if (items.length) {
        results.appendChild(el("h2", { id: id }, title + " (" + items.length + ")"));
        results.appendChild(el("ul", { "class": "list" }, items));
      }
    }
    list("choose", "Yours to choose", plan.asks.map(function (a) {
      return el("li", { "data-plan-ask": a.kind }, a.by ? [claimLink(a.by), " requires "] : "",
        a.kind === "setting" ? ["The setting ", code("[" + a.category + "] " + a.setting), " is asked different values; settings.cfg holds one, so no line is written until you choose: "] :
        a.kind === "capability" ? ["the capability ", code(a.capability), ", which several claims provide: "] : ["the project id ", code(a.project), ", which several sites publish: "],
        a.options.map(function (k, i) {
          var set = a.kind === "setting" && claim(k).project + "[" + a.category + "]" + a.setting;
          var b = el("button", { type: "button", "data-choose": set || tokenOf(k) }, "Use ", set ? [code(a.values[i]), " (" + label(k) + ")"] : label(k));
          b.addEventListener("click", function () {
            if (set) {
              req.set.push(set);
              update();
            } else {
              addToken(tokenOf(k));
            }
          });
          return [b, " "];
        }));
    }));
    list("findings", "Findings", plan.findings.map(function (f) { return findingItem(f, plan); }));
    var conflicts = [], planned = new Set(plan.entries.map(function (e) { return e.key; }));
    plan.entries.forEach(function (e) {
      e.c.relationships.forEach(function (r) {
        var here = r.targets.filter(function (t) { return t !== e.key && planned.has(t); });
        if (r.kind === "conflicts") {
          conflicts.push(el("li", { "data-plan-conflict": e.key }, claimLink(e.key), " conflicts with ", relText(r),
            here.length ? [": ", join(here.map(claimLink)), ", in this plan"] : "", reason(r), "."));
        }
      });
    });
    list("conflicts", "Conflicts the publishers declare", conflicts);
    results.appendChild(el("h2", { id: "projects" }, "Projects in the plan (" + plan.entries.length + ")"));
    results.appendChild(el("ol", { "class": "list plan-projects" }, plan.entries.map(function (e) {
      var rm = e.why.added && el("button", { type: "button", "class": "remove" }, "Remove");
      if (rm) {
        rm.addEventListener("click", function () { removeKey(e.key); });
      }
      return el("li", { "data-key": e.key }, claimLink(e.key), e.why.added ? " — added by you" : [" — required by ", claimLink(e.why.by)],
        " ", el("span", { "class": "note" }, "folder ", code(e.folder)), rm ? [" ", rm] : "", e.c.components.length ? components(e) : "");
    })));
    results.appendChild(output("openmw.cfg", "openmw.cfg lines", P.text(plan.cfg, label,
      ["# Planned by AsHyAmS from the publishers' declarations; nothing was installed or verified."]),
      "Add these at the end of your openmw.cfg (or check them with Your setup first). A comment names the claim each run of lines comes from."));
    if (plan.base.length) {
      results.appendChild(output("base", "The base game's lines", P.text(plan.base, label),
        "Only for an openmw.cfg that does not list the base game yet (the launcher writes these): put them before the lines above. OpenMW stops at a content file listed twice."));
    }
    results.appendChild(output("settings.cfg", "settings.cfg values", plan.settings.length ? P.text(plan.settings, label) : "",
      plan.settings.length ? "Values the releases ask for, each after the project that asked. Apply them only if you agree." : "No release in this plan asks for a setting."));
    results.appendChild(el("h2", { id: "downloads" }, "Downloads (" + plan.downloads.length + ")"));
    results.appendChild(el("p", { "class": "note" }, "Addresses and digests are the publishers'. This index downloads nothing: check each file yourself."));
    results.appendChild(el("ul", { "class": "downloads" }, plan.downloads.map(function (d) {
      var a = d.artifact, c = claim(d.key), f = P.platformOf(a);
      return el("li", { "data-key": d.key }, el("span", {}, el("a", { href: "../" + c.page }, pub(c.name)), " ", pub(c.release.version)),
        el("span", { "class": "file" }, pub(a.filename)), el("span", { "class": "muted" }, size(a.size) + (f ? ", for " + platName(f) : "")),
        el("span", { "class": "sources" }, a.sources.map(function (s) {
          return el("a", { "class": "download", href: s.url, rel: "nofollow" }, "Download from the " + (s.kind === "mirror" ? "mirror" : "publisher"), s.name ? [" ", pub(s.name)] : "");
        })));
    })));
    results.appendChild(output("sha256sums", "SHA256SUMS", P.text(plan.sums, label),
      ["The publishers' stated digests, for ", el("code", {}, "sha256sum -c"), " in the folder you downloaded to. A match says the file is the one the publisher described, nothing more."]));
  }

  // Add: a claim token or a project id as written, else the one project the words match.
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var v = search.value.trim(), at = v.indexOf("@");
    if (!v) {
      return;
    }
    gather({ add: [at < 0 ? v : v.slice(0, at)] }).then(function () {
      if (claim(v.replace("@", "/")) || Object.prototype.hasOwnProperty.call(data.projects, v)) {
        return addToken(v);
      }
      return offer().then(function (found) {
        if (found.length === 1) {
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
  Object.keys(inputs).forEach(function (k) {
    inputs[k].addEventListener("change", function () {
      req[k] = k === "base" ? inputs[k].checked : inputs[k].value.trim();
      update();
    });
  });
  // A copy button copies its block's text through the Clipboard API, or else selects it and
  // asks the browser to copy it; the text stays selected when neither works.
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-copy]"), pre = b && $(b.getAttribute("data-copy")), c = navigator.clipboard;
    function said(t) {
      b.textContent = t;
      setTimeout(function () { b.textContent = "Copy"; }, 4000);
    }
    function select() {
      var r = document.createRange(), sel = getSelection(), ok = false;
      r.selectNodeContents(pre);
      sel.removeAllRanges();
      sel.addRange(r);
      try {
        ok = document.execCommand("copy");
      } catch (e) {
        // Selected: the player copies it.
      }
      said(ok ? "Copied" : "Selected: copy it now");
    }
    if (pre) {
      (c && c.writeText ? c.writeText(pre.textContent) : Promise.reject()).then(function () { said("Copied"); }, select);
    }
  });
  // Save plan file: the plan as a plan file (schemas/ashyams-plan-1), its link and the
  // claims it plans, made in the page and saved as a download.
  $("plan-save").addEventListener("click", function () {
    var doc = { format: "ashyams-plan-1", link: link(), planned: last.entries.map(function (e) {
      return { project: e.c.project, site: e.c.site, version: e.c.release.version };
    }) };
    var a = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" })), download: "plan.ashyams.json" });
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
