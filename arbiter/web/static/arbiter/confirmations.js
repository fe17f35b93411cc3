/* The round page's results confirmed by the players: the table follows the round's state
   (round.js polls it), and one button accepts every result agreed by both (the API). */
(function () {
  "use strict";
  var root = document.getElementById("round-page");
  var box = document.getElementById("confirmations");
  if (!root || !box) return;
  var button = document.getElementById("accept-all");
  var last = "";

  function say(kind, text) {
    var m = document.getElementById("confirm-message");
    m.className = "message " + kind;
    m.textContent = text;
    m.hidden = !text;
  }

  function sideCell(side, result) {
    if (!side) return "–";
    return side.result === result ? "✓ " + side.result : "✗ says " + side.result;
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.appendChild(td);
  }

  function render(c) {
    var key = JSON.stringify(c);
    if (key === last) return;
    last = key;
    var n = c.counts;
    document.getElementById("confirm-counts").textContent =
      n.agreed + " agreed by both · " + n.unconfirmed + " not confirmed by both · " +
      n.disputed + " disputed · " + n.approved + " accepted";
    button.textContent = "Accept the " + n.to_accept + " agreed result" + (n.to_accept === 1 ? "" : "s");
    button.disabled = !n.to_accept;
    var body = document.getElementById("confirm-rows");
    body.textContent = "";
    c.boards.forEach(function (b) {
      if (b.status === "bye") return;
      var tr = document.createElement("tr");
      tr.dataset.confirm = b.game;
      tr.className = b.status + (b.approved ? " approved" : "");
      cell(tr, b.board, "num");
      cell(tr, sideCell(b.white, b.result));
      cell(tr, sideCell(b.black, b.result));
      cell(tr, b.words + (b.approved ? " · accepted by " + (b.approved_by || "an arbiter") : ""));
      body.appendChild(tr);
    });
  }

  root.addEventListener("round-state", function (event) {
    if (event.detail && event.detail.confirmations) render(event.detail.confirmations);
  });

  button.addEventListener("click", function () {
    button.disabled = true;
    window.ArbiterClock.postJson(box.dataset.acceptUrl, {}).then(function (res) {
      if (!res.ok) {
        say("invalid", res.body.message || "Refused (" + res.status + ").");
        button.disabled = false;
        return;
      }
      var b = res.body;
      var text = b.accepted.length
        ? "Accepted board" + (b.accepted.length === 1 ? " " : "s ") + b.accepted.join(", ") + "."
        : "Nothing new to accept.";
      if (b.not_agreed.length) text += " Not agreed by both yet: board" + (b.not_agreed.length === 1 ? " " : "s ") +
        b.not_agreed.map(function (x) { return x.board + " (" + x.status + ")"; }).join(", ") + ".";
      say("done", text);
      last = "";
    });
  });
})();
