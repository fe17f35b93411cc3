"""Claims: a draw under FMJD 6.1-6.4, or the opponent's flag, claimed by a player or the
arbiter, stored in the request's transaction and decided by a task on the clock queue
against the game's record with the rules engine (DESIGN.md, "Where the next parts live").

Ordered with moves and flags under the game's lock: a decision locks the game, re-reads the
claim and does nothing when it is decided already, so the task, the sweep (for a claim whose
task was lost) and a move that finds a claim pending (the event's `move_during_claim` rule)
can all try; exactly one decides. A claim on a finished game is refused with the reason.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from arbiter import messages
from arbiter.errors import Invalid, NotFound
from arbiter.games import selectors
from arbiter.games.models import Claim, Game
from arbiter.infra import sqlrows
from clocks import clock as clockmath
from clocks.models import ClockLog
from rules import Color
from rules.claims import TERMINATION_OF_ARTICLE
from rules.outcome import Score, Termination

from . import acts
from .ending import Ending, close_rounds, end_game, insert_ending_rows, result_of
from .flags import flag_if_due
from .locking import lock_game, lock_games, save_clock, save_game, server_now

log = logging.getLogger(__name__)

#: A claim still pending this long after it was made is decided by the sweep (its task was
#: lost: a broker down, a worker killed).
SWEEP_AFTER = timedelta(seconds=2)
MAX_REQUEST_ID = 100
#: The most games whose claims one transaction decides (drain_round): they stay locked until
#: it commits, so a move on one of them waits that long; a burst of 200 claims in one round
#: is decided in four transactions rather than 200.
DRAIN_BATCH = 50
#: A task drains at most this many batches before it waits for its own claim's game.
MAX_DRAINS = 8


#: The code of a decision's words (arbiter/messages.py) for the engine's code, by article
#: where the counters differ (6.1 counts occurrences, 6.2 king moves, 6.3 and 6.4 moves
#: since the material arose).
EXPLANATION_CODES = {
    ("flag", "granted"): "claim.granted_flag",
    ("6.1", "too_early"): "claim.too_early_6_1",
    ("6.2", "too_early"): "claim.too_early_6_2",
}
WORDED = {
    "granted",
    "game_over",
    "flag_not_fallen",
    "no_clock",
    "not_in_force",
    "game_decided",
    "too_early",
    "unknown_article",
}


def explanation_code(article: str, code: str) -> str:
    """The code in arbiter/messages.py that words a decision (`code` from rules.claims or
    the flag's check) of a claim under `article`."""
    return EXPLANATION_CODES.get((article, code)) or f"claim.{code}"


def claim_words(article: str, code: str, params: dict) -> str:
    """The explanation of a decision in words (made in arbiter/messages.py)."""
    return messages.render(explanation_code(article, code), {"article": article, **params})


def claim_dict(claim: Claim) -> dict:
    return {
        "id": claim.pk,
        "game": claim.game_id,
        "article": claim.article,
        "side": claim.side or None,
        "flag_side": claim.flag_side or None,
        "ply": claim.ply,
        "request_id": claim.request_id,
        "status": claim.status,
        "code": claim.code,
        "explanation": claim.explanation,
        "created_at": claim.created_at.isoformat(),
        "decided_at": claim.decided_at.isoformat() if claim.decided_at else None,
    }


def make_claim(
    game_id: int,
    *,
    article: str,
    request_id: str,
    by,
    side: str | None = None,
    flag_side: str | None = None,
) -> dict:
    """Store a claim (pending) and queue its decision after commit; a repeated `request_id`
    answers with the claim it made. A player claims for their own side; an arbiter may
    claim for a side or in their own name (no side). A flag claim names the flag: the
    claimant's opponent's, or the side the arbiter gives."""
    if article not in Claim.ARTICLES:
        raise Invalid(
            "claim.bad_article",
            articles=Claim.ARTICLES,
            article=article,
            details={"field": "article"},
        )
    if not isinstance(request_id, str) or not request_id or len(request_id) > MAX_REQUEST_ID:
        raise Invalid(
            "claim.bad_request_id", max_length=MAX_REQUEST_ID, details={"field": "request_id"}
        )
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        prior = Claim.objects.filter(game=game, request_id=request_id).first()
        if prior is not None:
            return claim_dict(prior)
        if not side and _is_arbiter(game, by):
            own = ""  # the arbiter's own claim (FMJD: the referee must end a drawn game)
        else:
            _, own = acts.actor(game, by, side or None)
        if article == "flag":
            flag_side = _flag_side(own, flag_side)
        now = server_now(game.clock)
        claim = Claim.objects.create(
            game=game,
            article=article,
            side=own,
            flag_side=flag_side or "",
            ply=game.ply,
            request_id=request_id,
            by=by if getattr(by, "is_authenticated", False) else None,
            created_at=now,
        )
        acts.log_act(
            game, by=by, action="game.claim", now=now, article=article, side=own, claim_id=claim.pk
        )
        if game.status == Game.Status.FINISHED:
            _decide_locked(game, claim, now)  # refused at once, with the reason
        else:
            acts.mark_pending(game)
            claim_id = claim.pk
            transaction.on_commit(lambda: queue_decision(claim_id))
    return claim_dict(claim)


def _is_arbiter(game: Game, by) -> bool:
    from arbiter.events.permissions import is_arbiter

    return is_arbiter(by, game.round.event)


def _flag_side(claimant: str, flag_side: str | None) -> str:
    if claimant:
        other = "black" if claimant == "white" else "white"
        if flag_side not in (None, "", other):
            raise Invalid("claim.opponents_flag_only", claimant=claimant, other=other)
        return other
    if flag_side not in ("white", "black"):
        raise Invalid("claim.flag_side_required", details={"field": "flag_side"})
    return flag_side


def queue_decision(claim_id: int) -> None:
    """Queue the decision task (after commit). A broker failure loses nothing: the sweep
    decides the claim within SWEEP_AFTER and a second."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        decide_claim(claim_id)
        return
    from arbiter.games.tasks import decide_claim as task

    try:
        task.apply_async((claim_id,), queue="clock")
    except Exception:
        log.exception("could not queue the decision of claim %s", claim_id)


def read_claim(game_id: int, claim_id: int, *, by) -> dict:
    """A claim and its decision, for those who may see the game."""
    from arbiter.events.permissions import require_view_round

    claim = Claim.objects.filter(pk=claim_id, game_id=game_id).select_related("game__round__event")
    claim = claim.first()
    not_found = NotFound("claim.not_found", game_id=game_id, claim_id=claim_id)
    if claim is None:
        raise not_found
    require_view_round(by, claim.game.round, not_found)
    return claim_dict(claim)


def decide_claim(claim_id: int, *, now: datetime | None = None) -> bool:
    """The task of a claim: decide it under its game's lock, and with it the other claims
    pending in its round (drain_round): a burst of claims is decided in a few transactions,
    not one per claim. False when it was decided already (by another claim's task, a move,
    the sweep, a retry)."""
    row = (
        Claim.objects.filter(pk=claim_id).values_list("game__round_id", "game_id", "status").first()
    )
    if row is None or row[2] != Claim.Status.PENDING:
        return False
    for _ in range(MAX_DRAINS):
        decided = drain_round(row[0], now=now)
        if claim_id in decided:
            return True
        if not decided:
            break
    # Its game is held by another transaction (a move, another drain): wait for it.
    with transaction.atomic():
        decided = _decide_games([lock_game(row[1])], now)
    return claim_id in {claim.pk for claim in decided}


def drain_round(round_id: int, *, now: datetime | None = None) -> list[int]:
    """Decide, in one transaction, the pending claims of up to DRAIN_BATCH games of the
    round that no other transaction holds, the games of the oldest claims first; the ids of
    the claims decided (none: nothing pending, or all of it held elsewhere). Two drains of
    one round at once lock different games (SKIP LOCKED); a game a move holds is left to
    that move (which decides its pending claims first) or to the next drain."""
    with transaction.atomic():
        oldest_first = (
            Claim.objects.filter(status=Claim.Status.PENDING, game__round_id=round_id)
            .values("game_id")
            .annotate(first=Min("pk"))
            .order_by("first")
            .values_list("game_id", flat=True)
        )
        candidates = list(oldest_first[: 4 * DRAIN_BATCH])
        if not candidates:
            return []
        games = lock_games(candidates, skip_locked=True, limit=DRAIN_BATCH)
        return [claim.pk for claim in _decide_games(games, now)]


def decide_pending(game: Game, now: datetime) -> list[Claim]:
    """On a locked game: decide its pending claims in the order they were made (a move that
    found them pending, under the event's "claim_first" rule)."""
    return _decide_games([game], now)


def _decide_games(games: list[Game], now: datetime | None) -> list[Claim]:
    """On locked games: decide their pending claims, each game's in the order they were
    made; then close the rounds of the games that ended, and what else was pending on them
    lapses. The claims decided, in that order."""
    pending = Claim.objects.filter(game__in=games, status=Claim.Status.PENDING)
    by_game: dict[int, list[Claim]] = {}
    for claim in pending.select_related("by").order_by("pk"):  # the claimant: logged
        by_game.setdefault(claim.game_id, []).append(claim)
    decided, endings, ended = [], [], []
    for game in games:
        claims = by_game.get(game.pk)
        if not claims:
            continue
        had_pending = game.acts_pending
        for claim in claims:
            ending = _decide_locked(game, claim, now or server_now(game.clock))
            if ending is not None:
                endings.append(ending)
                if had_pending:
                    ended.append(game)
        decided += claims
        acts.refresh_pending(game)
    close_rounds(endings)
    acts.lapse_pending(ended, now or timezone.now())
    return decided


def sweep_claims(now: datetime | None = None) -> int:
    """Decide the claims still pending SWEEP_AFTER after they were made (their task was
    lost), round by round with the rest of their rounds' pending claims; how many."""
    now = now or timezone.now()
    rounds = list(
        Claim.objects.filter(status=Claim.Status.PENDING, created_at__lte=now - SWEEP_AFTER)
        .order_by("game__round_id")
        .values_list("game__round_id", flat=True)
        .distinct()[:20]
    )
    count = 0
    for round_id in rounds:
        for _ in range(MAX_DRAINS):
            decided = drain_round(round_id, now=now)
            count += len(decided)
            if not decided:
                break
    return count


def _decide_locked(game: Game, claim: Claim, now: datetime) -> Ending | None:
    """Decide `claim` on the locked `game` and write it: the claim, the ending when granted
    (through the ending service), the record's entry, in one statement on PostgreSQL
    (benchmarks/claims.py). The ending, if granted: the caller closes its round and lapses
    what else was pending (_decide_games, once for all the games it decides)."""
    if game.status != Game.Status.FINISHED:
        flag_if_due(game, now)  # the clock is the authority, here as on every write
    ending = None
    if game.status == Game.Status.FINISHED:
        code, params = "game_over", {"result": game.result, "termination": game.termination}
    elif claim.article == "flag":
        code, params = _check_flag(game, claim, now)
        if code == "granted":
            score, termination, why = acts.flag_outcome(game, claim.flag_side)
            ending = end_game(
                game,
                result_of(score),
                termination,
                now=now,
                by=claim.by,
                reason=f"claim of {claim.flag_side}'s flag {claim_words('flag', code, params)}"
                + ("" if termination == Termination.FLAG else f"; {why}"),
            )
    else:
        check = selectors.rules_game(game).check_claim(claim.article)
        code, params = check.code, dict(check.params)
        if check.granted:
            ending = end_game(
                game,
                result_of(Score.DRAW),
                TERMINATION_OF_ARTICLE[claim.article],
                now=now,
                by=claim.by,
                reason=f"claim under FMJD {claim.article} "
                + claim_words(claim.article, code, params),
            )
    words = claim_words(claim.article, code, params)
    claim.status = Claim.Status.GRANTED if ending is not None else Claim.Status.REFUSED
    claim.code = code
    claim.explanation = {
        "code": explanation_code(claim.article, code),
        "params": params,
        "message": words,
    }
    claim.decided_at = now
    with sqlrows.together():
        if ending is not None:
            game.acts_pending = False  # a finished game: no move can meet what is pending
            if ending.clock_log is not None:
                save_clock(game.clock)
            save_game(game, [*ending.fields, "acts_pending"])
        sqlrows.update_rows(Claim, [claim], ["status", "code", "explanation", "decided_at"])
        if ending is not None:
            insert_ending_rows([ending])
        acts.log_act(
            game,
            by=None,
            action="game.claim_decision",
            now=now,
            reason=words,
            claim_id=claim.pk,
            article=claim.article,
            status=claim.status,
            code=code,
        )
    if ending is None and code != "game_over" and claim.side:
        penalty = acts.ending_rules(game.round.event_id).false_claim_penalty_ms
        if penalty:
            _penalise(game, claim, penalty, now)
    return ending


def _check_flag(game: Game, claim: Claim, now: datetime) -> tuple[str, dict]:
    clock = game.clock
    if clock is None or not clock.started:
        return "no_clock", {"flag_side": claim.flag_side}
    white_ms, black_ms = clockmath.remaining(
        clock.state, clock.tc, max(now, clock.running_since or now)
    )
    params = {
        "flag_side": claim.flag_side,
        "white_ms": white_ms,
        "black_ms": black_ms,
        "shows_ms": white_ms if claim.flag_side == "white" else black_ms,
        "recorded_flag": game.flag_side or None,
    }
    fallen = game.flag_side or (clockmath.flagged(clock.state, clock.tc, now) or None)
    if fallen and str(getattr(fallen, "value", fallen)) == claim.flag_side:
        return "granted", params
    return "flag_not_fallen", params


def _penalise(game: Game, claim: Claim, delta_ms: int, now: datetime) -> None:
    """The event's rule for a false claim: time added to the claimant's opponent."""
    clock = game.clock
    if clock is None or not clock.started:
        return
    opponent = Color.BLACK if claim.side == "white" else Color.WHITE
    before = clock.state
    clock.apply(clockmath.adjust(before, opponent, delta_ms, clock.tc, now))
    save_clock(clock)
    ClockLog.record(
        clock,
        ClockLog.Action.ADJUST,
        before,
        clock.state,
        at=now,
        side=opponent,
        delta_ms=delta_ms,
        reason=f"false claim under {claim.article} by {claim.side} (event rule)",
    )
