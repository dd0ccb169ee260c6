// The player's page: a live word counter for the will (where the cut falls) and a
// countdown to the deadline.
(function () {
  // Words are counted and cut as the server does (roles/engine/wills.py): the page gets
  // the server's own pattern in data-word-pattern.
  function cut(text, limit, pattern) {
    var found = Array.from(text.matchAll(new RegExp(pattern, "gu")));
    var kept = found.slice(0, Math.max(limit, 0));
    if (!kept.length) {
      return { kept: "", words: found.length, dropped: found.length, lastWord: "" };
    }
    var last = kept[kept.length - 1];
    return { kept: text.slice(kept[0].index, last.index + last[0].length),
             words: found.length, dropped: found.length - kept.length, lastWord: last[0] };
  }
  window.TabulaWills = { cut: cut };
  function bind(root) {
    root.querySelectorAll("textarea[data-word-limit]").forEach(function (area) {
      var form = area.closest("form");
      var counter = form.querySelector("[data-word-count]");
      var note = form.querySelector("[data-will-cut]");
      var limit = parseInt(area.dataset.wordLimit, 10);
      function update() {
        var result = cut(area.value, limit, area.dataset.wordPattern);
        counter.textContent = result.words;
        counter.parentElement.classList.toggle("error", result.dropped > 0);
        note.textContent = result.dropped > 0
          ? area.dataset.cutTemplate.replace("%(limit)s", limit)
              .replace("%(word)s", result.lastWord).replace("%(dropped)s", result.dropped)
          : "";
      }
      area.addEventListener("input", update);
      update();
    });
    root.querySelectorAll("time[data-countdown]").forEach(function (el) {
      var end = new Date(el.getAttribute("datetime"));
      var label = el.textContent;
      function tick() {
        var left = Math.max(0, Math.floor((end - new Date()) / 1000));
        var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
        el.textContent = label + " (" + h + "h " + String(m).padStart(2, "0") + "m " + String(s).padStart(2, "0") + "s)";
      }
      tick();
      setInterval(tick, 1000);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { bind(document); });
  document.body && document.body.addEventListener("htmx:afterSwap", function (event) { bind(event.target); });
})();
