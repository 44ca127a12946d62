// Runs cases against the site's script engines in node, for assets/engines_test.go: reads
// {cases: [{fn, args}]} on stdin, calls the function each names, and prints {results, ms} on
// stdout: one result and the milliseconds it took per case. An argument {"$repeat": [prefix,
// unit, count, suffix]} stands for prefix + unit repeated count times + suffix, so a test can
// send megabytes without writing them out. The Go test decides what each result should be.
"use strict";
var path = require("path");
var V = require(path.join(__dirname, "..", "version.js"));
var cfg = require(path.join(__dirname, "..", "openmwcfg.js"));
var setup = require(path.join(__dirname, "..", "setupcheck.js"));
var shards = require(path.join(__dirname, "..", "shards.js"));
var find = require(path.join(__dirname, "..", "find.js"));
var plan = null;
try {
  plan = require(path.join(__dirname, "..", "plan.js"));
} catch (e) {
  if (e.code !== "MODULE_NOT_FOUND") {
    throw e;
  }
}

function canonical(v) {
  return v ? v.release.join(".") + (v.pre.length ? "-" + v.pre.join(".") : "") + (v.build ? "+" + v.build : "") : null;
}
function constraintString(c) {
  if (!c) {
    return null;
  }
  return c.any ? "*" : c.comparators.map(function (x) { return x.op + canonical(x.version); }).join(", ");
}
// short keeps a long string's length and ends, so a result stays small.
function short(s) {
  return typeof s === "string" && s.length > 1000 ? s.slice(0, 30) + "..." + s.length + "..." + s.slice(-30) : s;
}
function mapObject(m) {
  var o = {};
  m.forEach(function (v, k) { o[k] = short(v); });
  return o;
}

