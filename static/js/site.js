// Behaviour the pages ask for with data attributes, so that no inline script or event
// handler is needed (the Content-Security-Policy forbids them):
//   select[data-autosubmit]      submits its form when changed (the language switch)
//   input[data-select-on-click]  selects its text when clicked (a private link)
//   button[data-copy]            copies its text;  button[data-copy-from]: an element's value
//                                (data-copied: the label shown once copied)
//   form[data-confirm]           asks before submitting;  form[data-submit-once]: disables
//                                its button once sent
// and, for a form sent by htmx, a failure (a server error, no connection) is said beside
// it, so a player always knows his vote was not saved (issue 27 §6): htmx swaps nothing then.
(function () {
  var NOT_SAVED = "Non salvato, riprova: il sito non ha potuto registrare l'invio.";
  function notSaved(event) {
    var source = event.detail && event.detail.elt;
    var form = source && (source.closest("form") || source);
    if (!form || !form.parentNode) { return; }
    var note = form.querySelector("[data-not-saved]");
    if (!note) {
      note = document.createElement("p");
      note.className = "error";
      note.setAttribute("role", "alert");
      note.setAttribute("data-not-saved", "");
      form.appendChild(note);
    }
    note.textContent = NOT_SAVED;
    form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
  }
  document.addEventListener("htmx:responseError", notSaved);
  document.addEventListener("htmx:sendError", notSaved);
  function copied(button) {
    if (button.dataset.copied) { button.textContent = button.dataset.copied; }
  }
  document.addEventListener("change", function (event) {
    var select = event.target.closest("select[data-autosubmit]");
    if (select) { select.form.submit(); }
  });
  document.addEventListener("click", function (event) {
    var input = event.target.closest("input[data-select-on-click]");
    if (input) { input.select(); return; }
    var button = event.target.closest("button[data-copy], button[data-copy-from]");
    if (!button) { return; }
    var text = button.dataset.copy;
    if (button.dataset.copyFrom) { text = document.getElementById(button.dataset.copyFrom).value; }
    navigator.clipboard.writeText(text).then(function () { copied(button); });
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    if (form.hasAttribute("data-submit-once")) {
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
  });
})();
