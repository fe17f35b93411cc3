"""Pairing rounds, publishing them, and changing a pairing by hand."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from arbiter import messages
from arbiter.errors import Conflict, Invalid
from arbiter.events import permissions
from arbiter.events.models import Entry, Event, Round
from arbiter.events.pairing import (
    Board,
    PairingError,
    check_pairing,
    pair_round_robin,
    pair_swiss,
)
from arbiter.events.records import event_games, is_active_in, player_states
from arbiter.events.services.audit import log
from arbiter.events.services.events import _start
from arbiter.games.models import Game
from arbiter.messages import Problem
from rules.outcome import Termination

S = Event.System
R = Game.Result


def _board_list(games) -> list[list]:
    return [[g.board, g.white_id, g.black_id] for g in games]


def _unfinished(round_: Round) -> list[int]:
    return list(round_.games.filter(result="").order_by("board").values_list("board", flat=True))


def pair_next_round(event: Event, *, by) -> Round:
    """Pair the next round (a draft, to check and publish) and create its games.

    Round 1 first gives the pairing numbers (event.numbering) and starts the event.
    Refuses (Conflict) while the previous round is unpublished or has games without a
    result, and when every round is paired.
    """
    permissions.require_arbiter(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.status == Event.Status.FINISHED:
            raise Conflict("round.event_finished", event=event)
        last = event.round_set.order_by("-number").first()
        if last is None:
            if event.entries.count() < 2:
                raise Conflict("round.too_few_players", event=event)
            _start(event)
            event.save()
        else:
            if last.status == Round.Status.DRAFT:
                raise Conflict("round.previous_not_published", round_number=last.number)
            boards = _unfinished(last)
            if boards:
                raise Conflict(
                    "round.previous_not_finished",
                    round_number=last.number,
                    boards=list(boards),
                    details={"round": last.number, "boards": boards},
                )
            if last.number >= event.rounds:
                raise Conflict("round.all_paired", rounds=event.rounds, event=event)
        number = (last.number if last else 0) + 1
        entries = list(event.entries.select_related("player").order_by("pairing_number"))
        states = player_states(event, entries, event_games(event, before_round=number), number)
        try:
            if event.system == S.SWISS:
                result = pair_swiss(states, number, lot_seed=event.pairing_seed or None)
            else:
                result = pair_round_robin(
                    states, number, double=event.system == S.DOUBLE_ROUND_ROBIN
                )
        except PairingError as exc:
            raise Conflict("round.cannot_pair", number=number, error=exc, event=event) from exc
        round_ = Round.objects.create(
            event=event,
            number=number,
            status=Round.Status.DRAFT,
            paired_at=timezone.now(),
            warnings=list(result.warnings),
            stats=dict(result.stats),
        )
        by_player = {e.player_id: e for e in entries}
        games = _create_games(event, round_, result.boards, by_player)
        log(
            event,
            by=by,
            action="round.pair",
            target=f"round {number}",
            new={"boards": _board_list(games), "warnings": round_.warnings, "stats": round_.stats},
        )
    return round_


def _create_games(event: Event, round_: Round, boards, by_player: dict[int, Entry]) -> list[Game]:
    games = []
    now = timezone.now()
    number = 0
    for b in sorted(boards, key=lambda b: b.number):
        if b.black_id is None and (event.system != S.SWISS or _requested(b, by_player, round_)):
            # A free round in a round robin, or a requested bye: no game, no points.
            continue
        number += 1
        games.append(
            _game_for(round_, number, b.white_id, b.black_id, dict(b.note), by_player, now)
        )
    Game.objects.bulk_create(games)
    return list(round_.games.order_by("board"))


def _requested(board: Board, by_player: dict[int, Entry], round_: Round) -> bool:
    """A bye the player asked for (not a pairing-allocated one)."""
    entry = by_player.get(board.white_id)
    return (board.note or {}).get("bye") == "requested" or (
        entry is not None and round_.number in (entry.requested_byes or [])
    )


def _game_for(round_, board, white_id, black_id, note, by_player, now) -> Game:
    game = Game(round=round_, board=board, white_id=white_id, black_id=black_id, pairing_note=note)
    if black_id is None:
        game.result, game.termination = R.BYE, Termination.BYE
        game.status, game.finished_at = Game.Status.FINISHED, now
        return game
    # A round robin pairs everyone; a player withdrawn or announced absent forfeits.
    white_in = is_active_in(by_player[white_id], round_.number)
    black_in = is_active_in(by_player[black_id], round_.number)
    if not (white_in and black_in):
        game.result = (
            R.DOUBLE_FORFEIT
            if not (white_in or black_in)
            else (R.WHITE_FORFEIT_WIN if white_in else R.BLACK_FORFEIT_WIN)
        )
        game.termination = Termination.FORFEIT
        game.status, game.finished_at = Game.Status.FINISHED, now
        note["auto_forfeit"] = True
        absent = [n for n, ok in (("white", white_in), ("black", black_in)) if not ok]
        note["reason"] = (
            note.get("reason", "") + f" Forfeit: {' and '.join(absent)} withdrawn or absent."
        ).strip()
    return game


def publish_round(round_: Round, *, by) -> Round:
    """Make a draft round's pairings public."""
    permissions.require_arbiter(by, round_.event)
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.status != Round.Status.DRAFT:
            raise Conflict("round.already_published", round_number=round_.number)
        round_.status = Round.Status.PUBLISHED
        round_.published_at = timezone.now()
        if not _unfinished(round_):
            round_.status = Round.Status.FINISHED  # only byes and forfeits
        round_.save(update_fields=["status", "published_at"])
        log(round_.event, by=by, action="round.publish", target=f"round {round_.number}")
    return round_


