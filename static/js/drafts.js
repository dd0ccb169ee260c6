// Changing the interface language reloads the page (a POST to set_language): what the
// user was typing is carried over. Just before the switch submits, every field of the
// page's forms that differs from what the server sent is kept in sessionStorage, under the
// page's address; the reloaded page puts it back and forgets it at once. Without
// JavaScript the switch is a plain form: only what was saved survives, as always.
(function () {
  var KEY = "tabula-drafts";

  function skipped(el) {
    return !el.name || el.disabled || el.readOnly ||
      ["hidden", "password", "file", "submit", "button"].indexOf(el.type) >= 0 ||
      el.closest("form[data-language-switch]");
  }
  function changed(el) {
    if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
    if (el.tagName === "SELECT" && el.multiple) {
      return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    if (el.tagName === "SELECT") {  // with no option marked, the first one shows
      var first = Array.prototype.findIndex.call(el.options, function (o) { return o.defaultSelected; });
      return el.selectedIndex !== Math.max(first, 0);
    }
    return el.value !== el.defaultValue;
  }
  // A field's place on the page: its form's action, its name, and its rank among the
  // fields with the same two (the player's several action forms share both).
  function each(fn) {
    var seen = {};
    document.querySelectorAll("main form").forEach(function (form) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (skipped(el)) { return; }
        var base = (form.getAttribute("action") || "") + "|" + el.name + "|" + (el.type === "radio" ? el.value : "");
        seen[base] = (seen[base] || 0) + 1;
        fn(el, base + "|" + seen[base]);
      });
    });
  }
  function value(el) {
    if (el.type === "checkbox" || el.type === "radio") { return el.checked; }
    if (el.tagName === "SELECT") {
      return Array.prototype.filter.call(el.options, function (o) { return o.selected; })
        .map(function (o) { return o.value; });
    }
    return el.value;
  }
  function put(el, saved) {
    if (el.type === "checkbox" || el.type === "radio") { el.checked = saved; }
    else if (el.tagName === "SELECT") {
      Array.prototype.forEach.call(el.options, function (o) { o.selected = saved.indexOf(o.value) >= 0; });
    } else { el.value = saved; }
    el.dispatchEvent(new Event("input", { bubbles: true }));  // the will's word counter
  }
  function here() { return location.pathname + location.search; }

  function save() {
    var drafts = {};
    each(function (el, key) { if (changed(el)) { drafts[key] = value(el); } });
    try {
      if (Object.keys(drafts).length) {
        sessionStorage.setItem(KEY, JSON.stringify({ page: here(), drafts: drafts }));
      }
    } catch (e) { /* storage full or refused: the switch goes on */ }
  }
  function restore() {
    var raw;
    try { raw = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (e) { return; }
    if (!raw) { return; }
    var kept = JSON.parse(raw);
    if (kept.page !== here()) { return; }
    each(function (el, key) { if (key in kept.drafts) { put(el, kept.drafts[key]); } });
  }

  // Capture: this runs before the switch's own handler (site.js) submits the form.
  document.addEventListener("change", function (event) {
    if (event.target.closest("form[data-language-switch]")) { save(); }
  }, true);
  document.addEventListener("submit", function (event) {
    if (event.target.matches("form[data-language-switch]")) { save(); }
  }, true);
  window.TabulaDrafts = { save: save, restore: restore };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", restore);
  } else { restore(); }
})();
