// AsHyAmS project list: search, filters and sorting over the whole catalog. The list works
// without this script: its pages are static, 50 entries each. The script leaves the page as it
// is until a player uses the search or a filter; then (from the first focus on the form) it
// fetches network-data/find.json, the list's search index (one row per listed claim, what its
// entry shows, and the words a search finds, indexed at build time), and shows the matches a
// page at a time. Opened from a file, the page cannot read it, and the search and filters
// apply to the entries the page shows.
//
// Matching is find.js's (the engine: words, prefixes, substrings, typos); this script draws
// the results. A keystroke looks its words up in the vocabulary, never in every entry, keeps
// the matches that pass the filters, sorts only them and renders one page of 50.
//
// The search, the filters, the sort and the page live in the address (?q=...&type=...&
// sort=...&page=...), so a filtered list can be shared and Back returns to it. "Works with
// OpenMW" reads each entry's runtimes.openmw constraint under the numeric scheme of the
// protocol (SPEC section 1, "Versions").
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var list = document.getElementById("results");
  if (!form || !list) {
    return;
  }
  var status = document.getElementById("filter-status");
  var staticPager = document.getElementById("list-pager");
  var more = document.getElementById("more-filters");
  var fields = ["q", "openmw", "sort", "type", "status", "tag", "game", "health", "conflict"];
  var folded = ["openmw", "sort", "type", "status", "tag", "game", "health", "conflict"];
  var PAGE = 50, DEBOUNCE = 60; // entries a page; longest wait for a pause in typing, ms
  var root = form.getAttribute("data-root") || "";
  var src = form.getAttribute("data-index");
  var served = !!(src && window.fetch && location.protocol !== "file:");
  // The page as built: put back when nothing is chosen.
  var pageItems = Array.prototype.slice.call(list.children);
  var pageStatus = status ? status.textContent : "";
  var index = null, loading = null, waiting = false, page = 1, timer = 0, cost = 0;

  // Versions and constraints are version.js's, the one implementation every script shares,
  // read under the numeric scheme as runtimes.openmw is (SPEC section 1). Its trim works by
  // index: a constraint of spaces cannot stall the list.
  var V = window.DreamWeaveVersion;
  var trim = V.trim;
  function parseVersion(s) {
    return V.parse(s, "numeric");
  }
  function parseConstraint(s) {
    return V.parseConstraint(s, "numeric");
  }
  var satisfies = V.satisfies;
  // worksWith says whether row r's release runs on OpenMW version v: true for a constraint
  // that holds and for a release without one (runtime-independent); false for no current
  // release or a constraint that does not parse. Each distinct constraint is parsed once.
  function worksWith(ix, r, v) {
    var runtime = r[ix.col.runtime], c = r[ix.col.openmw];
    if (runtime === "any") {
      return true;
    }
    if (runtime !== "constraint" || !c) {
      return false;
    }
    if (!ix.cons.has(c)) {
      ix.cons.set(c, parseConstraint(c));
    }
    var pc = ix.cons.get(c);
    return !!pc && satisfies(pc, v);
  }
  window.ashyamsWorksWith = function (constraint, version) { // for the browser test
    var c = parseConstraint(constraint), v = parseVersion(version);
    return c && v ? satisfies(c, v) : null;
  };

  var F = window.AshyamsFind;

  // An index: rows in name order (arrays of the values its columns name: find.json's, or
  // those an entry on the page carries, with items its li, when find.json cannot be read),
  // find.js's index of their words, and what is computed once: sort orders, parsed
  // constraints, the distinct projects. Rows stay arrays: a search reads a few of their
  // values, and only the page of results it shows becomes elements.
  function indexOf(cols, rows, words, items, rowTags) {
    var col = {};
    cols.forEach(function (c, i) { col[c] = i; });
    return {cols: cols, col: col, rows: rows, words: words, items: items, rowTags: rowTags, order: {}, cons: new Map(), projects: null, made: new Map()};
  }
  var itemCols = ["key", "type", "status", "game", "tags", "health", "conflict", "updated", "first", "runtime", "openmw"];
  function rowOfItem(li) {
    return itemCols.map(function (c) {
      var v = li.getAttribute("data-" + c) || "";
      return c === "tags" ? (v ? v.split("\n") : []) : c === "conflict" ? (v === "yes" ? 1 : 0) : v;
    });
  }
  // The words an entry on the page is found by: what it shows (its runtime aside: the OpenMW
  // filter answers that), its site id, and its project id whole, as find.json's words are
  // made (site/find.go).
  function textOfItem(li) {
    var out = [], walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentNode.closest(".runs-on")) {
        out.push(n.nodeValue);
      }
    }
    var key = li.getAttribute("data-key");
    return out.join(" ") + " " + key.slice(key.indexOf("/") + 1);
  }
  function fromPage() {
    var items = pageItems.filter(function (li) { return li.hasAttribute("data-key"); });
    var ids = items.map(function (li) { var k = li.getAttribute("data-key"); return [k.slice(0, k.indexOf("/"))]; });
    return indexOf(itemCols, items.map(rowOfItem), F.fromTexts(items.map(textOfItem), ids), items, 0);
  }
  function load() {
    if (!loading) {
      var got = !served ? Promise.resolve(null) : fetch(src).then(function (r) {
        return r.ok ? r.json() : null;
      }).catch(function () { return null; });
      loading = got.then(function (d) {
        var words = d && F.fromDoc(d);
        if (!words || words instanceof Error || !Array.isArray(d.columns)) {
          form.setAttribute("data-source", "page");
          return fromPage();
        }
        form.setAttribute("data-source", "find.json");
        return indexOf(d.columns, d.rows, words, null, d.row_tags || 0);
      }).catch(function () { // a row not as the script reads it: search what the page shows
        form.setAttribute("data-source", "page");
        return fromPage();
      });
      loading.then(function (ix) { index = ix; });
    }
    return loading;
  }

  // orderOf is the entries' indexes in the chosen order: name (the index's own), recently
  // updated or first observed (newest first; equal times keep name order). Computed once.
  function orderOf(ix, by) {
    if (!ix.order[by]) {
      var o = ix.rows.map(function (_, i) { return i; }), k = ix.col[by];
      if (by) {
        o.sort(function (a, b) {
          var x = ix.rows[a][k], y = ix.rows[b][k];
          return x !== y ? (x > y ? -1 : 1) : a - b;
        });
      }
      ix.order[by] = o;
    }
    return ix.order[by];
  }

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
  function chosen(s) {
    return fields.some(function (f) { return !!s[f]; }) || page > 1;
  }
  function count(n) {
    return n.toLocaleString("en-US");
  }
  function plural(n, one, many) {
    return count(n) + " " + (n === 1 ? one : many);
  }
  // projectsOf counts the distinct project ids of rows is (of every row when is is null).
  function projectsOf(ix, is) {
    if (!is && ix.projects !== null) {
      return ix.projects;
    }
    var seen = new Set(), k = ix.col.key, add = function (i) {
      var key = ix.rows[i][k];
      seen.add(key.slice(0, key.indexOf("/")));
    };
    if (is && is.length === ix.rows.length) {
      return projectsOf(ix, null);
    }
    if (is) {
      is.forEach(add);
    } else {
      ix.rows.forEach(function (_, i) { add(i); });
      ix.projects = seen.size;
    }
    return seen.size;
  }
  // results are the numbers of the rows s chooses, in its order.
  function results(ix, s, version) {
    var set = F.match(ix.words, s.q), c = ix.col;
    var by = s.sort === "updated" || s.sort === "first" ? s.sort : "";
    var tag = trim(s.tag.toLowerCase()), conflict = s.conflict === "yes" ? 1 : 0;
    var keep = function (i) {
      var r = ix.rows[i];
      return (!s.type || r[c.type] === s.type) && (!s.status || r[c.status] === s.status) &&
        (!s.game || r[c.game] === s.game) && (!tag || r[c.tags].some(function (t) { return t.toLowerCase() === tag; })) &&
        (!s.health || r[c.health] === s.health) && (!s.conflict || r[c.conflict] === conflict) &&
        (!version || worksWith(ix, r, version));
    };
    var out;
    if (set) { // the matches only, then in the chosen order
      var cand = [];
      for (var i = 0; i < set.length; i++) {
        if (set[i] && keep(i)) {
          cand.push(i);
        }
      }
      if (by) {
        var rank = ix.rank && ix.rank[by];
        if (!rank) {
          rank = new Int32Array(ix.rows.length);
          orderOf(ix, by).forEach(function (e, r) { rank[e] = r; });
          ix.rank = ix.rank || {};
          ix.rank[by] = rank;
        }
        cand.sort(function (a, b) { return rank[a] - rank[b]; });
      }
      out = cand;
    } else {
      out = orderOf(ix, by).filter(keep);
    }
    return out;
  }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) {
      n.className = cls;
    }
    if (text !== undefined) {
      n.textContent = text;
    }
    return n;
  }
  function pub(tag, text, cls) {
    var n = el(tag, cls, text);
    n.setAttribute("data-publisher", "");
    return n;
  }
  function bdi(text) {
    return pub("bdi", text);
  }
  // render is row i's entry as the page prints it (templates/_catalog.html), made once and
  // kept for the next results (at most 500 kept).
  function render(ix, i) {
    if (ix.items) {
      return ix.items[i];
    }
    var made = ix.made.get(i);
    if (made) { // typing on often shows the same entries again
      return made;
    }
    if (ix.made.size >= 500) {
      ix.made.clear();
    }
    made = renderRow(ix, i);
    ix.made.set(i, made);
    return made;
  }
  function renderRow(ix, i) {
    var e = {};
    ix.cols.forEach(function (c, k) { e[c] = ix.rows[i][k]; });
    var li = el("li", "entry");
    var data = {key: e.key, type: e.type, status: e.status, game: e.game, tags: e.tags.slice(0, ix.rowTags || e.tags.length).join("\n"), health: e.health,
      conflict: e.conflict ? "yes" : "no", updated: e.updated, first: e.first, runtime: e.runtime, openmw: e.openmw};
    Object.keys(data).forEach(function (k) { li.setAttribute("data-" + k, data[k]); });
    var thumb = li.appendChild(el("div", "thumb"));
    if (e.thumb) {
      var img = thumb.appendChild(el("img", "card-thumb"));
      img.src = root + e.thumb;
      img.width = 160;
      img.height = 90;
      img.alt = "";
      img.loading = "lazy";
    }
    var body = li.appendChild(el("div", "entry-body"));
    var a = body.appendChild(el("a", "result-title"));
    a.href = root + "projects/" + e.key + "/index.html";
    a.appendChild(bdi(e.name));
    if (e.version) {
      body.appendChild(document.createTextNode(" "));
      body.appendChild(el("span", "badge")).appendChild(bdi(e.version));
    }
    e.badges.forEach(function (b) {
      body.appendChild(document.createTextNode(" "));
      body.appendChild(el("span", "badge " + b[0], b[1]));
    });
    var meta = body.appendChild(el("div", "meta"));
    meta.appendChild(pub("span", e.type));
    meta.appendChild(pub("span", e.status));
    if (e.game) {
      meta.appendChild(el("span")).appendChild(bdi(e.game));
    }
    var from = meta.appendChild(el("span", "", "from "));
    from.appendChild(bdi(e.site));
    if (e.summary) {
      body.appendChild(pub("p", e.summary, "summary"));
    }
    var runs = body.appendChild(el("div", "meta")).appendChild(el("span", "runs-on"));
    if (e.runtime === "constraint" && trim(e.openmw) === "*") {
      runs.textContent = "any OpenMW version";
    } else if (e.runtime === "constraint") {
      runs.textContent = "OpenMW ";
      runs.appendChild(bdi(e.openmw));
    } else {
      runs.textContent = e.runtime === "any" ? "names no OpenMW version" : "no current release";
    }
    if (e.tags.length) { // as many as the page shows, the rest counted
      var tags = body.appendChild(el("div", "meta")), shown = ix.rowTags ? e.tags.slice(0, ix.rowTags) : e.tags;
      shown.forEach(function (t) { tags.appendChild(pub("span", t, "badge")); });
      if (e.tags.length > shown.length) {
        tags.appendChild(el("span", "more-tags", "and " + plural(e.tags.length - shown.length, "more tag", "more tags")));
      }
    }
    return li;
  }

  // The address of state s at page p.
  function query(s, p) {
    var parts = [];
    fields.forEach(function (f) {
      if (s[f]) {
        parts.push(encodeURIComponent(f) + "=" + encodeURIComponent(s[f]));
      }
    });
    if (p > 1) {
      parts.push("page=" + p);
    }
    return parts.length ? "?" + parts.join("&") : "";
  }
  // pagerFor is the page links of the results: previous, numbers around this page, next.
  function pagerFor(s, pages) {
    var nav = el("nav", "pager");
    nav.id = "results-pager";
    nav.setAttribute("aria-label", "Pages of the results");
    var ul = nav.appendChild(el("ul"));
    var link = function (p, text, rel) {
      var a = el("a", "", text);
      a.href = query(s, p) || "?";
      a.setAttribute("data-page", p);
      if (rel) {
        a.rel = rel;
      }
      if (p === page && !rel) {
        a.setAttribute("aria-current", "page");
      }
      ul.appendChild(el("li")).appendChild(a);
    };
    if (page > 1) {
      link(page - 1, "Previous", "prev");
    }
    var last = 0;
    for (var p = 1; p <= pages; p++) {
      if (p !== 1 && p !== pages && (p < page - 2 || p > page + 2)) {
        continue;
      }
      if (last && p > last + 1) {
        ul.appendChild(el("li")).appendChild(el("span", "", "…")).setAttribute("aria-hidden", "true");
      }
      link(p, String(p));
      last = p;
    }
    if (page < pages) {
      link(page + 1, "Next", "next");
    }
    return nav;
  }
  function showPage() { // the page as built
    list.replaceChildren.apply(list, pageItems);
    if (status) {
      status.textContent = pageStatus;
    }
    if (staticPager) {
      staticPager.hidden = false;
    }
    var old = document.getElementById("results-pager");
    if (old) {
      old.remove();
    }
  }
  function apply() {
    var s = state();
    var omw = trim(s.openmw);
    var version = omw ? parseVersion(omw) : null;
    var omwInput = control("openmw");
    if (omwInput) {
      omwInput.setCustomValidity(omw && !version ? "Not a version: type one such as 0.49 or 0.49.0" : "");
      omwInput.setAttribute("aria-invalid", omw && !version ? "true" : "false");
    }
    if (!chosen(s)) {
      list.removeAttribute("aria-busy");
      showPage();
      return;
    }
    if (!index) {
      list.setAttribute("aria-busy", "true");
      if (status) {
        status.textContent = "Loading every project to search…";
      }
      if (!waiting) { // one apply when it is in, of the state then
        waiting = true;
        load().then(function () { waiting = false; apply(); });
      }
      return;
    }
    var ix = index, shown = results(ix, s, version), all = ix.rows;
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(Math.max(page, 1), pages);
    var items = shown.slice((page - 1) * PAGE, page * PAGE).map(function (i) { return render(ix, i); });
    if (items.length !== list.children.length || items.some(function (li, k) { return list.children[k] !== li; })) {
      list.replaceChildren.apply(list, items);
    }
    if (staticPager) {
      staticPager.hidden = true;
    }
    var old = document.getElementById("results-pager");
    if (old) {
      old.remove();
    }
    if (pages > 1) {
      list.after(pagerFor(s, pages));
    }
    if (status) {
      var total = count(all.length) + " " + (all.length === 1 ? "listing" : "listings");
      var where = pages > 1 ? "; page " + page + " of " + pages : "";
      status.textContent = shown.length === all.length ?
        "Showing all " + total + " (" + plural(projectsOf(ix, null), "project", "projects") + ")" + where + "." :
        shown.length === 0 ? "Nothing matches, of " + total + ": try fewer words or another filter." :
        "Showing " + count(shown.length) + " of " + total + " (" + plural(projectsOf(ix, shown), "project", "projects") + ")" + where + ".";
      if (omw && !version) {
        status.textContent += " “" + omw + "” is not a version: type one such as 0.49.";
      }
    }
    list.removeAttribute("aria-busy");
  }
  // The address holds the state: replaced, not pushed, as one types, so Back leaves the
  // list rather than undoing keystrokes; opened from a file some browsers refuse that.
  function remember() {
    var q = query(state(), page);
    if (q === location.search) {
      return;
    }
    try {
      history.replaceState(null, "", location.pathname + q + location.hash);
    } catch (err) {
      // file:// in some browsers: the state still applies, it just is not in the address.
    }
  }
  function restore() {
    var params = new URLSearchParams(location.search);
    fields.forEach(function (f) {
      var c = control(f);
      if (c && params.has(f)) {
        c.value = params.get(f);
        if (c.value !== params.get(f)) { // a select without that option
          c.value = "";
        }
      }
    });
    page = parseInt(params.get("page") || "1", 10) || 1;
  }
  function update() {
    clearTimeout(timer);
    timer = 0;
    var t0 = performance.now();
    apply();
    cost = performance.now() - t0;
    remember();
  }
  // Typing waits for a pause as long as the last update took (at most DEBOUNCE ms): where an
  // update is quick each keystroke answers at once, where it is slow keystrokes gather. A
  // choice applies at once. Either way a new search starts at its first page, and the list
  // says it is being brought up to date.
  function changed(ev) {
    page = 1;
    var typed = ev.type === "input" && ev.target && ev.target.tagName === "INPUT";
    if (ev.type === "input" && !typed) {
      return; // a select fires input and change: the change applies
    }
    list.setAttribute("aria-busy", "true");
    clearTimeout(timer);
    if (typed) {
      timer = setTimeout(update, Math.min(DEBOUNCE, cost));
    } else {
      update();
    }
  }
  form.hidden = false;
  form.setAttribute("data-source", "page");
  form.addEventListener("submit", function (ev) { ev.preventDefault(); page = 1; update(); });
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  form.addEventListener("focusin", load, {once: true}); // fetch while the player types
  document.addEventListener("click", function (ev) {
    var a = ev.target && ev.target.closest && ev.target.closest("#results-pager a[data-page]");
    if (a) {
      ev.preventDefault();
      page = parseInt(a.getAttribute("data-page"), 10) || 1;
      update();
      list.scrollIntoView({block: "start"});
    }
  });
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
})();
