// The setup and plan pages' data parts (site/shards.go): which part holds a project's
// claims or a name, and loading parts as scripts of the site (the CSP allows no
// connection; file:// works too). A part calls AshyamsData(name, text), text its JSON, so
// "__proto__" stays a key; tables filled from parts have no prototype. Every page loads this
// file, so it also holds the pages' one element builder (elements).
(function (make) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = make(require("./openmwcfg.js"));
    return;
  }
  var api = window.AshyamsShards = make(window.OpenMWCfg), got = new Map();
  window.AshyamsData = function (name, text) {
    got.set(name, text);
  };
  api.taken = function (name) {
    var t = got.get(name);
    got.delete(name);
    return t;
  };
})(function (cfg) {
  "use strict";

  // claimPart names the part holding the claims of project id p.
  function claimPart(p, prefix) {
    return "c" + p.slice(0, prefix);
  }

  // fnv1a is the 32-bit FNV-1a hash of s's UTF-8 bytes, as site/shards.go computes it.
  function fnv1a(s) {
    var bytes = new TextEncoder().encode(s), h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) {
      h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
    }
    return h >>> 0;
  }

  // namePart names the part of a name index holding the folded name k.
  function namePart(k, parts) {
    return "n" + (fnv1a(k) % parts).toString(16);
  }

  // merge copies src's own keys into dst (new, without prototype, when missing).
  function merge(dst, src) {
    dst = dst || Object.create(null);
    if (src) {
      Object.keys(src).forEach(function (k) { dst[k] = src[k]; });
    }
    return dst;
  }

  // loader loads parts from dir (ending in "/"): load(names) resolves to their documents, in
  // order, each loaded once, or rejects naming a part that does not load.
  function loader(dir) {
    var parts = new Map();
    function one(name) {
      if (!parts.has(name)) {
        parts.set(name, new Promise(function (resolve, reject) {
          var s = document.createElement("script");
          s.src = dir + name + ".js";
          s.onload = function () {
            var text = api.taken(name);
            s.remove();
            if (text === undefined) {
              reject(new Error("the data part " + name + " holds no data"));
              return;
            }
            resolve(JSON.parse(text));
          };
          s.onerror = function () {
            s.remove();
            parts.delete(name); // a later try may load it
            reject(new Error("the data part " + name + " did not load"));
          };
          document.head.appendChild(s);
        }));
      }
      return parts.get(name);
    }
    return {
      load: function (names) { return Promise.all(names.map(one)); },
      loaded: function (name) { return parts.has(name); }
    };
  }

  // The values a claim part leaves out (site/plan/part.go), by where they are: empty ones,
  // and a claim's usual health and project status and its release's channel, current and
  // status. Keys the build omits when empty anyway stay absent.
  var left = {
    claim: { site_name: "", name: "", health: "current", stale: false, scheme: "", release: null, openmw: "", lua_api: "", critical_extensions: [],
      provides: [], relationships: [], installs: false, requires_content: [], settings: [], components: [], groups: [],
      artifacts: [], project_status: "active", content_files: [], data_dirs: [], config_dirs: [] },
    release: { version: "", channel: "stable", current: true, status: "available" },
    relationships: { kind: "", targets: [] },
    components: { id: "", name: "", path: "", required: false, default: false, requires: [], conflicts: [], suggested_with: [],
      data: [], content: [], groundcover: [], archives: [], fallback: [], config: false, requires_content: [] },
    artifacts: { id: "", format: "", filename: "", sha256: "", sources: [] },
    content_files: { file: "", requires_content: [] }
  };
  // fill gives obj each key of defaults it lacks (a new list for a list), and returns it.
  function fill(obj, defaults) {
    Object.keys(defaults).forEach(function (k) {
      if (!Object.prototype.hasOwnProperty.call(obj, k)) {
        var v = defaults[k];
        obj[k] = Array.isArray(v) ? [] : v;
      }
    });
    return obj;
  }
  // contentOf is the content files the components declare, as site/plan contentOf: in
  // component order (each id once), each name once (folded), with what every component
  // declaring it needs (each once, none empty).
  function contentOf(components) {
    var out = [], at = new Map(), ids = new Set(), fold = cfg.fold;
    components.forEach(function (comp) {
      if (ids.has(comp.id)) {
        return;
      }
      ids.add(comp.id);
      comp.content.forEach(function (f) {
        if (f === "") {
          return;
        }
        var k = fold(f);
        if (at.has(k)) {
          var other = new Set(comp.requires_content.map(fold)), e = out[at.get(k)];
          e.requires_content = e.requires_content.filter(function (n) { return other.has(fold(n)); });
          return;
        }
        at.set(k, out.length);
        var seen = new Set(), need = [];
        comp.requires_content.forEach(function (n) {
          if (n !== "" && !seen.has(fold(n))) {
            seen.add(fold(n));
            need.push(n);
          }
        });
        out.push({ file: f, requires_content: need });
      });
    });
    return out;
  }
  // claimsOf reads a part's claims (by key) as the build computed them: project, site and
  // page from the key, left-out values back, a target "/<site>" as "<project>/<site>", and
  // content files from the components when left out. A table without prototype.
  function claimsOf(part) {
    var out = Object.create(null), claims = part && part.claims;
    Object.keys(claims || {}).forEach(function (key) {
      var c = claims[key], slash = key.indexOf("/");
      var derived = !Object.prototype.hasOwnProperty.call(c, "content_files");
      c.project = key.slice(0, slash);
      c.site = key.slice(slash + 1);
      c.page = "projects/" + key + "/index.html";
      fill(c, left.claim);
      if (c.release) {
        fill(c.release, left.release);
      }
      ["relationships", "components", "artifacts", "content_files"].forEach(function (k) {
        c[k].forEach(function (x) { fill(x, left[k]); });
      });
      if (derived) {
        c.content_files = contentOf(c.components);
      }
      c.relationships.forEach(function (r) {
        r.targets = r.targets.map(function (t) { return t.charAt(0) === "/" ? r.project + t : t; });
      });
      out[key] = c;
    });
    return out;
  }

  // elements returns el(tag, attrs, children...): attributes set, then each child appended:
  // a node, an array's members, or other values but null, undefined and "" as text (through
  // text, when given), never markup.
  function elements(text) {
    return function el(tag, attrs) {
      var e = document.createElement(tag);
      Object.keys(attrs || {}).forEach(function (a) {
        e.setAttribute(a, attrs[a]);
      });
      (function add(cs, i) {
        for (; i < cs.length; i++) {
          var c = cs[i];
          if (Array.isArray(c)) {
            add(c, 0);
          } else if (c !== null && c !== undefined && c !== "") {
            e.appendChild(typeof c === "object" ? c : document.createTextNode(text ? text(c) : c));
          }
        }
      })(arguments, 2);
      return e;
    };
  }

  var api = { claimPart: claimPart, namePart: namePart, fnv1a: fnv1a, merge: merge, loader: loader, claimsOf: claimsOf,
    elements: elements };
  return api;
});
