/* The event settings form: the time control in words as its PDN tag is typed (or a preset
 * chosen), from the server's own reading of the tag (the clocks' parser). */
(function () {
  "use strict";
  var form = document.querySelector("form[data-tc-url]");
  if (!form) return;
  var tag = form.querySelector("[name=time_control]");
  var preset = form.querySelector("[name=preset]");
  var out = document.getElementById("tc-words");
  var timer = null;

  function show() {
    if (preset && preset.value) {
      out.textContent = preset.options[preset.selectedIndex].text;
      out.className = "tc-words";
      return;
    }
    var text = tag.value.trim();
    if (!text) {
      out.textContent = "";
      return;
    }
    fetch(form.dataset.tcUrl + "?tag=" + encodeURIComponent(text), { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (tag.value.trim() !== text) return; // typed on meanwhile
        out.textContent = body.words ? "In words: " + body.words : body.message;
        out.className = "tc-words" + (body.words ? "" : " error");
      })
      .catch(function () {});
  }

  function later() {
    if (preset) preset.value = ""; // a typed tag replaces the preset
    clearTimeout(timer);
    timer = setTimeout(show, 250);
  }
  if (tag) tag.addEventListener("input", later);
  if (preset) preset.addEventListener("change", function () {
    if (preset.value) tag.value = "";
    show();
  });
  show();
})();
