/* The arbiter's round page: every board's clocks, live; arrivals; the round's clock buttons. */
(function () {
  "use strict";
  var C = window.ArbiterClock;
  var root = document.getElementById("round-page");
  if (!root) return;
  var serverTime = new C.ServerTime();
  var state = null;

  function show(kind, text) {
    var box = document.getElementById("message");
    box.className = "message " + kind;
    box.textContent = text;
    box.hidden = !text;
  }

  var post = C.postJson;

  function hhmmss(iso) {
    return iso ? new Date(iso).toISOString().substr(11, 8) : "";
  }

  function renderRows() {
    if (!state) return;
    var now = serverTime.now();
    state.games.forEach(function (g) {
      var row = root.querySelector('tr[data-game="' + g.id + '"]');
      if (!row) return;
      var r = C.readings(g.clock, now, g.status === "finished" ? null : root);
      ["white", "black"].forEach(function (side) {
        var cell = row.querySelector('[data-clock="' + side + '"]');
        cell.textContent = r ? C.format(r[side]) : "–";
        var running = g.clock && g.clock.running === side && !g.clock.paused && g.status !== "finished";
        cell.classList.toggle("running", !!running);
        cell.classList.toggle("flag", g.flag === side);
        var arrivedAt = g[side + "_arrived_at"];
        var mark = row.querySelector('[data-arrived="' + side + '"]');
        if (mark) mark.textContent = arrivedAt ? "✓ " + hhmmss(arrivedAt) : "";
        var button = row.querySelector('[data-arrive="' + side + '"]');
        if (button) button.hidden = !!arrivedAt || g.status === "finished";
      });
      row.querySelector('[data-cell="last"]').textContent = g.ply + (g.last_move ? " · " + g.last_move.notation : "");
      var result = g.result ? g.result + (g.termination ? " (" + g.termination.replace(/_/g, " ") + ")" : "") : g.status;
      if (g.clock && g.clock.paused && g.status !== "finished") result += " · paused";
      // An act from the board's tablet or a player (an offer, a claim, an irregularity to
      // choose on) shows at once: the board page has the details.
      if (g.acts_pending && g.status !== "finished") result += " · act waiting";
      row.classList.toggle("acts-waiting", !!(g.acts_pending && g.status !== "finished"));
      row.querySelector('[data-cell="result"]').textContent = result;
    });
  }

  var poller = C.poll(
    root.dataset.stateUrl,
    serverTime,
    function (body) {
      state = body;
      var deadline = document.getElementById("arrival-deadline");
      deadline.textContent = body.arrival_deadline ? " (players arrive until " + hhmmss(body.arrival_deadline) + " UTC)" : "";
      renderRows();
      // Other parts of the page (the results' confirmations) read the same state.
      root.dispatchEvent(new CustomEvent("round-state", { detail: body }));
    },
    function (message) {
      show("error", message);
    },
    1000
  );
  setInterval(renderRows, 200);

  var DONE = { start: "Started", pause: "Paused", resume: "Resumed" };

  function board(gameId) {
    var g = state && state.games.filter(function (x) {
      return x.id === gameId;
    })[0];
    return g ? "board " + g.board : "game " + gameId;
  }

  // What a round action did: how many clocks changed, and why the others did not.
  function outcome(body) {
    var n = body.changed.length;
    var text = DONE[body.action] + " " + n + " clock" + (n === 1 ? "" : "s") + ".";
    if (body.skipped.length) {
      text += " Not changed: " + body.skipped.map(function (s) {
        return board(s.game) + " (" + s.reason + ")";
      }).join("; ") + ".";
    }
    return text;
  }

  root.querySelectorAll("[data-round-action]").forEach(function (b) {
    b.addEventListener("click", function () {
      // Every board of the round at once: asked twice, a stray click changes nothing.
      if (!window.confirm(b.textContent.trim() + " on every board of this round?")) return;
      var reason = document.getElementById("reason").value.trim();
      post(root.dataset.clockUrl, { action: b.dataset.roundAction, reason: reason }).then(function (res) {
        if (res.ok) {
          show(res.body.skipped.length ? "conflict" : "done", outcome(res.body));
          document.getElementById("reason").value = "";
        } else {
          show("invalid", res.body.message || "Refused (" + res.status + ").");
        }
        poller.refresh();
      });
    });
  });
  /* Binding a board's tablet: one-time codes for the board (shown once, for 10 minutes). */
  root.querySelectorAll("[data-bind]").forEach(function (b) {
    b.addEventListener("click", function () {
      var id = b.closest("tr").dataset.game;
      var follow = document.getElementById("tablet-follow").checked;
      post("/api/games/" + id + "/tablet-codes", { follow_board: follow }).then(function (res) {
        var box = document.getElementById("tablet-codes");
        if (!res.ok) return show("invalid", res.body.message || "Refused (" + res.status + ").");
        var body = res.body;
        var item = document.createElement("li");
        item.dataset.board = body.board;
        var until = new Date(body.expires_at).toISOString().substr(11, 5);
        item.innerHTML = "<strong></strong> type <code class='tablet-code'></code> at <code>/tablet/</code> on the tablet, or open <a class='tablet-link' target='_blank'></a> (once, until <span></span> UTC)";
        item.querySelector("strong").textContent = "Board " + body.board + (body.follow_board ? " (and its next rounds):" : ":");
        item.querySelector(".tablet-code").textContent = body.short_code;
        var link = item.querySelector(".tablet-link");
        link.href = body.link;
        link.textContent = "this link";
        item.querySelector("span").textContent = until;
        box.prepend(item);
        box.closest("section").hidden = false;
      });
    });
  });
  root.querySelectorAll("[data-arrive]").forEach(function (b) {
    b.addEventListener("click", function () {
      var id = b.closest("tr").dataset.game;
      post(root.dataset.arrivalUrlTemplate.replace("GAME", id), { side: b.dataset.arrive }).then(function (res) {
        show(res.ok ? "" : "conflict", res.ok ? "" : res.body.message || "Refused (" + res.status + ").");
        poller.refresh();
      });
    });
  });
})();
