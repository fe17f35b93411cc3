"""Writing a game's whole record at once (an approved notation sheet, an imported PDN game):
the moves replace the entered ones, under the caller's lock of the game."""

from __future__ import annotations

from django.utils import timezone

from arbiter.games.models import Game, Move
from rules import Game as RulesGame

from .locking import save_game


def _clock_ms(clock: dict | None, side: str) -> int | None:
    if not clock:
        return None
    return clock.get(f"{side}_ms")


def write_record(game: Game, moves: list[dict], *, by) -> None:
    """Replace the game's moves by `moves` (each legal: a checked sheet's, a replayed PDN
    game's), keeping the entered clock readings and times of the plies where both agree."""
    entered = {m.ply: m for m in Move.objects.filter(game=game)}
    now = timezone.now()
    engine = RulesGame(game.start_fen)
    rows = []
    for m in moves:
        engine.push(m["notation"])
        old = entered.get(m["ply"])
        same = old is not None and old.notation == m["notation"]
        rows.append(
            Move(
                game=game,
                ply=m["ply"],
                notation=m["notation"],
                fen_after=engine.position.fen(),
                white_ms=_clock_ms(m.get("clock"), "white")
                if m.get("clock")
                else (old.white_ms if same else None),
                black_ms=_clock_ms(m.get("clock"), "black")
                if m.get("clock")
                else (old.black_ms if same else None),
                played_at=old.played_at if same else now,
                by=by if getattr(by, "is_authenticated", False) else None,
            )
        )
    Move.objects.filter(game=game).delete()
    Move.objects.bulk_create(rows)
    game.fen = engine.position.fen()
    game.ply = engine.plies
    game.rules_state = engine.to_state()
    save_game(game, ["fen", "ply", "rules_state"])
