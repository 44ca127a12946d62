// AsHyAmS setup check: reads a player's openmw.cfg in the browser (openmwcfg.js) and lists
// what the projects in this index declare about the content files it loads. The data is
// the setup check's data in parts, loaded as scripts of the site (shards.js) as the file
// names them: the name indexes beside the page (setup/data/), the claims from the plan
// page's parts (plan/data/); the page's CSP allows no connection, so nothing is
// fetched and nothing is sent. Every text
// from a publisher or from the file is inserted as text (textContent), never as HTML.
(function () {
  "use strict";
  var cfg = window.OpenMWCfg;
  var engine = window.AshyamsSetupCheck;
  var V = window.DreamWeaveVersion;
  var S = window.AshyamsShards;
  var fold = cfg.fold;
  var el = S.elements(cfg.bidi); // text from publishers and the file under the bidi rule
  // code shows a file name or constraint; dir="auto" isolates its direction.
  function code(s) {
    return el("code", { "data-pub": "", dir: "auto" }, s);
  }
  function join(nodes, sep) {
    return nodes.map(function (n, i) { return [i ? sep : "", n]; });
  }

  function claimLink(key) {
    var c = data.claims[key];
    return el("span", { "class": "who" }, el("a", { href: "../" + c.page }, el("bdi", {}, c.name)), c.release ? [" ", el("bdi", {}, c.release.version)] : "",
      " from ", el("bdi", {}, c.site_name));
  }
  // declared labels a finding as the named claim's declaration.
  function declared(key) {
    return el("span", { "class": "declared" }, "Declared by ", claimLink(key), ": ");
  }
  function fileRef(f) {
    return el("span", {}, code(f.name), " (line " + f.line + ")");
  }
  function targetsText(r) {
    return r.targets.length ? join(r.targets.map(claimLink), " or ") : el("bdi", {}, r.name || r.project || r.capability || "an unnamed target");
  }
  // lists are the check's findings as list items, by section.
  function lists(parsed, found) {
    var needs = found.needs.map(function (n) {
      var r = n.rel, files = [], dirs = [];
      if (n.kind === "missing-content") {
        return el("li", { "data-kind": n.kind, "data-key": n.key, "data-file": fold(n.need) }, declared(n.key),
          join(n.files.map(fileRef), ", "), n.files.length > 1 ? " need " : " needs ", code(n.need), ", which is not loaded.");
      }
      (n.kind === "missing-project" ? r.targets : []).forEach(function (t) {
        data.claims[t].content_files.forEach(function (d) { files.push(code(d.file)); });
        (data.claims[t].data_dirs || []).forEach(function (d) { dirs.push(code(d)); });
      });
      return el("li", r.project ? { "data-kind": n.kind, "data-key": n.key, "data-project": r.project } : { "data-kind": n.kind, "data-key": n.key },
        declared(n.key), "requires " + (r.capability && !r.project ? "the capability " : "the project "), targetsText(r), r.version ? [" ", code(r.version)] : "",
        n.kind === "missing-project" ? [files.length ? [". None of the content files it declares is loaded: ", join(files, ", ")] : "",
          dirs.length ? [(files.length ? "; and no data= line is" : ". No data= line is") + " one of the folders it declares: ", join(dirs, ", ")] : "", "."] :
          n.kind === "requires-unchecked" ? ", which declares no content file and no data folder of its own, so openmw.cfg cannot show whether it is installed (a data= line in the folder the plan page names for it would)." :
            ", which no project in this index publishes, so this page cannot tell whether you have it.",
        r.reason ? el("span", { "class": "reason" }, " Reason given: “", el("bdi", {}, r.reason), "”") : "");
    });
    var order = found.order.map(function (o) {
      return el("li", { "data-kind": "order", "data-key": o.key, "data-file": fold(o.need) }, declared(o.key),
        join(o.files.map(fileRef), ", "), o.files.length > 1 ? " need " : " needs ", fileRef(o.needAt),
        ", which is loaded after it. Content a file needs is loaded before it.");
    });
    var conflicts = found.conflicts.map(function (x) {
      var both = engine.claimFilesOf(found, x.key).concat(engine.claimFilesOf(found, x.other));
      return el("li", { "data-kind": "conflict", "data-key": x.key, "data-other": x.other }, declared(x.key),
        "conflicts with ", claimLink(x.other),
        x.rel.reason ? el("span", {}, " (“", el("bdi", {}, x.rel.reason), "”)") : "",
        ". Both are loaded: ", join(both.map(fileRef), ", "), ".");
    });
    var runtime = found.runtime.map(function (x) {
      if (x.kind === "too-old") {
        return el("li", { "data-kind": "too-old", "data-file": fold(x.file.name) }, fileRef(x.file), x.what === "config" ?
          ": config= is read from OpenMW " + x.need + " on; " + found.version + " ignores it, so the openmw.cfg in that folder is not read." :
          ": Lua scripts (.omwscripts) load from OpenMW " + x.need + " on; " + found.version + " stops at this line.");
      }
      return el("li", { "data-kind": x.kind, "data-key": x.key }, declared(x.key), "runs on OpenMW ", code(x.constraint),
        x.kind === "runtime" ? "; " + found.version + " is outside it." : ", which does not read as a version constraint, so it was not compared.");
    });
    var status = found.status.map(function (x) {
      var c = data.claims[x.key], r = c.release;
      return el("li", { "data-kind": x.kind, "data-key": x.key }, declared(x.key), x.kind === "project-status" ? "the project's status is " + c.project_status + "." :
        [r.current ? "its current release " : "no release is current; the newest, ", el("bdi", {}, r.version), ", is " + r.status,
          r.reason ? [": “", el("bdi", {}, r.reason), "”"] : "", r.replacement ? [". The publisher names ", el("bdi", {}, r.replacement), " instead"] : "", "."]);
    });
    var matched = found.matched.map(function (m) {
      var claims = m.keys.map(function (key) {
        var c = data.claims[key];
        return el("span", { "data-key": key }, claimLink(key), c.release ? " (" + c.release.channel + (c.release.current ? "" : ", not current") + ")" : "", " ",
          el("span", { "class": "badge" + (c.stale ? " stale" : "") }, c.stale ? "cached: " + c.health : c.health));
      });
      return el("li", { "data-kind": "matched", "data-file": fold(m.file.name) }, fileRef(m.file), ": declared by ", join(claims, "; and by "),
        m.keys.length > 1 ? el("span", { "class": "note" }, " Two or more claims declare this file; none is preferred.") : "");
    });
    var base = found.base.map(function (u) {
      return el("li", { "data-kind": "base", "data-file": fold(u.file.name) }, fileRef(u.file), ": a file of the base game (Morrowind and its expansions).");
    });
    var folders = [];
    function whose(keys, one, many) {
      return join(keys.map(function (k) { return el("span", { "data-key": k }, claimLink(k)); }), keys.length > 1 ? many : one);
    }
    [["archive", found.archives, "an archive (fallback-archive=)"], ["groundcover", found.groundcover, "groundcover"]].forEach(function (x) {
      x[1].forEach(function (a) {
        var at = { "data-kind": x[0] + (a.keys.length ? "" : "-unknown"), "data-file": fold(a.name) };
        if (a.keys.length) {
          at["data-keys"] = a.keys.join(" ");
        }
        (a.base ? base : folders).push(a.base ? el("li", { "data-kind": "base-archive", "data-file": fold(a.name) }, fileRef(a), ": an archive of the base game (fallback-archive=).") :
          el("li", at, fileRef(a), ": " + x[2], a.keys.length ? [" declared by ", whose(a.keys, "", " and by "), "."] : " no project in this index declares."));
      });
    });
    found.folders.forEach(function (f) {
      var what = f.what + "=";
      folders.push(el("li", { "data-kind": f.what + (f.how ? "-" + f.how : "-unknown"), "data-line": String(f.line), "data-keys": f.keys.join(" ") },
        el("span", {}, code(f.value), " (line " + f.line + ")"),
        f.how === "folder" ? el("span", {}, ": the folder the plan page names for ", whose(f.keys, "", ""), " (" + what + ").") :
          f.how === "dir" ? el("span", {}, f.keys.length > 1 ? ": ends like a folder each of these declares, so it may be any of them: " : ": ends like a folder declared by ",
            whose(f.keys, "", "; "), " (" + what + "; matched by its folder names only).") :
            f.how === "base" ? ": the base game's Data Files (" + what + ")." : ": a folder (" + what + ") no project in this index declares or names."));
    });
    var unknown = found.unknown.map(function (u) {
      return el("li", { "data-kind": "unknown", "data-file": fold(u.file.name) }, fileRef(u.file), ": not in this index.");
    });
    var stops = found.duplicates.map(function (d) {
      return el("li", { "data-kind": "duplicate" }, fileRef(d.file), " is listed again (first at line " + d.first.line +
        "): OpenMW stops here, with “Content file specified more than once”, and starts with none of these files.");
    });
    var notes = parsed.data.concat(parsed.config).filter(function (d) { return d.cut !== undefined; }).map(function (d) {
      return el("li", { "data-kind": "cut", "data-line": String(d.line) }, "Line " + d.line + ", ", code(d.cut),
        ": a path without quotes stops at its first space, so OpenMW reads ", code(d.value), ". Put the path in double quotes.");
    }).concat(parsed.replaced.map(function (r) {
      return el("li", { "data-kind": "replace" }, "Line " + r.line + ", ", code("replace=" + r.key),
        r.dropped ? ": the " + r.dropped + " " + r.key + " values above it are not used." : ": nothing above it to drop. In OpenMW it also drops the values of configuration files loaded before this one.");
    }), parsed.config.map(function (c) {
      return el("li", { "data-kind": "config" }, "Line " + c.line + " names another configuration folder, ", code(c.value), "; its openmw.cfg is not read here.");
    }));
    if (parsed.ignored.length) {
      notes.push(el("li", { "data-kind": "ignored" }, parsed.ignored.length + (parsed.ignored.length > 1 ? " lines are not settings and were" : " line is not settings and was") +
        " skipped (" + (parsed.ignored.length > 1 ? "the first is " : "") + "line " + parsed.ignored[0].line + ")."));
    }
    if (parsed.bom) {
      notes.push(el("li", { "data-kind": "bom" }, "The file starts with a byte-order mark (U+FEFF). OpenMW reads it as part of line 1",
        parsed.lost ? [", so it does not use ", code(parsed.lost.text), "; save the file without the mark."] : ", which holds no setting."));
    }
    return [stops, needs, order, conflicts, runtime, status, matched, base, folders, unknown, notes];
  }

  // render shows the check: the summary, then each section that has findings.
  function render(parsed, found, out) {
    var l = lists(parsed, found);
    out.textContent = "";
    out.appendChild(el("p", { id: "setup-summary", "class": "status-line" },
      plural(parsed.content.length, "content file", "content files") + " read: " + found.matched.length + " declared by projects in this index, " +
      (found.base.length ? found.base.length + " of the base game, " : "") + found.unknown.length + " not in this index."));
    if (found.version === null) {
      out.appendChild(el("p", { "class": "banner", "data-kind": "bad-version" }, "The OpenMW version you gave does not read as a version (numbers such as 0.49 or 0.49.0), so no runtime was compared."));
    }
    [
      ["stops", "OpenMW stops here"],
      ["needs", "Needed and not loaded", "What the projects of your loaded files declare they need, and your content= lines do not load."],
      ["order", "Load order"],
      ["conflicts", "Declared conflicts"],
      ["runtime", "OpenMW version"],
      ["status", "Yanked, deprecated or archived"],
      ["matched", "Content files from this index", "Each file, and the projects whose release declares a file of that name, with how current this index's copy of each is."],
      ["base", "The base game and archives", "Files the base game ships, and the archives your fallback-archive= lines name."],
      ["folders", "Folders, groundcover and archives", "Which project each data=, config=, groundcover= and fallback-archive= line belongs to: by the folder name the plan page gives a project, by the end of a folder a release declares, or by a declared file name."],
      ["unknown", "Not in this index", "No project this index reads declares these files. That says nothing about them."],
      ["notes", "About the file"]
    ].forEach(function (x, i) {
      if (l[i].length) {
        out.appendChild(el("h2", { id: x[0] }, x[1] + " (" + l[i].length + ")"));
        if (x[2]) {
          out.appendChild(el("p", { "class": "note" }, x[2]));
        }
        out.appendChild(el("ul", { "class": "list" }, l[i]));
      }
    });
  }
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }
  // matchConstraint reads a runtimes.openmw constraint and a version under the numeric scheme
  // (version.js): true, false, or null when either does not parse.
  function matchConstraint(s, v) {
    return V.matches(s, V.trim(v), "numeric");
  }
  window.AshyamsSetup = { bidiText: cfg.bidi, matchConstraint: matchConstraint }; // for the tests

  var form = document.getElementById("setup-form");
  var dataEl = document.getElementById("setup-data");
  if (!form || !dataEl) {
    return;
  }
  // The page carries how its data is cut (site/shards.go); the parts are loaded as the
  // file names them and kept, so a second check loads only what it adds.
  var meta = JSON.parse(dataEl.textContent);
  var parts = S.loader("data/");
  var claimParts = S.loader("../plan/data/"); // the claims, in the plan page's parts
  var data = { claims: Object.create(null) };
  engine.indexes.forEach(function (ix) { data[ix] = Object.create(null); });
  var runs = 0;

  function loadClaims(keys) {
    var want = new Set();
    keys.forEach(function (k) { want.add(S.claimPart(k, meta.shards.claims)); });
    return claimParts.load(Array.from(want)).then(function (docs) {
      docs.forEach(function (d) { S.merge(data.claims, engine.setupView(S.claimsOf(d))); });
    });
  }
  // gather loads every part the check of parsed reads: the name indexes of its names, the
  // claims they and its folders name, and the claims those claims' relationships name (the
  // check reads the relationships of no other claim).
  function gather(parsed) {
    var names = engine.lookups(parsed), want = new Set(), keys, ids;
    names.forEach(function (k) { want.add(S.namePart(k, meta.shards.names)); });
    return parts.load(Array.from(want)).then(function (docs) {
      docs.forEach(function (d) {
        engine.indexes.forEach(function (ix) { S.merge(data[ix], d[ix]); });
      });
      keys = new Set(engine.keysOf(data, names));
      ids = new Set(engine.folderIDs(parsed));
      return loadClaims(Array.from(keys).concat(Array.from(ids)));
    }).then(function () {
      var targets = [];
      Object.keys(data.claims).forEach(function (k) {
        if (keys.has(k) || ids.has(data.claims[k].project.slice(0, 8))) {
          data.claims[k].relationships.forEach(function (r) { targets.push.apply(targets, r.targets); });
        }
      });
      return loadClaims(targets);
    });
  }
  var text = document.getElementById("cfg-text");
  var fileIn = document.getElementById("cfg-file");
  var ver = document.getElementById("cfg-openmw");
  var share = document.getElementById("cfg-share");
  var link = document.getElementById("cfg-link");
  var status = document.getElementById("setup-status");
  var results = document.getElementById("setup-results");
  var maxBytes = 4 << 20;
  document.getElementById("setup-needs-script").hidden = true;
  form.hidden = false;

  function say(msg, bad) {
    status.textContent = msg;
    status.className = bad ? "banner" : "";
  }
  // run checks the text in the box and shows the findings, or says why it cannot.
  function run() {
    var parsed = cfg.parse(text.value);
    results.textContent = "";
    if (parsed.binary) {
      say("This is not an openmw.cfg: it holds binary data, and an openmw.cfg is a text file.", true);
      return;
    }
    if (!parsed.sawFiles) {
      say("This does not look like an openmw.cfg: it has no content= or data= lines. Your openmw.cfg is in OpenMW's configuration folder; the launcher writes it.", true);
      return;
    }
    var run = ++runs;
    say("Reading this index's data…");
    gather(parsed).then(function () {
      if (run !== runs) {
        return; // a later check is under way
      }
      say("");
      render(parsed, engine.check(data, parsed, V.trim(ver.value)), results);
      results.setAttribute("data-checked", String(run));
    }, function (e) {
      if (run === runs) {
        say("This index's data for the check could not be loaded (" + e.message + "), so nothing was checked. Reload the page to try again.", true);
      }
    });
  }
  function load(file) {
    if (!file) {
      return;
    }
    if (file.size > maxBytes) {
      say("This file is " + file.size + " bytes; an openmw.cfg is far smaller, so it was not read.", true);
      return;
    }
    file.arrayBuffer().then(function (buf) {
      text.value = new TextDecoder("utf-8").decode(buf);
      run();
    }, function () {
      say("The file could not be read.", true);
    });
  }
  // The share link holds the content=, groundcover= and fallback-archive= lines as read
  // (after replace=), each on the line it was on (the others left blank, so findings keep their line numbers),
  // and the version: the check's input but the folders, which may name the player's own
  // folders (a user name), and other settings.
  function shareLink() {
    var parsed = cfg.parse(text.value);
    var lines = [];
    ["content", "fallback-archive", "groundcover"].forEach(function (k) {
      parsed[k].forEach(function (c) { lines[c.line - 1] = k + "=" + c.value; });
    });
    for (var i = 0; i < lines.length; i++) {
      lines[i] = lines[i] || "";
    }
    lines = lines.join("\n") + "\n";
    var hash = "#cfg=" + engine.encode(lines) + (V.trim(ver.value) ? "&openmw=" + encodeURIComponent(V.trim(ver.value)) : "");
    return location.href.split("#")[0] + hash;
  }
  function fromHash() {
    var p = engine.params(location.hash);
    if (!p.has("cfg")) {
      return;
    }
    var t = engine.decode(p.get("cfg"));
    if (t === null) {
      say("The link's configuration does not decode; ask for the link again.", true);
      return;
    }
    text.value = t;
    try {
      ver.value = p.has("openmw") ? decodeURIComponent(p.get("openmw")) : "";
    } catch (e) {
      ver.value = "";
    }
    run();
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    run();
  });
  fileIn.addEventListener("change", function () {
    load(fileIn.files[0]);
  });
  ["dragover", "dragleave", "drop"].forEach(function (k) {
    form.addEventListener(k, function (e) {
      e.preventDefault();
      form.classList.toggle("drop", k === "dragover");
      if (k === "drop") {
        load(e.dataTransfer && e.dataTransfer.files[0]);
      }
    });
  });
  share.addEventListener("click", function () {
    var url = shareLink();
    link.value = url;
    link.hidden = false;
    link.parentNode.hidden = false;
    try {
      history.replaceState(null, "", url);
    } catch (e) {
      // Some file:// contexts refuse it; the box still holds the link.
    }
    link.select();
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
