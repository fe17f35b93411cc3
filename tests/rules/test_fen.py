"""FEN as PDN defines it (reader and canonical writer); squares numbered per FMJD 2.6."""

import pytest

from rules import START_FEN, Color, FenError, Position


def test_fmjd_2_8_start_position_and_start_fen():
    pos = Position.start()
    assert pos.fen() == START_FEN
    white = ",".join(map(str, range(31, 51)))
    black = ",".join(map(str, range(1, 21)))
    assert f"W:W{white}:B{black}" == pos.fen()
    assert pos.turn is Color.WHITE  # FMJD 3.3: White moves first
    assert [pos.piece_at(s) for s in (1, 20, 21, 30, 31, 50)] == ["b", "b", None, None, "w", "w"]
    assert Position.from_fen("W:W31-50:B1-20") == pos


def test_fen_black_section_first_does_not_swap_colours():
    pos = Position.from_fen("B:B1-20:W31-50")
    assert pos.turn is Color.BLACK
    assert pos.piece_at(1) == "b" and pos.piece_at(50) == "w"
    assert pos.fen() == START_FEN.replace("W:", "B:", 1)


def test_fen_kings_ranges_and_mixed_items():
    pos = Position.from_fen("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    assert pos.piece_at(10) == "W" and pos.piece_at(18) == "w"
    assert pos.piece_at(22) == "B" and pos.piece_at(12) == "b"
    assert pos.fen() == "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29".replace(
        "W18,24,27,28,K10,K15", "WK10,K15,18,24,27,28"
    ).replace("B12,16,20,K22,K25,K29", "B12,16,20,K22,K25,K29")
    assert Position.from_fen("B:WK1-3:B50").pieces(Color.WHITE) == ([], [1, 2, 3])


@pytest.mark.parametrize(
    "fen, white, black",
    [
        ("W:W:B1", ([], []), ([1], [])),
        ("W:WK10:B", ([], [10]), ([], [])),
        ("W:WK10", ([], [10]), ([], [])),
    ],
)
def test_fen_one_side_empty(fen, white, black):
    pos = Position.from_fen(fen)
    assert pos.pieces(Color.WHITE) == white
    assert pos.pieces(Color.BLACK) == black
    assert Position.from_fen(pos.fen()) == pos


def test_fen_tolerates_whitespace_trailing_dot_and_counters():
    pos = Position.from_fen("  W : W 31 - 50 : B 1-20 . ")
    assert pos == Position.start()
    assert Position.from_fen("W:W31-50:B1-20.") == Position.start()
    assert Position.from_fen("W:W31-50:B1-20:H0:F1") == Position.start()


def test_fen_canonical_writer_is_ascending_white_first_with_kings():
    pos = Position.from_fen("B:BK3,1:W50,K40,33")
    assert pos.fen() == "B:W33,K40,50:B1,K3"


@pytest.mark.parametrize(
    "fen, column, words",
    [
        ("", None, "empty"),
        ("X:W31:B1", 1, "side to move"),
        ("W:W31:X1", 7, "must start with 'W' or 'B'"),
        ("W:W31,51:B1", 7, "51 in White's pieces is not a square"),
        ("W:W31,0:B1", 7, "0 in White's pieces is not a square"),
        ("W:W31:B1,31", 10, "square 31 is listed twice"),
        ("W:W35-31:B1", 4, "runs backwards"),
        ("W:W31,a:B1", 7, "'a' in White's pieces"),
        ("W:W31:W32", 7, "second time"),
        ("W:W31,,32:B1", 3, "empty item"),
        ("W:W31::B1", 6, "field 3 is empty"),
        ("W", None, "no pieces field"),
        ("B.", None, "no pieces field"),
    ],
)
def test_fen_errors_say_what_and_where(fen, column, words):
    with pytest.raises(FenError) as exc:
        Position.from_fen(fen)
    assert words in str(exc.value)
    if column is not None:
        assert exc.value.column == column - 1
        assert f"column {column}" in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_fen_rejects_non_strings():
    with pytest.raises(FenError):
        Position.from_fen(None)


def test_positions_are_immutable_and_hashable():
    pos = Position.start()
    with pytest.raises(AttributeError):
        pos.white = 0
    other = Position.from_fen(START_FEN)
    assert pos == other and hash(pos) == hash(other) and pos.zobrist == other.zobrist
    flipped = Position.from_fen(START_FEN.replace("W:", "B:", 1))
    assert flipped != pos and flipped.zobrist != pos.zobrist  # FMJD 6.1: side to move counts
    assert len({pos, other, flipped}) == 2


def test_piece_at_rejects_non_squares():
    with pytest.raises(ValueError):
        Position.start().piece_at(51)


@pytest.mark.parametrize(
    "fen, words",
    [
        ("W:W31:B1,31", "square 31 is listed twice, for White and for Black"),
        ("W:B1-20:W20-50", "square 20 is listed twice, for White and for Black"),
        ("W:WK31,31:B1", "square 31 is listed twice in White's pieces"),
        ("B:B5,1-5:W50", "square 5 is listed twice in Black's pieces"),
    ],
)
def test_fen_square_on_both_sides_or_twice_on_one_is_refused_not_guessed(fen, words):
    with pytest.raises(FenError) as exc:
        Position.from_fen(fen)
    assert words in str(exc.value)
