"""Games with moves and clock readings, as move entry would have stored them."""

from __future__ import annotations

from django.utils import timezone

from arbiter.events.models import Round
from arbiter.games.models import Game, Move
from rules import Game as RulesGame


def played(game: Game, moves: list[str], clocks: list[tuple[int, int]] | None = None) -> Game:
    """Store `moves` as the game's record (with (white_ms, black_ms) after each, if given)."""
    engine = RulesGame(game.start_fen)
    rows = []
    for i, text in enumerate(moves):
        engine.push(text)
        white_ms, black_ms = clocks[i] if clocks else (None, None)
        rows.append(
            Move(
                game=game,
                ply=i + 1,
                notation=engine.history[-2].move_text(engine.moves[-1]),
                fen_after=engine.position.fen(),
                white_ms=white_ms,
                black_ms=black_ms,
                played_at=timezone.now(),
            )
        )
    Move.objects.bulk_create(rows)
    game.fen, game.ply, game.rules_state = engine.position.fen(), engine.plies, engine.to_state()
    game.save(update_fields=["fen", "ply", "rules_state"])
    return game


def publish(game: Game) -> None:
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
