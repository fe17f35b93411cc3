"""SVG diagrams: square layout (FMJD 2.6), men and kings, last move, flipping."""

import xml.etree.ElementTree as ET

import pytest

from rules import Position
from rules.svg import board_svg, square_xy

NS = {"s": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def pieces(root):
    return {
        int(g.get("data-square")): g.get("class").split()[1]
        for g in root.iterfind(".//s:g", NS)
        if "piece" in g.get("class", "")
    }


@pytest.mark.parametrize(
    "square, xy",
    [(1, (1, 0)), (5, (9, 0)), (6, (0, 1)), (10, (8, 1)), (46, (0, 9)), (50, (8, 9))],
)
def test_fmjd_2_6_squares_numbered_from_blacks_side_row_by_row(square, xy):
    assert square_xy(square) == xy
    col, row = xy
    assert (col + row) % 2 == 1  # playing squares are the dark ones
    assert square_xy(square, flipped=True) == (9 - col, 9 - row)


def test_fmjd_2_8_start_position_has_twenty_men_each():
    root = parse(board_svg(Position.start()))
    found = pieces(root)
    assert {sq for sq, c in found.items() if c == "black-man"} == set(range(1, 21))
    assert {sq for sq, c in found.items() if c == "white-man"} == set(range(31, 51))
    squares = [r for r in root.iterfind(".//s:rect", NS) if r.get("data-square")]
    assert len(squares) == 50
    numbers = [t.text for t in root.iterfind(".//s:text", NS)]
    assert numbers == [str(i) for i in range(1, 51)]


def test_fmjd_3_5_kings_are_drawn_differently_from_men():
    svg = board_svg("W:W31,K28:B19,K3")
    root = parse(svg)
    assert pieces(root) == {31: "white-man", 28: "white-king", 19: "black-man", 3: "black-king"}
    groups = {int(g.get("data-square")): g for g in root.iterfind(".//s:g", NS)}
    for sq in (28, 3):
        assert groups[sq].find("s:polygon", NS) is not None  # the crown
        assert len(groups[sq].findall("s:circle", NS)) == 3
    for sq in (31, 19):
        assert groups[sq].find("s:polygon", NS) is None
        assert len(groups[sq].findall("s:circle", NS)) == 2


def test_last_move_capture_shows_path_landing_squares_and_captured_pieces():
    before = Position.from_fen("W:W32:B27,17,1")
    (move,) = before.legal_moves()
    svg = board_svg(before.play(move), last_move=move)
    root = parse(svg)
    line = root.find(".//s:polyline[@class='last-move-path']", NS)
    assert len(line.get("points").split()) == 3  # 32, 21, 12
    marked = {
        int(r.get("data-square"))
        for r in root.iterfind(".//s:rect", NS)
        if "last-move" in (r.get("class") or "")
    }
    assert marked == {32, 12}
    crosses = {int(p.get("data-square")) for p in root.iterfind(".//s:path", NS)}
    assert crosses == {27, 17}


def test_last_move_as_text_and_flipped_board():
    svg = board_svg(Position.start(), last_move="32-28", flipped=True, size=200)
    root = parse(svg)
    assert root.get("width") == "200"
    rect46 = next(r for r in root.iterfind(".//s:rect", NS) if r.get("data-square") == "46")
    assert (float(rect46.get("x")), float(rect46.get("y"))) == (180.0, 0.0)
    assert root.find(".//s:polyline", NS) is not None


def test_a_piece_map_needs_no_engine():
    svg = board_svg({1: "b", 50: "W"}, numbers=False)
    root = parse(svg)
    assert pieces(root) == {1: "black-man", 50: "white-king"}
    assert root.find(".//s:text", NS) is None


@pytest.mark.parametrize(
    "position, kw, message",
    [
        ({51: "w"}, {}, "square 51 is not on the board"),
        ({3: "x"}, {}, "piece 'x' on square 3"),
        ({3: "w"}, {"size": 10}, "size must be"),
        ({3: "w"}, {"last_move": "3-99"}, "square 99 is not on the board"),
    ],
)
def test_bad_input_is_a_clear_error(position, kw, message):
    with pytest.raises(ValueError, match=message):
        board_svg(position, **kw)
