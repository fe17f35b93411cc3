"""Reads of notation sheets: a player's own versions, and the arbiter's side-by-side view of
every version with the entered record, the first difference and the position there."""

from __future__ import annotations

from arbiter.errors import Forbidden, NotFound
from arbiter.events.permissions import is_arbiter, player_side
from arbiter.games.models import Game, Move, NotationSheet
from rules.notation_sheet import align, move_label

from .services.sheets import notations, record_of

_SIDE_ORDER = {"white": 0, "black": 1, "arbiter": 2}


def sheet_game(game_id: int) -> Game:
    game = Game.objects.select_related("round__event", "white", "black").filter(pk=game_id).first()
    if game is None:
        raise NotFound("game.not_found", game_id=game_id)
    return game


def sheet_dict(sheet: NotationSheet, *, full: bool = True) -> dict:
    report = sheet.report or {}
    out = {
        "id": sheet.pk,
        "game": sheet.game_id,
        "side": sheet.side,
        "side_label": sheet.get_side_display(),
        "version": sheet.version,
        "status": sheet.status,
        "status_label": sheet.get_status_display(),
        "submitted_at": sheet.submitted_at.isoformat(),
        "submitted_by": sheet.submitted_by.get_username() if sheet.submitted_by else None,
        "checked_at": sheet.checked_at.isoformat() if sheet.checked_at else None,
        "approved": sheet.approved_at is not None,
        "approved_at": sheet.approved_at.isoformat() if sheet.approved_at else None,
        "reason": sheet.reason,
        "result": report.get("result"),
        "plies": report.get("plies"),
        "problem": report.get("problem"),
        "fixes": report.get("fixes", []),
        "warnings": report.get("warnings", []),
    }
    if full:
        out["text"] = sheet.text
        out["moves"] = report.get("moves", [])
        out["unplayed"] = report.get("unplayed", [])
        out["comparison"] = sheet.comparison
    return out


def player_sheets(game_id: int, *, by) -> dict:
    """A player's own sheets of the game (an arbiter sees every version)."""
    game = sheet_game(game_id)
    side = player_side(by, game)
    arbiter = is_arbiter(by, game.round.event)
    if side is None and not arbiter:
        raise Forbidden("sheet.only_players_and_arbiters", game_id=game_id)
    sheets = NotationSheet.objects.filter(game=game).select_related("submitted_by")
    if not arbiter:
        sheets = sheets.filter(side=side)
    approved = NotationSheet.objects.filter(game=game, approved_at__isnull=False).exists()
    return {
        "game": game.pk,
        "side": side,
        "can_submit": side is not None and not approved,
        "approved": approved,
        "sheets": [sheet_dict(s) for s in sheets.order_by("-submitted_at", "-pk")],
    }


def _latest(sheets: list[NotationSheet]) -> dict[str, NotationSheet]:
    out: dict[str, NotationSheet] = {}
    for s in sheets:
        if s.side not in out or s.version > out[s.side].version:
            out[s.side] = s
    return out


def comparison(game_id: int, *, by, versions: list[int] | None = None) -> dict:
    """Every version side by side (arbiters): the entered record, the latest sheet of each
    side (or the `versions` asked for), the first ply where any two differ, and the
    position before it (for the diagram)."""
    game = sheet_game(game_id)
    if not is_arbiter(by, game.round.event):
        raise Forbidden("sheet.only_arbiters_compare", event=game.round.event)
    sheets = list(
        NotationSheet.objects.filter(game=game).select_related("submitted_by", "approved_by")
    )
    chosen = (
        [s for s in sheets if s.pk in set(versions)]
        if versions
        else sorted(_latest(sheets).values(), key=lambda s: _SIDE_ORDER[s.side])
    )
    approved = next((s for s in sheets if s.approved_at), None)
    if approved is not None and approved not in chosen:
        chosen.append(approved)
    record = record_of(game)
    entered_result = game.result if game.result in ("2-0", "1-1", "0-2") else None
    columns = []
    if record:
        rows = list(
            Move.objects.filter(game=game)
            .order_by("ply")
            .values("ply", "notation", "fen_after", "white_ms", "black_ms")
        )
        columns.append(
            {
                "key": "record",
                "label": "Entered during play",
                "moves": [r["notation"] for r in rows],
                "fens": [r["fen_after"] for r in rows],
                "result": entered_result,
                "sheet": None,
            }
        )
    for s in chosen:
        report = s.report or {}
        columns.append(
            {
                "key": f"sheet-{s.pk}",
                "label": f"{s.get_side_display()} v{s.version}",
                "moves": notations(s),
                "fens": [m["fen_after"] for m in report.get("moves", [])],
                "result": report.get("result"),
                "sheet": sheet_dict(s, full=False),
            }
        )
    pairs = []
    first = None
    for i, a in enumerate(columns):
        for b in columns[i + 1 :]:
            al = align(a["moves"], b["moves"], result_a=a["result"], result_b=b["result"])
            pairs.append({"a": a["key"], "b": b["key"], **al.to_dict(a["label"], b["label"])})
            if al.first_difference and (first is None or al.first_difference < first):
                first = al.first_difference
    longest = max((len(c["moves"]) for c in columns), default=0)
    rows = []
    for p in range(1, longest + 1):
        cells = [c["moves"][p - 1] if p <= len(c["moves"]) else "" for c in columns]
        problem_plies = [
            (c["sheet"] or {}).get("problem", {}) and c["sheet"]["problem"].get("ply")
            for c in columns
        ]
        rows.append(
            {
                "ply": p,
                "label": move_label(p),
                "cells": cells,
                "differ": len({x for x in cells}) > 1,
                "problem": [pp == p for pp in problem_plies],
            }
        )
    fen_before = None
    if first is not None:
        if first == 1:
            fen_before = game.start_fen
        else:
            fen_before = next(
                (c["fens"][first - 2] for c in columns if len(c["fens"]) >= first - 1), None
            )
    return {
        "game": game.pk,
        "columns": [{k: v for k, v in c.items() if k != "fens"} for c in columns],
        "rows": rows,
        "pairs": pairs,
        "first_difference": first,
        "first_difference_label": move_label(first) if first else None,
        "fen_before_difference": fen_before,
        "entered_result": entered_result,
        "approved": sheet_dict(approved, full=False) if approved else None,
        "versions": [sheet_dict(s, full=False) for s in sheets],
    }
