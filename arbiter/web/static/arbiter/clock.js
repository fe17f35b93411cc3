/* Clocks in the browser, counting down from the server's state (the server is the authority).
 *
 * Each answer of GET /api/games/{id} carries clock.server_time and both readings at that
 * instant. The page estimates the server's clock from the answer with the shortest round
 * trip among the last ten (offset = server_time - the middle of the request), and shows the
 * running side's reading minus the server time elapsed since. A lost poll does not stop the
 * display; the next answer corrects it.
 *
 * Shared by the arbiter's pages and the board's clock (tablet.js).
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

  /** GET `url` every `interval` ms; onState(json) on success, onError(message, response)
   * otherwise; `headers` (optional) go with each request (a tablet's token). */
  function poll(url, serverTime, onState, onError, interval, headers) {
    var inflight = false;
    function tick() {
      if (inflight) return;
      inflight = true;
      var t0 = performance.now();
      var sent = Object.assign({ Accept: "application/json" }, headers || {});
      fetch(url, { headers: sent, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          var t1 = performance.now();
          return response.json().then(function (body) {
            if (!response.ok) {
              var refused = new Error(body.message || response.status + " " + response.statusText);
              refused.status = response.status;
              refused.body = body;
              throw refused;
            }
            var stamp = (body.clock && body.clock.server_time) || body.server_time;
            if (stamp) serverTime.sample(t0, t1, stamp);
            onState(body);
          });
        })
        .catch(function (err) {
          if (onError) onError((err.status ? "" : "cannot reach the server: ") + err.message, err);
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
  function postJson(url, body, headers) {
    var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: Object.assign({ "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf }, headers || {}),
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

  /* One draw rule of FMJD 6 (state.draw_rules) in words: where its counter stands. */
  var TIMES = ["never", "once", "twice", "three times"];
  function drawRuleWords(rule) {
    var text;
    if (rule.article === "6.1") {
      text = "this position has occurred " + (TIMES[rule.count] || rule.count + " times") + " (draw on the 3rd, same side to move)";
    } else if (rule.article === "6.2") {
      text = rule.count + " of " + rule.limit + " moves each with kings only";
    } else if (!rule.in_force) {
      text = "not in force";
    } else {
      text = rule.count + " of " + rule.limit + " moves each since the material arose";
    }
    return rule.article + ": " + text + (rule.applies ? " · APPLIES: the game is drawn" : "");
  }

  /* The rules worth a player's eye: in force and counting, or applying. */
  function drawRulesToShow(rules) {
    return (rules || []).filter(function (r) {
      return r.applies || (r.article === "6.1" ? r.count >= 2 : r.in_force && r.count > 0);
    });
  }

  /* "1 move", "2 moves": the moves a side has played, under its clock. */
  function movesText(n) {
    return n + (n === 1 ? " move" : " moves");
  }

  /* An id for a request that may be sent again (a move, a press, a claim): the server
     applies it once. */
  function requestId() {
    // crypto.randomUUID needs a secure context; a club's LAN is often plain http.
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map
      .call(bytes, function (b) {
        return (b < 16 ? "0" : "") + b.toString(16);
      })
      .join("");
  }

  window.ArbiterClock = {
    requestId: requestId,
    movesText: movesText,
    ServerTime: ServerTime,
    drawRuleWords: drawRuleWords,
    drawRulesToShow: drawRulesToShow,
    postJson: postJson,
    format: format,
    parseDuration: parseDuration,
    readings: readings,
    poll: poll,
    moveLabel: moveLabel,
  };
})();
