// The project list's search, filters and sorting over the whole catalog; the pages work
// without it (static, 50 entries each). From the first focus it loads the parts of the
// search index (site/find) a choice needs and shows the matches a page at a time; when the
// index does not load, it searches the page's own entries. find.js matches; a filter is a
// row set made once; only the 50 shown become elements. The state lives in the address, so
// a list can be shared and Back returns to it. "Works with OpenMW" reads runtimes.openmw
// under the numeric scheme; "declared" leaves out the releases stating none.
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
  var fields = ["q", "openmw", "declared", "sort", "type", "status", "tag", "game", "health", "conflict"];
  var folded = fields.slice(1);
  var PAGE = 50, DEBOUNCE = 60; // entries a page; longest wait for a pause in typing, ms
  var root = form.getAttribute("data-root") || "", noOpenMW = form.getAttribute("data-no-openmw");
  var src = form.getAttribute("data-index");
  var S = window.AshyamsShards;
  var parts = src && S ? S.loader(src) : null;
  // The page as built: put back when nothing is chosen.
  var pageItems = Array.prototype.slice.call(list.children);
  var pageStatus = status ? status.textContent : "";
  var index = null, loading = null, failed = "", page = 1, timer = 0, cost = 0;

  // version.js reads versions and constraints (numeric scheme, as runtimes.openmw is).
  var V = window.DreamWeaveVersion;
  var trim = V.trim;
  function parseVersion(s) {
    return V.parse(s, "numeric");
  }
  function parseConstraint(s) {
    return V.parseConstraint(s, "numeric");
  }
  var satisfies = V.satisfies;
  window.ashyamsWorksWith = function (c, v) { // for the browser test
    return V.matches(c, v, "numeric");
  };

  var F = window.AshyamsFind;
  var columns = ["key", "name", "version", "site", "type", "status", "game", "tags", "health",
    "conflict", "updated", "first", "runtime", "openmw", "summary", "thumb", "badges"];
  var col = {};
  columns.forEach(function (c, i) { col[c] = i; });

  // An index: its rows (name order), find.js's words, the rows of each project id several
  // rows claim, and, as they load, the filters and rows; made: entries drawn; sets: filters'.
  function indexOf(n, words, same, chunk) {
    return {n: n, words: words, same: same, chunk: chunk, filters: null, rows: new Map(), items: null, rowTags: 0, made: new Map(), sets: new Map(), cons: new Map()};
  }
  // filtersOf is a "filters" part as apply reads it: row sets decoded.
  function filtersOf(d, n) {
    var ok = d && d.format === "ashyams-find-filters-1" && ["type", "status", "game", "runtime", "updated", "first"].every(function (k) {
      return Array.isArray(d[k]) && d[k].length === n;
    }) && Array.isArray(d.tags) && Array.isArray(d.tag_rows) && d.tags.length === d.tag_rows.length;
    if (!ok) {
      throw new Error("the part filters is not an ashyams-find-filters-1 document of " + n + " rows");
    }
    return {types: d.types, type: d.type, statuses: d.statuses, status: d.status, games: d.games, game: d.game,
      openmw: d.openmw, runtime: d.runtime, notCurrent: F.rows(d.not_current), conflict: F.rows(d.conflict),
      tags: d.tags, tagRows: d.tag_rows, updated: d.updated, first: d.first};
  }

  // When the index does not load, the page's entries are the index: rows from what they
  // show (templates/_catalog.html: .meta, .tags, badges), their dates and link, words from
  // their text.
  function rowOfItem(li) {
    var r = new Array(columns.length).fill("");
    r[col.key] = keyOfItem(li);
    ["updated", "first"].forEach(function (c) {
      r[col[c]] = li.getAttribute("data-" + c) || "";
    });
    var meta = li.querySelector(".meta"), kids = meta ? meta.children : [];
    var text = function (k) {
      return kids[k] && kids[k].tagName === "BDI" ? kids[k].textContent : "";
    };
    r[col.type] = text(0);
    r[col.status] = text(1);
    r[col.game] = text(2);
    r[col.tags] = Array.prototype.map.call(li.querySelectorAll(".tags > [data-pub]"), function (t) { return t.textContent; });
    r[col.health] = li.querySelector(".entry-body > .badge.stale") ? "not-current" : "current";
    r[col.conflict] = li.querySelector(".entry-body > .badge.bad") ? 1 : 0;
    var runs = li.querySelector(".runs-on"), on = runs && runs.querySelector("bdi"), said = runs ? runs.textContent : "", all = said === "any OpenMW version";
    r[col.runtime] = on || all ? "constraint" : said === noOpenMW ? "any" : "none";
    r[col.openmw] = on ? on.textContent : all ? "*" : "";
    return r;
  }
  // The words an entry is found by: its text but its runtime (the OpenMW filter answers
  // that), its site and project ids, as site/find.go makes them.
  function textOfItem(li) {
    var out = [], walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.parentNode.closest(".runs-on")) {
        out.push(n.nodeValue);
      }
    }
    var key = keyOfItem(li);
    return out.join(" ") + " " + key.slice(key.indexOf("/") + 1);
  }
  // An entry's key, "<project>/<site>", from its link ".../<project>/<site>/index.html".
  function keyOfItem(li) {
    var a = li.querySelector("a.result-title"), parts = a ? a.getAttribute("href").split("/") : [];
    return parts.length >= 3 ? parts[parts.length - 3] + "/" + parts[parts.length - 2] : "";
  }
  function fromPage() {
    var items = pageItems.filter(function (li) { return li.classList.contains("entry"); });
    var rows = items.map(rowOfItem);
    var ids = rows.map(function (r) { return [r[col.key].slice(0, r[col.key].indexOf("/"))]; });
    var byProject = new Map(), same = [];
    var add = function (m, k, i) {
      if (!m.has(k)) {
        m.set(k, []);
      }
      m.get(k).push(i);
    };
    rows.forEach(function (r, i) { add(byProject, ids[i][0], i); });
    byProject.forEach(function (is) {
      if (is.length > 1) {
        same.push(is);
      }
    });
    var ix = indexOf(rows.length, F.fromTexts(items.map(textOfItem), ids), same, 0);
    ix.items = items;
    rows.forEach(function (r, i) { ix.rows.set(i, r); });
    var codes = function (k) {
      var vals = [], at = new Map();
      return {vals: vals, of: rows.map(function (r) {
        if (!at.has(r[col[k]])) {
          at.set(r[col[k]], vals.length);
          vals.push(r[col[k]]);
        }
        return at.get(r[col[k]]);
      })};
    };
    var t = codes("type"), st = codes("status"), g = codes("game"), cons = [], conAt = new Map(), tags = new Map();
    var newest = function (k) {
      return rows.map(function (_, i) { return i; }).sort(function (a, b) {
        var x = rows[a][col[k]], y = rows[b][col[k]];
        return x !== y ? (x > y ? -1 : 1) : a - b;
      });
    };
    rows.forEach(function (r, i) {
      r[col.tags].forEach(function (tag) { add(tags, F.lower(tag), i); });
    });
    var tagNames = Array.from(tags.keys()).sort();
    ix.filters = {types: t.vals, type: t.of, statuses: st.vals, status: st.of, games: g.vals, game: g.of, openmw: cons,
      runtime: rows.map(function (r) {
        if (r[col.runtime] === "any") {
          return 1;
        }
        if (r[col.runtime] !== "constraint" || !r[col.openmw]) {
          return 0;
        }
        if (!conAt.has(r[col.openmw])) {
          conAt.set(r[col.openmw], cons.push(r[col.openmw]) - 1);
        }
        return 2 + conAt.get(r[col.openmw]);
      }),
      notCurrent: rows.map(function (r, i) { return r[col.health] === "current" ? -1 : i; }).filter(function (i) { return i >= 0; }),
      conflict: rows.map(function (r, i) { return r[col.conflict] ? i : -1; }).filter(function (i) { return i >= 0; }),
      tags: tagNames, tagRows: tagNames.map(function (k) { return tags.get(k); }), updated: newest("updated"), first: newest("first")};
    return ix;
  }
  function usePage(why) {
    form.setAttribute("data-source", "page");
    failed = why || "";
    index = fromPage();
    return index;
  }
  // load is the index, its terms loaded (the page's entries when they cannot be).
  function load() {
    if (!loading) {
      loading = !parts ? Promise.resolve(usePage("")) : parts.load(["terms"]).then(function (d) {
        var words = F.fromTerms(d[0]);
        if (words instanceof Error) {
          throw words;
        }
        form.setAttribute("data-source", "index");
        index = indexOf(d[0].rows, words, d[0].same || [], d[0].chunk);
        return index;
      }).catch(function (err) { return usePage(err.message); });
    }
    return loading;
  }
  // want loads the parts named into ix, then applies the state; a failure is said and a
  // later change tries again.
  var pending = new Map();
  function want(ix, names) {
    names.forEach(function (name) {
      if (pending.has(name)) {
        return;
      }
      pending.set(name, parts.load([name]).then(function (d) {
        var doc = d[0], err;
        if (name === "filters") {
          ix.filters = filtersOf(doc, ix.n);
        } else if (name.charAt(0) === "i") {
          err = F.addIDs(ix.words, name.slice(1), doc);
        } else if (doc && doc.format === "ashyams-find-rows-1" && Array.isArray(doc.rows) && doc.from === +name.slice(1) * ix.chunk &&
          String(doc.columns) === String(columns)) {
          ix.rowTags = doc.row_tags;
          doc.rows.forEach(function (r, k) { ix.rows.set(doc.from + k, r); });
        } else {
          err = new Error("the part " + name + " is not an ashyams-find-rows-1 document");
        }
        if (err) {
          throw err;
        }
        failed = "";
      }).catch(function (err) {
        failed = err.message;
      }).then(function () {
        pending.delete(name);
        apply();
      }));
    });
  }

  // set is the rows (a Uint8Array by row, 1 to keep) that filter key keeps, made once.
  function set(ix, key, make) {
    var s = ix.sets.get(key);
    if (!s) {
      if (ix.sets.size > 100) {
        ix.sets.clear();
      }
      s = new Uint8Array(ix.n);
      make(s);
      ix.sets.set(key, s);
    }
    return s;
  }
  function ofCode(codes, k) {
    return function (s) {
      for (var i = 0; i < codes.length; i++) {
        s[i] = codes[i] === k ? 1 : 0;
      }
    };
  }
  function ofRows(rows, keep) {
    return function (s) {
      s.fill(keep ? 0 : 1);
      for (var i = 0; i < rows.length; i++) {
        s[rows[i]] = keep ? 1 : 0;
      }
    };
  }
  // filterSets is the sets the filters of s choose (none when no filter is chosen).
  function filterSets(ix, s, version) {
    var f = ix.filters, out = [];
    [["type", f.types, f.type], ["status", f.statuses, f.status], ["game", f.games, f.game]].forEach(function (x) {
      if (s[x[0]]) {
        out.push(set(ix, x[0] + "=" + s[x[0]], ofCode(x[2], x[1].indexOf(s[x[0]]))));
      }
    });
    var tag = F.lower(trim(s.tag));
    if (tag) {
      out.push(set(ix, "tag=" + tag, function (m) {
        var lo = 0, hi = f.tags.length;
        while (lo < hi) {
          var mid = (lo + hi) >> 1;
          if (f.tags[mid] < tag) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        if (f.tags[lo] === tag) {
          f.tagRows[lo] = F.rows(f.tagRows[lo]);
          ofRows(f.tagRows[lo], true)(m);
        }
      }));
    }
    if (s.health) {
      out.push(set(ix, "health=" + s.health, ofRows(f.notCurrent, s.health !== "current")));
    }
    if (s.conflict) {
      out.push(set(ix, "conflict=" + s.conflict, ofRows(f.conflict, s.conflict === "yes")));
    }
    if (version) {
      // Each constraint is decided once; no constraint counts unless only declared ones do.
      out.push(set(ix, "openmw=" + trim(s.openmw) + s.declared, function (m) {
        var works = f.openmw.map(function (c) {
          if (!ix.cons.has(c)) {
            ix.cons.set(c, parseConstraint(c));
          }
          var pc = ix.cons.get(c);
          return !!pc && satisfies(pc, version);
        });
        for (var i = 0; i < f.runtime.length; i++) {
          var r = f.runtime[i];
          m[i] = r === 1 && !s.declared || r >= 2 && works[r - 2] ? 1 : 0;
        }
      }));
    }
    return out;
  }
  // results are the numbers of the rows s chooses, in its order.
  function results(ix, s, version) {
    var scores = F.match(ix.words, s.q), keep = scores, sets = ix.filters ? filterSets(ix, s, version) : [];
    sets.forEach(function (m) {
      if (!keep) {
        keep = m;
        return;
      }
      if (keep === scores) {
        keep = scores.slice();
      }
      for (var i = 0; i < keep.length; i++) {
        keep[i] = keep[i] && m[i];
      }
    });
    var out = [], i;
    var order = s.sort === "updated" || s.sort === "first" ? ix.filters[s.sort] : null;
    if (order) {
      for (i = 0; i < order.length; i++) {
        if (!keep || keep[order[i]]) {
          out.push(order[i]);
        }
      }
    } else {
      for (i = 0; i < ix.n; i++) {
        if (!keep || keep[i]) {
          out.push(i);
        }
      }
    }
    return out;
  }
  // projectsOf counts the distinct projects of rows is.
  function projectsOf(ix, is) {
    var n = is.length;
    if (ix.same.length) {
      var in_ = new Uint8Array(ix.n);
      is.forEach(function (i) { in_[i] = 1; });
      ix.same.forEach(function (g) {
        var k = g.filter(function (i) { return in_[i]; }).length;
        n -= k > 1 ? k - 1 : 0;
      });
    }
    return n;
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

  var el = S.elements();
  function bdi(text) {
    return el("bdi", null, text);
  }
  // render is row i's entry as templates/_catalog.html prints it, kept (up to 500).
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
    var e = {}, row = ix.rows.get(i);
    columns.forEach(function (c, k) { e[c] = row[k]; });
    var li = el("li", { "class": "entry" });
    li.setAttribute("data-updated", e.updated);
    li.setAttribute("data-first", e.first);
    var thumb = li.appendChild(el("div", { "class": "thumb" }));
    if (e.thumb) {
      var img = thumb.appendChild(el("img", { "class": "card-thumb" }));
      img.src = root + e.thumb;
      img.width = 160;
      img.height = 90;
      img.alt = "";
      img.loading = "lazy";
    }
    var body = li.appendChild(el("div", { "class": "entry-body" }));
    var a = body.appendChild(el("a", { "class": "result-title" }));
    a.href = root + "projects/" + e.key + "/index.html";
    a.appendChild(bdi(e.name));
    if (e.version) {
      body.appendChild(document.createTextNode(" "));
      body.appendChild(el("bdi", { "class": "badge" }, e.version));
    }
    e.badges.forEach(function (b) {
      body.appendChild(document.createTextNode(" "));
      body.appendChild(el("span", { "class": "badge " + b[0] }, b[1]));
    });
    var meta = body.appendChild(el("div", { "class": "meta" }));
    meta.appendChild(bdi(e.type));
    meta.appendChild(bdi(e.status));
    if (e.game) {
      meta.appendChild(bdi(e.game));
    }
    meta.appendChild(el("span", {}, "from ", bdi(e.site)));
    var runs = meta.appendChild(el("span", { "class": "runs-on" }));
    if (e.runtime === "constraint" && trim(e.openmw) === "*") {
      runs.textContent = "any OpenMW version";
    } else if (e.runtime === "constraint") {
      runs.textContent = "OpenMW ";
      runs.appendChild(bdi(e.openmw));
    } else {
      runs.textContent = e.runtime === "any" ? noOpenMW : "no current release";
    }
    if (e.summary) {
      body.appendChild(el("p", { "class": "summary", "data-pub": "" }, e.summary));
    }
    if (e.tags.length) { // as many as the page shows, the rest counted
      var tags = body.appendChild(el("div", { "class": "meta tags" })), shown = ix.rowTags ? e.tags.slice(0, ix.rowTags) : e.tags;
      shown.forEach(function (t) { tags.appendChild(el("span", { "class": "badge", "data-pub": "" }, t)); });
      if (e.tags.length > shown.length) {
        tags.appendChild(el("span", { "class": "more-tags" }, "and " + plural(e.tags.length - shown.length, "more tag", "more tags")));
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
    var nav = el("nav", { "class": "pager", id: "results-pager", "aria-label": "Pages of the results" });
    var ul = nav.appendChild(el("ul"));
    var link = function (p, text, rel) {
      var a = el("a", {}, text);
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
        ul.appendChild(el("li")).appendChild(el("span", { "aria-hidden": "true" }, "…"));
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
  // show makes the list's entries items, moving none that stays in place.
  function show(items) {
    var keep = new Set(items);
    Array.prototype.slice.call(list.children).forEach(function (li) {
      if (!keep.has(li)) {
        li.remove();
      }
    });
    items.forEach(function (li, k) {
      if (list.children[k] !== li) {
        list.insertBefore(li, list.children[k] || null);
      }
    });
  }
  function busy(text) {
    list.setAttribute("aria-busy", "true");
    if (status) {
      status.textContent = text;
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
      busy("Loading the search…");
      load().then(function () { apply(); });
      return;
    }
    var ix = index;
    // What the state reads and lacks: an id's part, the filters (for a filter or sort),
    // then the rows shown. Each load applies the state again.
    var need = ix.items ? [] : F.needs(ix.words, s.q);
    if (!ix.filters && fields.some(function (f) { return f !== "q" && !!s[f]; })) {
      need.push("filters");
    }
    if (need.length && !failed) {
      busy("Loading the search…");
      want(ix, need);
      return;
    }
    var shown = ix.filters || !need.length ? results(ix, s, version) : [];
    var pages = Math.max(1, Math.ceil(shown.length / PAGE));
    page = Math.min(Math.max(page, 1), pages);
    var on = shown.slice((page - 1) * PAGE, page * PAGE);
    var chunks = new Set();
    on.forEach(function (i) {
      if (!ix.rows.has(i)) {
        chunks.add("r" + Math.floor(i / ix.chunk));
      }
    });
    if (chunks.size && !failed) {
      busy("Loading the results…");
      want(ix, Array.from(chunks));
      return;
    }
    var items = on.filter(function (i) { return ix.rows.has(i); }).map(function (i) { return render(ix, i); });
    show(items);
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
      var total = count(ix.n) + " " + (ix.n === 1 ? "listing" : "listings");
      var where = pages > 1 ? "; page " + page + " of " + pages : "";
      status.textContent = shown.length === ix.n ?
        "Showing all " + total + " (" + plural(projectsOf(ix, shown), "project", "projects") + ")" + where + "." :
        shown.length === 0 ? "Nothing matches, of " + total + ": try fewer words or another filter." :
        "Showing " + count(shown.length) + " of " + total + " (" + plural(projectsOf(ix, shown), "project", "projects") + ")" + where + ".";
      if (omw && !version) {
        status.textContent += " “" + omw + "” is not a version: type one such as 0.49.";
      }
      if (failed) {
        status.textContent += ix.items ? " The search index did not load (" + failed + "): this searches the entries of this page only." :
          " Part of the search did not load (" + failed + "): change the search to try again.";
      }
    }
    list.removeAttribute("aria-busy");
    if (!ix.items && !ix.filters && !failed && !pending.has("filters")) {
      setTimeout(function () { want(ix, ["filters"]); }, 0); // for the player's next choice
    }
  }
  // The address holds the state, replaced as one types so Back leaves the list.
  function remember() {
    var q = query(state(), page);
    if (q === location.search) {
      return;
    }
    try {
      history.replaceState(null, "", location.pathname + q + location.hash);
    } catch (err) {
      // Some file:// pages refuse it: the state still applies.
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
  // Typing waits for a pause as long as the last update took (at most DEBOUNCE ms); a
  // choice applies at once. A new search starts at page 1.
  function changed(ev) {
    page = 1;
    var typed = ev.type === "input" && ev.target && ev.target.tagName === "INPUT";
    if (ev.type === "input" && !typed) {
      return; // a select fires input and change: the change applies
    }
    list.setAttribute("aria-busy", "true");
    clearTimeout(timer);
    if (index && !index.items) {
      failed = ""; // a part that did not load is tried again
    }
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
  // Load the words while the player types.
  form.addEventListener("focusin", load, {once: true});
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
  // The filters start folded unless the address sets one.
  if (more) {
    var s0 = state();
    more.open = folded.some(function (f) { return !!s0[f]; });
  }
  apply();
})();
