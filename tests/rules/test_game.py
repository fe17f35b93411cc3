"""The game record: push/pop, the draw rules (FMJD 6.1-6.4), the results (FMJD 7.2), state.

Each draw rule is tested on the exact ply on which it first applies and on the ply before,
with either colour holding the lone king (the colour-swapped game is the same game turned
round: square s becomes 51 - s).
"""

import json

import pytest

from rules import Color, Game, IllegalMove, Move, Position, RulesError, Score, Termination


def mirror_fen(fen: str) -> str:
    """The same position with colours swapped and the board turned (s -> 51 - s)."""
    pos = Position.from_fen(fen)
    white_men, white_kings = pos.pieces(Color.WHITE)
    black_men, black_kings = pos.pieces(Color.BLACK)

    def items(men, kings):
        return ",".join([str(51 - s) for s in men] + [f"K{51 - s}" for s in kings])

    turn = "B" if pos.turn is Color.WHITE else "W"
    return f"{turn}:W{items(black_men, black_kings)}:B{items(white_men, white_kings)}"


def mirror_move(text: str) -> str:
    sep = "x" if "x" in text else "-"
    return sep.join(str(51 - int(s)) for s in text.split(sep))


def _quiet_moves(game: Game, pos: Position, seen: set) -> list:
    """Moves that take nothing, leave the opponent nothing to take and make no position
    seen before (so that 6.1 cannot interfere)."""
    out = []
    for move in pos.legal_moves():
        if move.is_capture:
            continue
        after = pos.play(move)
        if after in seen or any(m.is_capture for m in after.legal_moves()):
            continue
        out.append(move)
    return out


def quiet_step(game: Game, *, men: bool = False) -> Move:
    """Play the first quiet move (see `_quiet_moves`); with `men`, a man move when there is
    one, else a king move when there is one."""
    pos = game.position
    moves = _quiet_moves(game, pos, set(game.history))
    moves.sort(key=lambda m: (pos.piece_at(m.start) in "wb") != men)
    if not moves:
        raise AssertionError(f"no quiet move in {pos.fen()}")
    return game.push(moves[0])


def man_moves(game: Game) -> list[bool]:
    """For each move of the record, whether a man moved."""
    return [p.piece_at(m.start) in "wb" for p, m in zip(game.history, game.moves, strict=False)]


def both_colours(fen: str, moves: list[str] = ()):
    return [(fen, list(moves)), (mirror_fen(fen), [mirror_move(m) for m in moves])]


# ----- FMJD 7.2: results


def test_fmjd_7_2_3_side_without_pieces_loses():
    out = Game("W:W:B1").outcome()
    assert (out.termination, out.score, out.winner, out.article) == (
        Termination.NO_PIECES,
        Score.BLACK_WINS,
        Color.BLACK,
        "7.2.3",
    )
    assert Game("B:W31:B").outcome().score is Score.WHITE_WINS


def test_fmjd_7_2_3_capturing_the_last_piece_wins():
    game = Game("W:W28:B23")
    game.push("28x19")
    out = game.outcome()
    assert out.termination is Termination.NO_PIECES and out.winner is Color.WHITE


def test_fmjd_7_2_2_side_to_move_that_is_blocked_loses():
    game = Game("W:W46:B37,41")
    out = game.outcome()
    assert out.termination is Termination.BLOCKED and out.winner is Color.BLACK
    assert out.article == "7.2.2" and out.score is Score.BLACK_WINS


def test_fmjd_7_2_2_blocking_the_last_move_wins():
    game = Game("B:W46:B32,41")
    assert game.outcome() is None
    game.push("32-37")
    assert game.outcome().termination is Termination.BLOCKED
    assert game.outcome().winner is Color.BLACK


def test_no_outcome_in_the_start_position():
    assert Game().outcome() is None


# ----- FMJD 6.1: repetition


@pytest.mark.parametrize(
    "fen, moves", both_colours("W:WK47,K49:BK2,K4", ["47-41", "2-7", "41-47", "7-2"])
)
def test_fmjd_6_1_third_repetition_is_a_draw(fen, moves):
    game = Game(fen)
    for _ in range(2):
        for m in moves:
            game.push(m)
    # the start position now stands for the third time with the same side to move
    assert game.plies == 8
    assert game.draw_state()["repetitions"] == 3
    out = game.outcome()
    assert (out.termination, out.article, out.score) == (
        Termination.DRAW_REPETITION,
        "6.1",
        Score.DRAW,
    )
    game.pop()
    assert game.outcome() is None  # ply 7: the position after it stands for the second time
    assert game.draw_state()["repetitions"] == 2


def test_fmjd_6_1_a_man_move_makes_earlier_positions_unreachable():
    game = Game("W:WK47,K49,36:BK2,K4")
    for m in ["47-41", "2-7", "41-47", "7-2"]:
        game.push(m)
    assert game.draw_state()["repetitions"] == 2
    game.push("36-31")
    assert game.draw_state()["repetitions"] == 1
    assert len(game.to_state()["history"]) == 1


