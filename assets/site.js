// AsHyAmS project list: search, filters and sorting over the whole catalog. The list works
// without this script: its pages are static, 50 entries each. The script leaves the page as it
// is until a player uses the search or a filter; then (from the first focus on the form) it
// fetches network-data/find.json, the list's compact index (one row per listed claim: what the
// entry shows and the words a search should find besides), and shows the matches a page at a
// time. Opened from a file, the page cannot read it, and the search and filters apply to the
// entries the page shows.
//
// Search is hand-written rather than a library's: the index's rows are built by the Go build,
// and what the browser needs is a vocabulary built once from them and a few lookups per
// keystroke (prefix, substring, one or two typos), a few dozen lines; a library such as
// MiniSearch would add its own index format and ~20 KB to do the same. Every query word must
// match a word of the entry: a word that starts with it or holds it (three letters or more),
// or a word of letters that starts with the same letter and is at most one edit away (four
// letters or more; two edits from eight), so "candelight" finds Candlelight. Each keystroke
// looks words up in the vocabulary (its distinct words, not its entries) and sorts only the
// matches; the input is debounced.
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
  var PAGE = 50, DEBOUNCE = 60;
  var root = form.getAttribute("data-root") || "";
  var src = form.getAttribute("data-index");
  var served = !!(src && window.fetch && location.protocol !== "file:");
  // The page as built: put back when nothing is chosen.
  var pageItems = Array.prototype.slice.call(list.children);
  var pageStatus = status ? status.textContent : "";
  var index = null, loading = null, page = 1, timer = 0;

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
  // worksWith says whether an entry's release runs on OpenMW version v: true for a constraint
  // that holds and for a release without one (runtime-independent); false for no current
  // release or a constraint that does not parse. Each entry's constraint is parsed once.
  function worksWith(e, v) {
    if (e.runtime === "any") {
      return true;
    }
    if (e.runtime !== "constraint" || !e.openmw) {
      return false;
    }
    if (e.cons === undefined) {
      e.cons = parseConstraint(e.openmw);
    }
    return !!e.cons && satisfies(e.cons, v);
  }
  window.ashyamsWorksWith = function (constraint, version) { // for the browser test
    var c = parseConstraint(constraint), v = parseVersion(version);
    return c && v ? satisfies(c, v) : null;
  };

  // Words: runs of letters and digits, lowercase. A single character class, so no input can
  // make the split backtrack.
  var nonWord = /[^\p{L}\p{N}]+/u;
  function words(s) {
    return s.toLowerCase().split(nonWord).filter(Boolean);
  }

  // An entry as the script keeps it: the fields of a find.json row, or of an entry on the page
  // (li set) when find.json cannot be read.
  function entryOf(cols, row) {
    var e = {};
    for (var i = 0; i < cols.length; i++) {
      e[cols[i]] = row[i];
    }
    e.project = e.key.split("/")[0];
    return e;
  }
  function entryOfItem(li) {
    var a = function (n) { return li.getAttribute("data-" + n) || ""; };
    return {key: a("key"), project: a("key").split("/")[0], type: a("type"), status: a("status"), game: a("game"),
      tags: a("tags") ? a("tags").split("\n") : [], health: a("health"), conflict: a("conflict") === "yes" ? 1 : 0,
      updated: a("updated"), first: a("first"), runtime: a("runtime"), openmw: a("openmw"), li: li};
  }
  // The words an entry is found by: what it shows (its runtime aside: the OpenMW filter
  // answers that), its ids and the row's further words.
  function textOf(e) {
    if (e.li) {
      var out = [], walker = document.createTreeWalker(e.li, NodeFilter.SHOW_TEXT);
      for (var n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.parentNode.closest(".runs-on")) {
          out.push(n.nodeValue);
        }
      }
      return out.join(" ") + " " + e.key;
    }
    var b = e.badges.map(function (x) { return x[1]; }).join(" ");
    return [e.name, e.version, b, e.type, e.status, e.game, "from", e.site, e.summary, e.tags.join(" "), e.key, e.more].join(" ");
  }
  // build makes the index: the entries in name order, and the vocabulary, each distinct word
  // with the entries holding it (ascending), the words sorted for prefix lookups.
  function build(entries) {
    var post = new Map();
    entries.forEach(function (e, i) {
      words(textOf(e)).forEach(function (w) {
        var p = post.get(w);
        if (!p) {
          post.set(w, [i]);
        } else if (p[p.length - 1] !== i) {
          p.push(i);
        }
      });
    });
    var terms = Array.from(post.keys()).sort();
    // Typos are forgiven in words of letters only (not in ids, versions or numbers), and the
    // typo scan reads only the words that start with the query's first letter: by first
    // letter, the range of terms holding those words.
    var letters = /^\p{L}+$/u, fuzzy = new Map();
    terms.forEach(function (t) {
      if (letters.test(t)) {
        var f = fuzzy.get(t[0]);
        if (!f) {
          fuzzy.set(t[0], f = []);
        }
        f.push(t);
      }
    });
    return {entries: entries, post: post, terms: terms, fuzzy: fuzzy, order: {}, cache: new Map()};
  }
  function fromPage() {
    return build(pageItems.filter(function (li) { return li.hasAttribute("data-key"); }).map(entryOfItem));
  }
  function load() {
    if (!loading) {
      var got = !served ? Promise.resolve(null) : fetch(src).then(function (r) {
        return r.ok ? r.json() : null;
      }).then(function (d) {
        return d && d.format === "ashyams-find-1" && Array.isArray(d.columns) && Array.isArray(d.rows) ? d : null;
      }, function () { return null; });
      loading = got.then(function (d) {
        if (!d) {
          form.setAttribute("data-source", "page");
          return fromPage();
        }
        form.setAttribute("data-source", "find.json");
        return build(d.rows.map(function (r) { return entryOf(d.columns, r); }));
      }).catch(function () { // a row not as the script reads it: search what the page shows
        form.setAttribute("data-source", "page");
        return fromPage();
      });
      loading.then(function (ix) { index = ix; });
    }
    return loading;
  }

  // Edit distance of a and b (insertions, deletions, substitutions, adjacent swaps), or max+1
  // once it must pass max.
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) {
      return max + 1;
    }
    var prev2 = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) {
      prev.push(j);
    }
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var c = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          d = Math.min(d, prev2[j - 2] + 1);
        }
        cur.push(d);
        low = Math.min(low, d);
      }
      if (low > max) {
        return max + 1;
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }
  // matching is the set of entries (a Uint8Array by entry) holding a word that w finds.
  function matching(ix, w) {
    var hit = ix.cache.get(w);
    if (hit) {
      return hit;
    }
    var set = new Uint8Array(ix.entries.length), terms = ix.terms;
    var mark = function (t) { ix.post.get(t).forEach(function (i) { set[i] = 1; }); };
    var lo = 0, hi = terms.length;
    while (lo < hi) { // the first word not below w
      var mid = (lo + hi) >> 1;
      if (terms[mid] < w) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (var k = lo; k < terms.length && terms[k].lastIndexOf(w, 0) === 0; k++) {
      mark(terms[k]);
    }
    var typos = w.length >= 8 ? 2 : w.length >= 4 ? 1 : 0;
    if (w.length >= 3) {
      terms.forEach(function (t) {
        if (t.length > w.length && t.indexOf(w) > 0) {
          mark(t);
        }
      });
    }
    if (typos) {
      (ix.fuzzy.get(w[0]) || []).forEach(function (t) {
        if (Math.abs(t.length - w.length) <= typos && t.lastIndexOf(w, 0) !== 0 && distance(w, t, typos) <= typos) {
          mark(t);
        }
      });
    }
    if (ix.cache.size > 200) {
      ix.cache.clear();
    }
    ix.cache.set(w, set);
    return set;
  }
  // orderOf is the entries' indexes in the chosen order: name (the index's own), recently
  // updated or first observed (newest first; equal times keep name order). Computed once.
  function orderOf(ix, by) {
    if (!ix.order[by]) {
      var o = ix.entries.map(function (_, i) { return i; });
      if (by) {
        o.sort(function (a, b) {
          var x = ix.entries[a][by], y = ix.entries[b][by];
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
  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }
  function projectsOf(entries) {
    var seen = new Set();
    entries.forEach(function (e) { seen.add(e.project); });
    return seen.size;
  }
  // results are the entries s chooses, in its order.
  function results(ix, s, version) {
    var ws = words(s.q), sets = ws.map(function (w) { return matching(ix, w); });
    var by = s.sort === "updated" || s.sort === "first" ? s.sort : "";
    var tag = trim(s.tag.toLowerCase());
    var keep = function (i) {
      var e = ix.entries[i];
      for (var k = 0; k < sets.length; k++) {
        if (!sets[k][i]) {
          return false;
        }
      }
      return (!s.type || e.type === s.type) && (!s.status || e.status === s.status) &&
        (!s.game || e.game === s.game) && (!tag || e.tags.some(function (t) { return t.toLowerCase() === tag; })) &&
        (!s.health || e.health === s.health) && (!s.conflict || e.conflict === (s.conflict === "yes" ? 1 : 0)) &&
        (!version || worksWith(e, version));
    };
    var out;
    if (ws.length) { // the first word's matches only, then in the chosen order
      var cand = [], first = sets[0];
      for (var i = 0; i < first.length; i++) {
        if (first[i] && keep(i)) {
          cand.push(i);
        }
      }
      if (by) {
        var rank = ix.rank && ix.rank[by];
        if (!rank) {
          rank = new Int32Array(ix.entries.length);
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
    return out.map(function (i) { return ix.entries[i]; });
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
  // render is the entry of a find.json row as the page prints it (templates/_catalog.html).
  function render(e) {
    if (e.li) {
      return e.li;
    }
    var li = el("li", "entry");
    var data = {key: e.key, type: e.type, status: e.status, game: e.game, tags: e.tags.join("\n"), health: e.health,
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
    if (e.tags.length) {
      var tags = body.appendChild(el("div", "meta"));
      e.tags.forEach(function (t) { tags.appendChild(pub("span", t, "badge")); });
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
        status.textContent = "Loading the catalog's index…";
      }
      load().then(apply);
      return;
    }
    var shown = results(index, s, version), all = index.entries;
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(Math.max(page, 1), pages);
    list.replaceChildren.apply(list, shown.slice((page - 1) * PAGE, page * PAGE).map(render));
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
      var claims = plural(all.length, "claim", "claims");
      var where = pages > 1 ? "; page " + page + " of " + pages + ", " + PAGE + " a page" : "";
      status.textContent = shown.length === all.length ?
        "Showing every claim: " + claims + " (" + plural(projectsOf(all), "project", "projects") + ")" + where + "." :
        shown.length === 0 ? "No claim matches (of " + claims + ")." :
        "Showing " + shown.length + " of " + claims + " (" + plural(projectsOf(shown), "project", "projects") + ")" + where + ".";
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
    apply();
    remember();
  }
  // Typing waits for a pause; a choice applies at once. Either way a new search starts at its
  // first page, and the list says it is being brought up to date.
  function changed(ev) {
    page = 1;
    var typed = ev.type === "input" && ev.target && ev.target.tagName === "INPUT";
    if (ev.type === "input" && !typed) {
      return; // a select fires input and change: the change applies
    }
    list.setAttribute("aria-busy", "true");
    clearTimeout(timer);
    if (typed) {
      timer = setTimeout(update, DEBOUNCE);
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
