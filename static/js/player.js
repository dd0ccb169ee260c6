// The player's page: a live word counter for the will and a countdown to the deadline.
(function () {
  function words(text) {
    var trimmed = text.trim();
    return trimmed ? trimmed.split(/\s+/).length : 0;
  }
  function bind(root) {
    root.querySelectorAll("textarea[data-word-limit]").forEach(function (area) {
      var counter = area.closest("form").querySelector("[data-word-count]");
      var limit = parseInt(area.dataset.wordLimit, 10);
      function update() {
        var n = words(area.value);
        counter.textContent = n;
        counter.parentElement.classList.toggle("error", n > limit);
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
