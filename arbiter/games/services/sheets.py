"""Notation sheets (FMJD 10.2): submitted by the players, checked and reconciled by a task,
approved by an arbiter as the game's official record.

- `submit_sheet`: a player, for their own game only, until a version is approved.
- `check_sheet`: the task's work (rules.notation_sheet): the first bad move, the fixes, and
  the comparison with the entered record and with the other sheets.
- `edit_sheet`: an arbiter's own version (a reason, logged): a correction, also after
  approval.
- `approve_sheet`: an arbiter makes a checked version the official record. Where no moves
  were entered during play (or the sheet differs from them) the sheet's moves become the
  game's moves, with the clock times a sheet gives. A result that differs from the entered
  one needs the arbiter's choice (`result_stands`), and a result changes only through the
  one result service (services.results.set_result, then the one ending service).
Every approval and edit goes into the event's one audit log (events.AuditEntry).
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from arbiter.errors import Conflict, Forbidden, Invalid, NotFound
from arbiter.events.models import AuditEntry, Round
from arbiter.events.permissions import is_arbiter, player_side, require_arbiter
from arbiter.games.models import Game, Move, NotationSheet
from arbiter.messages import Problem
from rules.notation_sheet import MAX_SHEET_CHARS, align
from rules.notation_sheet import check_sheet as check_text

from .locking import lock_game
from .record import write_record
from .results import set_result

log = logging.getLogger(__name__)

Side = NotationSheet.Side
SCORES = {Game.Result.WHITE_WINS, Game.Result.DRAW, Game.Result.BLACK_WINS}
RESULT_CHOICES = ("sheet", "entered")


def _where(game: Game) -> Problem:
    """Which game, for an error's words and the log's target."""
    return Problem("game.where", round_number=game.round.number, board=game.board)


def _check_text(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Invalid("sheet.empty", details={"field": "text"})
    if len(text) > MAX_SHEET_CHARS:
        raise Invalid(
            "sheet.too_long", length=len(text), max=MAX_SHEET_CHARS, details={"field": "text"}
        )
    return text


def _log(event, *, by, action: str, target: str, old=None, new=None, reason: str = ""):
    """An entry of the event's one audit log (events.AuditEntry, as the ending service
    writes it: games calls no service of events)."""
    return AuditEntry.objects.create(
        event=event,
        user=by if getattr(by, "is_authenticated", False) else None,
        action=action,
        target=target[:200],
        old=old,
        new=new,
        reason=reason,
    )


def approved_sheet(game_id: int) -> NotationSheet | None:
    return NotationSheet.objects.filter(game_id=game_id, approved_at__isnull=False).first()


def _new_version(game: Game, side: str, text: str, *, by, reason: str = "") -> NotationSheet:
    last = NotationSheet.objects.filter(game=game, side=side).aggregate(v=Max("version"))["v"]
    sheet = NotationSheet.objects.create(
        game=game,
        side=side,
        version=(last or 0) + 1,
        text=text,
        reason=reason,
        submitted_by=by if getattr(by, "is_authenticated", False) else None,
        submitted_at=timezone.now(),
    )
    sheet_id = sheet.pk
    transaction.on_commit(lambda: queue_check(sheet_id))
    return sheet


def queue_check(sheet_id: int) -> None:
    """The checking task for a sheet, after commit. A broker that cannot be reached loses
    nothing: the sheet stays pending and the arbiter's page checks it (check_pending)."""
    from arbiter.games.tasks import check_notation_sheet

    try:
        check_notation_sheet.delay(sheet_id)
    except Exception:
        log.exception("could not queue the check of notation sheet %s", sheet_id)


def submit_sheet(game_id: int, text: str, *, by) -> NotationSheet:
    """A player's sheet of their own game (a new version each time), until one is approved.

    Forbidden: not a player of this game. Conflict: the round is not published, or the
    arbiter approved the game's record already (a correction is then the arbiter's)."""
    text = _check_text(text)
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        side = player_side(by, game)
        if side is None:
            raise Forbidden("sheet.own_game_only", where=_where(game))
        if game.round.status == Round.Status.DRAFT:
            raise Conflict(
                "sheet.round_not_published", where=_where(game), round_number=game.round.number
            )
        done = approved_sheet(game.pk)
        if done is not None:
            raise Conflict(
                "sheet.approved_already",
                where=_where(game),
                approved_at=f"{done.approved_at:%Y-%m-%d %H:%M}",
                details={"approved_sheet": done.pk},
            )
        return _new_version(game, side, text, by=by)