def schedule_round(round_: Round, scheduled_start, *, by, reason: str = "") -> Round:
    """Set (or clear, with None) when a round starts: a timezone-aware datetime.

    The late-arrival limit (event.late_arrival_minutes; FMJD competition rules, late
    arrival) is to count from this time (the games app does not read it yet).
    Arbiters only; refused once the round is finished; logged with the old and new times.
    """
    permissions.require_arbiter(by, round_.event)
    if scheduled_start is not None:
        if not isinstance(scheduled_start, dt.datetime):
            raise Invalid(
                "round.bad_start",
                details={"field": "scheduled_start"},
            )
        if timezone.is_naive(scheduled_start):
            raise Invalid(
                "round.start_without_zone",
                details={"field": "scheduled_start"},
            )
        scheduled_start = scheduled_start.astimezone(dt.UTC)  # stored and answered in UTC
    with transaction.atomic():
        round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
        if round_.status == Round.Status.FINISHED:
            raise Conflict("round.finished_start_fixed", round_number=round_.number)
        old = round_.scheduled_start
        round_.scheduled_start = scheduled_start
        round_.save(update_fields=["scheduled_start"])
        log(
            round_.event,
            by=by,
            action="round.schedule",
            target=f"round {round_.number}",
            old=old.isoformat() if old else None,
            new=scheduled_start.isoformat() if scheduled_start else None,
            reason=str(reason or "").strip(),
        )
    return round_


def _touched(round_: Round) -> list[int]:
    """Boards where play or a result has been recorded (not byes and automatic forfeits)."""
    out = []
    for g in round_.games.all():
        automatic = g.result == R.BYE or (g.pairing_note or {}).get("auto_forfeit")
        if g.ply or g.status == Game.Status.RUNNING or (g.result and not automatic):
            out.append(g.board)
    return out


