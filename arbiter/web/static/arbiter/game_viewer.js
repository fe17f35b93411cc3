// The public game page: draws the diagram of any position of the record from its FEN
// (FMJD 2.3 numbering: square 1 top left, on a dark square) and steps through the moves
// with the buttons, the arrow keys (Home / End too) or a tap on a move.
(function () {
  "use strict";
  const root = document.getElementById("game-viewer");
  const data = document.getElementById("viewer-fens");
  if (!root || !data) return;
  const fens = JSON.parse(data.textContent);
  const diagram = document.getElementById("viewer-diagram");
  const now = document.getElementById("viewer-now");
  const buttons = Array.from(root.querySelectorAll("[data-ply]"));
  let ply = fens.length - 1;

  function pieces(fen) {
    const out = {};
    fen.trim().replace(/\.$/, "").split(":").slice(1).forEach(function (part) {
      const colour = part.charAt(0).toLowerCase();
      part.slice(1).split(",").forEach(function (item) {
        item = item.trim();
        if (!item) return;
        const king = item.charAt(0) === "K";
        const range = (king ? item.slice(1) : item).split("-").map(Number);
        for (let sq = range[0]; sq <= (range[1] || range[0]); sq++) out[sq] = king ? colour.toUpperCase() : colour;
      });
    });
    return out;
  }

  function svg(fen) {
    const cell = 40, size = 400, p = pieces(fen);
    let s = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + size + " " + size + '" role="img"><title>Position</title>';
    s += '<rect width="400" height="400" fill="#f3e6cc"/>';
    for (let sq = 1; sq <= 50; sq++) {
      const row = Math.floor((sq - 1) / 5), col = 2 * ((sq - 1) % 5) + (row % 2 === 0 ? 1 : 0);
      const x = col * cell, y = row * cell;
      s += '<rect x="' + x + '" y="' + y + '" width="40" height="40" fill="#8b5a2b"/>';
      s += '<text x="' + (x + 3) + '" y="' + (y + 11) + '" font-size="9" fill="#e8d2b0">' + sq + "</text>";
      const piece = p[sq];
      if (!piece) continue;
      const white = piece.toLowerCase() === "w", cx = x + 20, cy = y + 21;
      s += '<circle cx="' + cx + '" cy="' + cy + '" r="15" fill="' + (white ? "#fafafa" : "#222") + '" stroke="' + (white ? "#555" : "#000") + '" stroke-width="1.5"/>';
      if (piece === "W" || piece === "B") {
        s += '<circle cx="' + cx + '" cy="' + cy + '" r="7" fill="none" stroke="' + (white ? "#b8860b" : "#e0b84a") + '" stroke-width="3"/>';
      }
    }
    return s + "</svg>";
  }

  function show(n) {
    ply = Math.max(0, Math.min(fens.length - 1, n));
    diagram.innerHTML = svg(fens[ply]);
    buttons.forEach(function (b) {
      const on = Number(b.dataset.ply) === ply;
      if (on) { b.setAttribute("aria-current", "step"); b.scrollIntoView({block: "nearest"}); }
      else b.removeAttribute("aria-current");
    });
    const current = buttons.find(function (b) { return Number(b.dataset.ply) === ply; });
    now.textContent = ply === 0 ? "Start position." :
      "After " + (current ? current.parentElement.querySelector(".muted").textContent + " " + current.childNodes[0].textContent : "ply " + ply) + " (ply " + ply + " of " + (fens.length - 1) + ").";
  }

  root.querySelectorAll("[data-step]").forEach(function (b) {
    b.addEventListener("click", function () {
      const step = b.dataset.step;
      show(step === "first" ? 0 : step === "last" ? fens.length - 1 : ply + (step === "next" ? 1 : -1));
    });
  });
  buttons.forEach(function (b) { b.addEventListener("click", function () { show(Number(b.dataset.ply)); }); });
  document.addEventListener("keydown", function (e) {
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    const moves = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: fens.length - 1};
    if (e.key in moves) { e.preventDefault(); show(moves[e.key]); }
  });
  show(ply);
})();
