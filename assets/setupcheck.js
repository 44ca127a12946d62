// The setup check's engine: compares an openmw.cfg (openmwcfg.js parse) with what the
// projects declare (the setup data, site/setup.go) and returns the findings; and the share
// link's fragment and base64url text. It touches neither page nor network (node tests it).
// Names are keys of Maps, so "__proto__" is a name like any other.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api(require("./version.js"), require("./openmwcfg.js"));
  } else {
    window.AshyamsSetupCheck = api(window.DreamWeaveVersion, window.OpenMWCfg);
  }
})(function (V, cfg) {
  "use strict";
  var fold = cfg.fold;

  // The base game's files (folded): no project publishes them; requires_content names them.
  var baseContent = new Map([["morrowind.esm", "Morrowind.esm"], ["tribunal.esm", "Tribunal.esm"], ["bloodmoon.esm", "Bloodmoon.esm"]]);
  var baseArchives = new Map([["morrowind.bsa", "Morrowind.bsa"], ["tribunal.bsa", "Tribunal.bsa"], ["bloodmoon.bsa", "Bloodmoon.bsa"]]);

  // own is obj's own property k, or undefined (JSON.parse makes "__proto__" an own one).
  function own(obj, k) {
    return obj && Object.prototype.hasOwnProperty.call(obj, k) ? obj[k] : undefined;
  }

  // prefixes maps each claim's project id's first 8 characters to its keys: a plan page
  // folder ends with them (OpenMWCfg.folderName).
  function prefixes(data) {
    var m = new Map();
    Object.keys(data.claims).forEach(function (key) {
      var p = data.claims[key].project.slice(0, 8);
      if (!m.has(p)) {
        m.set(p, []);
      }
      m.get(p).push(key);
    });
    return m;
  }

  // The indexes of the data a name is looked up in.
  var indexes = ["content_files", "groundcover_files", "fallback_archives", "data_dirs"];

  // lookups lists the folded names to look up, each once: content, groundcover and archive
  // names, and each data= and config= line's last folder name.
  function lookups(parsed) {
    var seen = new Set(), out = [];
    function add(k) {
      if (!seen.has(k)) {
        seen.add(k);
        out.push(k);
      }
    }
    parsed.content.concat(parsed.groundcover, parsed["fallback-archive"]).forEach(function (e) { add(fold(e.value)); });
    parsed.data.concat(parsed.config).forEach(function (e) {
      var parts = cfg.dirParts(e.value);
      if (parts.length) {
        add(fold(parts[parts.length - 1]));
      }
    });
    return out;
  }

  // keysOf lists the claim keys data's indexes give the folded names, each once.
  function keysOf(data, names) {
    var seen = new Set(), out = [];
    names.forEach(function (k) {
      indexes.forEach(function (ix) {
        (own(data[ix], k) || []).forEach(function (key) {
          if (!seen.has(key)) {
            seen.add(key);
            out.push(key);
          }
        });
      });
    });
    return out;
  }

  // folderIDs lists the folded 8-hex-character ends of the folder names of data= and config=
  // lines, each once: the claims a plan page folder may be.
  function folderIDs(parsed) {
    var seen = new Set(), out = [];
    parsed.data.concat(parsed.config).forEach(function (e) {
      cfg.dirParts(e.value).forEach(function (seg) {
        var tail = seg.length >= 8 ? fold(seg.slice(-8)) : "";
        for (var i = 0; i < tail.length; i++) {
          var c = tail.charCodeAt(i);
          if (!(c >= 48 && c <= 57 || c >= 97 && c <= 102)) {
            return;
          }
        }
        if (tail && !seen.has(tail)) {
          seen.add(tail);
          out.push(tail);
        }
      });
    });
    return out;
  }

  // folderOf says which claim a data= or config= folder is: {value, line, what, how, keys};
  // byPrefix is prefixes(data). how: "folder" (a folder name the plan page gives a claim),
  // "dir" (it ends with a directory releases declare: each such claim), "base" (Data Files),
  // "" (none). Linear in the path.
  function folderOf(data, byPrefix, d, what) {
    var parts = cfg.dirParts(d.value), res = { value: d.value, line: d.line, what: what, how: "", keys: [] };
    if (!parts.length) {
      return res;
    }
    for (var i = parts.length - 1; i >= 0; i--) {
      var seg = parts[i], cands = seg.length >= 8 ? byPrefix.get(fold(seg.slice(-8))) : null;
      for (var j = 0; cands && j < cands.length; j++) {
        var c = own(data.claims, cands[j]);
        if (fold(cfg.folderName(c.name, c.project)) === fold(seg)) {
          res.how = "folder";
          res.keys = [cands[j]];
          return res;
        }
      }
    }
    var last = fold(parts[parts.length - 1]);
    (own(data.data_dirs, last) || []).forEach(function (key) {
      var c = own(data.claims, key);
      var dirs = (what === "config" ? c.config_dirs : c.data_dirs) || [];
      if (dirs.some(function (dir) { return endsWith(parts, cfg.dirParts(dir)); })) {
        res.keys.push(key);
      }
    });
    if (res.keys.length) {
      res.how = "dir";
    } else if (what === "data" && last === "data files") {
      res.how = "base";
    }
    return res;
  }
  // endsWith: the folder names tail are the last of parts, compared folded.
  function endsWith(parts, tail) {
    if (!tail.length || tail.length > parts.length) {
      return false;
    }
    for (var i = 1; i <= tail.length; i++) {
      if (fold(parts[parts.length - i]) !== fold(tail[tail.length - i])) {
        return false;
      }
    }
    return true;
  }

  // check compares a parsed openmw.cfg with the data: findings {kind, ...} with the keys of
  // their claims. openmw is the player's version as typed ("" when none). Its phases share
  // one state, st.
  function check(data, parsed, openmw) {
    var st = {
      data: data, version: openmw ? V.parse(openmw, "numeric") : null,
      out: { matched: [], unknown: [], base: [], needs: [], order: [], conflicts: [], runtime: [], status: [], duplicates: [] },
      first: new Map(), // folded name -> its first loaded entry
      claimFiles: new Map(), // key -> loaded entries it declares, in first-loaded order
      sure: new Map(), // key -> true: a claim something in the file is certainly from
      maybe: new Map() // key -> true: a claim a folder may be from (its name alone)
    };
    var loaded = parsed.content.map(function (c, i) { return { name: c.value, line: c.line, at: i }; });
    contentLines(st, loaded);
    otherLines(st, parsed);
    tooOld(st, parsed, loaded);
    st.claimFiles.forEach(function (files, key) { claimFindings(st, key, files); });
    st.out.version = openmw ? (st.version ? openmw : null) : "";
    return st.out;
  }
  // contentLines finds the claims of the content= lines, and each file listed twice.
  function contentLines(st, loaded) {
    var out = st.out;
    loaded.forEach(function (f) {
      var k = fold(f.name);
      if (st.first.has(k)) {
        out.duplicates.push({ file: f, first: st.first.get(k) });
        return;
      }
      st.first.set(k, f);
      var keys = own(st.data.content_files, k) || [];
      if (!keys.length) {
        (baseContent.has(k) ? out.base : out.unknown).push({ file: f });
        return;
      }
      out.matched.push({ file: f, keys: keys });
      keys.forEach(function (key) {
        if (!st.claimFiles.has(key)) {
          st.claimFiles.set(key, []);
        }
        st.claimFiles.get(key).push(f);
      });
    });
  }
  // otherLines finds the claims the other lines name (folders, groundcover, archives).
  function otherLines(st, parsed) {
    var data = st.data, out = st.out, sure = st.sure, claimFiles = st.claimFiles;
    claimFiles.forEach(function (files, key) { sure.set(key, true); });
    out.groundcover = parsed.groundcover.map(function (g) {
      var keys = own(data.groundcover_files, fold(g.value)) || [];
      keys.forEach(function (k) { sure.set(k, true); });
      return { name: g.value, line: g.line, keys: keys };
    });
    out.archives = parsed["fallback-archive"].map(function (a) {
      var k = fold(a.value), base = baseArchives.has(k), keys = base ? [] : own(data.fallback_archives, k) || [];
      keys.forEach(function (x) { sure.set(x, true); });
      return { name: a.value, line: a.line, base: base, keys: keys };
    });
    var byPrefix = prefixes(data);
    out.folders = parsed.data.map(function (d) { return folderOf(data, byPrefix, d, "data"); })
      .concat(parsed.config.map(function (d) { return folderOf(data, byPrefix, d, "config"); }));
    out.folders.forEach(function (f) {
      if (f.how === "folder" || f.how === "dir" && f.keys.length === 1) {
        sure.set(f.keys[0], true);
      } else if (f.how === "dir") {
        f.keys.forEach(function (k) { st.maybe.set(k, true); });
      }
      f.keys.forEach(function (k) {
        if (!claimFiles.has(k) && sure.has(k)) {
          claimFiles.set(k, []);
        }
      });
    });
    out.groundcover.concat(out.archives).forEach(function (g) {
      g.keys.forEach(function (k) {
        if (!claimFiles.has(k)) {
          claimFiles.set(k, []);
        }
      });
    });
  }
  // tooOld finds lines the player's OpenMW is too old for (openmwcfg.js since).
  function tooOld(st, parsed, loaded) {
    parsed.config.map(function (c) { return { kind: "config", name: c.value, line: c.line }; }).concat(loaded).forEach(function (f) {
      var need = cfg.since(f.kind || "content", f.name);
      if (st.version && need && V.compare(st.version, V.parse(need, "numeric")) < 0) {
        st.out.runtime.push({ kind: "too-old", what: f.kind || "content", file: f, need: need });
      }
    });
  }
  // claimFindings finds what claim key, with loaded files, needs and declares: content
  // missing or after, projects required, conflicts, runtime and statuses.
  function claimFindings(st, key, files) {
    var data = st.data, out = st.out, c = own(data.claims, key);
    // present: the file shows the claim (a folder several claims declare counts for each).
    function present(k) {
      return st.sure.has(k) || st.maybe.has(k);
    }
    // Content the loaded files need: the release's list, and their own components' lists.
    var needers = new Map(); // folded need -> {need, files}
    var decls = new Map(); // folded file -> the first entry declaring it
    c.content_files.forEach(function (d) {
      if (!decls.has(fold(d.file))) {
        decls.set(fold(d.file), d);
      }
    });
    files.forEach(function (f) {
      var decl = decls.get(fold(f.name));
      c.requires_content.concat(decl ? decl.requires_content : []).forEach(function (need) {
        var nk = fold(need);
        if (!needers.has(nk)) {
          needers.set(nk, { need: need, files: [] });
        }
        needers.get(nk).files.push(f);
      });
    });
    needers.forEach(function (n, nk) {
      var at = st.first.get(nk);
      if (!at) {
        out.needs.push({ kind: "missing-content", key: key, need: n.need, files: n.files });
        return;
      }
      var after = n.files.filter(function (f) { return f.at < at.at; });
      if (after.length) {
        out.order.push({ kind: "order", key: key, need: n.need, needAt: at, files: after });
      }
    });
    c.relationships.forEach(function (r) {
      if (r.kind === "requires") {
        if (r.targets.some(present)) {
          return;
        }
        // A project declaring no content file or data folder cannot be seen here: said.
        var declared = r.targets.some(function (t) {
          var tc = own(data.claims, t);
          return tc.content_files.length > 0 || (tc.data_dirs || []).length > 0;
        });
        var kind = !r.targets.length ? "requires-unresolved" : declared ? "missing-project" : "requires-unchecked";
        out.needs.push({ kind: kind, key: key, rel: r });
      } else if (r.kind === "conflicts") {
        r.targets.forEach(function (t) {
          if (t !== key && st.sure.has(t)) {
            out.conflicts.push({ kind: "conflict", key: key, other: t, rel: r });
          }
        });
      }
    });
    if (st.version && c.openmw) {
      var constraint = V.parseConstraint(c.openmw, "numeric");
      var ok = constraint ? V.satisfies(constraint, st.version) : null;
      if (ok !== true) {
        out.runtime.push({ kind: ok === null ? "runtime-unchecked" : "runtime", key: key, constraint: c.openmw });
      }
    }
    if (c.release && c.release.status !== "available") {
      out.status.push({ kind: "release-status", key: key });
    }
    if (c.project_status === "deprecated" || c.project_status === "archived") {
      out.status.push({ kind: "project-status", key: key });
    }
  }

  // claimFilesOf lists the loaded files of key's claim (a table of found's, made once).
  var filesOf = new WeakMap();
  function claimFilesOf(found, key) {
    var m = filesOf.get(found);
    if (!m) {
      filesOf.set(found, m = new Map());
      found.matched.forEach(function (x) {
        x.keys.forEach(function (k) {
          if (!m.has(k)) {
            m.set(k, []);
          }
          m.get(k).push(x.file);
        });
      });
    }
    return m.get(key) || [];
  }

  // params reads a fragment "#k=v&k=v" by scanning: a Map of each key's first value.
  function params(hash) {
    var m = new Map();
    (hash.charAt(0) === "#" ? hash.slice(1) : hash).split("&").forEach(function (kv) {
      var eq = kv.indexOf("=");
      var k = eq < 0 ? kv : kv.slice(0, eq);
      if (!m.has(k)) {
        m.set(k, eq < 0 ? "" : kv.slice(eq + 1));
      }
    });
    return m;
  }
  // base64url of UTF-8 text, and back (null when it does not decode).
  function encode(text) {
    var bytes = new TextEncoder().encode(text), bin = [];
    for (var i = 0; i < bytes.length; i += 4096) {
      bin.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 4096)));
    }
    var b = btoa(bin.join("")), end = b.length;
    while (end > 0 && b.charAt(end - 1) === "=") {
      end--;
    }
    return b.slice(0, end).replace(/\+/g, "-").replace(/\//g, "_");
  }
  function decode(s) {
    try {
      var bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
      var bytes = new Uint8Array(bin.length);
      for (var i = 0; i < bin.length; i++) {
        bytes[i] = bin.charCodeAt(i);
      }
      return new TextDecoder("utf-8").decode(bytes);
    } catch (e) {
      return null;
    }
  }

  // setupView reads a plan part's claims (claimsOf's table) in place as the check does:
  // relationships only requires and conflicts, and only when it installs; needed content
  // each name once (folded), none empty.
  function setupView(claims) {
    Object.keys(claims).forEach(function (key) {
      var c = claims[key], seen = new Set();
      c.relationships = c.installs ? c.relationships.filter(function (r) { return r.kind === "requires" || r.kind === "conflicts"; }) : [];
      c.requires_content = c.requires_content.filter(function (n) {
        var k = fold(n);
        if (n === "" || seen.has(k)) {
          return false;
        }
        seen.add(k);
        return true;
      });
    });
    return claims;
  }

  return { check: check, setupView: setupView, lookups: lookups, keysOf: keysOf, folderIDs: folderIDs, indexes: indexes, bidiText: cfg.bidi, params: params, encode: encode, decode: decode, claimFilesOf: claimFilesOf };
});