var fns = {
  "version.parse": function (s, scheme) { return short(canonical(V.parse(s, scheme))); },
  "version.compare": function (a, b, scheme) {
    var x = V.parse(a, scheme), y = V.parse(b, scheme);
    return x && y ? V.compare(x, y) : null;
  },
  "version.constraint": function (s, scheme) { return short(constraintString(V.parseConstraint(s, scheme))); },
  "version.matches": function (c, v, scheme) { return V.matches(c, v, scheme); },
  "version.trim": function (s) { return short(V.trim(s)); },
  "cfg.parse": function (text) {
    var r = cfg.parse(text), o = { ignored: r.ignored.length, settings: r.settings, bom: r.bom, binary: r.binary, sawFiles: r.sawFiles, replaced: r.replaced,
      lost: r.lost ? r.lost.line + ":" + short(r.lost.text) : "" };
    ["content", "groundcover", "data", "data-local", "config", "fallback-archive", "fallback"].forEach(function (k) {
      o[k] = r[k].map(function (e) {
        return e.line + ":" + short(e.value) + (k === "fallback" ? "|" + short(e.key) + "|" + short(e.val) : "") + (e.cut !== undefined ? "|cut " + short(e.cut) : "");
      });
    });
    return o;
  },
  "cfg.unquotePath": function (s) { return short(cfg.unquotePath(s)); },
  "cfg.fold": function (s) { return short(cfg.fold(s)); },
  "cfg.folderName": function (name, project) { return short(cfg.folderName(name, project)); },
  "cfg.dirParts": function (p) { return cfg.dirParts(p).length; },
  "find.words": function (s) { return find.words(s); },
  // find.match indexes texts (one per entry, ids[i] the project ids entry i is found by) and
  // returns, per query, the matching entries' numbers (null for a query of no word); the
  // same answers from the index as the build writes it (a terms part with postings as
  // base-36 gaps, and id parts by first character), or the string "differs".
  "find.match": function (texts, queries, ids) {
    var ix = find.fromTexts(texts, ids), gaps = function (p) {
      return p.map(function (n, i, a) { return (i ? n - a[i - 1] : n).toString(36); }).join(",");
    };
    var doc = find.fromTerms({format: "ashyams-find-terms-1", rows: texts.length, words: ix.terms, postings: ix.postings.map(gaps)});
    ix.ids.forEach(function (part, c) {
      var err = find.addIDs(doc, c, {format: "ashyams-find-ids-1", ids: part.terms, postings: part.postings.map(gaps)});
      if (err) {
        throw err;
      }
    });
    var answer = function (x, q) {
      var m = find.match(x, q);
      return m ? Array.from(m).map(function (v, i) { return v ? i : -1; }).filter(function (i) { return i >= 0; }) : null;
    };
    return queries.map(function (q) {
      var a = answer(ix, q), b = answer(doc, q);
      return JSON.stringify(a) === JSON.stringify(b) ? a : "differs";
    });
  },
  // find.best is the entries of texts query matches, the best first, at most limit.
  "find.best": function (texts, query, limit) {
    var m = find.match(find.fromTexts(texts), query);
    return m ? find.best(m, limit) : [];
  },
  // find.bestFirst is find.best with text put first in texts (a long text sent short).
  "find.bestFirst": function (text, texts, query, limit) {
    var m = find.match(find.fromTexts([text].concat(texts)), query);
    return m ? find.best(m, limit) : [];
  },
  // find.needs is the id parts a query reads, of an index holding none.
  "find.needs": function (query) {
    return find.needs(find.fromTerms({format: "ashyams-find-terms-1", rows: 0, words: [], postings: []}), query);
  },
  "find.fromTerms": function (d) { var r = find.fromTerms(d); return r instanceof Error ? r.message : "index"; },
  "find.addIDs": function (d) {
    var r = find.addIDs(find.fromTerms({format: "ashyams-find-terms-1", rows: 0, words: [], postings: []}), "a", d);
    return r instanceof Error ? r.message : "added";
  },
  "setup.bidiText": function (s) { return short(setup.bidiText(s)); },
  "setup.params": function (s) { return mapObject(setup.params(s)); },
  "setup.roundTrip": function (s) { return setup.decode(setup.encode(s)) === s; },
  "setup.decode": function (s) { return short(setup.decode(s)); },
  // setup.check runs the whole check (cfg text, the setup data, version) and returns the
  // findings by kind: [kind, claim key, file or need, line] each.
  "setup.check": function (data, text, openmw) {
    var f = setup.check(data, cfg.parse(text), openmw), out = [];
    f.matched.forEach(function (m) { out.push(["matched", m.keys.join(" "), m.file.name, m.file.line]); });
    f.unknown.forEach(function (m) { out.push(["unknown", "", m.file.name, m.file.line]); });
    f.base.forEach(function (m) { out.push(["base", "", m.file.name, m.file.line]); });
    f.archives.forEach(function (a) { out.push([a.base ? "base-archive" : a.keys.length ? "archive" : "archive-unknown", a.keys.join(" "), a.name, a.line]); });
    f.groundcover.forEach(function (g) { out.push([g.keys.length ? "groundcover" : "groundcover-unknown", g.keys.join(" "), g.name, g.line]); });
    f.folders.forEach(function (d) { out.push([d.what + "-" + (d.how || "unknown"), d.keys.join(" "), short(d.value), d.line]); });
    f.duplicates.forEach(function (d) { out.push(["duplicate", "", d.file.name, d.first.line]); });
    f.needs.forEach(function (n) { out.push([n.kind, n.key, n.need || (n.rel && (n.rel.project || n.rel.capability)) || "", 0]); });
    f.order.forEach(function (o) { out.push(["order", o.key, o.need, o.needAt.line]); });
    f.conflicts.forEach(function (c) { out.push(["conflict", c.key, c.other, 0]); });
    f.runtime.forEach(function (r) { out.push([r.kind, r.key || "", short(r.constraint || r.file.name), r.file ? r.file.line : 0]); });
    f.status.forEach(function (s) { out.push([s.kind, s.key, "", 0]); });
    return out;
  }
};
fns["shards.fnv1a"] = function (s) { return shards.fnv1a(s); };
fns["shards.namePart"] = function (s, n) { return shards.namePart(s, n); };
fns["shards.claimPart"] = function (s, n) { return shards.claimPart(s, n); };
if (plan) {
  // plan.compute runs the planner on a fragment and returns the plan as data: the entries in
  // order (key, selected components, valid, why), the findings and asks, and each output's
  // lines (openmw.cfg with "@key" or "@base" after each line, "!" before an undeclared one)
  // and the texts plan.text writes of them, each claim named by its key.
  fns["plan.compute"] = function (data, hash) {
    var p = plan.compute(data, plan.parseFragment(hash));
    function lines(ls) {
      return ls.map(function (l) { return (l.undeclared ? "!" : "") + l.text + " @" + (l.key === null ? (l.base ? "base" : "") : l.key); });
    }
    return {
      entries: p.entries.map(function (e) {
        return { key: e.key, sel: Array.from(e.sel).sort(), valid: e.valid, by: e.why.by || "", deps: e.deps.slice().sort() };
      }),
      findings: p.findings.map(function (f) { return { kind: f.kind, key: f.key || "", other: f.other || "", field: f.field || "", reason: f.reason || "",
        text: f.need || f.file || f.constraint || f.token || f.value || (f.keys || f.files || []).join(" ") || "" }; }),
      asks: p.asks.map(function (a) { return { kind: a.kind, by: a.by || "", options: a.options, values: a.values || [], setting: a.setting || "" }; }),
      cfg: lines(p.cfg), base: lines(p.base), settings: lines(p.settings), sums: lines(p.sums), install: p.install,
      text: plan.text(p.cfg, function (k) { return k; }),
      baseText: plan.text(p.base, function (k) { return k; }),
      settingsText: plan.text(p.settings, function (k) { return k; }),
      sumsText: plan.text(p.sums, function (k) { return k; }),
      fragment: plan.fragment(plan.parseFragment(hash))
    };
  };
  // plan.toggles tries every toggle of every component of every entry of a plan and returns
  // [key, component, on, result selection or null].
  fns["plan.toggles"] = function (data, hash) {
    var p = plan.compute(data, plan.parseFragment(hash)), out = [];
    p.entries.forEach(function (e) {
      e.c.components.forEach(function (comp) {
        [true, false].forEach(function (on) {
          var s = plan.toggle(e.c, e.sel, comp.id, on);
          out.push([e.key, comp.id, on, s ? Array.from(s).sort() : null]);
        });
      });
    });
    return out;
  };
}

function expand(a) {
  if (a && typeof a === "object" && !Array.isArray(a) && Array.isArray(a.$repeat)) {
    return a.$repeat[0] + a.$repeat[1].repeat(a.$repeat[2]) + a.$repeat[3];
  }
  return a;
}

var input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", function (d) { input += d; });
process.stdin.on("end", function () {
  var cases = JSON.parse(input).cases, ms = [];
  var results = cases.map(function (c) {
    var fn = fns[c.fn];
    if (!fn) {
      throw new Error("no function " + c.fn);
    }
    var args = c.args.map(expand);
    var t0 = process.hrtime.bigint();
    var r = fn.apply(null, args);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    return r === undefined ? null : r;
  });
  process.stdout.write(JSON.stringify({ results: results, ms: ms }));
});
