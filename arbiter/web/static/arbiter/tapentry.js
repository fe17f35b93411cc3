/* Entering a move on a diagram by tapping the piece, then the square where it goes: shared by
 * the arbiter's board page (board.js) and the board's tablet (tablet.js).
 *
 * The diagram is the server's SVG (rules/svg.py: each square a rect.square with
 * data-square); the legal moves come from the game's state (the rules engine's words), so a
 * tap that names no legal move is refused there and then, with no request sent.
 *
 *   var tap = ArbiterTap.attach(diagramElement, {
 *     legal: function () { return state.legal_moves; },   // [] when no move may be entered
 *     onMove: function (moves) { ... },   // the legal moves from the piece to the square:
 *                                        // one, or several captures ending there (choose)
 *     onRefused: function (square, why) { ... },   // optional: a tap that names nothing
 *   });
 *   tap.reset();  // a new position: nothing picked
 *   tap.mark();   // draw the picked piece again on a new diagram
 */
(function () {
  "use strict";

  function squares(move) {
    return (move.match(/\d+/g) || []).map(Number);
  }

  function ends(move) {
    var sq = squares(move);
    return { from: sq[0], to: sq[sq.length - 1] };
  }

  function attach(container, options) {
    var picked = null;

    function movesFrom(square) {
      return (options.legal() || []).filter(function (m) {
        return ends(m).from === square;
      });
    }

    function targetsOf(square) {
      return movesFrom(square).map(function (m) {
        return ends(m).to;
      });
    }

    /* The picked piece and its squares, drawn again on whatever diagram is shown. */
    function mark() {
      var targets = picked === null ? [] : targetsOf(picked);
      container.querySelectorAll("rect.square").forEach(function (r) {
        var sq = +r.dataset.square;
        r.classList.toggle("picked", sq === picked);
        r.classList.toggle("target", targets.indexOf(sq) >= 0);
      });
    }

    function pick(square) {
      if (picked !== null && square !== picked) {
        var chosen = movesFrom(picked).filter(function (m) {
          return ends(m).to === square;
        });
        if (chosen.length) {
          picked = null;
          mark();
          options.onMove(chosen);
          return;
        }
      }
      // Another piece that can move is picked instead; a second tap lets go.
      var was = picked;
      picked = targetsOf(square).length && square !== picked ? square : null;
      mark();
      if (picked === null && was === null && options.onRefused) {
        options.onRefused(square, (options.legal() || []).length ? "no legal move starts on " + square : "no move can be entered now");
      } else if (picked === null && was !== null && square !== was && options.onRefused) {
        options.onRefused(square, "the piece on " + was + " cannot go to " + square);
      }
    }

    container.addEventListener("click", function (e) {
      var target = e.target.closest("[data-square]");
      if (target) pick(+target.dataset.square);
    });

    return {
      reset: function () {
        picked = null;
        mark();
      },
      mark: mark,
      picked: function () {
        return picked;
      },
    };
  }

  window.ArbiterTap = { attach: attach, squares: squares, ends: ends };
})();
