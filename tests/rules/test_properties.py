"""Property tests over random legal games (hypothesis)."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game, Position
from rules.board import ALL
from rules.movegen import has_capture

START_FENS = [
    "W:W31-50:B1-20",
    "W:WK47,K49,36:BK2,K4,15",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:W6,7,8,9,10:B41,42,43,44,45",
]


@st.composite
def games(draw, max_plies=60):
    game = Game(draw(st.sampled_from(START_FENS)))
    choices = draw(st.lists(st.integers(0, 2**16), max_size=max_plies))
    for c in choices:
        moves = game.position.legal_moves()
        if not moves:
            break
        game.push(moves[c % len(moves)])
    return game


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games())
def test_fen_round_trip(game):
    for pos in game.history:
        again = Position.from_fen(pos.fen())
        assert again == pos and again.fen() == pos.fen()


@SETTINGS
@given(games())
def test_hash_is_the_zobrist_key_of_equal_positions(game):
    for pos in game.history:
        again = Position.from_fen(pos.fen())
        assert hash(again) == hash(pos)
        assert again.zobrist == pos.zobrist
    by_key = {}
    for pos in game.history:
        by_key.setdefault(pos.zobrist, set()).add(pos.fen())
    assert all(len(fens) == 1 for fens in by_key.values())


@SETTINGS
@given(games())
def test_pop_restores_what_push_changed(game):
    snapshots = []
    replay = Game(game.start_fen)
    for move in game.moves:
        snapshots.append((replay.to_state(), replay.draw_state(), replay.outcome()))
        replay.push(move)
    for state, draw, outcome in reversed(snapshots):
        replay.pop()
        assert (replay.to_state(), replay.draw_state(), replay.outcome()) == (state, draw, outcome)


@SETTINGS
@given(games())
def test_state_round_trip(game):
    state = json.loads(json.dumps(game.to_state()))
    again = Game.from_state(state)
    assert again.position == game.position
    assert again.draw_state() == game.draw_state()
    assert again.outcome() == game.outcome()
    assert again.to_state() == state
    assert again.moves == game.moves  # rebuilt lazily from the move list


@SETTINGS
@given(games())
def test_notation_round_trip(game):
    for pos, move in zip(game.history, game.moves, strict=False):
        assert pos.parse_move(pos.move_text(move)) == move
        assert pos.parse_move(move.full_text()) == move


@SETTINGS
@given(games())
def test_capture_test_matches_generated_moves(game):
    for pos in game.history:
        own, opp = (pos.white, pos.black) if pos.white_to_move else (pos.black, pos.white)
        moves = pos.legal_moves()
        assert has_capture(own, opp, pos.kings) == any(m.is_capture for m in moves)
        assert all(m.is_capture for m in moves) or not any(m.is_capture for m in moves)
        assert not (pos.white | pos.black) & ~ALL


@SETTINGS
@given(games(max_plies=80))
def test_fast_perft_matches_the_public_move_generator(game):
    # perft's bulk counts (popcounts for quiet moves and single captures) against the
    # Move-building generator, two plies deep from every position of a random game
    from rules import perft

    for pos in game.history[-12:]:
        moves = pos.legal_moves()
        assert perft(pos, 1) == len(moves)
        assert perft(pos, 2) == sum(len(pos.play(m).legal_moves()) for m in moves)


@SETTINGS
@given(games(), st.lists(st.tuples(st.integers(1, 50), st.integers(1, 50)), max_size=40))
def test_quick_quiet_move_check_agrees_with_the_generator(game, pairs):
    # parse_move checks "a-b" on a fresh position without generating every move
    from rules import IllegalMove

    for pos in game.history[-10:]:
        legal = {(m.start, m.end): m for m in pos.legal_moves() if not m.is_capture}
        quiet_pairs = list(legal) + pairs
        for start, end in quiet_pairs:
            fresh = Position.from_fen(pos.fen())
            try:
                got = fresh.parse_move(f"{start}-{end}")
            except IllegalMove:
                got = None
            expected = [m for m in pos.legal_moves() if (m.start, m.end) == (start, end)]
            if got is None:
                assert not expected
            else:
                assert [got] == expected and got.promotes == expected[0].promotes
