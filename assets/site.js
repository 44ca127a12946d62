// AsHyAmS project list: search, filters and sorting. The list works without this script; the
// script only hides entries that do not match and reorders them. Search matches the words of
// what each entry shows (name, version, badges, type, status, game, site, summary, tags) and its
// ids. When the page is served it also reads network-data/search.json (the
// dreamweave-network-search format) and matches each claim's record text too: the maintainers,
// license, channels, runtimes and relationships the list does not show. Opened from a file, the
// page cannot read it, and search matches what the entries show. The search and filters and the
// sort live in the address (?q=...&type=...&sort=...), so a filtered list can be shared and Back
// returns to it. "Works with OpenMW" reads each entry's runtimes.openmw constraint under the
// numeric scheme of the protocol (SPEC section 1, "Versions").
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var list = document.getElementById("results");
  if (!form || !list) {
    return;
  }
  var items = Array.prototype.slice.call(list.querySelectorAll("li[data-key]"));
  var status = document.getElementById("filter-status");
  var fields = ["q", "openmw", "sort", "type", "status", "tag", "game", "health", "conflict"];
  var folded = ["type", "status", "tag", "game", "health", "conflict"];
  var more = document.getElementById("more-filters");
  var byKey = {};

  // The strings an entry shows, one per text node, plus its project id and site id. What it
  // runs on is left out: the "Works with OpenMW" filter answers that.
  function shownStrings(li) {
    var out = [];
    var walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentNode.closest(".runs-on")) {
        out.push(n.nodeValue);
      }
    }
    return out.concat(li.getAttribute("data-key").split("/"));
  }
  function searchText(strings) {
    return strings.join("\n").toLowerCase();
  }

  // Versions under the numeric scheme: release[-prerelease][+build], 1 to 6 release numbers
  // without leading zeros, compared as integers with missing numbers 0; pre-releases compare
  // as SemVer 2.0.0 section 11 and sort below their release; build metadata is ignored.
  // parseVersion returns null for anything else.
  var versionRE = /^(0|[1-9][0-9]*)((?:\.(?:0|[1-9][0-9]*)){0,5})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
  function parseVersion(s) {
    var m = versionRE.exec(s);
    if (!m) {
      return null;
    }
    var pre = m[3] ? m[3].split(".") : [];
    for (var i = 0; i < pre.length; i++) {
      if (/^0[0-9]+$/.test(pre[i])) {
        return null;
      }
    }
    return {release: (m[1] + m[2]).split("."), pre: pre};
  }
  function compareInt(x, y) {
    x = x.replace(/^0+/, "");
    y = y.replace(/^0+/, "");
    if (x.length !== y.length) {
      return x.length < y.length ? -1 : 1;
    }
    return x < y ? -1 : x > y ? 1 : 0;
  }
  function compareVersions(a, b) {
    var n = Math.max(a.release.length, b.release.length), c, i;
    for (i = 0; i < n; i++) {
      c = compareInt(a.release[i] || "0", b.release[i] || "0");
      if (c) {
        return c;
      }
    }
    if (!a.pre.length || !b.pre.length) {
      return a.pre.length === b.pre.length ? 0 : a.pre.length ? -1 : 1;
    }
    for (i = 0; i < a.pre.length && i < b.pre.length; i++) {
      var x = a.pre[i], y = b.pre[i], xn = /^[0-9]+$/.test(x), yn = /^[0-9]+$/.test(y);
      c = xn && yn ? compareInt(x, y) : xn ? -1 : yn ? 1 : x < y ? -1 : x > y ? 1 : 0;
      if (c) {
        return c;
      }
    }
    return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
  }
  // A constraint: "*", or comparators (= != > >= < <=, then a version) joined by ",", with
  // whitespace around every part. Returns null when it does not parse.
  var space = /^[ \t\r\n\f]+|[ \t\r\n\f]+$/g;
  function parseConstraint(s) {
    var t = s.replace(space, "");
    if (t === "*") {
      return [];
    }
    var out = [], parts = t.split(",");
    for (var i = 0; i < parts.length; i++) {
      var p = parts[i].replace(space, "");
      var m = /^(>=|<=|!=|=|>|<)(.*)$/.exec(p);
      var v = m && parseVersion(m[2].replace(space, ""));
      if (!v) {
        return null;
      }
      out.push({op: m[1], v: v});
    }
    return out;
  }
  function satisfies(cons, v) {
    for (var i = 0; i < cons.length; i++) {
      var r = compareVersions(v, cons[i].v), op = cons[i].op;
      var ok = op === "=" ? r === 0 : op === "!=" ? r !== 0 : op === ">" ? r > 0 :
        op === ">=" ? r >= 0 : op === "<" ? r < 0 : r <= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }
  // worksWith says whether an entry's release runs on OpenMW version v: true for a constraint
  // that holds and for a release without one (runtime-independent); false for no current
  // release or a constraint that does not parse.
  function worksWith(e, v) {
    if (e.runtime === "any") {
      return true;
    }
    return e.runtime === "constraint" && !!e.openmw && satisfies(e.openmw, v);
  }
  window.ashyamsWorksWith = function (constraint, version) { // for the browser test
    var c = parseConstraint(constraint), v = parseVersion(version);
    return c && v ? satisfies(c, v) : null;
  };

  items.forEach(function (li, i) {
    var shown = searchText(shownStrings(li));
    byKey[li.getAttribute("data-key")] = {
      order: i,
      updated: li.getAttribute("data-updated") || "",
      first: li.getAttribute("data-first") || "",
      runtime: li.getAttribute("data-runtime") || "",
      openmw: parseConstraint(li.getAttribute("data-openmw") || ""),
      li: li,
      project: li.getAttribute("data-key").split("/")[0],
      shown: shown,
      text: shown,
      type: li.getAttribute("data-type") || "",
      status: li.getAttribute("data-status") || "",
      game: li.getAttribute("data-game") || "",
      health: li.getAttribute("data-health") || "",
      conflict: li.getAttribute("data-conflict") || "",
      tags: (li.getAttribute("data-tags") || "").split("\n")
    };
  });
  function control(name) {
    return form.elements.namedItem(name);
  }
  function state() {
    var s = {};
    fields.forEach(function (f) {
      var el = control(f);
      s[f] = el ? el.value : "";
    });
    return s;
  }
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }
  function projectsOf(entries) {
    var seen = {}, n = 0;
    entries.forEach(function (e) {
      if (!seen[e.project]) {
        seen[e.project] = true;
        n++;
      }
    });
    return n;
  }
  // sortList puts the entries in the chosen order: name (the page's order), recently updated
  // or first observed (newest first; equal times keep name order).
  function sortList(by) {
    var es = items.map(function (li) { return byKey[li.getAttribute("data-key")]; });
    es.sort(function (a, b) {
      var x = by ? a[by] : "", y = by ? b[by] : "";
      return x !== y ? (x > y ? -1 : 1) : a.order - b.order;
    });
    es.forEach(function (e) { list.appendChild(e.li); });
  }
  function apply() {
    var s = state();
    var words = s.q.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = [], all = [];
    var omw = s.openmw.replace(space, "");
    var version = omw ? parseVersion(omw) : null;
    var omwInput = control("openmw");
    if (omwInput) {
      omwInput.setCustomValidity(omw && !version ? "Not a version: type one such as 0.49 or 0.49.0" : "");
      omwInput.setAttribute("aria-invalid", omw && !version ? "true" : "false");
    }
    sortList(s.sort === "updated" || s.sort === "first" ? s.sort : "");
    items.forEach(function (li) {
      var e = byKey[li.getAttribute("data-key")];
      all.push(e);
      var ok = (!s.type || e.type === s.type) && (!s.status || e.status === s.status) &&
        (!s.game || e.game === s.game) && (!s.tag || e.tags.indexOf(s.tag) >= 0) &&
        (!s.health || e.health === s.health) && (!s.conflict || e.conflict === s.conflict) &&
        (!version || worksWith(e, version));
      for (var i = 0; ok && i < words.length; i++) {
        ok = e.text.indexOf(words[i]) >= 0;
      }
      li.hidden = !ok;
      if (ok) {
        shown.push(e);
      }
    });
    if (status) {
      var claims = plural(all.length, "claim", "claims");
      status.textContent = shown.length === all.length ?
        "Showing every claim: " + claims + " (" + plural(projectsOf(all), "project", "projects") + ")." :
        shown.length === 0 ? "No claim matches (of " + claims + ")." :
        "Showing " + shown.length + " of " + claims + " (" + plural(projectsOf(shown), "project", "projects") + ").";
      if (omw && !version) {
        status.textContent += " “" + omw + "” is not a version: type one such as 0.49.";
      }
    }
  }
  // The address holds the state: replaced, not pushed, as one types, so Back leaves the
  // list rather than undoing keystrokes; opened from a file some browsers refuse that.
  function remember() {
    var s = state(), parts = [];
    fields.forEach(function (f) {
      if (s[f]) {
        parts.push(encodeURIComponent(f) + "=" + encodeURIComponent(s[f]));
      }
    });
    var query = parts.length ? "?" + parts.join("&") : "";
    if (query === location.search) {
      return;
    }
    try {
      history.replaceState(null, "", location.pathname + query + location.hash);
    } catch (err) {
      // file:// in some browsers: the state still applies, it just is not in the address.
    }
  }
  function restore() {
    var params = new URLSearchParams(location.search);
    fields.forEach(function (f) {
      var el = control(f);
      if (el && params.has(f)) {
        el.value = params.get(f);
        if (el.value !== params.get(f)) { // a select without that option
          el.value = "";
        }
      }
    });
  }
  function update() {
    apply();
    remember();
  }
  // A project record's url is "projects/<project>/<site>/", the entry's key between.
  function useIndex(data) {
    if (!data || data.format !== "dreamweave-network-search" || !Array.isArray(data.records)) {
      return;
    }
    data.records.forEach(function (r) {
      var m = r && r.kind === "project" && typeof r.url === "string" && /^projects\/([^/]+\/[^/]+)\/$/.exec(r.url);
      var e = m && byKey[m[1]];
      if (e && typeof r.text === "string") {
        e.text = e.shown + "\n" + r.text.toLowerCase();
      }
    });
    form.setAttribute("data-source", "search.json");
    apply();
  }
  form.hidden = false;
  form.setAttribute("data-source", "page");
  form.addEventListener("submit", function (ev) { ev.preventDefault(); update(); });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  // Back to a page the browser kept in memory: the address is the state.
  window.addEventListener("pageshow", function (ev) {
    if (ev.persisted) {
      restore();
      apply();
    }
  });
  restore();
  // The less used filters fold away on a narrow screen, unless the address sets one.
  if (more) {
    var wide = !window.matchMedia || window.matchMedia("(min-width: 40rem)").matches;
    var s0 = state();
    more.open = wide || folded.some(function (f) { return !!s0[f]; });
  }
  apply();
  var src = form.getAttribute("data-index");
  if (src && window.fetch && location.protocol !== "file:") {
    fetch(src).then(function (r) { return r.ok ? r.json() : null; }).then(useIndex, function () {});
  }
})();
