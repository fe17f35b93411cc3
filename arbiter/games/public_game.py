"""The public page of a game, as data (a selector): every position of the record for the
diagram to step through, the moves with their clock readings and the comments of the
approved sheet, where each draw rule of FMJD art. 6 stands after each move, and how the game
ended."""

from __future__ import annotations

from arbiter import messages
from arbiter.games.models import Game, Move, NotationSheet
from rules import Game as RulesGame
from rules.game import Setup
from rules.outcome import Termination

from .pdn_export import player_name

_RESULT_WORDS = {
    "2-0": "White won",
    "1-1": "Draw",
    "0-2": "Black won",
    "+/-": "White won by forfeit",
    "-/+": "Black won by forfeit",
    "-/-": "Both forfeited",
}
_ENDED = {
    Termination.NO_PIECES: "the loser had no piece left (FMJD 7.2.3)",
    Termination.BLOCKED: "the loser could not move (FMJD 7.2.2)",
    Termination.RESIGNED: "resignation (FMJD 7.2.1)",
    Termination.REFUSED_RULES: "refusal to follow the rules (FMJD 7.2.4)",
    Termination.FLAG: "time exceeded",
    Termination.AGREED_DRAW: "draw agreed (FMJD 7.3.1)",
    Termination.DRAW_REPETITION: "the same position a third time (FMJD 6.1)",
    Termination.DRAW_25_MOVES: "25 moves each with kings only (FMJD 6.2)",
    Termination.DRAW_16_MOVES: "16 moves each in a 6.3 ending (FMJD 6.3)",
    Termination.DRAW_5_MOVES: "5 moves each in a 6.4 ending (FMJD 6.4)",
    Termination.NO_WIN_POSSIBLE: "no win possible (FMJD 7.3.3)",
    Termination.FORFEIT: "forfeit (not played)",
    Termination.ARBITER: "the arbiter's decision",
}


def clock_text(ms: int | None) -> str:
    if ms is None:
        return ""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def draw_text(state: dict) -> str:
    """Where the draw rules stand, in words (FMJD 6.1-6.4); empty when none is counting."""
    parts = []
    if state["repetitions"] > 1:
        parts.append(f"6.1: position seen {state['repetitions']} times")
    if state["kings_only_plies"]:
        parts.append(f"6.2: {state['kings_only_plies'] / 2:g} of 25 king moves each")
    if state["endgame_rule"]:
        parts.append(
            f"{state['endgame_rule']}: {state['endgame_plies'] / 2:g} of "
            f"{state['endgame_limit']} moves each"
        )
    return " · ".join(parts)


def game_page(game: Game) -> dict:
    rows = {
        m["ply"]: m
        for m in Move.objects.filter(game=game).values("ply", "notation", "white_ms", "black_ms")
    }
    comments: dict[int, list[str]] = {}
    approved = NotationSheet.objects.filter(game=game, approved_at__isnull=False).first()
    if approved is not None:
        for m in (approved.report or {}).get("moves", []):
            if m.get("comments"):
                comments[m["ply"]] = m["comments"]
    entries = (
        RulesGame.from_state(game.rules_state).moves
        if game.rules_state
        else [r["notation"] for _, r in sorted(rows.items())]
    )
    engine = RulesGame(game.start_fen)
    fens = [engine.position.fen()]
    plies = []
    # Numbered from the side to move, not from the ply's parity: a game may start with Black
    # to move, and a position set within the game (FMJD 5.4) takes a ply of the record while
    # the side to move after it is the one the position names (as the PDN writer numbers).
    number = 1
    for i, entry in enumerate(entries, 1):
        white_move = engine.position.white_to_move
        if isinstance(entry, Setup):
            engine.set_position(entry.fen, article=entry.article, note=entry.note)
            text = f"position set (FMJD {entry.article})"
            note = [entry.note] if entry.note else []
            label = ""
        else:
            before = engine.position
            move = engine.push(entry)
            text = before.move_text(move)
            note = []
            label = f"{number}{'.' if white_move else '...'}"
            if not white_move:
                number += 1
        row = rows.get(i, {})
        plies.append(
            {
                "ply": i,
                "label": label,
                "white_move": white_move,
                "notation": text,
                "white_clock": clock_text(row.get("white_ms")),
                "black_clock": clock_text(row.get("black_ms")),
                "comments": note + comments.get(i, []),
                "draw": draw_text(engine.draw_state()),
            }
        )
        fens.append(engine.position.fen())
    termination = Termination(game.termination) if game.termination else None
    return {
        "white": player_name(game.white),
        "black": player_name(game.black),
        "result": game.result,
        "result_words": _RESULT_WORDS.get(game.result, "Not finished"),
        "ended": _ENDED.get(termination, messages.termination(termination) if termination else ""),
        "plies": plies,
        "fens": fens,
        "approved_sheet": approved is not None,
    }