def edit_sheet(game_id: int, text: str, *, by, reason: str) -> NotationSheet:
    """An arbiter's own version of the record (from a sheet, corrected): logged with why."""
    text = _check_text(text)
    reason = str(reason or "").strip()
    if not reason:
        raise Invalid("sheet.edit_reason_required", details={"field": "reason"})
    with transaction.atomic():
        game = lock_game(game_id, by=by)
        require_arbiter(by, game.round.event)
        sheet = _new_version(game, Side.ARBITER, text, by=by, reason=reason)
        _log(
            game.round.event,
            by=by,
            action="sheet.edited",
            target=str(_where(game)),
            new={"game_id": game.pk, "sheet_id": sheet.pk, "version": sheet.version},
            reason=reason,
        )
        return sheet


# --------------------------------------------------------------------------- checking


def record_of(game: Game) -> list[str]:
    """The moves entered during play (tablet or arbiter), in order."""
    return list(Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True))


def _result_of(game: Game) -> str | None:
    return game.result if game.result in SCORES else None


def _latest(game: Game, exclude: int | None = None) -> dict[str, NotationSheet]:
    """The latest checked version of each side (white, black, arbiter)."""
    out: dict[str, NotationSheet] = {}
    for s in NotationSheet.objects.filter(game=game).exclude(status=NotationSheet.Status.PENDING):
        if s.pk != exclude and (s.side not in out or s.version > out[s.side].version):
            out[s.side] = s
    return out


def notations(sheet: NotationSheet) -> list[str]:
    report = sheet.report or {}
    return [m["notation"] for m in report.get("moves", [])] + list(report.get("unplayed", []))


def reconcile(sheet: NotationSheet, game: Game) -> dict:
    """The sheet's comparison with the entered record and the latest other versions."""
    out: dict = {}
    mine = notations(sheet)
    result = (sheet.report or {}).get("result")
    record = record_of(game)
    if record or _result_of(game):
        out["record"] = align(mine, record, result_a=result, result_b=_result_of(game)).to_dict(
            "sheet", "record"
        )
    for side, other in _latest(game, exclude=sheet.pk).items():
        if side == sheet.side:
            continue
        out[side] = align(
            mine, notations(other), result_a=result, result_b=other.report.get("result")
        ).to_dict("sheet", side)
        out[side]["version"] = other.version
    return out


def check_sheet(sheet_id: int) -> NotationSheet:
    """Check a sheet with the rules engine and compare it (the task's work; idempotent)."""
    sheet = NotationSheet.objects.select_related("game__round").filter(pk=sheet_id).first()
    if sheet is None:
        raise NotFound("sheet.not_found", sheet_id=sheet_id)
    game = sheet.game
    check = check_text(sheet.text, start_fen=game.start_fen)
    sheet.report = check.to_dict()
    sheet.status = NotationSheet.Status.CHECKED if check.ok else NotationSheet.Status.PROBLEM
    sheet.comparison = reconcile(sheet, game)
    sheet.checked_at = timezone.now()
    NotationSheet.objects.filter(pk=sheet.pk).update(
        report=sheet.report,
        status=sheet.status,
        comparison=sheet.comparison,
        checked_at=sheet.checked_at,
    )
    return sheet


def check_pending(game_id: int) -> int:
    """Check the game's sheets still pending (a lost task); how many."""
    ids = list(
        NotationSheet.objects.filter(
            game_id=game_id, status=NotationSheet.Status.PENDING
        ).values_list("pk", flat=True)
    )
    for sheet_id in ids:
        check_sheet(sheet_id)
    return len(ids)


# --------------------------------------------------------------------------- approval