def test_fmjd_6_1_the_side_to_move_is_part_of_the_position():
    a = Position.from_fen("W:WK46:BK5")
    b = Position.from_fen("B:WK46:BK5")
    assert a != b and a.zobrist != b.zobrist


# ----- FMJD 6.2: 25 moves each with kings only


@pytest.mark.parametrize("fen", [f for f, _ in both_colours("W:WK47,K49,36:BK2,K4,15")])
def test_fmjd_6_2_twenty_five_king_moves_each_is_a_draw(fen):
    game = Game(fen)
    for _ in range(49):
        quiet_step(game)
    assert game.draw_state()["kings_only_plies"] == 49
    assert game.outcome() is None  # 25 moves of one player, 24 of the other
    quiet_step(game)
    assert game.draw_state()["kings_only_moves"] == 25
    out = game.outcome()
    assert (out.termination, out.article) == (Termination.DRAW_25_MOVES, "6.2")


def test_fmjd_6_2_a_man_move_restarts_the_count():
    # men on the edge (6, 45) cannot be taken; they move only when the test says so
    game = Game("W:WK47,K49,6:BK2,K4,45")
    for _ in range(40):
        quiet_step(game)
    assert game.draw_state()["kings_only_plies"] == 40
    assert game.outcome() is None
    for _ in range(4):  # 6-1 (White) or 45-50 (Black), as soon as it is safe
        quiet_step(game, men=True)
        if man_moves(game)[-1]:
            break
    assert man_moves(game)[-1]
    assert game.draw_state()["kings_only_plies"] == 0
    for _ in range(49):
        quiet_step(game)
    assert game.outcome() is None
    assert not any(man_moves(game)[-49:])
    quiet_step(game)
    assert game.outcome().termination is Termination.DRAW_25_MOVES


def offer_capture(game: Game, *, then_quiet: bool = True) -> None:
    """Play a non-capturing move after which the opponent has a capture, choosing one after
    which play can go on quietly."""
    pos = game.position
    for move in pos.legal_moves():
        if move.is_capture:
            continue
        after = pos.play(move)
        for reply in after.legal_moves():
            if reply.is_capture and (
                not then_quiet or _quiet_moves(game, after.play(reply), set())
            ):
                game.push(move)
                game._offered_reply = reply
                return
    raise AssertionError(f"no move offers a capture in {pos.fen()}")


def take(game: Game) -> None:
    game.push(game.__dict__.pop("_offered_reply"))


def test_fmjd_6_2_a_capture_restarts_the_count():
    game = Game("W:WK47,K49:BK2,K4,K19")
    for _ in range(4):
        quiet_step(game)
    offer_capture(game)
    assert game.draw_state()["kings_only_plies"] == 5
    take(game)
    assert game.draw_state()["kings_only_plies"] == 0


# ----- FMJD 6.3 / 6.4: few pieces against a lone king


@pytest.mark.parametrize(
    "fen, rule, limit",
    [
        ("W:WK47,K49,K48:BK3", "6.3", 16),  # three kings
        ("W:WK47,K49,36:BK3", "6.3", 16),  # two kings and a man
        ("W:WK47,36,37:BK3", "6.3", 16),  # a king and two men
        ("W:WK47,K49:BK3", "6.4", 5),  # two kings
        ("W:WK47,36:BK3", "6.4", 5),  # a king and a man
        ("W:WK47:BK3", "6.4", 5),  # a king against a king
    ],
)
@pytest.mark.parametrize("colours", ["white_strong", "black_strong"])
@pytest.mark.parametrize("first", ["strong_moves_first", "lone_king_moves_first"])
def test_fmjd_6_3_6_4_draw_after_each_player_has_played_the_limit(fen, rule, limit, colours, first):
    if first == "lone_king_moves_first":
        fen = "B" + fen[1:]
    if colours == "black_strong":
        fen = mirror_fen(fen)
    game = Game(fen)
    assert game.draw_state()["endgame_rule"] == rule
    for _ in range(2 * limit - 1):
        quiet_step(game)
        assert game.outcome() is None
    assert game.draw_state()["endgame_plies"] == 2 * limit - 1
    quiet_step(game)  # the last move of the second player's n-th move
    out = game.outcome()
    expected = Termination.DRAW_16_MOVES if rule == "6.3" else Termination.DRAW_5_MOVES
    assert (out.termination, out.article, out.score) == (expected, rule, Score.DRAW)


def test_fmjd_6_3_other_material_is_not_counted():
    for fen in ["W:WK47,K49,K48,K45:BK3", "W:WK47,K49:BK3,10", "W:W31,32:BK3", "W:WK47,10:BK3,K1"]:
        assert Game(fen).draw_state()["endgame_rule"] is None, fen


