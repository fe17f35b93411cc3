"""SVG diagrams of a 10x10 international draughts position (pure string building).

The board follows FMJD 2: ten by ten, the playing (dark) squares numbered 1 to 50 from
Black's side (2.6), square 46 in White's bottom-left corner; White at the bottom unless
`flipped`. Men are discs; kings (FMJD 3.5) are discs with a ring and a crown, so they stay
distinct in print and for colour-blind readers. The last move is shown by tinting its
start and landing squares, a line along its path, and a cross on each captured square.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["board_svg", "square_xy"]

_LIGHT = "#f3e3c3"
_DARK = "#9b6b43"
_HIGHLIGHT = "#f6d04d"
_PATH = "#2f7dd1"
_CAPTURED = "#d03b2f"
_NUMBER = "#f8efdc"
_PIECES = {
    "w": ("#fbfbf6", "#3a3a3a"),  # fill, outline
    "b": ("#262626", "#000000"),
}
_NAMES = {"w": "white man", "W": "white king", "b": "black man", "B": "black king"}


def square_xy(square: int, *, flipped: bool = False) -> tuple[int, int]:
    """(column, row) of a playing square, both 0..9, row 0 at the top of the diagram."""
    if not 1 <= square <= 50:
        raise ValueError(f"square {square} is not on the board (1 to 50, FMJD 2.6)")
    index = square - 1
    row = index // 5
    col = 2 * (index % 5) + (1 if row % 2 == 0 else 0)
    if flipped:
        return 9 - col, 9 - row
    return col, row


def _pieces(position: Any) -> dict[int, str]:
    """{square: 'w'|'W'|'b'|'B'} from a Position, a FEN string or a mapping."""
    if isinstance(position, str):
        from . import Position

        position = Position.from_fen(position)
    if isinstance(position, Mapping):
        out = {}
        for sq, piece in position.items():
            sq = int(sq)
            if piece not in _NAMES:
                raise ValueError(f"piece {piece!r} on square {sq} is not one of w, W, b, B")
            square_xy(sq)
            out[sq] = piece
        return out
    if hasattr(position, "piece_at"):
        out = {}
        for sq in range(1, 51):
            piece = position.piece_at(sq)
            if piece:
                out[sq] = piece
        return out
    raise TypeError("board_svg needs a Position, a FEN string or a {square: piece} mapping")


def _move_squares(last_move: Any, position: Any) -> tuple[list[int], list[int]]:
    """(path, captured squares) of the last move given as a Move, text or squares."""
    if last_move is None:
        return [], []
    if isinstance(last_move, str):
        import re

        path = [int(s) for s in re.findall(r"\d+", last_move)]
        return path, []
    if hasattr(last_move, "path"):
        return list(last_move.path), list(getattr(last_move, "captures", ()) or ())
    if isinstance(last_move, Iterable):
        return [int(s) for s in last_move], []
    raise TypeError("last_move must be a Move, a move text or a sequence of squares")


def _crown(cx: float, cy: float, r: float, color: str) -> str:
    """A small three-pointed crown centred on (cx, cy)."""
    w = r * 1.05
    h = r * 0.72
    x0, x1 = cx - w / 2, cx + w / 2
    top, base = cy - h / 2, cy + h / 2
    mid = cy - h * 0.05
    pts = [
        (x0, base),
        (x0, top + h * 0.15),
        (cx - w / 4, mid),
        (cx, top),
        (cx + w / 4, mid),
        (x1, top + h * 0.15),
        (x1, base),
    ]
    d = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    return f'<polygon points="{d}" fill="{color}" stroke="#5c4300" stroke-width="{r * 0.06:.1f}"/>'


def board_svg(
    position: Any,
    *,
    last_move: Any = None,
    flipped: bool = False,
    size: int = 400,
    numbers: bool = True,
) -> str:
    """An SVG document (a string) showing the position.

    `position`: a Position, a FEN string or a {square: 'w'|'W'|'b'|'B'} mapping.
    `last_move`: a Move (its path and captures are drawn), a text like "32-28" or
    "47x38x24", or a sequence of squares. `flipped`: Black at the bottom.
    `size`: width and height in pixels. `numbers`: print square numbers.
    """
    if not isinstance(size, int) or size < 50:
        raise ValueError(f"size must be an integer of at least 50 pixels, not {size!r}")
    pieces = _pieces(position)
    path, captured = _move_squares(last_move, position)
    for sq in path + captured:
        square_xy(sq)
    cell = size / 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
        f'viewBox="0 0 {size} {size}" role="img">',
        "<title>International draughts position</title>",
        f'<rect x="0" y="0" width="{size}" height="{size}" fill="{_LIGHT}"/>',
    ]
    marked = {path[0], path[-1]} if path else set()
    for sq in range(1, 51):
        col, row = square_xy(sq, flipped=flipped)
        x, y = col * cell, row * cell
        fill = _HIGHLIGHT if sq in marked else _DARK
        cls = "square last-move" if sq in marked else "square"
        out.append(
            f'<rect class="{cls}" data-square="{sq}" x="{x:.1f}" y="{y:.1f}" '
            f'width="{cell:.1f}" height="{cell:.1f}" fill="{fill}"/>'
        )
        if numbers:
            color = "#5a3a1e" if sq in marked else _NUMBER
            out.append(
                f'<text class="square-number" x="{x + cell * 0.06:.1f}" '
                f'y="{y + cell * 0.24:.1f}" font-family="sans-serif" '
                f'font-size="{cell * 0.2:.1f}" fill="{color}">{sq}</text>'
            )
    if len(path) >= 2:
        pts = []
        for sq in path:
            col, row = square_xy(sq, flipped=flipped)
            pts.append(f"{(col + 0.5) * cell:.1f},{(row + 0.5) * cell:.1f}")
        out.append(
            f'<polyline class="last-move-path" points="{" ".join(pts)}" fill="none" '
            f'stroke="{_PATH}" stroke-width="{cell * 0.08:.1f}" stroke-linecap="round" '
            f'stroke-linejoin="round" opacity="0.75"/>'
        )
    r = cell * 0.38
    for sq in sorted(pieces):
        piece = pieces[sq]
        col, row = square_xy(sq, flipped=flipped)
        cx, cy = (col + 0.5) * cell, (row + 0.5) * cell + cell * 0.03
        fill, stroke = _PIECES[piece.lower()]
        king = piece.isupper()
        name = _NAMES[piece]
        cls = name.replace(" ", "-")
        out.append(f'<g class="piece {cls}" data-square="{sq}"><title>{name} on {sq}</title>')
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{cell * 0.04:.1f}"/>'
        )
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.68:.1f}" fill="none" '
            f'stroke="{stroke if piece.islower() else "#8a8a8a"}" '
            f'stroke-width="{cell * 0.02:.1f}"/>'
        )
        if king:
            accent = "#c9a227"
            out.append(
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.86:.1f}" fill="none" '
                f'stroke="{accent}" stroke-width="{cell * 0.05:.1f}"/>'
            )
            out.append(_crown(cx, cy, r, accent))
        out.append("</g>")
    for sq in captured:
        col, row = square_xy(sq, flipped=flipped)
        cx, cy, d = (col + 0.5) * cell, (row + 0.5) * cell, cell * 0.18
        out.append(
            f'<path class="captured" data-square="{sq}" d="M{cx - d:.1f},{cy - d:.1f} '
            f'L{cx + d:.1f},{cy + d:.1f} M{cx - d:.1f},{cy + d:.1f} L{cx + d:.1f},{cy - d:.1f}" '
            f'stroke="{_CAPTURED}" stroke-width="{cell * 0.06:.1f}" stroke-linecap="round"/>'
        )
    out.append(
        f'<rect x="0" y="0" width="{size}" height="{size}" fill="none" stroke="#3b2a1a" '
        f'stroke-width="2"/>'
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
