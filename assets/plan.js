// The install planner's engine (SPEC section 7): from the projects a player chose and what
// their publishers declare (the plan page's data parts), every required project, each
// release's component selection, the openmw.cfg lines, settings.cfg values and downloads,
// each traced to its claim, and every finding. Every line goes through openmwcfg.js write.
// It touches neither page nor network: planpage.js draws it, node tests it, and the
// installer runs it in Go (assets/engine). It never chooses for the player: two sites of one
// project id, several providers of a capability, two values of one setting are asks.
// Publisher and player text are keys here, so every keyed table is a Map or a Set.
//
// compute(data, req) returns {entries, asks, findings, cfg, base, settings, sums, downloads,
// root, install}:
//   entries, in dependency order: {key, c (the claim), why ({added} or {by, rel}), deps,
//     sel (a Set of component ids), initial, valid, refused, folder}.
//   asks: {kind "identity" | "capability" | "setting", by, project, capability, category,
//     setting, options (claim keys), values (a setting's, by option)}.
//   findings: {kind, key?, other?, ...}; "refused" {key, field, value (as shown), reason};
//     "link" {field, value, reason}.
//   cfg, base (the base game's), settings, sums: lines {text, key (null: base game or a
//     category), base, undeclared}. downloads: {key, artifact, folder}. root: the mods folder.
//   install, one per entry in load order: {key, project, site, name, version, folder, path,
//     installs, valid, refused, requires (keys), critical_extensions, components [{id, path,
//     folder}], artifacts [{id, format, filename, size, sha256, platform, sources [{url, kind,
//     name}]}] (those written), lines}; an entry not valid, refused or without openmw
//     extension has no components and no lines.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api(require("./version.js"), require("./openmwcfg.js"), require("./shards.js"));
  } else {
    window.AshyamsPlan = api(window.DreamWeaveVersion, window.OpenMWCfg, window.AshyamsShards);
  }
})(function (V, cfg, S) {
  "use strict";
  var fold = cfg.fold;
  // The base game's own files, in their load order, and its archives.
  var baseContent = ["Morrowind.esm", "Tribunal.esm", "Bloodmoon.esm"];
  var baseArchives = ["Morrowind.bsa", "Tribunal.bsa", "Bloodmoon.bsa"];
  var defaultRoot = "/path/to/your/mods";

  function own(obj, k) {
    return obj && Object.prototype.hasOwnProperty.call(obj, k) ? obj[k] : undefined;
  }
  // push adds v to the list m holds under k.
  function push(m, k, v) {
    var l = m.get(k);
    if (!l) {
      m.set(k, l = []);
    }
    l.push(v);
  }

// A plan link's bounds (list values, characters of a value, root, version; parts): what is
// over them is refused and said, so a link of any length plans at once.
  var caps = { add: 100, on: 400, off: 400, set: 100, value: 200, root: 400, openmw: 40, lua: 40, platform: 40, parts: 32 };

// parseFragment reads #add=<id>[,<id>@<site>...]&openmw=<v>&lua=<v>&root=<folder>&base=0
// &platform=<platformOf token>&on=<id>:<component>,...&off=...&set=<id>[<category>]<key>,...
// by scanning. Each list value is decoded alone, so it may hold an encoded ",". Refusals
// are in refused [{field, value (as shown), reason}].
  function parseFragment(hash) {
    var req = { add: [], openmw: "", lua: "", root: "", base: true, platform: "", on: [], off: [], set: [], refused: [] };
    var s = hash.charAt(0) === "#" ? hash.slice(1) : hash;
    function no(field, value, reason) {
      req.refused.push({ field: field, value: cfg.shown(value), reason: reason });
    }
    // decode is raw decoded, or null (said) when it does not decode or is over max characters.
    function decode(k, raw, max) {
      var v = null;
      if (raw.length <= 9 * max) {
        try {
          v = V.trim(decodeURIComponent(raw));
        } catch (e) {
          no(k, raw, "does not decode (a stray %)");
          return null;
        }
      }
      if (v === null || v.length > max) {
        no(k, raw, "is longer than " + max + " characters");
        return null;
      }
      return v;
    }
    var kvs = s === "" ? [] : s.split("&", caps.parts + 1);
    if (kvs.length > caps.parts) {
      no("link", "", "has more than " + caps.parts + " parts; the rest was not read");
      kvs.pop();
    }
    kvs.forEach(function (kv) {
      var eq = kv.indexOf("="), k = eq < 0 ? kv : kv.slice(0, eq), raw = eq < 0 ? "" : kv.slice(eq + 1);
      if (k === "add" || k === "on" || k === "off" || k === "set") {
        var items = raw === "" ? [] : raw.split(",", caps[k] + 1);
        items.forEach(function (item) {
          var v = decode(k, item, caps.value);
          if (v && req[k].length >= caps[k]) {
            no(k, v, "is past the first " + caps[k] + " values, which are all a link may hold");
          } else if (v) {
            req[k].push(v);
          }
        });
      } else if (k === "openmw" || k === "lua" || k === "root" || k === "platform") {
        req[k] = decode(k, raw, caps[k]) || "";
      } else if (k === "base") {
        req.base = raw !== "0" && raw !== "no";
      } else if (k !== "") {
        no(k, raw, "is not a part of a plan link");
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
    ["add", "openmw", "lua", "root", "base", "platform", "on", "off", "set"].forEach(function (k) {
      var v = req[k];
      if (k === "base" ? !v : Array.isArray(v) ? v.length : v) {
        parts.push(k + "=" + (k === "base" ? "0" : Array.isArray(v) ? v.map(enc).join(",") : enc(v)));
      }
    });
    return parts.length ? "#" + parts.join("&") : "";
  }

// folderName is the project's folder under the mods folder (openmwcfg.js, so the setup
// check knows it).
  function folderName(c) {
    return cfg.folderName(c.name, c.project);
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
  // membersOf maps each group id of c to its components, in component order.
  function membersOf(c) {
    var m = new Map();
    c.components.forEach(function (comp) { push(m, comp.group, comp); });
    return m;
  }

// problems lists why sel (a Set of component ids) is not a valid selection of c's release
// (a required one left out, a group's rule broken, requires missing, conflicts present).
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

// toggle returns sel with component id on (with what it requires, the rest of a one-only
// group off) or off (with what requires it), or null when that is not valid: the page
// offers only what toggle allows.
  function toggle(c, sel, id, on) {
    var comps = compMap(c), groups = groupMap(c), members = membersOf(c), s = new Set(sel);
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
          members.get(comp.group).forEach(function (o) {
            if (o.id !== x) {
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
      var by = new Map(), off = [id]; // component id -> the components requiring it
      c.components.forEach(function (o) {
        o.requires.forEach(function (r) { push(by, r, o.id); });
      });
      while (off.length) {
        var y = off.pop();
        s.delete(y);
        (by.get(y) || []).forEach(function (z) {
          if (s.has(z)) {
            off.push(z);
          }
        });
      }
    }
    return valid(c, s) ? s : null;
  }

// initialSelection is the release's offer: required and default components, and those
// suggested with a planned project.
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
    // Still invalid: fill each group that needs a member with its first, drop extras.
    var byGroup = membersOf(c);
    c.groups.forEach(function (g) {
      var members = byGroup.get(g.id) || [];
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
    // Still invalid: the valid selection nearest the defaults (fewest changes, then first
    // in component order), tried exhaustively for few components; none found, none exists.
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

// Heap is a binary min-heap of [priority list, value]: ready nodes go lowest priority
// first, so an order is the same on every run.
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

// topo orders nodes 0..n-1 along edges [from, to], lowest priority first among the ready:
// {order, cyclic, out}, nodes on or after a cycle appended in priority order.
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
  // ---- The plan, in phases over one state p ----

// resolve plans what the player added (site-named claims first: they settle bare ids)
// and, by a worklist, each requirement with one candidate; then settles each requirement:
// met (deps), missing, or an ask.
  function resolve(p) {
    var data = p.data, queue = [], bare = [];
    function add(key, why) {
      var c = own(data.claims, key), have = c && p.byProject.get(c.project);
      if (!c || p.entries.has(key)) {
        return;
      }
      if (have !== undefined) {
        if (why.added) {
          p.finding("two-claims", { key: have, other: key });
        }
        return;
      }
      var e = { key: key, c: c, why: why, deps: [], settled: new Map(), sel: null, valid: true, refused: [] };
      p.entries.set(key, e);
      p.byProject.set(c.project, key);
      queue.push(e);
    }
    p.req.add.forEach(function (t) {
      var at = t.indexOf("@"), key = t.slice(0, at) + "/" + t.slice(at + 1);
      if (at < 0) {
        bare.push(t);
      } else if (!own(data.claims, key)) {
        p.finding("not-found", { token: t });
      } else {
        add(key, { added: true });
      }
    });
    bare.forEach(function (t) {
      var keys = own(data.projects, t) || [];
      if (!keys.length) {
        p.finding("not-found", { token: t });
      } else if (keys.length === 1) {
        add(keys[0], { added: true });
      } else if (!p.byProject.has(t)) {
        p.asks.push({ kind: "identity", project: t, options: keys, by: null });
      }
    });
    for (var i = 0; i < queue.length; i++) {
      queue[i].c.relationships.forEach(function (rel) {
        if (rel.kind === "requires" && rel.targets.length === 1) {
          add(rel.targets[0], { by: queue[i].key, rel: rel });
        }
      });
    }
    p.entries.forEach(function (e) {
      var deps = new Set();
      e.c.relationships.forEach(function (rel, i) {
        var met = rel.targets.filter(function (t) { return p.entries.has(t); }), one = own(data.claims, rel.targets[0]);
        if (rel.kind !== "requires") {
          return;
        }
        if (met.length) {
          e.settled.set(i, met);
          met.forEach(function (t) {
            if (t !== e.key) {
              deps.add(t);
            }
          });
        } else if (rel.targets.length === 1 && one) {
          // the one candidate is a project id already planned from another site
          p.finding("two-claims", { key: p.byProject.get(one.project), other: rel.targets[0] });
        } else if (rel.targets.length < 2) {
          p.finding("missing", { key: e.key, rel: rel });
        } else {
          p.asks.push({ kind: rel.capability && !rel.project ? "capability" : "identity", project: rel.project || "",
            capability: rel.capability || "", options: rel.targets, by: e.key, rel: rel });
        }
      });
      e.deps = Array.from(deps);
    });
  }

// relations finds version constraints (under each target's scheme), conflicts,
// recommendations, runtimes, statuses and releases OpenMW cannot load.
  function relations(p) {
    var req = p.req, openmw = p.openmw = req.openmw ? V.parse(req.openmw, "numeric") : null, lua = req.lua ? V.parse(req.lua, "numeric") : null;
    if (req.openmw && !openmw) {
      p.finding("bad-version", { what: "openmw", text: req.openmw });
    }
    if (req.lua && !lua) {
      p.finding("bad-version", { what: "lua", text: req.lua });
    }
    p.entries.forEach(function (e) {
      e.c.relationships.forEach(function (rel, i) {
        (rel.version && e.settled.get(i) || []).forEach(function (t) {
          var tc = own(p.data.claims, t), cons = V.parseConstraint(rel.version, tc.scheme);
          var v = tc.release ? V.parse(tc.release.version, tc.scheme) : null;
          if (!cons || !v) {
            p.finding("version-unchecked", { key: e.key, other: t, rel: rel });
          } else if (!V.satisfies(cons, v)) {
            p.finding("version", { key: e.key, other: t, rel: rel, version: tc.release.version });
          }
        });
        if (rel.kind === "conflicts") {
          rel.targets.forEach(function (t) {
            if (t !== e.key && p.entries.has(t)) {
              p.finding("conflict", { key: e.key, other: t, rel: rel });
            }
          });
        } else if (rel.kind === "recommends" && !rel.targets.some(function (t) { return p.entries.has(t); })) {
          p.finding("recommends", { key: e.key, rel: rel });
        }
      });
      [["openmw", e.c.openmw, openmw, "runtime"], ["lua", e.c.lua_api, lua, "lua"]].forEach(function (x) {
        var cons = x[1] && x[2] ? V.parseConstraint(x[1], "numeric") : true;
        if (!cons) {
          p.finding(x[3] + "-unchecked", { key: e.key, constraint: x[1] });
        } else if (cons !== true && !V.satisfies(cons, x[2])) {
          p.finding(x[3], { key: e.key, constraint: x[1], version: req[x[0]] });
        }
      });
      if (e.c.release && e.c.release.status !== "available") {
        p.finding("release-status", { key: e.key, status: e.c.release.status });
      }
      if (!e.c.installs) {
        p.finding("no-openmw", { key: e.key });
      }
    });
  }

// order puts the entries in dependency order (p.ordered; e.order its place).
  function order(p) {
    var list = Array.from(p.entries.values()), pos = new Map(), edges = [];
    list.forEach(function (e, i) { pos.set(e.key, i); });
    list.forEach(function (e, i) {
      e.deps.forEach(function (d) { edges.push([pos.get(d), i]); });
    });
    p.pt = topo(list.length, edges, function (i) { return [i]; });
    if (p.pt.cyclic.length) {
      p.finding("cycle", { keys: p.pt.cyclic.map(function (i) { return list[i].key; }) });
    }
    p.ordered = p.pt.order.map(function (i) { return list[i]; });
    p.ordered.forEach(function (e, i) { e.order = i; });
  }

// select makes each selection: the release's offer, then the link's on= and off=, each
// kept only while the selection stays valid.
  function select(p) {
    var on = new Map(), off = new Map(), planned = new Set(p.byProject.keys());
    [[p.req.on, on], [p.req.off, off]].forEach(function (x) {
      x[0].forEach(function (t) {
        var colon = t.indexOf(":");
        if (colon >= 0) {
          push(x[1], t.slice(0, colon), t.slice(colon + 1));
        }
      });
    });
    p.ordered.forEach(function (e) {
      var c = e.c, s = initialSelection(c, planned), ons = on.get(c.project) || [], offs = off.get(c.project) || [];
      e.initial = new Set(s);
      var direct = new Set(s);
      ons.forEach(function (id) { direct.add(id); });
      offs.forEach(function (id) { direct.delete(id); });
      if (valid(c, direct)) {
        s = direct;
      } else {
        [[ons, true], [offs, false]].forEach(function (x) {
          x[0].forEach(function (id) {
            var t = toggle(c, s, id, x[1]);
            if (t) {
              s = t;
            } else {
              p.finding("selection-refused", { key: e.key, component: id, on: x[1] });
            }
          });
        });
      }
      e.sel = s;
      var ps = problems(c, s);
      if (ps.length) {
        e.valid = false;
        p.finding("no-valid-selection", { key: e.key, problems: ps });
      }
    });
  }

// write writes each valid entry's selected components' lines through the writer, in
// component order. A refused value means no line for its claim, and a finding. A line is
// written once; a file declared again, or the base game's, is a finding, as is a line the
// player's OpenMW is too old for. Content files become p.files, the content order's nodes.
  function write(p) {
    var root = p.req.root || defaultRoot, r = cfg.path(root, []);
    if (r.refused) {
      p.finding("refused", { key: null, field: "root", value: cfg.shown(root), reason: r.refused.reason });
      root = defaultRoot;
    }
    p.root = cfg.path(root, []).text;
    p.lines = { data: [], "fallback-archive": [], content: [], groundcover: [], fallback: [], config: [] };
    p.files = [];
    p.seenFile = new Map();
    var seen = new Map(); // kind "\n" line or folded file -> the key that wrote it (null: the base game)
    if (p.req.base) {
      baseContent.forEach(function (f) { seen.set("content\n" + fold(f), null); });
      baseArchives.forEach(function (a) { seen.set("fallback-archive\n" + fold(a), null); });
    }
    p.ordered.forEach(function (e) {
      var f = cfg.path(root, [["id", folderName(e.c)]]), out = [];
      e.folder = f.text || root;
      function put(kind, v, file, comp, ci, fi) {
        var w = cfg.write(kind, v);
        if (w.refused) {
          e.refused.push(w.refused);
        } else {
          out.push({ kind: kind, text: w.text, file: file, comp: comp, ci: ci, fi: fi });
        }
      }
      if (f.refused) {
        e.refused.push(f.refused);
      }
      (e.valid && e.c.installs ? e.c.components : []).forEach(function (comp, ci) {
        var v = { root: root, folder: folderName(e.c), path: comp.path };
        if (!e.sel.has(comp.id)) {
          return;
        }
        comp.data.forEach(function (d) { put("data", { root: root, folder: v.folder, path: comp.path, dir: d }); });
        comp.archives.forEach(function (a) { put("fallback-archive", { name: a }, a); });
        comp.groundcover.forEach(function (g) { put("groundcover", { name: g }, g); });
        comp.fallback.forEach(function (kv) { put("fallback", { key: kv[0], value: kv[1] }); });
        if (comp.config) {
          put("config", v);
        }
        comp.content.forEach(function (name, fi) { put("content", { name: name }, name, comp, ci, fi); });
      });
      e.refused.forEach(function (x) {
        p.finding("refused", { key: e.key, field: x.field, value: cfg.shown(x.value), reason: x.reason });
      });
      var prev = -1;
      (e.refused.length ? [] : out).forEach(function (l) {
        var k = l.kind + "\n" + (l.file === undefined ? l.text : fold(l.file));
        if (seen.has(k)) {
          var by = seen.get(k);
          if (l.file !== undefined) {
            p.finding(by === null ? "base-file" : "same-file", { key: by === null ? e.key : by, other: e.key, file: l.file });
          }
          return;
        }
        seen.set(k, e.key);
        var need = cfg.since(l.kind, l.file || "");
        if (need && p.openmw && V.compare(p.openmw, V.parse(need, "numeric")) < 0) {
          p.finding("too-old", { key: e.key, line: l.text, what: l.kind, need: need });
        }
        if (l.kind !== "content") {
          p.lines[l.kind].push({ text: l.text, key: e.key });
          return;
        }
        var node = { text: l.text, file: l.file, folded: fold(l.file), key: e.key, e: e, comp: l.ci, idx: l.fi, at: p.files.length,
          prev: prev >= 0 && p.files[prev].comp === l.ci ? prev : -1, needs: l.comp.requires_content };
        p.seenFile.set(node.folded, node);
        prev = p.files.length;
        p.files.push(node);
      });
    });
  }

// content orders the content files topologically. Nodes: the base game's files, the
// planned files, a start and an end per project. Edges: base game first, a component's
// files in order, requires_content before its needers, a required project's files before
// its requirers'. Lines go to p.base and p.lines.content; one whose order against the line
// before it nothing declares is undeclared.
  function content(p) {
    var base = p.req.base ? baseContent : [], files = p.files, nb = base.length, nf = files.length;
    var edges = [], baseIdx = new Map(), missing = new Set(), needsBase = new Set(), isBase = new Set(baseContent.map(fold));
    var startOf = function (e) { return nb + nf + 2 * e.order; };
    base.forEach(function (b, i) {
      baseIdx.set(fold(b), i);
      if (i > 0) {
        edges.push([i - 1, i]);
      }
    });
    p.ordered.forEach(function (e) {
      if (nb) {
        edges.push([nb - 1, startOf(e)]);
      }
      edges.push([startOf(e), startOf(e) + 1]);
      e.deps.forEach(function (d) {
        var de = p.entries.get(d);
        if (de.order < e.order || !p.pt.cyclic.length) {
          edges.push([startOf(de) + 1, startOf(e)]);
        }
      });
    });
    files.forEach(function (f, i) {
      var n = nb + i;
      edges.push([startOf(f.e), n], [n, startOf(f.e) + 1]);
      if (f.prev >= 0) {
        edges.push([nb + f.prev, n]);
      }
      f.e.c.requires_content.concat(f.needs).forEach(function (need) {
        var k = fold(need);
        if (isBase.has(k) && !nb) {
          needsBase.add(f.key);
        }
        if (k === f.folded) {
          return;
        } else if (baseIdx.has(k)) {
          edges.push([baseIdx.get(k), n]);
        } else if (p.seenFile.has(k)) {
          edges.push([nb + p.seenFile.get(k).at, n]);
        } else if (!missing.has(f.key + "\n" + k) && (nb || !isBase.has(k))) {
          missing.add(f.key + "\n" + k);
          p.finding("needs-content", { key: f.key, need: need, file: f.file });
        }
      });
    });
    needsBase.forEach(function (k) { p.finding("needs-base", { key: k }); });
    var ct = topo(nb + nf + 2 * p.ordered.length, edges, function (i) {
      var f = files[i - nb], q = i - nb - nf;
      return i < nb ? [-1, i] : f ? [f.e.order, 1, f.comp, f.idx] : [q >> 1, q & 1 ? 2 : 0];
    });
    var cyc = ct.cyclic.filter(function (i) { return i >= nb && i < nb + nf; });
    if (cyc.length) {
      p.finding("content-cycle", { files: cyc.map(function (i) { return files[i - nb].file; }) });
    }
    var pos = [], prev = -1;
    ct.order.forEach(function (x, i) { pos[x] = i; });
    // reaches: a path from a to b through nodes ordered between them; consecutive lines'
    // walks share no node, so all together are linear.
    function reaches(a, b) {
      var seen = new Set([a]), todo = [a];
      while (todo.length) {
        var x = todo.pop();
        if (x === b) {
          return true;
        }
        ct.out[x].forEach(function (y) {
          if (!seen.has(y) && pos[y] > pos[a] && pos[y] <= pos[b]) {
            seen.add(y);
            todo.push(y);
          }
        });
      }
      return false;
    }
    p.base = nb ? baseArchives.map(function (a) { return { text: "fallback-archive=" + a, key: null, base: true }; }) : [];
    ct.order.forEach(function (i) {
      if (i < nb) {
        p.base.push({ text: "content=" + base[i], key: null, base: true });
      } else if (i < nb + nf) {
        p.lines.content.push({ text: files[i - nb].text, key: files[i - nb].key, undeclared: prev >= 0 && !reaches(prev, i) || undefined });
      } else {
        return;
      }
      prev = i;
    });
  }

// merge writes p.cfg: each claim's lines as one run where the content order allows, each
// key's lines in their order (openmw.cfg reads each key as one list).
  function merge(p) {
    var kinds = ["data", "fallback-archive", "content", "groundcover", "fallback", "config"], head = kinds.map(function () { return 0; });
    var rank = function (l) { return p.entries.get(l.key).order; };
    p.cfg = [];
    for (;;) {
      var best = null;
      kinds.forEach(function (k, i) {
        var l = p.lines[k][head[i]];
        if (l && (best === null || rank(l) < best)) {
          best = rank(l);
        }
      });
      if (best === null) {
        return;
      }
      kinds.forEach(function (k, i) {
        while (head[i] < p.lines[k].length && rank(p.lines[k][head[i]]) === best) {
          p.cfg.push(p.lines[k][head[i]++]);
        }
      });
    }
  }

// settings writes p.settings by category, first asked first, a line per key; a key asked
// different values is an ask until the player chooses (set=<project>[<category>]<key>).
  function settings(p) {
    var cats = new Map(), chosen = new Map();
    p.req.set.forEach(function (t) {
      var i = t.indexOf("["), j = t.indexOf("]", i);
      if (i > 0 && j > i) {
        chosen.set(t.slice(i + 1, j) + "\n" + t.slice(j + 1), t.slice(0, i));
      }
    });
    p.ordered.forEach(function (e) {
      (e.valid && !e.refused.length ? e.c.settings : []).forEach(function (s) {
        var c = cfg.write("category", s), w = c.refused ? c : cfg.write("setting", s);
        if (w.refused) {
          p.finding("refused", { key: e.key, field: w.refused.field, value: cfg.shown(w.refused.value), reason: w.refused.reason });
          return;
        }
        if (!cats.has(s.category)) {
          cats.set(s.category, { line: c.text, keys: new Map() });
        }
        push(cats.get(s.category).keys, s.key, { e: e, value: s.value, text: w.text });
      });
    });
    p.settings = [];
    cats.forEach(function (cat, name) {
      var head = { text: cat.line, key: null };
      cat.keys.forEach(function (asked, k) {
        var values = new Map(), pick = chosen.get(name + "\n" + k);
        asked.forEach(function (a) {
          if (!values.has(a.value)) {
            values.set(a.value, a);
          }
        });
        var one = values.size === 1 ? asked[0] : asked.filter(function (a) { return a.e.c.project === pick; })[0];
        if (!one) {
          var opts = Array.from(values.values());
          p.asks.push({ kind: "setting", category: name, setting: k, by: null,
            options: opts.map(function (a) { return a.e.key; }), values: opts.map(function (a) { return a.value; }) });
          return;
        }
        if (head) {
          p.settings.push(head);
          head = null;
        }
        p.settings.push({ text: one.text, key: one.e.key });
      });
    });
  }

// platformOf is an artifact's platform, os-arch[-variant]: "" for any, null for a variant
// this client does not know.
  function platformOf(a) {
    var f = a.platform;
    return !f ? "" : f.variant && f.variant !== "portmaster" && f.variant !== "muos" ? null : f.os + "-" + f.arch + (f.variant ? "-" + f.variant : "");
  }

// downloads lists each entry's artifacts for the chosen platform (platform=) and their
// SHA256SUMS lines, each once; a project with no build for it, and a refused artifact, are
// findings.
  function downloads(p) {
    var seen = new Set(), want = p.req.platform;
    p.downloads = [];
    p.sums = [];
    p.took = new Map(); // key -> the artifacts the writer took
    p.ordered.forEach(function (e) {
      var builds = 0, mine = 0;
      e.c.artifacts.forEach(function (a) {
        var f = platformOf(a);
        builds += f ? 1 : 0;
        if (f === null || want && f && f !== want) {
          return;
        }
        mine += f ? 1 : 0;
        var w = cfg.write("sum", a);
        p.downloads.push({ key: e.key, artifact: a, folder: e.folder });
        if (!w.refused) {
          push(p.took, e.key, a);
        }
        if (w.refused) {
          p.finding("refused", { key: e.key, field: w.refused.field, value: cfg.shown(w.refused.value), reason: w.refused.reason });
        } else if (!seen.has(w.text)) {
          seen.add(w.text);
          p.sums.push({ text: w.text, key: e.key });
        }
      });
      if (want && builds && !mine) {
        p.finding("platform", { key: e.key, platform: want });
      }
    });
  }

// install is the installer's view of the plan (shape above).
  function install(p) {
    var lines = new Map();
    p.cfg.forEach(function (l) { push(lines, l.key, l.text); });
    return p.ordered.map(function (e) {
      var c = e.c, ok = e.valid && c.installs && !e.refused.length;
      return { key: e.key, project: c.project, site: c.site, name: c.name, version: c.release ? c.release.version : "",
        folder: folderName(c), path: e.folder, installs: c.installs, valid: e.valid, refused: e.refused, requires: e.deps,
        critical_extensions: c.critical_extensions || [],
        components: c.components.filter(function (comp) { return ok && e.sel.has(comp.id); }).map(function (comp) {
          return { id: comp.id, path: comp.path, folder: cfg.path("/", [["id", folderName(c)], ["path", comp.path]]).text.slice(1) };
        }),
        artifacts: (p.took.get(e.key) || []).map(function (a) {
          return { id: a.id, format: a.format, filename: a.filename, size: a.size, sha256: a.sha256, platform: a.platform || null,
            sources: a.sources.map(function (s) { return { url: s.url, kind: s.kind, name: s.name || "" }; }) };
        }),
        lines: ok ? lines.get(e.key) || [] : [] };
    });
  }

// compute plans req (parseFragment's shape) over data; same input, same plan.
  function compute(data, req) {
    var p = { data: data, req: req, findings: [], asks: [], entries: new Map(), byProject: new Map() };
    p.finding = function (kind, f) {
      f.kind = kind;
      p.findings.push(f);
    };
    req.set = req.set || [];
    (req.refused || []).forEach(function (r) { p.finding("link", { field: r.field, value: r.value, reason: r.reason }); });
    [resolve, relations, order, select, write, content, merge, settings, downloads].forEach(function (phase) { phase(p); });
    return { entries: p.ordered, asks: p.asks, findings: p.findings, cfg: p.cfg, base: p.base, settings: p.settings,
      downloads: p.downloads, sums: p.sums, root: p.root, install: install(p) };
  }

// text writes lines as a file, each run of one source's lines after a comment naming it
// (label(key)); an undeclared line gets a comment of its own. The one writer of those.
  function text(lines, label, header) {
    var out = header ? header.slice() : [], last = null;
    lines.forEach(function (l) {
      var who = l.key === null ? (l.base ? "\n" : null) : l.key;
      if (who !== null && who !== last) {
        out.push(cfg.write("comment", { text: l.key === null ? "The base game's own files" : label(l.key) }).text);
      }
      if (l.undeclared) {
        out.push("# (no manifest declares the order of the next line against the content= line before it)");
      }
      out.push(l.text);
      last = who;
    });
    return out.join("\n") + (out.length ? "\n" : "");
  }

// label names claim c: "<name> <version> from <site>".
  function label(c) {
    return c.name + " " + (c.release ? c.release.version : "") + " from " + c.site_name;
  }

  // ---- The data ----

// addClaims adds a part's claims (claimsOf's table) that have a release to data, by key
// and under their project id (keys sorted). A part holds all of its project ids' claims.
  function addClaims(data, claims) {
    var touched = new Set();
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
      touched.add(keys);
    });
    touched.forEach(function (keys) { keys.sort(); });
  }
// settleTargets drops from data's relationships the targets that have no release, known
// once loaded(key) says their part is added.
  function settleTargets(data, loaded) {
    Object.keys(data.claims).forEach(function (key) {
      data.claims[key].relationships.forEach(function (rel) {
        rel.targets = rel.targets.filter(function (t) { return own(data.claims, t) !== undefined || !loaded(t); });
      });
    });
  }
// parts lists the parts (claimPart, prefix characters) the plan of req reads that
// loaded(name) says are not added: the added projects', and transitively their
// relationships' targets'. Callers add them and ask again until none is left; the walk is
// a worklist kept on data, so each round goes on from the claims the last one waited for.
  var walks = new WeakMap(); // data -> the last walk
  function parts(data, req, prefix, loaded) {
    var id = prefix + "\n" + req.add.join("\n"), w = walks.get(data);
    if (!w || w.id !== id) {
      w = { id: id, seen: new Set(), todo: [], bare: [] };
      walks.set(data, w);
      req.add.forEach(function (t) {
        var at = t.indexOf("@");
        if (at < 0) {
          w.bare.push(t);
        } else {
          w.todo.push(t.slice(0, at) + "/" + t.slice(at + 1));
        }
      });
    }
    var want = new Set(), todo = w.todo, waiting = [];
    function need(id) {
      var n = S.claimPart(id, prefix);
      if (n.length === prefix + 1 && /^c[0-9a-f]*$/.test(n) && !loaded(n)) {
        want.add(n);
        return true;
      }
      return false;
    }
    req.add.forEach(function (t) {
      var at = t.indexOf("@");
      need(at < 0 ? t : t.slice(0, at));
    });
    // A bare project id waits for its part, which holds all its claims.
    w.bare = w.bare.filter(function (t) {
      var keys = own(data.projects, t) || [];
      keys.forEach(function (k) { todo.push(k); });
      return !keys.length && need(t);
    });
    while (todo.length) {
      var k = todo.pop(), c = own(data.claims, k);
      if (!c) {
        if (need(k.slice(0, k.indexOf("/")))) {
          waiting.push(k); // read again once its part is added
        }
        continue;
      }
      if (w.seen.has(k)) {
        continue;
      }
      w.seen.add(k);
      c.relationships.forEach(function (rel) { rel.targets.forEach(function (t) { todo.push(t); }); });
    }
    w.todo = waiting;
    return Array.from(want);
  }

  return { addClaims: addClaims, settleTargets: settleTargets, parts: parts, parseFragment: parseFragment,
    fragment: fragment, compute: compute, toggle: toggle, text: text, label: label, platformOf: platformOf };
});
