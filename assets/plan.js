// The install planner's engine: from the projects a player chose and what their publishers
// declare (the plan page's data, computed by the build in site/plan.go), the plan: every
// required project pulled in, each release's component selection, the openmw.cfg lines, the
// settings.cfg values and the downloads, each traced to the claim that declared it, and every
// finding. It follows the protocol's installation page (SPEC section 7). It touches neither the
// page nor the network, so it runs in node (assets/engines_test.go); planpage.js renders it.
//
// It never chooses for the player: where a project id is published by two sites, or several
// claims provide a capability, it asks. It never installs, downloads or verifies anything.
// Publisher and player text are keys here, so every keyed table is a Map or a Set.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api(require("./version.js"), require("./openmwcfg.js"));
  } else {
    window.AshyamsPlan = api(window.DreamWeaveVersion, window.OpenMWCfg);
  }
})(function (V, cfg) {
  "use strict";
  var fold = cfg.fold;
  // The base game's own files, in their load order, and its archives.
  var baseContent = ["Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm"];
  var baseArchives = ["Morrowind.bsa", "Tribunal.bsa", "Bloodmoon.bsa"];
  var defaultRoot = "/path/to/your/mods";

  function own(obj, k) {
    return obj && Object.prototype.hasOwnProperty.call(obj, k) ? obj[k] : undefined;
  }
  function splitList(s) {
    return s === "" ? [] : s.split(",").map(V.trim).filter(function (x) { return x !== ""; });
  }
  function decodePart(s) {
    try {
      return decodeURIComponent(s);
    } catch (e) {
      return null;
    }
  }

  // parseFragment reads a plan link's fragment: #add=<project-id>[,<project-id>@<site-id>...]
  // &openmw=<version>&lua=<revision>&root=<folder>&base=0&on=<project-id>:<component>,...
  // &off=... It scans; it never matches a pattern over the text.
  function parseFragment(hash) {
    var req = { add: [], openmw: "", lua: "", root: "", base: true, on: [], off: [], bad: [] };
    var s = hash.charAt(0) === "#" ? hash.slice(1) : hash;
    if (s === "") {
      return req;
    }
    s.split("&").forEach(function (kv) {
      var eq = kv.indexOf("=");
      var k = eq < 0 ? kv : kv.slice(0, eq);
      var v = decodePart(eq < 0 ? "" : kv.slice(eq + 1));
      if (v === null) {
        req.bad.push(k);
        return;
      }
      if (k === "add") {
        req.add = req.add.concat(splitList(v));
      } else if (k === "on" || k === "off") {
        req[k] = req[k].concat(splitList(v));
      } else if (k === "openmw" || k === "lua" || k === "root") {
        req[k] = V.trim(v);
      } else if (k === "base") {
        req.base = v !== "0" && v !== "no";
      } else if (k !== "") {
        req.bad.push(k);
      }
    });
    return req;
  }

  // fragment writes req as a plan link's fragment (parseFragment reads it back).
  function fragment(req) {
    var parts = [];
    function enc(s) {
      return encodeURIComponent(s).replace(/%40/g, "@").replace(/%3A/g, ":").replace(/%2F/g, "/");
    }
    if (req.add.length) {
      parts.push("add=" + req.add.map(enc).join(","));
    }
    ["openmw", "lua", "root"].forEach(function (k) {
      if (req[k]) {
        parts.push(k + "=" + enc(req[k]));
      }
    });
    if (!req.base) {
      parts.push("base=0");
    }
    ["on", "off"].forEach(function (k) {
      if (req[k].length) {
        parts.push(k + "=" + req[k].map(enc).join(","));
      }
    });
    return parts.length ? "#" + parts.join("&") : "";
  }

  // folderName is the folder a project goes in under the mods folder (openmwcfg.js names it,
  // so the setup check knows the folders a plan writes).
  function folderName(c) {
    return cfg.folderName(c.name, c.project);
  }

  // quotePath writes a path the way openmw.cfg reads a quoted one: "&" and "\"" escaped by "&".
  function quotePath(p) {
    var out = [];
    for (var i = 0; i < p.length; i++) {
      var ch = p.charAt(i);
      out.push(ch === "&" || ch === "\"" ? "&" + ch : ch);
    }
    return "\"" + out.join("") + "\"";
  }
  function joinPath(a, b) {
    if (b === "." || b === "") {
      return a;
    }
    return a.charAt(a.length - 1) === "/" ? a + b : a + "/" + b;
  }

  // ---- Component selections (SPEC section 7) ----

  function compMap(c) {
    var m = new Map();
    c.components.forEach(function (comp) { m.set(comp.id, comp); });
    return m;
  }
  function groupMap(c) {
    var m = new Map();
    c.groups.forEach(function (g) { m.set(g.id, g); });
    return m;
  }

  // problems lists why sel (a Set of component ids) is not a valid selection of c's release:
  // a required component left out, a group's rule broken, a selected component's requires
  // missing or its conflicts present. An empty list: the selection is valid.
  function problems(c, sel) {
    var out = [], comps = compMap(c), counts = new Map();
    c.groups.forEach(function (g) { counts.set(g.id, 0); });
    c.components.forEach(function (comp) {
      if (comp.required && !sel.has(comp.id)) {
        out.push({ kind: "required", component: comp.id });
      }
      if (sel.has(comp.id) && comp.group && counts.has(comp.group)) {
        counts.set(comp.group, counts.get(comp.group) + 1);
      }
    });
    c.groups.forEach(function (g) {
      var n = counts.get(g.id);
      var ok = g.select === "exactly-one" ? n === 1 : g.select === "at-most-one" ? n <= 1 : g.select === "at-least-one" ? n >= 1 : true;
      if (!ok) {
        out.push({ kind: "group", group: g.id, select: g.select, count: n });
      }
    });
    sel.forEach(function (id) {
      var comp = comps.get(id);
      if (!comp) {
        out.push({ kind: "unknown", component: id });
        return;
      }
      comp.requires.forEach(function (r) {
        if (!sel.has(r)) {
          out.push({ kind: "requires", component: id, other: r });
        }
      });
      comp.conflicts.forEach(function (x) {
        if (sel.has(x)) {
          out.push({ kind: "conflicts", component: id, other: x });
        }
      });
    });
    return out;
  }
  function valid(c, sel) {
    return problems(c, sel).length === 0;
  }

  // toggle returns the selection with component id turned on (with the components it
  // requires, and the other members of a one-only group turned off) or off (with every
  // component that requires it), or null when that selection would not be valid: the page
  // offers only the changes toggle allows, so no invalid selection can be made through it.
  function toggle(c, sel, id, on) {
    var comps = compMap(c), groups = groupMap(c), s = new Set(sel);
    if (!comps.has(id)) {
      return null;
    }
    if (on) {
      var todo = [id];
      while (todo.length) {
        var x = todo.pop();
        if (s.has(x) && x !== id) {
          continue;
        }
        s.add(x);
        var comp = comps.get(x);
        if (!comp) {
          return null;
        }
        var g = comp.group && groups.get(comp.group);
        if (g && (g.select === "exactly-one" || g.select === "at-most-one")) {
          c.components.forEach(function (o) {
            if (o.group === comp.group && o.id !== x) {
              s.delete(o.id);
            }
          });
        }
        comp.requires.forEach(function (r) {
          if (!s.has(r)) {
            todo.push(r);
          }
        });
      }
    } else {
      s.delete(id);
      for (var changed = true; changed;) {
        changed = false;
        s.forEach(function (x) {
          var comp = comps.get(x);
          if (comp && comp.requires.some(function (r) { return !s.has(r); })) {
            s.delete(x);
            changed = true;
          }
        });
      }
    }
    return valid(c, s) ? s : null;
  }

  // initialSelection is what the release offers before the player changes anything: the
  // required and default components, and those suggested with a project in the plan.
  function initialSelection(c, planned) {
    var s = new Set();
    c.components.forEach(function (comp) {
      if (comp.required || comp.default || comp.suggested_with.some(function (p) { return planned.has(p); })) {
        s.add(comp.id);
      }
    });
    if (valid(c, s)) {
      return s;
    }
    // A suggestion may break a group's rule: then the publisher's defaults alone.
    s = new Set();
    c.components.forEach(function (comp) {
      if (comp.required || comp.default) {
        s.add(comp.id);
      }
    });
    if (valid(c, s)) {
      return s;
    }
    // Defaults that are not a valid selection: fill each group that needs a member with its
    // first one, through toggle, which keeps requires and one-only groups whole.
    c.groups.forEach(function (g) {
      var members = c.components.filter(function (comp) { return comp.group === g.id; });
      var n = members.filter(function (comp) { return s.has(comp.id); }).length;
      if ((g.select === "exactly-one" || g.select === "at-least-one") && n === 0 && members.length) {
        s.add(members[0].id);
      }
      if ((g.select === "exactly-one" || g.select === "at-most-one") && n > 1) {
        members.slice(1).forEach(function (comp) { s.delete(comp.id); });
      }
    });
    if (valid(c, s) || c.components.length > maxSearch) {
      return s;
    }
    // Still not valid: the valid selection nearest the defaults (fewest changes; among
    // those, the first in component order), when the release has few enough components to
    // try them all; none found means none exists.
    var n = c.components.length, want = 0, best = -1, bestDist = n + 1;
    c.components.forEach(function (comp, i) {
      if (comp.required || comp.default) {
        want |= 1 << i;
      }
    });
    for (var m = 0; m < 1 << n; m++) {
      var dist = 0;
      for (var x = m ^ want; x; x &= x - 1) {
        dist++;
      }
      if (dist >= bestDist) {
        continue;
      }
      var t = new Set();
      c.components.forEach(function (comp, i) {
        if (m & 1 << i) {
          t.add(comp.id);
        }
      });
      if (valid(c, t)) {
        best = m;
        bestDist = dist;
      }
    }
    if (best >= 0) {
      s = new Set();
      c.components.forEach(function (comp, i) {
        if (best & 1 << i) {
          s.add(comp.id);
        }
      });
    }
    return s;
  }
  // maxSearch is the most components initialSelection tries every selection of (2^12).
  var maxSearch = 12;

  // ---- Orders ----

  // Heap is a binary min-heap of [priority list, value], for the topological sorts: the ready
  // node with the lowest priority goes first, so an order is the same on every run.
  function Heap() {
    this.a = [];
  }
  function lessPri(x, y) {
    for (var i = 0; i < x.length && i < y.length; i++) {
      if (x[i] !== y[i]) {
        return x[i] < y[i];
      }
    }
    return x.length < y.length;
  }
  Heap.prototype.push = function (pri, v) {
    var a = this.a, i = a.length;
    a.push([pri, v]);
    while (i > 0) {
      var p = (i - 1) >> 1;
      if (!lessPri(a[i][0], a[p][0])) {
        break;
      }
      var t = a[i]; a[i] = a[p]; a[p] = t;
      i = p;
    }
  };
  Heap.prototype.pop = function () {
    var a = this.a, top = a[0], last = a.pop();
    if (a.length) {
      a[0] = last;
      for (var i = 0; ;) {
        var l = 2 * i + 1, r = l + 1, m = i;
        if (l < a.length && lessPri(a[l][0], a[m][0])) {
          m = l;
        }
        if (r < a.length && lessPri(a[r][0], a[m][0])) {
          m = r;
        }
        if (m === i) {
          break;
        }
        var t = a[i]; a[i] = a[m]; a[m] = t;
        i = m;
      }
    }
    return top[1];
  };

  // topo orders nodes 0..n-1 along edges (from -> to: from first), the lowest priority first
  // among those ready. It returns {order, cyclic}: nodes on or after a cycle are appended in
  // priority order and listed in cyclic.
  function topo(n, edges, pri) {
    var indeg = new Array(n).fill(0), out = [];
    for (var i = 0; i < n; i++) {
      out.push([]);
    }
    edges.forEach(function (e) {
      out[e[0]].push(e[1]);
      indeg[e[1]]++;
    });
    var h = new Heap(), order = [], done = new Array(n).fill(false);
    for (i = 0; i < n; i++) {
      if (!indeg[i]) {
        h.push(pri(i), i);
      }
    }
    while (h.a.length) {
      var x = h.pop();
      done[x] = true;
      order.push(x);
      out[x].forEach(function (y) {
        if (--indeg[y] === 0) {
          h.push(pri(y), y);
        }
      });
    }
    var cyclic = [];
    for (i = 0; i < n; i++) {
      if (!done[i]) {
        cyclic.push(i);
      }
    }
    cyclic.sort(function (a, b) { return lessPri(pri(a), pri(b)) ? -1 : 1; });
    return { order: order.concat(cyclic), cyclic: cyclic, out: out };
  }

  // reaches says whether a path leads from a to b over the adjacency lists out.
  function reaches(out, a, b) {
    var seen = new Set([a]), todo = [a];
    while (todo.length) {
      var x = todo.pop();
      if (x === b) {
        return true;
      }
      out[x].forEach(function (y) {
        if (!seen.has(y)) {
          seen.add(y);
          todo.push(y);
        }
      });
    }
    return false;
  }

  // ---- The plan ----

  // compute plans req (parseFragment's shape) over data and returns {entries (in dependency
  // order), asks, findings, cfg (lines {text, key}), settings (lines {text, key}), downloads,
  // sums (lines {text, key})}. The same data and request give the same plan.
  function compute(data, req) {
    var findings = [], asks = [];
    var entries = new Map(); // key -> entry, in the order added
    var byProject = new Map(); // project id -> key in the plan
    function finding(kind, f) {
      f.kind = kind;
      findings.push(f);
    }
    function add(key, why) {
      var c = own(data.claims, key);
      if (!c) {
        return false;
      }
      var have = byProject.get(c.project);
      if (have !== undefined) {
        if (have !== key) {
          finding("two-claims", { key: have, other: key });
        }
        return false;
      }
      entries.set(key, { key: key, c: c, index: entries.size, why: why, deps: [], settled: new Map(), sel: null, valid: true });
      byProject.set(c.project, key);
      return true;
    }
    // What the player added: claims named by site first, so they settle the bare ids.
    var bare = [];
    req.add.forEach(function (t) {
      var at = t.indexOf("@");
      if (at < 0) {
        bare.push(t);
        return;
      }
      var key = t.slice(0, at) + "/" + t.slice(at + 1);
      if (!own(data.claims, key)) {
        finding("not-found", { token: t });
        return;
      }
      add(key, { added: true });
    });
    bare.forEach(function (t) {
      var keys = own(data.projects, t) || [];
      if (!keys.length) {
        finding("not-found", { token: t });
      } else if (byProject.has(t)) {
        // settled by a claim named by site
      } else if (keys.length === 1) {
        add(keys[0], { added: true });
      } else {
        asks.push({ kind: "identity", project: t, options: keys, by: null });
      }
    });
    // What they require, to a fixed point: a requirement met by a claim in the plan is met;
    // one with a single candidate adds it; several candidates are the player's choice.
    var pending = new Map(); // "key#i" -> {key, rel, i}
    for (var changed = true; changed;) {
      changed = false;
      entries.forEach(function (e) {
        e.c.relationships.forEach(function (rel, i) {
          if (rel.kind !== "requires" || e.settled.has(i)) {
            return;
          }
          var met = rel.targets.filter(function (t) { return entries.has(t); });
          if (met.length) {
            e.settled.set(i, met);
            pending.delete(e.key + "#" + i);
            met.forEach(function (t) {
              if (e.deps.indexOf(t) < 0 && t !== e.key) {
                e.deps.push(t);
              }
            });
            return;
          }
          if (rel.targets.length === 1 && add(rel.targets[0], { by: e.key, rel: rel })) {
            changed = true;
            return;
          }
          pending.set(e.key + "#" + i, { key: e.key, rel: rel, i: i });
        });
      });
    }
    pending.forEach(function (p) {
      if (!p.rel.targets.length) {
        finding("missing", { key: p.key, rel: p.rel });
      } else if (p.rel.targets.length === 1) {
        // the one candidate is a project id already planned from another site
        finding("two-claims", { key: byProject.get(own(data.claims, p.rel.targets[0]).project), other: p.rel.targets[0] });
      } else {
        asks.push({ kind: p.rel.capability && !p.rel.project ? "capability" : "identity", project: p.rel.project || "",
          capability: p.rel.capability || "", options: p.rel.targets, by: p.key, rel: p.rel });
      }
    });
    // Constraints on what was pulled in, read under each target's versioning scheme.
    entries.forEach(function (e) {
      e.c.relationships.forEach(function (rel, i) {
        var met = e.settled.get(i);
        if (!met || !rel.version) {
          return;
        }
        met.forEach(function (t) {
          var tc = own(data.claims, t);
          var cons = V.parseConstraint(rel.version, tc.scheme);
          var v = tc.release ? V.parse(tc.release.version, tc.scheme) : null;
          if (!cons || !v) {
            finding("version-unchecked", { key: e.key, other: t, rel: rel });
          } else if (!V.satisfies(cons, v)) {
            finding("version", { key: e.key, other: t, rel: rel, version: tc.release.version });
          }
        });
      });
    });
    var planned = new Set();
    entries.forEach(function (e) { planned.add(e.c.project); });
    // Conflicts and recommendations, runtimes and statuses.
    var openmw = req.openmw ? V.parse(req.openmw, "numeric") : null;
    var lua = req.lua ? V.parse(req.lua, "numeric") : null;
    if (req.openmw && !openmw) {
      finding("bad-version", { what: "openmw", text: req.openmw });
    }
    if (req.lua && !lua) {
      finding("bad-version", { what: "lua", text: req.lua });
    }
    entries.forEach(function (e) {
      e.c.relationships.forEach(function (rel) {
        if (rel.kind === "conflicts") {
          rel.targets.forEach(function (t) {
            if (t !== e.key && entries.has(t)) {
              finding("conflict", { key: e.key, other: t, rel: rel });
            }
          });
        } else if (rel.kind === "recommends" && !rel.targets.some(function (t) { return entries.has(t); })) {
          finding("recommends", { key: e.key, rel: rel });
        }
      });
      [["openmw", e.c.openmw, openmw, "runtime"], ["lua", e.c.lua_api, lua, "lua"]].forEach(function (x) {
        if (!x[1] || !x[2]) {
          return;
        }
        var cons = V.parseConstraint(x[1], "numeric");
        if (!cons) {
          finding(x[3] + "-unchecked", { key: e.key, constraint: x[1] });
        } else if (!V.satisfies(cons, x[2])) {
          finding(x[3], { key: e.key, constraint: x[1], version: x[0] === "openmw" ? req.openmw : req.lua });
        }
      });
      if (e.c.release && e.c.release.status !== "available") {
        finding("release-status", { key: e.key, status: e.c.release.status });
      }
      if (!e.c.installs) {
        finding("no-openmw", { key: e.key });
      }
    });
    // Projects in dependency order: the projects a project requires come first.
    var list = [];
    entries.forEach(function (e) { list.push(e); });
    var pos = new Map();
    list.forEach(function (e, i) { pos.set(e.key, i); });
    var pedges = [];
    list.forEach(function (e, i) {
      e.deps.forEach(function (d) { pedges.push([pos.get(d), i]); });
    });
    var pt = topo(list.length, pedges, function (i) { return [i]; });
    if (pt.cyclic.length) {
      finding("cycle", { keys: pt.cyclic.map(function (i) { return list[i].key; }) });
    }
    var ordered = pt.order.map(function (i) { return list[i]; });
    ordered.forEach(function (e, i) { e.order = i; });
    // Component selections: the release's offer, then the player's changes.
    var on = new Map(), off = new Map();
    [[req.on, on], [req.off, off]].forEach(function (x) {
      x[0].forEach(function (t) {
        var colon = t.indexOf(":");
        if (colon < 0) {
          return;
        }
        var p = t.slice(0, colon), id = t.slice(colon + 1);
        if (!x[1].has(p)) {
          x[1].set(p, []);
        }
        x[1].get(p).push(id);
      });
    });
    ordered.forEach(function (e) {
      var c = e.c, s = initialSelection(c, planned);
      e.initial = new Set(s);
      var ons = on.get(c.project) || [], offs = off.get(c.project) || [];
      if (ons.length || offs.length) {
        var direct = new Set(s);
        ons.forEach(function (id) { direct.add(id); });
        offs.forEach(function (id) { direct.delete(id); });
        if (valid(c, direct)) {
          s = direct;
        } else {
          ons.forEach(function (id) {
            var t = toggle(c, s, id, true);
            if (t) {
              s = t;
            } else {
              finding("selection-refused", { key: e.key, component: id, on: true });
            }
          });
          offs.forEach(function (id) {
            var t = toggle(c, s, id, false);
            if (t) {
              s = t;
            } else {
              finding("selection-refused", { key: e.key, component: id, on: false });
            }
          });
        }
      }
      e.sel = s;
      var ps = problems(c, s);
      if (ps.length) {
        e.valid = false;
        finding("no-valid-selection", { key: e.key, problems: ps });
      }
    });
    // What each selected component installs, in the order components lists them.
    var root = req.root || defaultRoot;
    var lines = { data: [], "fallback-archive": [], content: [], groundcover: [], fallback: [], config: [] };
    var files = []; // content files: {file, folded, key, e, comp, idx}
    var seenFile = new Map();
    // Each line is written once, as the first declared it: two components or claims naming
    // one directory or value write one line; a file (content, archive, groundcover) declared
    // again, or one of the base game's, is a finding. again says whether kind's line
    // (a file's folded name) is written already, and notes who declared it first.
    var seenLine = new Map();
    if (req.base) {
      baseContent.forEach(function (f) { seenLine.set("content\n" + fold(f), null); });
      baseArchives.forEach(function (a) { seenLine.set("fallback-archive\n" + fold(a), null); });
    }
    function again(kind, line, key, file) {
      var k = kind + "\n" + (file === undefined ? line : fold(file));
      if (!seenLine.has(k)) {
        seenLine.set(k, key);
        return false;
      }
      var by = seenLine.get(k);
      if (file !== undefined) {
        finding(by === null ? "base-file" : "same-file", { key: by === null ? key : by, other: key, file: file });
      }
      return true;
    }
    function put(kind, line, key, file) {
      if (!again(kind, line, key, file)) {
        lines[kind].push({ text: line, key: key });
      }
    }
    ordered.forEach(function (e) {
      e.folder = joinPath(root, folderName(e.c));
      e.needs = [];
      if (!e.valid || !e.c.installs) {
        return;
      }
      e.c.components.forEach(function (comp, ci) {
        if (!e.sel.has(comp.id)) {
          return;
        }
        var R = joinPath(e.folder, comp.path);
        comp.data.forEach(function (d) { put("data", "data=" + quotePath(joinPath(R, d)), e.key); });
        comp.archives.forEach(function (a) { put("fallback-archive", "fallback-archive=" + a, e.key, a); });
        comp.groundcover.forEach(function (g) { put("groundcover", "groundcover=" + g, e.key, g); });
        comp.fallback.forEach(function (kv) { put("fallback", "fallback=" + kv[0] + "," + kv[1], e.key); });
        if (comp.config) {
          put("config", "config=" + quotePath(R), e.key);
        }
        var prev = -1;
        comp.content.forEach(function (f, fi) {
          var k = fold(f);
          if (again("content", "", e.key, f)) {
            return;
          }
          var node = { file: f, folded: k, key: e.key, e: e, comp: ci, idx: fi, prev: prev, needs: comp.requires_content, at: files.length };
          seenFile.set(k, node);
          prev = files.length;
          files.push(node);
        });
      });
    });
    // The content order: a topological order of what the manifests declare. Nodes: the base
    // game's files, every planned file, and a start and an end for each project; edges: the
    // base game before everything, a component's files in their listed order, each
    // requires_content before the files that need it, and a required project's files before
    // the files of the projects requiring it.
    var base = req.base ? baseContent.slice() : [];
    var nb = base.length, nf = files.length, np = ordered.length;
    var N = nb + nf + 2 * np;
    var edges = [];
    var startOf = function (e) { return nb + nf + 2 * e.order; };
    var endOf = function (e) { return nb + nf + 2 * e.order + 1; };
    var baseIdx = new Map();
    base.forEach(function (b, i) {
      baseIdx.set(fold(b), i);
      if (i > 0) {
        edges.push([i - 1, i]);
      }
    });
    ordered.forEach(function (e) {
      if (nb) {
        edges.push([nb - 1, startOf(e)]);
      }
      edges.push([startOf(e), endOf(e)]);
      e.deps.forEach(function (d) {
        var de = entries.get(d);
        if (de.order < e.order || !pt.cyclic.length) {
          edges.push([endOf(de), startOf(e)]);
        }
      });
    });
    var missingNeed = new Map();
    files.forEach(function (f, i) {
      var n = nb + i;
      edges.push([startOf(f.e), n]);
      edges.push([n, endOf(f.e)]);
      if (f.prev >= 0) {
        edges.push([nb + f.prev, n]);
      }
      f.e.c.requires_content.concat(f.needs).forEach(function (need) {
        var k = fold(need);
        if (k === f.folded) {
          return;
        }
        if (baseIdx.has(k)) {
          edges.push([baseIdx.get(k), n]);
        } else if (seenFile.has(k)) {
          edges.push([nb + seenFile.get(k).at, n]);
        } else if (!missingNeed.has(f.key + "\n" + k)) {
          missingNeed.set(f.key + "\n" + k, true);
          finding("needs-content", { key: f.key, need: need, file: f.file });
        }
      });
    });
    var ct = topo(N, edges, function (i) {
      if (i < nb) {
        return [-1, i];
      }
      if (i < nb + nf) {
        var f = files[i - nb];
        return [f.e.order, 1, f.comp, f.idx];
      }
      var p = (i - nb - nf) >> 1;
      return [p, (i - nb - nf) & 1 ? 2 : 0];
    });
    var cycFiles = ct.cyclic.filter(function (i) { return i >= nb && i < nb + nf; });
    if (cycFiles.length) {
      finding("content-cycle", { files: cycFiles.map(function (i) { return files[i - nb].file; }) });
    }
    var contentOrder = ct.order.filter(function (i) { return i < nb + nf; });
    var prevNode = -1;
    contentOrder.forEach(function (i) {
      var line;
      if (i < nb) {
        line = { text: "content=" + base[i], key: null, base: true };
      } else {
        line = { text: "content=" + files[i - nb].file, key: files[i - nb].key };
        if (prevNode >= 0 && !reaches(ct.out, prevNode, i)) {
          line.undeclared = true; // nothing declared orders this file after the one above
        }
      }
      lines.content.push(line);
      prevNode = i;
    });
    if (req.base) {
      lines["fallback-archive"] = baseArchives.map(function (a) { return { text: "fallback-archive=" + a, key: null, base: true }; }).concat(lines["fallback-archive"]);
    } else {
      var needsBase = [];
      files.forEach(function (f) {
        f.e.c.requires_content.concat(f.needs).forEach(function (need) {
          if (baseContent.some(function (b) { return fold(b) === fold(need); }) && needsBase.indexOf(f.key) < 0) {
            needsBase.push(f.key);
          }
        });
      });
      needsBase.forEach(function (k) { finding("needs-base", { key: k }); });
    }
    // openmw.cfg reads each key's lines as one list, so the lines of different keys may
    // interleave: each claim's lines (the base game's first) are written as one run where
    // the content order allows, every key's lines kept in their order.
    var cfgLines = [], kinds = ["data", "fallback-archive", "content", "groundcover", "fallback", "config"];
    var rank = function (l) { return l.key === null ? -1 : entries.get(l.key).order; };
    var head = kinds.map(function () { return 0; });
    for (;;) {
      var best = null;
      kinds.forEach(function (k, i) {
        if (head[i] < lines[k].length && (best === null || rank(lines[k][head[i]]) < best)) {
          best = rank(lines[k][head[i]]);
        }
      });
      if (best === null) {
        break;
      }
      kinds.forEach(function (k, i) {
        while (head[i] < lines[k].length && rank(lines[k][head[i]]) === best) {
          cfgLines.push(lines[k][head[i]++]);
        }
      });
    }
    // settings.cfg: by category, in the order first asked; two claims asking one key for
    // different values is a finding, and both lines are shown.
    var cats = new Map();
    ordered.forEach(function (e) {
      if (!e.valid) {
        return;
      }
      e.c.settings.forEach(function (s) {
        if (!cats.has(s.category)) {
          cats.set(s.category, []);
        }
        cats.get(s.category).push({ key: e.key, setting: s });
      });
    });
    var settings = [];
    cats.forEach(function (list, cat) {
      settings.push({ text: "[" + cat + "]", key: null });
      var seen = new Map();
      list.forEach(function (x) {
        var k = x.setting.key;
        if (seen.has(k) && seen.get(k).setting.value !== x.setting.value) {
          finding("setting-conflict", { key: seen.get(k).key, other: x.key, setting: x.setting, was: seen.get(k).setting.value });
        }
        if (!seen.has(k)) {
          seen.set(k, x);
        } else if (seen.get(k).setting.value === x.setting.value) {
          return; // asked again for the same value: one line says it
        }
        settings.push({ text: k + " = " + x.setting.value, key: x.key });
      });
    });
    // Downloads, with the publisher's stated digests.
    var downloads = [], sums = [], seenSum = new Set();
    ordered.forEach(function (e) {
      e.c.artifacts.forEach(function (a) {
        downloads.push({ key: e.key, artifact: a, folder: e.folder });
        if (a.sha256 && !seenSum.has(a.sha256 + "  " + a.filename)) {
          seenSum.add(a.sha256 + "  " + a.filename);
          sums.push({ text: a.sha256 + "  " + a.filename, key: e.key });
        }
      });
    });
    return { entries: ordered, asks: asks, findings: findings, cfg: cfgLines, settings: settings, downloads: downloads, sums: sums, root: root };
  }

  // text writes lines as a file's text, each run of one source's lines after one comment
  // naming it (label(key) gives the words; a line of no source, such as a settings.cfg
  // category, ends a run), and a line whose order is not declared after a comment saying
  // so. compute decides the runs: this is the one place a source's comment is written.
  function text(lines, label, header) {
    var out = header ? header.slice() : [], last = null;
    lines.forEach(function (l) {
      var who = l.key === null ? (l.base ? "\n" : null) : l.key;
      if (who !== null && who !== last) {
        out.push("# " + (l.key === null ? "The base game's own files" : label(l.key)));
      }
      if (l.undeclared) {
        out.push("# (no manifest declares the order of the next line against the content= line before it)");
      }
      out.push(l.text);
      last = who;
    });
    return out.join("\n") + (out.length ? "\n" : "");
  }

  // ---- The data ----

  // addClaims adds to data ({claims, projects}, tables made with Object.create(null)) the
  // claims of one part (shards.js claimsOf's table) the planner plans: those with a release,
  // each by key and under its project id (keys sorted). A part holds every claim of its
  // project ids, so a project's keys are complete once its part is added.
  function addClaims(data, claims) {
    Object.keys(claims).forEach(function (key) {
      var c = claims[key];
      if (!c.release) {
        return;
      }
      data.claims[key] = c;
      var keys = own(data.projects, c.project);
      if (!keys) {
        keys = data.projects[c.project] = [];
      }
      keys.push(key);
      keys.sort();
    });
  }
  // settleTargets leaves out of the relationships of data's claims the targets the planner
  // cannot add: claims without a release, known once loaded(key) says the part holding key
  // is added and the claim is not in data. A target whose part is not loaded yet stays.
  function settleTargets(data, loaded) {
    Object.keys(data.claims).forEach(function (key) {
      data.claims[key].relationships.forEach(function (rel) {
        rel.targets = rel.targets.filter(function (t) { return own(data.claims, t) !== undefined || !loaded(t); });
      });
    });
  }

  return {
    addClaims: addClaims, settleTargets: settleTargets,
    parseFragment: parseFragment, fragment: fragment, compute: compute, problems: problems, valid: valid,
    toggle: toggle, initialSelection: initialSelection, folderName: folderName, quotePath: quotePath, text: text,
    topo: topo, baseContent: baseContent, baseArchives: baseArchives
  };
});
