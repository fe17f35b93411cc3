"""Move generation and notation, named by FMJD article (3, 4, 8)."""

import pytest

from rules import AmbiguousMove, IllegalMove, Move, Position

SCHILDPAD = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"


def texts(fen):
    return sorted(str(m) for m in Position.from_fen(fen).legal_moves())


def test_fmjd_3_4_men_move_forward_one_square_from_the_start():
    assert texts("W:W31-50:B1-20") == sorted(
        ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    )
    assert texts("B:W31-50:B1-20") == sorted(
        ["16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24", "20-24", "20-25"]
    )


def test_fmjd_3_4_man_on_the_edge_has_one_move():
    assert texts("W:W36") == ["36-31"]
    assert texts("W:W35") == ["35-30"]


def test_fmjd_3_9_king_flies_and_is_blocked_by_any_piece():
    assert texts("W:WK46:B23") != []  # capture (4.3), covered by articles.json
    assert texts("W:WK46,28:B3") == sorted(["28-22", "28-23", "46-41", "46-37", "46-32"])


def test_fmjd_4_1_capture_is_compulsory_and_never_own_pieces():
    assert texts("W:W28,32:B23") == ["28x19"]
    assert texts("W:W28,23") == sorted(["23-18", "23-19", "28-22"])  # own piece not taken


def test_fmjd_4_2_man_captures_backwards():
    assert texts("W:W19:B24") == ["19x30"]


def test_fmjd_4_3_king_lands_on_any_free_square_behind():
    pos = Position.from_fen("W:WK46:B23")
    assert sorted(m.end for m in pos.legal_moves()) == [5, 10, 14, 19]
    assert all(m.captures == (23,) for m in pos.legal_moves())


def test_fmjd_4_5_man_goes_on_capturing_forwards_then_backwards():
    # 32 takes 28 (landing on 23), then must go on backwards over 29 to 34: never stop on 23
    pos = Position.from_fen("W:W32:B28,29")
    (move,) = pos.legal_moves()
    assert move.path == (32, 23, 34) and move.captures == (28, 29)
    assert pos.move_text(move) == "32x34"
    assert pos.play(move).pieces(pos.turn) == ([34], [])


def test_fmjd_4_6_king_turns_and_lands_on_any_free_square_behind_the_last_piece():
    # K46 takes 37 on the long diagonal, turns on 23 and takes 12; it ends on 7 or 1
    pos = Position.from_fen("W:WK46:B37,12")
    moves = pos.legal_moves()
    assert sorted(m.end for m in moves) == [1, 7]
    assert all(m.captures == (37, 12) and m.path[1] == 23 for m in moves)


def test_fmjd_4_11_pieces_are_removed_only_after_the_capture_is_complete():
    # 19, 9, 12 and 38 are jumped in turn and stay on the board (blocking) until the king
    # stops on 43; only then are the four removed together, and 10, never reached, survives
    pos = Position.from_fen("W:WK41,49:B9,10,12,19,38")
    (move,) = pos.legal_moves()
    after = pos.play(move)
    assert after.fen() == "B:WK43,49:B10"


def test_fmjd_4_7_king_cannot_jump_two_adjacent_pieces():
    assert "x" not in " ".join(texts("W:WK46:B28,23"))


def test_fmjd_4_8_the_start_square_is_free_during_the_capture():
    # the king goes round four pieces and may stop on (or cross) its own start square
    pos = Position.from_fen("W:WK38:B8,11,27,29")
    ends = sorted(m.end for m in pos.legal_moves())
    assert 38 in ends
    assert all(len(m.captures) == 4 for m in pos.legal_moves())


def test_fmjd_4_8_a_jumped_piece_blocks_the_way():
    # K41 could take 5 pieces if jumped pieces vanished at once; they stay until the end
    pos = Position.from_fen("W:WK41,49:B9,10,12,19,38")
    assert [str(m) for m in pos.legal_moves()] == ["41x43"]
    assert pos.legal_moves()[0].captures == (19, 9, 12, 38)  # 10 is never reached


def test_fmjd_4_8_captured_pieces_are_removed_after_the_whole_capture():
    pos = Position.from_fen("W:W47:B13,14,22,24,31,34,K41,44")
    (move,) = pos.legal_moves()
    after = pos.play(move)
    assert after.pieces(after.turn) == ([], [])  # every black piece on the route is gone
    assert after.piece_at(49) == "w"


def test_fmjd_4_13_majority_capture_is_compulsory():
    pos = Position.from_fen("W:W48:B24,K31,34,K42,43")
    (move,) = pos.legal_moves()
    assert len(move.captures) == 3 and move.end == 19


def test_fmjd_4_14_no_priority_for_kings():
    pos = Position.from_fen("W:W26:B12,K21,31,32")
    assert {len(m.captures) for m in pos.legal_moves()} == {2}
    assert sorted(m.end for m in pos.legal_moves()) == [8, 28]


def test_fmjd_4_13_same_pieces_by_different_routes_are_one_move():
    # clockwise and anticlockwise round the same four pieces back to 38: one move
    from rules import movegen
    from rules.board import INDEX_TO_SQ

    pos = Position.from_fen("W:WK38:B8,11,27,29")
    routes = movegen.capture_routes(pos.white, pos.black, pos.kings)
    to_38 = [r for r in routes if INDEX_TO_SQ[r[1][-1]] == 38]
    assert len(to_38) == 2
    assert len([m for m in pos.legal_moves() if m.end == 38]) == 1
    keys = [(m.start, m.end, frozenset(m.captures)) for m in pos.legal_moves()]
    assert len(keys) == len(set(keys))


