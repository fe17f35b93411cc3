/* Clocks in the browser, counting down from the server's state (the server is the authority).
 *
 * Each answer of GET /api/games/{id} carries clock.server_time and both readings at that
 * instant. The page estimates the server's clock from the answer with the shortest round
 * trip among the last ten (offset = server_time - the middle of the request), and shows the
 * running side's reading minus the server time elapsed since. A lost poll does not stop the
 * display; the next answer corrects it.
 *
 * Also the players' clock page (templates/games/player_clock.html).
 */
(function () {
  "use strict";

  function ServerTime() {
    this.samples = [];
  }
  ServerTime.prototype.sample = function (t0, t1, serverIso) {
    var server = Date.parse(serverIso);
    if (isNaN(server)) return;
    this.samples.push({ rtt: t1 - t0, offset: server - (t0 + t1) / 2 });
    if (this.samples.length > 10) this.samples.shift();
  };
  ServerTime.prototype.ready = function () {
    return this.samples.length > 0;
  };
  /** The server's time now, in epoch milliseconds. */
  ServerTime.prototype.now = function () {
    if (!this.samples.length) return Date.now();
    var best = this.samples[0];
    for (var i = 1; i < this.samples.length; i++) {
      if (this.samples[i].rtt < best.rtt) best = this.samples[i];
    }
    return performance.now() + best.offset;
  };

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  /** 1:59:07, 4:05, and tenths under ten seconds (0:09.4). */
  function format(ms) {
    if (ms === null || ms === undefined || isNaN(ms)) return "–";
    ms = Math.max(0, ms);
    if (ms < 10000) {
      var tenths = Math.floor(ms / 100);
      return "0:0" + Math.floor(tenths / 10) + "." + (tenths % 10);
    }
    var total = Math.floor(ms / 1000);
    var h = Math.floor(total / 3600);
    var m = Math.floor((total % 3600) / 60);
    var s = total % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  /** "h:mm:ss", "m:ss" or seconds -> milliseconds, or null. */
  function parseDuration(text) {
    var parts = String(text || "").trim().split(":");
    if (!parts[0]) return null;
    var total = 0;
    for (var i = 0; i < parts.length; i++) {
      if (!/^\d+$/.test(parts[i])) return null;
      total = total * 60 + parseInt(parts[i], 10);
    }
    return total * 1000;
  }

  /** Both readings at the server time `serverNow` (epoch ms). Before the clock exists, what
   * it will show when started: the page's data-start-ms (the first period's time), if any. */
  function readings(clock, serverNow, page) {
    if (!clock) {
      var start = page && page.dataset.startMs;
      return start ? { white: +start, black: +start } : null;
    }
    var white = clock.white_ms;
    var black = clock.black_ms;
    if (clock.running && !clock.paused) {
      var elapsed = Math.max(0, serverNow - Date.parse(clock.server_time));
      if (clock.running === "white") white -= elapsed;
      else black -= elapsed;
    }
    return { white: Math.max(0, white), black: Math.max(0, black) };
  }

  /** GET `url` every `interval` ms; onState(json) on success, onError(message) otherwise. */
  function poll(url, serverTime, onState, onError, interval) {
    var inflight = false;
    function tick() {
      if (inflight) return;
      inflight = true;
      var t0 = performance.now();
      fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          var t1 = performance.now();
          return response.json().then(function (body) {
            if (!response.ok) throw new Error(body.message || response.status + " " + response.statusText);
            var stamp = (body.clock && body.clock.server_time) || body.server_time;
            if (stamp) serverTime.sample(t0, t1, stamp);
            onState(body);
          });
        })
        .catch(function (err) {
          if (onError) onError("cannot reach the server: " + err.message);
        })
        .then(function () {
          inflight = false;
        });
    }
    tick();
    var timer = setInterval(tick, interval || 1000);
    return {
      refresh: tick,
      stop: function () {
        clearInterval(timer);
      },
    };
  }

  function moveLabel(ply, notation, startsWhite) {
    // Ply 1 is White's first move when White starts (FMJD 3.1: White moves first).
    var offset = startsWhite === false ? 1 : 0;
    var n = Math.floor((ply - 1 + offset) / 2) + 1;
    var whiteMove = (ply + offset) % 2 === 1;
    return n + (whiteMove ? ". " : ". … ") + notation;
  }

  /* POST JSON to the games API with the page's CSRF token; resolves to {ok, status, body},
     the body being the API's error ({message, ...}) when the answer is not JSON. */
  function postJson(url, body) {
    var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return { message: response.status + " " + response.statusText };
        })
        .then(function (json) {
          return { ok: response.ok, status: response.status, body: json };
        });
    });
  }

  /* "1 move", "2 moves": the moves a side has played, under its clock. */
  function movesText(n) {
    return n + (n === 1 ? " move" : " moves");
  }

  window.ArbiterClock = {
    movesText: movesText,
    ServerTime: ServerTime,
    postJson: postJson,
    format: format,
    parseDuration: parseDuration,
    readings: readings,
    poll: poll,
    moveLabel: moveLabel,
  };

  /* ---- the players' clock page ---------------------------------------------------------- */

  function initPlayerClock(root) {
    var serverTime = new ServerTime();
    var state = null;
    var faces = {
      white: root.querySelector('[data-side="white"]'),
      black: root.querySelector('[data-side="black"]'),
    };
    var lastMove = root.querySelector("#last-move");
    var banner = root.querySelector("#banner");
    var key = "arbiter-clock-left-" + root.dataset.game;
    var params = new URLSearchParams(location.search);
    var left = params.get("left") || localStorage.getItem(key) || "white";

    function place() {
      root.classList.toggle("black-left", left === "black");
    }
    place();
    root.querySelector("#swap").addEventListener("click", function () {
      left = left === "white" ? "black" : "white";
      localStorage.setItem(key, left);
      place();
    });

    function render() {
      if (!state) return;
      var clock = state.clock;
      var now = serverTime.now();
      var r = readings(clock, now, state.status === "finished" ? null : root);
      ["white", "black"].forEach(function (side) {
        var face = faces[side];
        var shown = r ? format(r[side]) : "–";
        var timeBox = face.querySelector(".time");
        timeBox.textContent = shown;
        // Narrower digits as the text grows, so that "0:00.0" or "1:30:00" fits its half.
        timeBox.classList.toggle("long", shown.length >= 7);
        timeBox.classList.toggle("mid", shown.length === 6);
        var running = clock && clock.running === side && !clock.paused && state.status !== "finished";
        face.classList.toggle("running", !!running);
        face.classList.toggle("low", !!(r && r[side] < 60000));
        var flagged = (state.flag && state.flag.side === side) || (r && r[side] <= 0 && clock && clock.started);
        face.classList.toggle("flag", !!flagged);
        var moves = clock && clock.moves ? clock.moves[side] : null;
        face.querySelector(".sub").textContent = moves === null || moves === undefined ? "" : movesText(moves);
      });
      var text = "";
      if (state.status === "finished") text = "Game over · " + state.result + (state.termination ? " (" + state.termination.replace(/_/g, " ") + ")" : "");
      else if (!clock || !clock.started) text = "Clock not started";
      else if (clock.paused) text = "PAUSED";
      else if (state.flag) text = "Flag: " + state.flag.side;
      banner.textContent = text;
      banner.hidden = !text;
      var moves = state.moves || [];
      if (moves.length) {
        var m = moves[moves.length - 1];
        lastMove.textContent = moveLabel(m.ply, m.notation, (root.dataset.starts || "W") !== "B");
      } else {
        lastMove.textContent = "No move yet";
      }
    }

    poll(
      root.dataset.stateUrl,
      serverTime,
      function (body) {
        state = body;
        root.classList.remove("offline");
        render();
      },
      function () {
        root.classList.add("offline");
      },
      1000
    );
    setInterval(render, 100);
    keepAwake(root);
  }

  /* A tablet beside the board must not dim or lock during the game: full screen on request,
   * and a screen wake lock where the browser allows one (https or localhost only). */
  function keepAwake(root) {
    var button = root.querySelector("#fullscreen");
    if (button && document.documentElement.requestFullscreen) {
      button.addEventListener("click", function () {
        if (document.fullscreenElement) document.exitFullscreen();
        else document.documentElement.requestFullscreen().catch(function () {});
      });
    } else if (button) {
      button.hidden = true;
    }
    if (!("wakeLock" in navigator)) return;
    function lock() {
      if (document.visibilityState === "visible") navigator.wakeLock.request("screen").catch(function () {});
    }
    lock();
    document.addEventListener("visibilitychange", lock); // released whenever the page is hidden
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-player-clock]");
    if (root) initPlayerClock(root);
  });
})();