def _result_to_write(where: Problem, sheet_result, entered, result_stands) -> str | None:
    """The result an approval writes (None: the entered one stands). Where the sheet's and
    the entered result differ, the arbiter says which stands (FMJD 10.2: the record is the
    arbiter's to approve); otherwise the sheet's result is written where none was entered."""
    if result_stands not in (None, *RESULT_CHOICES):
        raise Invalid(
            "sheet.bad_result_stands",
            choices=RESULT_CHOICES,
            details={"field": "result_stands"},
        )
    if not sheet_result:
        return None
    if not entered:
        return sheet_result
    if sheet_result == entered:
        return None
    if result_stands is None:
        raise Conflict(
            "sheet.result_differs",
            where=where,
            sheet_result=sheet_result,
            entered=entered,
            details={
                "choice": "result_stands",
                "sheet_result": sheet_result,
                "entered_result": entered,
            },
        )
    return sheet_result if result_stands == "sheet" else None


def approve_sheet(
    sheet_id: int, *, by, reason: str = "", result_stands: str | None = None
) -> NotationSheet:
    """Make a checked version the game's official record (arbiters; see the module).

    Conflict: the sheet has a problem, is not checked yet, the game is being played, or the
    sheet's result differs from the entered one and `result_stands` ("sheet" or "entered")
    does not say which stands (details name both). Invalid: a re-approval without a reason.
    """
    sheet = NotationSheet.objects.filter(pk=sheet_id).first()
    if sheet is None:
        raise NotFound("sheet.not_found", sheet_id=sheet_id)
    reason = str(reason or "").strip()
    with transaction.atomic():
        game = lock_game(sheet.game_id, by=by)
        require_arbiter(by, game.round.event)
        sheet = NotationSheet.objects.select_for_update().get(pk=sheet_id)
        where = _where(game)
        if sheet.status == NotationSheet.Status.PENDING:
            check_sheet(sheet.pk)
            sheet.refresh_from_db()
        if sheet.status != NotationSheet.Status.CHECKED:
            problem = (sheet.report or {}).get("problem") or {}
            raise Conflict(
                "sheet.cannot_be_record" if problem.get("message") else "sheet.not_checked",
                where=where,
                side=sheet.get_side_display(),
                version=sheet.version,
                problem=problem.get("message", ""),
                details={"problem": problem},
            )
        if game.status == Game.Status.RUNNING and not game.result:
            raise Conflict("sheet.game_running", where=where)
        current = approved_sheet(game.pk)
        if current is not None and current.pk == sheet.pk:
            return sheet
        if current is not None and not reason:
            raise Invalid(
                "sheet.replace_reason_required",
                where=where,
                side=current.get_side_display(),
                version=current.version,
                details={"field": "reason"},
            )
        report = sheet.report
        entered = game.result or None
        new_result = _result_to_write(where, report.get("result"), entered, result_stands)
        old_record = record_of(game)
        new_record = [m["notation"] for m in report["moves"]]
        old_ply = game.ply
        if old_record != new_record or any(m.get("clock") for m in report["moves"]):
            write_record(game, report["moves"], by=by)
        if current is not None:
            NotationSheet.objects.filter(pk=current.pk).update(approved_at=None, approved_by=None)
        sheet.approved_at = timezone.now()
        sheet.approved_by = by
        sheet.save(update_fields=["approved_at", "approved_by"])
        _log(
            game.round.event,
            by=by,
            action="sheet.approved",
            target=str(where),
            old={
                "game_id": game.pk,
                "plies": old_ply,
                "approved_sheet": current.pk if current else None,
                "result": entered or "",
            },
            new={
                "game_id": game.pk,
                "sheet_id": sheet.pk,
                "side": sheet.side,
                "version": sheet.version,
                "plies": len(new_record),
                "moves_replaced": old_record != new_record,
                "result_stands": result_stands or ("sheet" if new_result else "entered"),
            },
            reason=reason,
        )
        if new_result:
            termination = ""
            outcome = report.get("outcome")
            if outcome and outcome.get("score") == new_result:
                termination = outcome["termination"]
            set_result(
                game,
                new_result,
                by=by,
                reason=f"notation sheet approved ({sheet.get_side_display()} "
                f"v{sheet.version}){': ' + reason if reason else ''}",
                termination=termination,
            )
        return sheet


def can_submit(user, game: Game) -> bool:
    return player_side(user, game) is not None or is_arbiter(user, game.round.event)
