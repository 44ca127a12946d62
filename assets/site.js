// AsHyAmS project list: search and filters over search.json. The list works without this
// script; the script only hides entries that do not match. If search.json cannot be read
// (a page opened from a file), the entries' own data attributes and text are used instead.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  var list = document.getElementById("results");
  if (!form || !list) {
    return;
  }
  var items = Array.prototype.slice.call(list.querySelectorAll("li[data-key]"));
  var status = document.getElementById("filter-status");
  var byKey = {};
  items.forEach(function (li) {
    byKey[li.getAttribute("data-key")] = {
      li: li,
      text: li.textContent.toLowerCase(),
      type: li.getAttribute("data-type") || "",
      status: li.getAttribute("data-status") || "",
      game: li.getAttribute("data-game") || "",
      tags: (li.getAttribute("data-tags") || "").split("\n")
    };
  });
  function value(id) {
    var el = document.getElementById(id);
    return el ? el.value : "";
  }
  function apply() {
    var words = value("q").toLowerCase().split(/\s+/).filter(Boolean);
    var type = value("f-type"), st = value("f-status"), tag = value("f-tag"), game = value("f-game");
    var shown = 0;
    items.forEach(function (li) {
      var e = byKey[li.getAttribute("data-key")];
      var ok = (!type || e.type === type) && (!st || e.status === st) && (!game || e.game === game) &&
        (!tag || e.tags.indexOf(tag) >= 0);
      for (var i = 0; ok && i < words.length; i++) {
        ok = e.text.indexOf(words[i]) >= 0;
      }
      li.hidden = !ok;
      if (ok) {
        shown++;
      }
    });
    if (status) {
      status.textContent = shown === items.length ? "Showing every project." :
        shown === 0 ? "No project matches." : "Showing " + shown + " of " + items.length + " projects.";
    }
  }
  function useIndex(data) {
    if (!data || !Array.isArray(data.projects)) {
      return;
    }
    data.projects.forEach(function (p) {
      var e = byKey[p.project + "/" + p.origin];
      if (!e) {
        return;
      }
      e.text = [p.name, p.summary || "", p.project, p.origin, p.site_name || "", (p.tags || []).join(" "),
        p.type, p.status, p.game, p.version || ""].join("\n").toLowerCase();
      e.type = p.type;
      e.status = p.status;
      e.game = p.game;
      e.tags = p.tags || [];
    });
    apply();
  }
  form.hidden = false;
  form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(); });
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  var src = form.getAttribute("data-index");
  if (src && window.fetch && location.protocol !== "file:") {
    fetch(src).then(function (r) { return r.ok ? r.json() : null; }).then(useIndex, function () {});
  }
  apply();
})();
