// AsHyAmS project list: search and filters. The list works without this script; the script
// only hides entries that do not match. Search matches the words of what each entry shows
// (name, version, badges, type, status, game, site, summary, tags) and its ids, read from
// search.json when the page is served and from the entries themselves when the page is
// opened from a file: both give the same strings, so both answer alike. The search and
// filters live in the address (?q=...&type=...), so a filtered list can be shared and Back
// returns to it.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var list = document.getElementById("results");
  if (!form || !list) {
    return;
  }
  var items = Array.prototype.slice.call(list.querySelectorAll("li[data-key]"));
  var status = document.getElementById("filter-status");
  var fields = ["q", "type", "status", "tag", "game", "health", "conflict"];
  var byKey = {};

  // The strings an entry shows, one per text node, plus its project id and site id.
  function shownStrings(li) {
    var out = [];
    var walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      out.push(n.nodeValue);
    }
    return out.concat(li.getAttribute("data-key").split("/"));
  }
  // The same strings, from the entry's search.json record (see site/search.go).
  function indexStrings(p) {
    return [p.name, p.version || ""].concat(p.badges || [],
      [p.type, p.status, p.game || "", "from " + (p.site_name || p.origin), p.summary || ""],
      p.tags || [], [p.project, p.origin]);
  }
  function searchText(strings) {
    return strings.join("\n").toLowerCase();
  }

  items.forEach(function (li) {
    byKey[li.getAttribute("data-key")] = {
      li: li,
      project: li.getAttribute("data-key").split("/")[0],
      text: searchText(shownStrings(li)),
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
  function apply() {
    var s = state();
    var words = s.q.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = [], all = [];
    items.forEach(function (li) {
      var e = byKey[li.getAttribute("data-key")];
      all.push(e);
      var ok = (!s.type || e.type === s.type) && (!s.status || e.status === s.status) &&
        (!s.game || e.game === s.game) && (!s.tag || e.tags.indexOf(s.tag) >= 0) &&
        (!s.health || e.health === s.health) && (!s.conflict || e.conflict === s.conflict);
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
  function useIndex(data) {
    if (!data || !Array.isArray(data.projects)) {
      return;
    }
    data.projects.forEach(function (p) {
      var e = byKey[p.project + "/" + p.origin];
      if (e) {
        e.text = searchText(indexStrings(p));
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
  apply();
  var src = form.getAttribute("data-index");
  if (src && window.fetch && location.protocol !== "file:") {
    fetch(src).then(function (r) { return r.ok ? r.json() : null; }).then(useIndex, function () {});
  }
})();