def test_move_is_small_hashable_and_immutable():
    m = Move(32, 28)
    assert str(m) == "32-28" and m.path == (32, 28) and not m.is_capture
    assert m == Move(32, 28) and len({m, Move(32, 28)}) == 1
    with pytest.raises(AttributeError):
        m.start = 1
    c = Move(28, 17, (22,), (28, 17))
    assert str(c) == "28x17" and c.is_capture
    with pytest.raises(ValueError):
        Move(0, 28)
    with pytest.raises(ValueError):
        Move(28, 17, (51,))


def test_play_returns_a_new_position_and_refuses_illegal_moves():
    pos = Position.start()
    after = pos.play(Move(32, 28))
    assert pos == Position.start() and after.piece_at(28) == "w" and after.turn.value == "black"
    with pytest.raises(IllegalMove) as exc:
        pos.play(Move(46, 41))
    assert "32-28" in exc.value.legal
    assert pos.play("32-28") == after


# ----- parse_move / move_text (FMJD 8.2)


def test_fmjd_8_2_parse_short_and_full_forms():
    pos = Position.start()
    assert pos.parse_move("32-28") == Move(32, 28)
    cap = Position.from_fen("W:W28,32:B23")
    assert cap.parse_move("28x19").captures == (23,)
    assert cap.parse_move("28 x 19") == cap.parse_move("28x19")
    assert cap.parse_move("28x19!") == cap.parse_move("28x19")


def test_fmjd_8_2_full_path_of_a_multiple_capture():
    pos = Position.from_fen("W:W47:B13,14,22,24,31,34,K41,44")
    (move,) = pos.legal_moves()
    assert pos.parse_move(move.full_text()) == move
    assert pos.parse_move("47x49") == move


def test_incomplete_capture_path_is_matched_as_subsequence():
    pos = Position.from_fen("W:WK2:B24,34,22")
    move = pos.parse_move("2x30x11")
    assert move.path == (2, 30, 39, 11)
    assert pos.parse_move("2x39x11") == move
    with pytest.raises(IllegalMove):
        pos.parse_move("2x39x30x11")  # order matters


def test_spaces_inside_a_move_are_tolerated():
    pos = Position.from_fen("W:W35:B30,K40")
    assert pos.parse_move("35x 44") == pos.parse_move("35x44")


def test_ambiguous_short_capture_lists_full_paths():
    pos = Position.from_fen(SCHILDPAD)
    with pytest.raises(AmbiguousMove) as exc:
        pos.parse_move("36x16")
    assert exc.value.candidates == ["36x13x2x16", "36x18x7x16"]
    assert isinstance(exc.value, IllegalMove)
    assert pos.parse_move("36x13x2x16").captures != pos.parse_move("36x18x7x16").captures
    assert pos.parse_move("36x18x16").path == (36, 18, 7, 16)


def test_move_text_is_short_unless_two_captures_share_start_and_end():
    pos = Position.from_fen(SCHILDPAD)
    texts_ = [pos.move_text(m) for m in pos.legal_moves()]
    assert "36x13x2x16" in texts_ and "36x18x7x16" in texts_
    # here every end square is reached by two different captures: all written in full
    assert all(t.count("x") == 3 for t in texts_)
    short = Position.from_fen("W:WK46:B23")
    assert sorted(short.move_text(m) for m in short.legal_moves()) == [
        "46x10",
        "46x14",
        "46x19",
        "46x5",
    ]
    assert Position.start().move_text(Move(32, 28)) == "32-28"


@pytest.mark.parametrize(
    "fen, text, reason",
    [
        ("W:W28,32:B23", "32-27", "capture is compulsory (FMJD 4.1): 28x19 is possible"),
        ("W:W48:B24,K31,34,K42,43", "48x39", "the majority rule (FMJD 4.13) requires taking 3"),
        ("W:W48:B24,K31,34,K42,43", "48x30", "the majority rule (FMJD 4.13) requires taking 3"),
        ("W:W28,K46:B3", "28-33", "a man moves forwards only (FMJD 3.4)"),
        ("W:W28,K46:B3", "28-17", "one square diagonally forwards (FMJD 3.4)"),
        ("W:W28,K46:B3", "46-5", "blocked (FMJD 3.9)"),
        ("W:W28,K46:B3", "46-50", "not on one diagonal (FMJD 3.9)"),
        ("W:W28,K46:B3", "3-8", "Black's and White is to move"),
        ("W:W28,K46:B3", "27-22", "no piece on 27"),
        ("W:W28,K46:B3", "32-28", "no piece on 32"),
        ("W:W28,K46,23:B3", "28-23", "square 23 is occupied"),
        ("W:W28,K46:B3", "51-46", "51 is not a square"),
        ("W:W28,K46:B3", "e2-e4", "not a move"),
        ("W:W:B3", "3-8", "no legal move"),
    ],
)
def test_illegal_moves_say_why(fen, text, reason):
    pos = Position.from_fen(fen)
    with pytest.raises(IllegalMove) as exc:
        pos.parse_move(text)
    assert reason in exc.value.reason
    assert exc.value.move_text == text
    assert exc.value.legal == [pos.move_text(m) for m in sorted(pos.legal_moves())]
