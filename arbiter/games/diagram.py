"""The board diagram of a game as SVG (rules.svg draws it; this reads the game's position)."""

from __future__ import annotations

import re

from rules.svg import board_svg

_RANGE = re.compile(r"^(K?)(\d+)(?:-(\d+))?$")


def fen_pieces(fen: str) -> dict[int, str]:
    """{square: 'w'|'W'|'b'|'B'} of a PDN FEN such as "W:W31-50:BK1,2" (FMJD 2.3 numbering).

    Raises ValueError saying which part is wrong.
    """
    text = fen.strip().rstrip(".")
    parts = [p.strip() for p in text.split(":")]
    if not parts or parts[0] not in {"W", "B"}:
        raise ValueError(f"FEN {fen!r} must start with the side to move, W or B")
    pieces: dict[int, str] = {}
    for part in parts[1:]:
        if not part:
            continue
        colour, body = part[0], part[1:]
        if colour not in {"W", "B"}:
            raise ValueError(f"FEN {fen!r}: piece list {part!r} must start with W or B")
        for item in filter(None, (x.strip() for x in body.split(","))):
            match = _RANGE.match(item)
            if not match:
                raise ValueError(f"FEN {fen!r}: {item!r} is not a square, a range or K+square")
            king, first, last = match.group(1), int(match.group(2)), match.group(3)
            for square in range(first, int(last or first) + 1):
                if not 1 <= square <= 50:
                    raise ValueError(f"FEN {fen!r}: square {square} is not on the board (1-50)")
                piece = colour.lower()
                pieces[square] = piece.upper() if king else piece
    return pieces


def game_svg(fen: str, *, last_move: str | None = None, flipped: bool = False, size=480) -> str:
    """The diagram of `fen`, with `last_move` (PDN text) marked."""
    return board_svg(fen_pieces(fen), last_move=last_move or None, flipped=flipped, size=size)
