"""Reads of the players' confirmations of a result and of the arbiter's acceptance of it.

Nothing of them has a table of its own: each is an entry of the game's record (the event's
AuditEntry log, services/acts.py), as every act on a game is. A confirmation is an entry
`game.result_confirmation` with the side and the result the player confirms; the arbiter's
acceptance an entry `game.result_approval` with the result accepted. The state is read from
the entries, oldest first: each side's latest confirmation counts (a player who changes
their mind writes a new one; nothing is deleted), and an acceptance counts until the result
changes again (an ending or a correction: an entry whose `old` holds a result).
"""

from __future__ import annotations

from collections import defaultdict

from arbiter.errors import Forbidden
from arbiter.events.models import AuditEntry
from arbiter.events.permissions import is_arbiter, player_side
from arbiter.messages import Problem

from .models import Game

CONFIRM = "game.result_confirmation"
APPROVE = "game.result_approval"

#: The results a player may confirm (a bye has nothing to confirm).
CONFIRMABLE = ("2-0", "1-1", "0-2", "+/-", "-/+", "-/-")

PENDING, UNCONFIRMED, AGREED, DISPUTED, BYE = "pending", "unconfirmed", "agreed", "disputed", "bye"

_COLUMNS = ("pk", "action", "old", "new", "at", "user__username")


def _target(game: Game, number: int) -> str:
    return f"round {number} board {game.board}"


def entries_by_game(games: list[Game]) -> dict[int, list[dict]]:
    """{game id: its record's entries, oldest first} for `games` (their rounds loaded): one
    query, by the event and the board's target, as services/acts.py writes them."""
    if not games:
        return {}
    ids = {g.pk for g in games}
    targets = {_target(g, g.round.number) for g in games}
    rows = (
        AuditEntry.objects.filter(
            event_id__in={g.round.event_id for g in games}, target__in=sorted(targets)
        )
        .order_by("pk")
        .values(*_COLUMNS)
    )
    found: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        game_id = row["new"].get("game_id") if isinstance(row["new"], dict) else None
        if game_id in ids:
            found[game_id].append(row)
    return found


def _side_dict(row: dict | None) -> dict | None:
    if row is None:
        return None
    return {
        "result": row["new"].get("result"),
        "at": row["at"].isoformat(),
        "by": row["user__username"],
    }


def summarize(game: Game, entries: list[dict]) -> dict:
    """The confirmations of `game`'s result from its record's `entries` (oldest first)."""
    latest: dict[str, dict] = {}
    approval = None
    for row in entries:
        new = row["new"] if isinstance(row["new"], dict) else {}
        if new.get("game_id") != game.pk:
            continue
        if row["action"] == CONFIRM and new.get("side") in ("white", "black"):
            latest[new["side"]] = row
        elif row["action"] == APPROVE:
            approval = row
        elif isinstance(row["old"], dict) and "result" in row["old"]:
            approval = None  # the result changed (an ending, a correction): accept it again
    result = game.result
    approved = bool(result and approval is not None and approval["new"].get("result") == result)
    claims, agreeing = [], []
    for side in ("white", "black"):
        if side in latest:
            said = latest[side]["new"].get("result")
            (agreeing if said == result else claims).append((side, said))
    if game.black_id is None:
        status, words = BYE, Problem("confirmation.bye_words")
    elif not result:
        status, words = PENDING, Problem("confirmation.pending")
    elif claims:
        said = [Problem("confirmation.claim", side=s, result=r) for s, r in claims]
        status, words = DISPUTED, Problem("confirmation.disputed", result=result, claims=said)
    elif len(agreeing) == 2:
        status, words = AGREED, Problem("confirmation.agreed", result=result)
    elif agreeing:
        side = agreeing[0][0]
        status, words = UNCONFIRMED, Problem("confirmation.one_side", result=result, side=side)
    else:
        status, words = UNCONFIRMED, Problem("confirmation.unconfirmed", result=result)
    return {
        "game": game.pk,
        "board": game.board,
        "result": result,
        "status": status,
        "words": str(words),
        "white": _side_dict(latest.get("white")),
        "black": _side_dict(latest.get("black")),
        "approved": approved,
        "approved_at": approval["at"].isoformat() if approved else None,
        "approved_by": approval["user__username"] if approved else None,
    }


def game_confirmation(game: Game) -> dict:
    """The confirmations of one game's result (see summarize)."""
    return summarize(game, entries_by_game([game]).get(game.pk, []))


def read_confirmation(game: Game, *, by) -> dict:
    """For the game's players and the event's arbiters (a board's device acts as one)."""
    if not (is_arbiter(by, game.round.event) or player_side(by, game)):
        raise Forbidden("confirmation.only_arbiter_or_player", event=game.round.event)
    return game_confirmation(game)


def round_confirmations(games: list[Game]) -> dict:
    """Every board's confirmations and how many are agreed, unconfirmed, disputed, accepted."""
    entries = entries_by_game(games)
    boards = [summarize(g, entries.get(g.pk, [])) for g in games]
    counts = {k: 0 for k in (AGREED, UNCONFIRMED, DISPUTED, PENDING, "approved", "to_accept")}
    for b in boards:
        if b["status"] != BYE:
            counts[b["status"]] += 1
        counts["approved"] += b["approved"]
        counts["to_accept"] += b["status"] == AGREED and not b["approved"]
    return {"boards": boards, "counts": counts}