@pytest.mark.parametrize("fen, moves", both_colours("W:WK50,K45,K36:BK5,K28", ["50x17"]))
def test_fmjd_6_3_counted_from_the_move_that_creates_the_material(fen, moves):
    game = Game(fen)
    assert game.draw_state()["endgame_rule"] is None
    game.push(moves[0])  # White takes a king: three kings against a lone king
    assert game.draw_state()["endgame_rule"] == "6.3"
    assert game.draw_state()["endgame_plies"] == 0
    for _ in range(31):
        quiet_step(game)
    assert game.outcome() is None
    quiet_step(game)  # 32 plies after the capture: 16 moves each
    assert game.plies == 33
    assert game.outcome().termination is Termination.DRAW_16_MOVES


def test_fmjd_6_3_not_restarted_by_later_man_moves():
    game = Game("W:WK47,36,37:BK3")
    quiet_step(game, men=True)
    quiet_step(game)
    quiet_step(game, men=True)
    assert game.draw_state()["endgame_plies"] == 3
    for _ in range(28):
        quiet_step(game, men=True)
    assert sum(man_moves(game)) >= 4
    assert game.draw_state()["endgame_rule"] == "6.3"
    assert game.outcome() is None
    quiet_step(game, men=True)
    assert game.plies == 32
    assert game.outcome().termination is Termination.DRAW_16_MOVES


@pytest.mark.parametrize("fen", [f for f, _ in both_colours("W:WK47,K49,K48:BK3")])
def test_fmjd_6_4_a_capture_turning_6_3_into_6_4_restarts_the_count(fen):
    game = Game(fen)
    assert game.draw_state()["endgame_rule"] == "6.3"
    for _ in range(6):
        quiet_step(game)
    offer_capture(game)  # the strong side leaves a king en prise: 7 plies into 6.3
    assert game.draw_state()["endgame_plies"] == 7
    take(game)  # the lone king takes it: two kings against a king
    assert game.draw_state()["endgame_rule"] == "6.4"
    assert game.draw_state()["endgame_plies"] == 0
    for _ in range(9):
        quiet_step(game)
        assert game.outcome() is None
    quiet_step(game)  # 10 plies after the capture: 5 moves each
    assert game.outcome().termination is Termination.DRAW_5_MOVES


def test_fmjd_7_2_before_6_4_a_win_on_the_last_ply_is_a_win():
    # Two kings against a king: the lone king is taken on the 10th ply of the 6.4 count.
    game = Game("B:WK47,K49:BK24")
    for _ in range(8):
        quiet_step(game)
    offer_capture(game, then_quiet=False)
    take(game)
    assert game.plies == 10
    out = game.outcome()
    assert out.termination is Termination.NO_PIECES and out.winner is Color.WHITE


# ----- push / pop / state


def test_push_refuses_an_illegal_move_and_changes_nothing():
    game = Game()
    before = game.to_state()
    with pytest.raises(IllegalMove):
        game.push("32-27x")
    with pytest.raises(IllegalMove):
        game.push("46-41")
    assert game.to_state() == before


def test_pop_restores_position_and_counters_exactly():
    game = Game("W:WK46,K50:BK5,K1")
    states = [game.draw_state()]
    fens = [game.position.fen()]
    for _ in range(12):
        quiet_step(game)
        states.append(game.draw_state())
        fens.append(game.position.fen())
    for i in range(12, 0, -1):
        game.pop()
        assert game.draw_state() == states[i - 1]
        assert game.position.fen() == fens[i - 1]
    with pytest.raises(RulesError):
        game.pop()


def test_to_state_round_trip_without_replay():
    game = Game()
    for m in ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]:
        game.push(m)
    state = json.loads(json.dumps(game.to_state()))
    again = Game.from_state(state)
    assert again.position == game.position and again.plies == game.plies == 6
    assert again.draw_state() == game.draw_state()
    assert again.to_state() == state
    again.push("32-28")
    game.push("32-28")
    assert again.to_state() == game.to_state()
    # popping past the restored point rebuilds the record from the move list
    for _ in range(7):
        assert again.pop() == game.pop()
    assert again.position == Position.start()


@pytest.mark.parametrize(
    "change, words",
    [
        ({"version": 99}, "version"),
        ({"history": []}, "history"),
        ({"ply": 3}, "moves listed"),
        ({"endgame_rule": "6.3"}, "counters"),
        ({"fen": "X"}, "FEN"),
        ({"moves": None}, "bad rules state"),
    ],
)
def test_from_state_rejects_inconsistent_states(change, words):
    game = Game()
    game.push("32-28")
    state = {**game.to_state(), **change}
    with pytest.raises(RulesError) as exc:
        Game.from_state(state)
    assert words in str(exc.value)