def unpair_round(round_: Round, *, by, reason: str = "") -> None:
    """Delete the last round's pairing (nothing played in it yet), to pair it again."""
    event = round_.event
    permissions.require_arbiter(by, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        round_ = Round.objects.get(pk=round_.pk)
        last = event.round_set.order_by("-number").first()
        if last.pk != round_.pk:
            raise Conflict("round.unpair_only_last", round_number=last.number)
        touched = _touched(round_)
        if touched:
            raise Conflict(
                "round.boards_in_play",
                round_number=round_.number,
                boards=list(touched),
                details={"boards": touched},
            )
        old = _board_list(round_.games.order_by("board"))
        round_.games.all().delete()
        round_.delete()
        log(
            event,
            by=by,
            action="round.unpair",
            target=f"round {round_.number}",
            old=old,
            reason=reason,
        )


def set_pairing(round_: Round, boards, *, by, reason: str) -> list[str]:
    """Replace a round's pairing by a hand-made one: [(white_id, black_id | None), ...].

    Board numbers follow the list order. The pairing is saved even when it breaks pairing
    rules; those are returned (and stored on the round) as warnings. Refused when a game of
    the round has started or has a result; logged with who, the old and new boards and why.
    """
    event = round_.event
    permissions.require_arbiter(by, event)
    if not str(reason or "").strip():
        raise Invalid("pairing.reason_required", details={"field": "reason"})
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        round_ = Round.objects.select_for_update().get(pk=round_.pk)
        entries = list(event.entries.select_related("player"))
        by_player = {e.player_id: e for e in entries}
        pairs = _check_boards(boards, by_player)
        touched = _touched(round_)
        if touched:
            raise Conflict(
                "pairing.boards_in_play",
                round_number=round_.number,
                boards=list(touched),
                details={"boards": touched},
            )
        number = round_.number
        states = player_states(event, entries, event_games(event, before_round=number), number)
        scores = {s.id: s.score for s in states}
        old_games = {g.board: g for g in round_.games.all()}
        old_notes = {(g.white_id, g.black_id): g.pairing_note for g in old_games.values()}
        new_boards = [
            Board(number=i, white_id=w, black_id=b, note={}) for i, (w, b) in enumerate(pairs, 1)
        ]
        warnings = list(check_pairing(states, new_boards))
        old = _board_list(sorted(old_games.values(), key=lambda g: g.board))
        now = timezone.now()
        kept = set()
        stored = [
            b
            for b in new_boards
            if b.black_id is not None
            or (event.system == S.SWISS and not _requested(b, by_player, round_))
        ]
        for i, b in enumerate(stored, start=1):
            # As in pair_next_round: no game for a free round robin round or a requested bye.
            b = Board(number=i, white_id=b.white_id, black_id=b.black_id, note={})
            note = old_notes.get((b.white_id, b.black_id))
            if note is None:
                note = {
                    "manual": True,
                    "reason": f"Set by hand: {reason.strip()}",
                    "white": {"score": scores.get(b.white_id)},
                    "black": {"score": scores.get(b.black_id)} if b.black_id else None,
                }
            fresh = _game_for(round_, b.number, b.white_id, b.black_id, dict(note), by_player, now)
            game = old_games.get(b.number)
            if game is None:
                fresh.save()
            else:
                for f in (
                    "white_id",
                    "black_id",
                    "pairing_note",
                    "result",
                    "termination",
                    "status",
                    "finished_at",
                ):
                    setattr(game, f, getattr(fresh, f))
                game.save()
            kept.add(b.number)
        round_.games.exclude(board__in=kept).delete()
        round_.warnings = warnings
        round_.save(update_fields=["warnings"])
        log(
            event,
            by=by,
            action="round.set_pairing",
            target=f"round {number}",
            old=old,
            new={"boards": _board_list(round_.games.order_by("board")), "warnings": warnings},
            reason=reason.strip(),
        )
    return warnings


def _check_boards(boards, by_player: dict[int, Entry]) -> list[tuple[int, int | None]]:
    """The boards as (white_id, black_id) pairs of this event's players, else Invalid."""
    pairs: list[tuple[int, int | None]] = []
    seen: dict[int, int] = {}
    errors = []
    for i, board in enumerate(boards, start=1):
        try:
            white, black = board
            white = int(white)
            black = None if black is None else int(black)
        except (TypeError, ValueError):
            errors.append(Problem("pairing.bad_board", board=i))
            continue
        for pid in (white, black):
            if pid is None:
                continue
            if pid not in by_player:
                errors.append(Problem("pairing.not_entered", board=i, player_id=pid))
            elif pid in seen:
                errors.append(Problem("pairing.twice", board=i, player_id=pid, first=seen[pid]))
            else:
                seen[pid] = i
        if white == black:
            errors.append(Problem("pairing.self", board=i))
        pairs.append((white, black))
    if not pairs and not errors:
        errors.append(Problem("pairing.no_boards"))
    if errors:
        raise Invalid(
            "pairing.invalid",
            errors=errors,
            details={"errors": [messages.words(e) for e in errors]},
        )
    return pairs
