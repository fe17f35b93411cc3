/* The arbiter's board page: diagram, move entry, move list, live clocks, clock actions,
 * arrivals. Everything goes through the JSON API (GET /api/games/{id}, POST .../moves,
 * .../clock, .../arrival); the server decides, the page shows what it says. */
(function () {
  "use strict";
  var C = window.ArbiterClock;
  var root = document.getElementById("board-page");
  if (!root) return;

  var $ = function (id) {
    return document.getElementById(id);
  };
  var serverTime = new C.ServerTime();
  var startsWhite = (root.dataset.starts || "W") !== "B";
  var state = null;
  var shownPly = root.dataset.ply ? +root.dataset.ply : null; // the diagram the page came with
  var shownKey = null;
  var flipped = false;
  var pendingMove = null; // {text, requestId}: retried with the same id after a network error

  function show(kind, text, moves) {
    var box = $("message");
    box.className = "message " + kind;
    box.textContent = text;
    if (moves && moves.length) {
      var list = document.createElement("div");
      list.className = "chips";
      moves.forEach(function (m) {
        list.appendChild(chip(m));
      });
      box.appendChild(list);
    }
    box.hidden = false;
  }

  function clearMessage() {
    $("message").hidden = true;
  }

  function chip(text) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "chip";
    b.textContent = text;
    b.addEventListener("click", function () {
      $("move-input").value = text;
      $("move-input").focus();
    });
    return b;
  }

  var post = C.postJson;

  /* ---- rendering ---------------------------------------------------------------------- */

  var shownLogKey = null;

  function render(newState) {
    state = newState;
    var status = state.status;
    // A running game whose clock is paused reads "Paused", as its clocks do.
    var shown = status === "running" && state.clock && state.clock.paused ? "paused" : status;
    var line = shown.charAt(0).toUpperCase() + shown.slice(1);
    if (state.result) line += " · " + state.result + (state.termination ? " (" + state.termination.replace(/_/g, " ") + ")" : "");
    if (state.flag) line += " · flag: " + state.flag.side;
    $("game-status").textContent = line;
    $("turn").textContent = status === "finished" ? "" : (state.turn === "white" ? "White" : "Black") + " to move";
    $("next-ply").textContent = status === "finished" ? "(game over)" : "(ply " + (state.ply + 1) + ")";

    // Rebuilt only when the game changes, so that an open datalist is not reset every second.
    var key = state.ply + "/" + status + "/" + (state.legal_moves || []).length;
    if (key !== shownKey) {
      shownKey = key;
      renderLegal(state.legal_moves || [], status);
      renderMoves(state.moves || []);
    }
    if (state.ply !== shownPly) {
      shownPly = state.ply;
      tap.reset(); // a move was played: start again from the new position
      refreshDiagram();
    }
    var clock = state.clock || {};
    var logKey = [status, state.flag && state.flag.side, clock.started, clock.paused].join("/");
    if (logKey !== shownLogKey) {
      shownLogKey = logKey; // started, paused, resumed or flagged, maybe from elsewhere
      refreshLog();
    }
    renderClocks();
    renderDrawRules();
  }

  /* ---- draw rules (FMJD 6) and the endings people bring about (FMJD 5-7) --------------- */

  function renderDrawRules() {
    var list = $("draw-rules");
    list.textContent = "";
    (state.draw_rules || []).forEach(function (rule) {
      var li = document.createElement("li");
      li.textContent = C.drawRuleWords(rule);
      if (rule.applies) li.className = "applies";
      list.appendChild(li);
    });
    var actsKey = [state.ply, state.status, state.acts_pending].join("/");
    if (actsKey !== shownActsKey) {
      shownActsKey = actsKey;
      refreshActs();
    }
  }

  var shownActsKey = null;
  var pendingIrregularity = null;

  function actUrl(path) {
    return root.dataset.actsUrl + "/" + path;
  }

  function answered(res, what) {
    if (res.ok) {
      clearMessage();
      show("done", what);
      if (res.body && res.body.id && res.body.clock !== undefined) render(res.body);
      poller.refresh();
      refreshActs();
    } else {
      show(res.status === 409 ? "conflict" : "invalid", res.body.message || "Refused (" + res.status + ").");
      if (res.body.game) render(res.body.game);
    }
  }

  function refreshActs() {
    fetch(actUrl("acts"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (body) {
        if (!body) return;
        var tbody = $("acts-log");
        tbody.textContent = "";
        body.record.forEach(function (e) {
          var tr = document.createElement("tr");
          var what = e.action.replace(/^game\./, "").replace(/_/g, " ");
          if (e.what && e.what.side) what += " · " + e.what.side;
          if (e.what && e.what.article) what += " · " + e.what.article;
          if (e.what && e.what.status) what += " · " + e.what.status;
          [e.at.slice(11, 19), what, e.by || "system", e.why || ""].forEach(function (text) {
            var td = document.createElement("td");
            td.textContent = text;
            tr.appendChild(td);
          });
          tbody.appendChild(tr);
        });
        if (!body.record.length) tbody.innerHTML = '<tr><td colspan="4" class="muted">nothing yet</td></tr>';
        var waiting = [];
        pendingIrregularity = null;
        body.offers.forEach(function (o) {
          if (o.status === "pending") waiting.push("draw offered by " + o.side);
        });
        body.claims.forEach(function (c) {
          if (c.status === "pending") waiting.push("claim " + c.article + " being decided");
        });
        body.irregularities.forEach(function (i) {
          if (i.status === "pending") {
            pendingIrregularity = i;
            waiting.push(i.kind.replace(/_/g, " ") + " by " + i.side + ": the opponent chooses");
          }
        });
        $("pending-acts").textContent = waiting.length ? "Waiting: " + waiting.join(" · ") : "";
      })
      .catch(function () {});
  }

  function act(path, body, what) {
    post(actUrl(path), body).then(function (res) {
      answered(res, what);
    });
  }

  root.querySelectorAll("[data-act]").forEach(function (b) {
    b.addEventListener("click", function () {
      act(b.dataset.act, { side: $("act-side").value }, b.textContent + ": done");
    });
  });
  $("claim").addEventListener("click", function () {
    var article = $("claim-article").value;
    var side = $("act-side").value;
    var body = { article: article, request_id: C.requestId(), side: side };
    post(actUrl("claims"), body).then(function (res) {
      answered(res, "Claim " + article + " by " + side + " stored: it is being decided");
      if (res.ok) setTimeout(refreshActs, 500);
    });
  });
  $("ruling").addEventListener("click", function () {
    act(
      "ruling",
      { result: $("ruling-result").value, termination: $("ruling-termination").value, reason: $("ruling-reason").value.trim() },
      "Ruling recorded"
    );
  });
  $("irregularity").addEventListener("click", function () {
    act(
      "irregularities",
      { kind: $("irr-kind").value, side: $("act-side").value, fen_on_board: $("irr-fen").value.trim(), note: $("irr-note").value.trim() },
      "Irregularity recorded: the opponent chooses"
    );
  });
  root.querySelectorAll("[data-choice]").forEach(function (b) {
    b.addEventListener("click", function () {
      if (!pendingIrregularity) return show("conflict", "No irregularity waits for a choice.");
      act("irregularities/" + pendingIrregularity.id + "/choice", { choice: b.dataset.choice }, "The opponent's choice is recorded");
    });
  });

  var squares = window.ArbiterTap.squares;

  function byPath(a, b) {
    var x = squares(a);
    var y = squares(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }

  function renderLegal(legal, status) {
    legal = legal.slice().sort(byPath); // by start square, then landing squares
    var datalist = $("legal-moves");
    datalist.textContent = "";
    var listBox = $("legal-list");
    listBox.textContent = "";
    legal.forEach(function (m) {
      var option = document.createElement("option");
      option.value = m;
      datalist.appendChild(option);
      listBox.appendChild(chip(m));
    });
    if (!legal.length) listBox.textContent = status === "finished" ? "none (the game is over)" : "none";
  }

  function renderMoves(moves) {
    var body = $("move-list");
    body.textContent = "";
    var row = null;
    moves.forEach(function (m) {
      var whiteMove = startsWhite ? m.ply % 2 === 1 : m.ply % 2 === 0;
      if (whiteMove || !row) {
        row = document.createElement("tr");
        var n = document.createElement("td");
        n.className = "num";
        n.textContent = Math.floor((m.ply - 1 + (startsWhite ? 0 : 1)) / 2) + 1;
        row.appendChild(n);
        row.appendChild(document.createElement("td"));
        row.appendChild(document.createElement("td"));
        body.appendChild(row);
      }
      var cell = row.children[whiteMove ? 1 : 2];
      // A position set within the game (FMJD 5.4 maintained, 5.1) in place of a move: its
      // FEN is too long for the list; the record of acts says what happened.
      var setup = m.notation.indexOf("/FEN") === 0;
      cell.textContent = setup ? "position set" : m.notation;
      if (setup) cell.title = m.notation;
      var ms = whiteMove ? m.white_ms : m.black_ms;
      if (ms !== null && ms !== undefined) {
        var t = document.createElement("small");
        t.className = "muted";
        t.textContent = " " + C.format(ms);
        cell.appendChild(t);
      }
    });
    var wrap = body.closest(".moves-col");
    if (wrap) wrap.scrollTop = wrap.scrollHeight;
  }

  function renderClocks() {
    if (!state) return;
    var clock = state.clock;
    // A game over without a clock (a forfeit, a bye) shows no times at all.
    var r = C.readings(clock, serverTime.now(), state.status === "finished" ? null : root);
    ["white", "black"].forEach(function (side) {
      var face = root.querySelector('.clock-face[data-side="' + side + '"]');
      $(side + "-time").textContent = r ? C.format(r[side]) : "–";
      var running = clock && clock.running === side && !clock.paused && state.status !== "finished";
      face.classList.toggle("running", !!running);
      face.classList.toggle("flag", !!(state.flag && state.flag.side === side));
      var sub = "";
      if (clock && clock.moves) sub = C.movesText(clock.moves[side]);
      if (clock && clock.period && clock.period[side]) sub += " · period " + (clock.period[side] + 1);
      $(side + "-sub").textContent = sub;
    });
    var note = $("clock-note");
    var tc = root.dataset.tcWords || "";
    if (!clock) note.textContent = "Clock not started" + (tc ? " · " + tc : "");
    else {
      // The clock's own time control (the event's may have changed since it started).
      if (clock.time_control !== root.dataset.tcPdn) tc = clock.time_control;
      note.textContent = tc + (clock.paused ? " · paused" : clock.running ? "" : " · stopped");
    }
  }

  /* ---- entering a move on the diagram: tap the piece, then where it goes (tapentry.js) ---- */
  // The move lands in the move box; "Enter move" sends it (a tap too many is no move played).
  var tap = window.ArbiterTap.attach($("diagram"), {
    legal: function () {
      return (state && state.status !== "finished" && state.legal_moves) || [];
    },
    onMove: function (chosen) {
      $("move-input").value = chosen[0];
      if (chosen.length === 1) {
        clearMessage();
        $("enter-move").focus();
      } else {
        show("invalid", "Several captures end on " + window.ArbiterTap.ends(chosen[0]).to + ": choose the path.", chosen);
      }
    },
  });

  function refreshDiagram() {
    var url = root.dataset.svgUrl + "?ply=" + encodeURIComponent(shownPly) + (flipped ? "&flipped=1" : "");
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        return r.ok ? r.text() : null;
      })
      .then(function (svg) {
        if (!svg) return;
        $("diagram").innerHTML = svg;
        tap.mark(); // a piece picked while the diagram was on its way stays picked
      });
  }

  /* ---- actions ------------------------------------------------------------------------- */

  function submitMove(text) {
    if (!state) return;
    if (!pendingMove || pendingMove.text !== text || pendingMove.ply !== state.ply + 1) {
      pendingMove = { text: text, ply: state.ply + 1, requestId: C.requestId() };
    }
    var attempt = pendingMove;
    post(root.dataset.movesUrl, { ply: attempt.ply, move: text, request_id: attempt.requestId })
      .then(function (res) {
        pendingMove = null;
        if (res.ok) {
          clearMessage();
          $("move-input").value = "";
          // The answer carries the accepted move, not the whole list: append it.
          var next = res.body;
          next.moves = (state.moves || []).filter(function (m) { return m.ply < next.move.ply; });
          next.moves.push(next.move);
          render(next);
        } else if (res.status === 409) {
          show("conflict", res.body.message || "The game has moved on.");
          if (res.body.game) render(res.body.game);
          else poller.refresh();
        } else if (res.status === 422) {
          var options = (res.body.candidates || res.body.legal_moves || []).slice().sort(byPath);
          var label = res.body.candidates ? "Which one did you mean?" : "Legal moves:";
          var why = res.body.message || res.body.reason || "Illegal move";
          show("invalid", why.replace(/\.?$/, ". ") + label, options);
        } else {
          show("error", res.body.message || "Refused (" + res.status + ").");
        }
        $("move-input").focus();
      })
      .catch(function (err) {
        // Not answered: the same request_id is sent again on the next try, so a move the
        // server did receive is not entered twice.
        show("error", "No answer from the server (" + err.message + "). Press Enter to try again.");
      });
  }

  function clockAction(button) {
    var action = button.dataset.action;
    var body = { action: action, reason: $("reason").value.trim() };
    if (action === "adjust") {
      var seconds = parseInt($("adjust-seconds").value, 10);
      if (!seconds) return show("invalid", "Give a number of seconds to add or remove.");
      body.side = $("adjust-side").value;
      body.delta_ms = seconds * 1000 * parseInt(button.dataset.sign, 10);
    } else if (action === "set") {
      body.white_ms = C.parseDuration($("set-white").value);
      body.black_ms = C.parseDuration($("set-black").value);
      if (body.white_ms === null || body.black_ms === null) return show("invalid", "Write both times as h:mm:ss or m:ss.");
    }
    post(root.dataset.clockUrl, body).then(function (res) {
      if (res.ok) {
        clearMessage();
        $("reason").value = ""; // logged with this action; the next one needs its own
        if (res.body && res.body.clock !== undefined && res.body.id) render(res.body);
        poller.refresh();
        refreshLog();
      } else {
        show(res.status === 409 ? "conflict" : "invalid", res.body.message || "Refused (" + res.status + ").");
        if (res.body.game) render(res.body.game);
      }
    });
  }

  /* The clock's log: every start, pause, adjustment, flag and stop, with who and why. */
  function logAction(e) {
    var text = e.action.charAt(0).toUpperCase() + e.action.slice(1);
    if (e.side) text += " " + e.side;
    if (e.delta_ms) text += " " + (e.delta_ms > 0 ? "+" : "−") + C.format(Math.abs(e.delta_ms));
    return text;
  }

  function refreshLog() {
    fetch(root.dataset.clockLogUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (body) {
        if (!body) return;
        var rows = $("clock-log");
        rows.textContent = "";
        body.entries.forEach(function (e) {
          var tr = document.createElement("tr");
          [
            new Date(e.at).toISOString().substr(11, 8),
            logAction(e),
            e.by || "automatic",
            e.reason,
            C.format(e.white_ms),
            C.format(e.black_ms),
          ].forEach(function (text, i) {
            var td = document.createElement("td");
            td.textContent = text;
            if (i >= 4) td.className = "num";
            tr.appendChild(td);
          });
          rows.appendChild(tr);
        });
        if (!body.entries.length) {
          rows.innerHTML = '<tr><td colspan="6" class="muted">no clock actions yet</td></tr>';
        }
      })
      .catch(function () {});
  }

  function showArrivals(body) {
    ["white", "black"].forEach(function (s) {
      var at = body[s + "_arrived_at"];
      $(s + "-arrived").textContent = at ? "arrived " + new Date(at).toISOString().substr(11, 8) + " UTC" : "not yet";
    });
  }

  function refreshArrivals() {
    fetch(root.dataset.arrivalUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (body) {
        if (body) showArrivals(body);
      })
      .catch(function () {});
  }

  function arrive(side) {
    post(root.dataset.arrivalUrl, { side: side }).then(function (res) {
      if (res.ok) {
        clearMessage();
        showArrivals(res.body);
      } else {
        show(res.status === 409 ? "conflict" : "invalid", res.body.message || "Refused (" + res.status + ").");
      }
      poller.refresh();
    });
  }

  $("move-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var text = $("move-input").value.trim();
    if (!text) return show("invalid", "Type a move, e.g. 32-28, or pick one of the legal moves.");
    submitMove(text);
  });
  root.querySelectorAll("[data-action]").forEach(function (b) {
    b.addEventListener("click", function () {
      clockAction(b);
    });
  });
  root.querySelectorAll("[data-arrive]").forEach(function (b) {
    b.addEventListener("click", function () {
      arrive(b.dataset.arrive);
    });
  });
  $("flip").addEventListener("click", function () {
    flipped = !flipped;
    refreshDiagram();
  });

  var poller = C.poll(
    root.dataset.stateUrl,
    serverTime,
    function (body) {
      root.classList.remove("offline");
      render(body);
    },
    function (message) {
      root.classList.add("offline");
      $("clock-note").textContent = message;
    },
    1000
  );
  setInterval(renderClocks, 100);
  $("clock-log-box").addEventListener("toggle", refreshLog);
  setInterval(function () {
    if ($("clock-log-box").open) refreshLog(); // another arbiter's adjustments
  }, 5000);
  // Another arbiter may mark a player present; a move is an arrival too.
  setInterval(refreshArrivals, 5000);
})();
