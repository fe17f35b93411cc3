"""What the endings people bring about share: the event's rules for them, the one record of
every act (who, when, what, why), and the game's `acts_pending` mark.

The record is the event's AuditEntry log (one way to log an action): each act of a player or
an arbiter on a game is one entry, targeted at the game's board, with the game's id, the side
and the act's data under `new`. Nothing is deleted; a correction is a new entry.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from arbiter.errors import Forbidden, Invalid
from arbiter.events.models import AuditEntry
from arbiter.events.permissions import board_device, is_arbiter, player_side
from arbiter.games.models import Claim, DrawOffer, EndingRules, Game, Irregularity
from arbiter.infra import sqlrows
from rules import Position
from rules.outcome import Score, Termination

from .locking import save_game

DEFAULT_RULES = EndingRules()  # the FMJD procedure (unsaved: an event without a row)


def ending_rules(event_id: int) -> EndingRules:
    """The event's rules for offers, claims and rulings (the defaults when it has none)."""
    return EndingRules.objects.filter(event_id=event_id).first() or DEFAULT_RULES


def target(game: Game) -> str:
    return f"round {game.round.number} board {game.board}"


def act_row(game: Game, *, by, action: str, now: datetime, reason: str = "", **data: Any) -> dict:
    """One entry of the game's record as a row: `action` (e.g. "game.draw_offer") by `by`
    (None: the system) at `now`, with `data` and the game's id under `new`, and why."""
    return {
        "event_id": game.round.event_id,
        "user_id": by.pk if getattr(by, "is_authenticated", False) else None,
        "at": now,
        "action": action,
        "target": target(game),
        "old": None,
        "new": {"game_id": game.pk, "ply": game.ply, **data},
        "reason": reason,
    }


def log_act(game: Game, *, by, action: str, now: datetime, reason: str = "", **data: Any) -> None:
    """Write one entry of the game's record (see act_row); joins a sqlrows.together() block."""
    sqlrows.insert_row(
        AuditEntry, act_row(game, by=by, action=action, now=now, reason=reason, **data)
    )


def actor(game: Game, by, side: str | None) -> tuple[bool, str]:
    """(is an arbiter, the side acted for). A player acts for their own side only; an
    arbiter enters an act for the side given."""
    event = game.round.event
    if is_arbiter(by, event):
        if side not in ("white", "black"):
            raise_invalid_side(side)
        return True, side
    own = player_side(by, game)
    if own is None and board_device(by, game):
        # The board's tablet acts for the player whose button was pressed (never as an
        # arbiter: what only an arbiter may do, it may not).
        if side not in ("white", "black"):
            raise_invalid_side(side)
        return False, side
    if own is None:
        raise Forbidden("act.only_arbiter_or_player", event=event)
    if side not in (None, "", own):
        raise Forbidden("act.own_side_only", own=own, side=side)
    return False, own


def raise_invalid_side(side) -> None:
    raise Invalid("act.bad_side", side=side, details={"field": "side"})


def _pending_sql(n: int) -> str:
    ids = ", ".join(["%s"] * n)
    return "SELECT " + ", ".join(
        f"EXISTS (SELECT 1 FROM {model._meta.db_table} WHERE game_id IN ({ids}) AND status = %s)"
        for model in (DrawOffer, Claim, Irregularity)
    )


_PENDING_SQL = _pending_sql(1)


def pending_kinds(game: Game | list[Game]) -> tuple[bool, bool, bool]:
    """(an offer, a claim, an irregularity) pending on the game, or on any of the games:
    one statement."""
    ids = [g.pk for g in game] if isinstance(game, list) else [game.pk]
    sql = _PENDING_SQL if len(ids) == 1 else _pending_sql(len(ids))
    with sqlrows.cursor(prepare=len(ids) == 1) as cursor:
        cursor.execute(sql, [*ids, "pending"] * 3)
        return tuple(bool(x) for x in cursor.fetchone())


def refresh_pending(game: Game) -> None:
    """Set the game's `acts_pending` mark from what still waits (nothing waits on a finished
    game: no move can meet it), and save it if it changed."""
    pending = game.status != Game.Status.FINISHED and any(pending_kinds(game))
    if pending != game.acts_pending:
        game.acts_pending = pending
        save_game(game, ["acts_pending"])


def mark_pending(game: Game) -> None:
    if not game.acts_pending:
        game.acts_pending = True
        save_game(game, ["acts_pending"])


def lapse_pending(game: Game | list[Game], now: datetime) -> None:
    """A game that ended (or games: one read for all): offers and irregularities still open
    lapse (claims are decided by their task, which finds the game over and says so)."""
    games = game if isinstance(game, list) else [game]
    if not games:
        return
    offers, _, irregularities = pending_kinds(games)
    if offers:
        DrawOffer.objects.filter(game__in=games, status=DrawOffer.Status.PENDING).update(
            status=DrawOffer.Status.LAPSED, decided_at=now
        )
    if irregularities:
        Irregularity.objects.filter(game__in=games, status=Irregularity.Status.PENDING).update(
            status=Irregularity.Status.LAPSED, decided_at=now
        )


def flag_outcome(game: Game, flagged: str) -> tuple[Score, Termination, str]:
    """What `flagged`'s flag gives: a loss (the plain reading, FMJD competition rules), or,
    when the event says so and the opponent has only a lone king left, a draw (7.3.3). The
    event's rules are read only when the material makes them matter."""
    loss = Score.BLACK_WINS if flagged == "white" else Score.WHITE_WINS
    wm, wk, bm, bk = Position.from_fen(game.fen).material()
    men, kings = (bm, bk) if flagged == "white" else (wm, wk)
    if (men, kings) == (0, 1):
        rules = ending_rules(game.round.event_id)
        if rules.flag_vs_lone_king == EndingRules.FlagVsLoneKing.DRAW:
            return (
                Score.DRAW,
                Termination.NO_WIN_POSSIBLE,
                f"{flagged}'s time ran out; the opponent has only a lone king (event rule, "
                "FMJD 7.3.3)",
            )
    return loss, Termination.FLAG, "time exceeded"
