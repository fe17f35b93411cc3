/* The board's clock (templates/games/player_clock.html) and the page that binds a tablet to a
 * board (templates/games/tablet_bind.html).
 *
 * On a tablet bound to the board (its device token in this browser's localStorage) the page
 * is the clock the players press: the player to move taps the piece and its square on the
 * diagram (tapentry.js: checked there and then against the legal moves of the server's
 * state), then presses their side, which sends the move (POST .../moves) with the thinking
 * time the tablet measured itself (the server credits network lag from it, up to the
 * event's quota). Where the event does not require moves, a press alone is sent
 * (POST .../press). The server is the authority: the times count down locally from its
 * state, and every answer replaces what the page showed. A press the network lost is sent
 * again, with the same request id, until it is answered (the server applies it once).
 * Without a tablet's key, the same page only shows the clocks.
 */
(function () {
  "use strict";
  var C = window.ArbiterClock;
  var KEY = "arbiter-tablet";

  function stored() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || "null");
    } catch (e) {
      return null;
    }
  }

  var OTHER = { white: "black", black: "white" };
  var NAME = { white: "White", black: "Black" };

  /* ---- the board's clock ------------------------------------------------------------------ */

  function initClock(root) {
    var $ = function (id) {
      return document.getElementById(id);
    };
    var gameId = +root.dataset.game;
    var api = root.dataset.api;
    var binding = stored();
    var tablet = !!(
      binding &&
      binding.token &&
      (binding.game_id === gameId ||
        (binding.follow_board && binding.board === +root.dataset.board && binding.event_id === +root.dataset.event))
    );
    var headers = tablet ? { Authorization: "Bearer " + binding.token } : {};
    var movesRequired = root.dataset.movesRequired !== "0";
    var serverTime = new C.ServerTime();
    var state = null;
    var shownPly = null;
    var chosen = null; // the move tapped on the diagram, waiting for its press
    var pending = null; // a press sent and not yet answered: {side, at, url, body, shown}
    var turnStart = null; // {side, at}: when the running side's move began, on this tablet's clock
    var offline = false;
    var pendingActs = { offers: [], claims: [], irregularities: [] };
    var faces = {
      white: root.querySelector('.pc-face[data-side="white"]'),
      black: root.querySelector('.pc-face[data-side="black"]'),
    };

    root.classList.toggle("tablet", tablet);
    $("mode").textContent = tablet ? "Tablet of board " + root.dataset.board : "Display (not a bound tablet)";
    $("diagram").hidden = !tablet;
    $("acts").hidden = !tablet;
    $("unbind").hidden = tablet;

    /* -- which side sits where ---------------------------------------------------------- */
    var sideKey = "arbiter-clock-left-" + gameId;
    var params = new URLSearchParams(location.search);
    var left = params.get("left") || localStorage.getItem(sideKey) || "white";
    function place() {
      root.classList.toggle("black-left", left === "black");
    }
    place();
    $("swap").addEventListener("click", function () {
      left = left === "white" ? "black" : "white";
      localStorage.setItem(sideKey, left);
      place();
    });

    /* -- messages ------------------------------------------------------------------------- */
    function say(kind, text) {
      var box = $("message");
      box.className = "pc-message " + kind;
      box.textContent = text;
      box.hidden = !text;
    }

    function showChosen() {
      var box = $("chosen");
      box.textContent = "";
      if (!chosen) {
        box.hidden = true;
        return;
      }
      var side = state && state.turn;
      box.textContent = chosen + " · now press " + (NAME[side] || "your") + "'s clock";
      box.hidden = false;
    }

    /* -- confirmation before an act -------------------------------------------------------- */
    var onYes = null;
    function ask(text, yes) {
      $("confirm-text").textContent = text;
      onYes = yes;
      $("confirm").hidden = false;
      $("confirm-yes").focus();
    }
    $("confirm-yes").addEventListener("click", function () {
      $("confirm").hidden = true;
      var run = onYes;
      onYes = null;
      if (run) run();
    });
    $("confirm-no").addEventListener("click", function () {
      $("confirm").hidden = true;
      onYes = null;
    });

    /* -- the network ------------------------------------------------------------------------ */
    function setOffline(down, why) {
      offline = down;
      root.classList.toggle("offline", down);
      var net = $("net");
      if (down) {
        net.textContent =
          "No network" + (why ? " (" + why + ")" : "") + ": the clocks count on here" +
          (pending ? "; the press waits and is sent again" : "") + ". The server's clock decides once it is back.";
      }
      net.hidden = !down;
    }
    window.addEventListener("offline", function () {
      setOffline(true, "the tablet is offline");
    });

    function refused(body, status) {
      return (body && body.message) || "Refused (" + status + ").";
    }

    function tokenRefused(status) {
      if (status !== 401 || !tablet) return false;
      say("invalid", "This tablet's key was refused (revoked or expired): ask the arbiter for a new code at /tablet/.");
      return true;
    }

    /* -- the state --------------------------------------------------------------------------- */
    function take(body) {
      if (!body || body.id !== gameId) return;
      if (body.moves === undefined && state) {
        // A move's answer carries the move, not the whole list: append it.
        body.moves = (state.moves || []).filter(function (m) {
          return !body.move || m.ply < body.move.ply;
        });
        if (body.move) body.moves.push(body.move);
      }
      state = body;
      var clock = state.clock;
      if (clock && clock.running && !pending && (!turnStart || turnStart.side !== clock.running)) {
        // The move began before this tablet knew of it (the arbiter started the clock, or the
        // page was opened): its start on the server, on this tablet's clock.
        var began = Date.parse(clock.server_time) - (clock.thinking_ms || 0);
        turnStart = { side: clock.running, at: performance.now() - Math.max(0, serverTime.now() - began) };
      }
      if (state.ply !== shownPly) {
        shownPly = state.ply;
        chosen = null;
        showChosen();
        tap.reset();
        refreshDiagram();
      }
      render();
      refreshActs();
    }

    function runningSide() {
      if (pending) return OTHER[pending.side];
      var clock = state && state.clock;
      return clock && clock.running && !clock.paused && state.status !== "finished" ? clock.running : null;
    }

    /* What the clocks show: the server's state, or while a press is on its way, the pressed
       side stopped at the press and the opponent's time running from it. */
    function shownReadings() {
      var clock = state.clock;
      var r = C.readings(clock, serverTime.now(), state.status === "finished" ? null : root);
      if (pending && r) {
        var since = performance.now() - pending.at;
        var next = OTHER[pending.side];
        r = {};
        r[pending.side] = pending.shown[pending.side];
        r[next] = Math.max(0, pending.shown[next] - since);
      }
      return r;
    }

    function render() {
      if (!state) return;
      var clock = state.clock;
      var r = shownReadings();
      var running = runningSide();
      ["white", "black"].forEach(function (side) {
        var face = faces[side];
        var shown = r ? C.format(r[side]) : "–";
        var timeBox = face.querySelector(".time");
        timeBox.textContent = shown;
        timeBox.classList.toggle("long", shown.length >= 7);
        timeBox.classList.toggle("mid", shown.length === 6);
        face.classList.toggle("running", running === side);
        face.classList.toggle("low", !!(r && r[side] < 60000));
        var flagged = (state.flag && state.flag.side === side) || (r && r[side] <= 0 && clock && clock.started && state.status !== "finished" && running === side);
        face.classList.toggle("flag", !!flagged);
        var sub = "";
        if (clock && clock.moves) sub = C.movesText(clock.moves[side] + (pending && pending.side === side ? 1 : 0));
        if (clock && clock.period && clock.period[side]) sub += " · period " + (clock.period[side] + 1);
        face.querySelector(".sub").textContent = sub;
        var hint = "";
        if (flagged) hint = "FLAG · time is up";
        else if (tablet && running === side) hint = pending ? "sending…" : movesRequired ? "move, then press here" : "press here after your move";
        face.querySelector(".pc-hint").textContent = hint;
      });
      var text = state.flag ? "FLAG: " + NAME[state.flag.side] + "'s time is up" : "";
      if (state.status === "finished") text += (text ? " · " : "") + "Game over · " + state.result + (state.termination ? " (" + state.termination.replace(/_/g, " ") + ")" : "");
      else if (state.flag) text += "";
      else if (!clock || !clock.started) text = "Clock not started";
      else if (clock.paused) text = "PAUSED";
      $("banner").textContent = text;
      $("banner").hidden = !text;
      var drawRules = $("draw-rules");
      var shownRules = state.status === "finished" ? [] : C.drawRulesToShow(state.draw_rules);
      drawRules.textContent = shownRules.map(C.drawRuleWords).join(" · ");
      drawRules.hidden = !shownRules.length;
      var moves = state.moves || [];
      if (moves.length) {
        var m = moves[moves.length - 1];
        $("last-move").textContent = C.moveLabel(m.ply, m.notation, (root.dataset.starts || "W") !== "B");
      } else {
        $("last-move").textContent = clock && clock.moves && clock.moves.white + clock.moves.black ? "" : "No move yet";
      }
      renderActs();
    }

    /* -- the diagram and the tap entry ------------------------------------------------------- */
    var tap = window.ArbiterTap.attach($("diagram"), {
      legal: function () {
        if (!tablet || !state || state.status === "finished" || pending || !runningSide()) return [];
        return state.legal_moves || [];
      },
      onMove: function (moves) {
        if (moves.length === 1) {
          chosen = moves[0];
          say("", "");
          showChosen();
          return;
        }
        // Several captures end on this square (FMJD 4.13): the player names the path.
        say("conflict", "Several captures end there: choose the path.");
        var box = $("chosen");
        box.textContent = "";
        box.hidden = false;
        moves.forEach(function (m) {
          var b = document.createElement("button");
          b.type = "button";
          b.className = "chip";
          b.textContent = m;
          b.addEventListener("click", function () {
            chosen = m;
            say("", "");
            showChosen();
          });
          box.appendChild(b);
        });
      },
      onRefused: function (square, why) {
        if (!tablet) return;
        if (!runningSide()) return say("conflict", "No move now: " + (state && state.status === "finished" ? "the game is over." : "the clock is not running."));
        say("invalid", "Not a legal move: " + why + ".");
      },
    });

    function refreshDiagram() {
      if (!tablet) return;
      fetch(root.dataset.svgUrl + "?ply=" + shownPly + (left === "black" ? "&flipped=1" : ""), { credentials: "same-origin", cache: "no-store" })
        .then(function (r) {
          return r.ok ? r.text() : null;
        })
        .then(function (svg) {
          if (!svg) return;
          $("diagram").innerHTML = svg;
          tap.mark();
        })
        .catch(function () {});
    }

    /* -- presses ------------------------------------------------------------------------------ */
    function press(side) {
      if (!tablet) return;
      if (pending) return say("conflict", "The last press is still on its way: wait for it.");
      if (!state) return;
      if (state.status === "finished") return say("conflict", "The game is over.");
      var clock = state.clock;
      if (!clock || !clock.started) return say("conflict", "The clock is not started yet: the arbiter starts it.");
      if (clock.paused) return say("conflict", "The clock is paused by the arbiter.");
      if (state.flag) return say("conflict", NAME[state.flag.side] + "'s flag has fallen.");
      var running = runningSide();
      if (side !== running) return say("conflict", "It is " + NAME[running] + "'s clock that runs: " + NAME[running] + " presses.");
      if (movesRequired && !chosen) return say("invalid", "Tap your piece and its square on the diagram first, then press.");
      var now = performance.now();
      var body = { request_id: C.requestId() };
      if (turnStart && turnStart.side === side) body.thinking_ms = Math.max(0, Math.round(now - turnStart.at));
      var url;
      if (movesRequired) {
        url = api + "/moves";
        body.ply = state.ply + 1;
        body.move = chosen;
      } else {
        url = api + "/press";
        body.press = clock.moves.white + clock.moves.black + 1;
      }
      pending = { side: side, at: now, url: url, body: body, shown: shownReadings(), turn: turnStart };
      turnStart = { side: OTHER[side], at: now };
      chosen = null;
      showChosen();
      say("", "");
      render();
      send(pending);
    }

    function send(attempt) {
      C.postJson(attempt.url, attempt.body, headers)
        .then(function (res) {
          if (pending !== attempt) return;
          if (res.status === 503 || res.status >= 502) throw new Error(refused(res.body, res.status));
          pending = null;
          if (offline) setOffline(false);
          if (res.ok) {
            if (res.body.press && res.body.press.lag_credit_ms) say("done", "Network lag credited: " + res.body.press.lag_credit_ms + " ms");
            take(res.body);
            return;
          }
          turnStart = attempt.turn; // not played: the move goes on
          if (tokenRefused(res.status)) return render();
          if (res.status === 422) {
            var legal = (res.body.candidates || res.body.legal_moves || []).join(", ");
            say("invalid", refused(res.body, res.status) + (legal ? " Legal: " + legal : ""));
          } else {
            say(res.status === 409 ? "conflict" : "invalid", refused(res.body, res.status));
          }
          if (res.body.game) take(res.body.game);
          else render();
        })
        .catch(function (err) {
          if (pending !== attempt) return;
          // Not answered: sent again with the same request id until it is (applied once).
          setOffline(true, err.message);
          setTimeout(function () {
            if (pending === attempt) send(attempt);
          }, 1000);
        });
    }

    root.querySelectorAll("[data-press]").forEach(function (b) {
      b.addEventListener("click", function () {
        press(b.dataset.press);
      });
    });

    /* -- acts: offer, acceptance, resignation, claim, the opponent's choice, the result ---- */
    var shownActsKey = null;
    function refreshActs() {
      if (!tablet || !state) return;
      var key = [state.ply, state.status, state.acts_pending].join("/");
      if (key === shownActsKey) return;
      shownActsKey = key;
      fetch(api + "/pending", { headers: headers, cache: "no-store", credentials: "same-origin" })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .then(function (body) {
          if (body) {
            pendingActs = body;
            renderActs();
          }
        })
        .catch(function () {
          shownActsKey = null; // asked again on the next state
        });
    }

    function pendingOf(list) {
      return (list || []).filter(function (x) {
        return x.status === "pending";
      })[0];
    }

    function renderActs() {
      if (!tablet || !state) return;
      var over = state.status === "finished";
      var offer = pendingOf(pendingActs.offers);
      var irr = pendingOf(pendingActs.irregularities);
      var running = runningSide();
      var offerBtn = root.querySelector('[data-act="offer"]');
      // FMJD 7.3.1: a draw is offered by the player who has just moved (the other's clock runs).
      offerBtn.hidden = over || !running || !!offer;
      if (running) offerBtn.textContent = NAME[OTHER[running]] + " offers a draw";
      var acceptBtn = root.querySelector('[data-act="accept"]');
      acceptBtn.hidden = over || !offer;
      if (offer) acceptBtn.textContent = NAME[OTHER[offer.side]] + " accepts " + NAME[offer.side] + "'s draw offer";
      root.querySelectorAll('[data-act="resign"], .pc-claim').forEach(function (el) {
        el.hidden = over;
      });
      $("choice").hidden = over || !irr;
      if (irr) $("choice-who").textContent = NAME[OTHER[irr.side]] + " chooses after " + NAME[irr.side] + "'s irregularity:";
      $("confirm-result").hidden = !over || !state.result;
    }

    function act(path, body, words) {
      C.postJson(api + "/" + path, body, headers)
        .then(function (res) {
          if (tokenRefused(res.status)) return;
          if (res.ok) {
            say("done", words(res.body));
            if (res.body && res.body.id === gameId && res.body.clock !== undefined) take(res.body);
          } else {
            say(res.status === 409 ? "conflict" : "invalid", refused(res.body, res.status));
            if (res.body && res.body.game) take(res.body.game);
          }
          shownActsKey = null;
          poller.refresh();
        })
        .catch(function (err) {
          say("error", "No answer from the server (" + err.message + "): nothing was done; try again when the network is back.");
        });
    }

    /* A claim is decided by the server's worker within a second or so: the tablet asks until
       the decision is there and shows it with its explanation (FMJD 6.1-6.4, the flag). */
    function claimText(claim, claimant) {
      return NAME[claimant] + "'s claim (" + (claim.article === "flag" ? "the flag" : "FMJD " + claim.article) + ") " +
        (claim.status === "granted" ? "is granted" : "is refused") + (claim.explanation ? ": " + claim.explanation : ".");
    }

    function followClaim(id, claimant, tries) {
      setTimeout(function () {
        fetch(api + "/claims/" + id, { headers: headers, cache: "no-store", credentials: "same-origin" })
          .then(function (res) { return res.ok ? res.json() : null; })
          .then(function (claim) {
            if (claim && claim.status !== "pending") {
              say(claim.status === "granted" ? "done" : "conflict", claimText(claim, claimant));
              poller.refresh();
            }
            else if (tries < 30) followClaim(id, claimant, tries + 1);
            else say("conflict", NAME[claimant] + "'s claim is not decided yet: the arbiter sees it waiting.");
          })
          .catch(function () {
            if (tries < 30) followClaim(id, claimant, tries + 1);
          });
      }, 1000);
    }

    root.querySelectorAll("[data-act]").forEach(function (b) {
      b.addEventListener("click", function () {
        if (!state) return;
        var kind = b.dataset.act;
        var running = runningSide();
        if (kind === "offer") {
          var by = OTHER[running];
          ask(NAME[by] + " offers a draw (FMJD 7.3.1). Sure?", function () {
            act("offers", { side: by }, function () {
              return NAME[by] + " offered a draw: " + NAME[running] + " accepts, or declines by moving.";
            });
          });
        } else if (kind === "accept") {
          var offer = pendingOf(pendingActs.offers);
          if (!offer) return;
          var taker = OTHER[offer.side];
          ask(NAME[taker] + " accepts the draw: the game ends 1-1. Sure?", function () {
            act("offers/accept", { side: taker }, function () {
              return "Drawn by agreement, 1-1.";
            });
          });
        } else if (kind === "resign") {
          var loser = b.dataset.side;
          ask(NAME[loser] + " resigns: the game ends " + (loser === "white" ? "0-2" : "2-0") + ". Sure?", function () {
            act("resign", { side: loser }, function () {
              return NAME[loser] + " resigned.";
            });
          });
        } else if (kind === "claim") {
          var claimant = $("claim-side").value;
          var article = $("claim-article").value;
          var what = article === "flag" ? "the opponent's flag" : "a draw under FMJD " + article;
          ask(NAME[claimant] + " claims " + what + ". The arbiter's system decides at once. Sure?", function () {
            act("claims", { side: claimant, article: article, request_id: C.requestId() }, function (answer) {
              if (answer && answer.status && answer.status !== "pending") return claimText(answer, claimant);
              if (answer && answer.id) followClaim(answer.id, claimant, 0);
              return NAME[claimant] + "'s claim is being decided…";
            });
          });
        } else if (kind === "choice") {
          var irr = pendingOf(pendingActs.irregularities);
          if (!irr) return;
          var choice = b.dataset.choice;
          ask(NAME[OTHER[irr.side]] + " chooses to " + choice + " (FMJD 5.4). Sure?", function () {
            act("irregularities/" + irr.id + "/choice", { choice: choice }, function () {
              return NAME[OTHER[irr.side]] + " chose to " + choice + ".";
            });
          });
        } else if (kind === "confirm") {
          var confirmer = b.dataset.side;
          ask(NAME[confirmer] + " confirms the result " + state.result + ". Sure?", function () {
            act("result-confirmation", { result: state.result, side: confirmer }, function (answer) {
              return NAME[confirmer] + " confirmed " + state.result + (answer && answer.words ? ": " + answer.words : ".");
            });
          });
        }
      });
    });

    /* -- polling, and the tablet's next game ---------------------------------------------------- */
    var poller = C.poll(
      root.dataset.stateUrl,
      serverTime,
      function (body) {
        if (offline && !pending) setOffline(false);
        take(body);
      },
      function (message, err) {
        if (err && tokenRefused(err.status)) return;
        setOffline(true, message.replace(/^cannot reach the server: /, ""));
      },
      1000,
      headers
    );
    setInterval(render, 100);
    keepAwake();

    if (tablet && binding.follow_board) {
      // A tablet that stays with its board goes to the board's next game once it is paired.
      setInterval(function () {
        if (!state || state.status !== "finished") return;
        fetch("/api/tablet", { headers: headers, cache: "no-store" })
          .then(function (r) {
            return r.ok ? r.json() : null;
          })
          .then(function (body) {
            if (body && body.game_id && body.game_id !== gameId) location.href = "/games/" + body.game_id + "/clock/";
          })
          .catch(function () {});
      }, 10000);
    }
  }

  /* The screen must not dim or lock during the game: full screen on request, and a screen
   * wake lock where the browser allows one (https or localhost only). */
  function keepAwake() {
    var button = document.getElementById("fullscreen");
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

  /* ---- binding a tablet: the code for the board's key ------------------------------------- */

  function initBind(root) {
    var box = document.getElementById("message");
    function say(kind, text) {
      box.className = "message " + kind;
      box.textContent = text;
      box.hidden = !text;
    }
    var current = stored();
    if (current && current.game_id) {
      var bound = document.getElementById("bound");
      bound.innerHTML = "This tablet is bound to board " + current.board + ": <a></a>.";
      bound.querySelector("a").href = "/games/" + current.game_id + "/clock/";
      bound.querySelector("a").textContent = "open its clock";
      bound.hidden = false;
    }
    function redeem(code) {
      say("", "");
      C.postJson("/api/tablet/bind", { code: code })
        .then(function (res) {
          if (!res.ok) {
            say(res.status === 429 ? "conflict" : "invalid", res.body.message || "Refused (" + res.status + ").");
            return;
          }
          var b = res.body;
          localStorage.setItem(
            KEY,
            JSON.stringify({ token: b.token, token_id: b.token_id, game_id: b.game_id, board: b.board, event_id: b.event_id, follow_board: b.follow_board })
          );
          history.replaceState(null, "", location.pathname); // the used code leaves the address bar
          location.href = "/games/" + b.game_id + "/clock/";
        })
        .catch(function (err) {
          say("error", "No answer from the server (" + err.message + "): check the network and try again.");
        });
    }
    document.getElementById("bind-form").addEventListener("submit", function (e) {
      e.preventDefault();
      var code = document.getElementById("code").value.trim();
      if (!code) return say("invalid", "Type the code the arbiter's page shows for this board.");
      redeem(code);
    });
    var fromLink = new URLSearchParams(location.search).get("code");
    if (fromLink) redeem(fromLink);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.querySelector("[data-player-clock]");
    if (root) initClock(root);
    var bind = document.getElementById("tablet-bind");
    if (bind) initBind(bind);
  });
})();
