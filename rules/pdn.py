"""PDN 3.0 for international draughts: a tolerant reader and a canonical writer.

Reading has two stages:

1. `parse_games(text)` cuts the text into games (tag pairs, movetext with move numbers,
   `{}` comments, `;` and `%` line comments, nested `()` variations, NAGs, move strength,
   results) without knowing the rules.
2. `replay_game(game)` plays the main line on the engine (FMJD art. 3 and 4): incomplete
   capture paths are matched as an ordered subsequence of landing squares, and an ambiguous
   short capture (FMJD 8.2 notation) is resolved by trying the candidates until the rest of
   the game replays (bounded backtracking), reported as a warning naming the ply.

`read_games(text_or_bytes, source=...)` does both. It never raises on bad content: every
game carries its `warnings` and, when something could not be read, one `PdnError` saying
the file, game index, line:column, ply, move text and the legal moves; the reader goes on
with the next game.

The writer (`write_game`) produces canonical PDN: the seven-tag roster adapted to draughts,
GameType "20", a FEN tag when the game does not start from the initial position, moves in
the engine's notation (short unless ambiguous), movetext lines of at most 80 characters,
results in the `2-0 / 1-1 / 0-2` form (FMJD 7: a win scores 2, a draw 1).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import AmbiguousMove, IllegalMove, RulesError
from .game import Game
from .position import Position

__all__ = [
    "ClockReading",
    "PdnError",
    "PdnGame",
    "PdnMove",
    "decode_pdn",
    "format_clock",
    "normalize_result",
    "parse_clock",
    "parse_games",
    "read_file",
    "read_games",
    "replay_file",
    "replay_game",
    "write_game",
    "write_games",
]

# --------------------------------------------------------------------------- errors


class PdnError(ValueError):
    """A game (or part of one) that could not be read: what, where and why.

    Attributes say where: `source` (file name or None), `game_index` (1-based),
    `line` and `column` (1-based, in the decoded text), `ply` (1-based, the half-move that
    failed, None for a syntax error outside the moves), `move_text` (as written), `legal`
    (the legal moves in PDN at that point) and `reason`.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        game_index: int | None = None,
        line: int | None = None,
        column: int | None = None,
        ply: int | None = None,
        move_text: str | None = None,
        legal: list[str] | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.game_index = game_index
        self.line = line
        self.column = column
        self.ply = ply
        self.move_text = move_text
        self.legal = list(legal) if legal is not None else None
        super().__init__(self._message())

    def _message(self) -> str:
        where = []
        if self.source:
            where.append(str(self.source))
        if self.game_index is not None:
            where.append(f"game {self.game_index}")
        if self.line is not None:
            where.append(f"line {self.line}:{self.column or 1}")
        if self.ply is not None:
            where.append(f"ply {self.ply}")
        text = ", ".join(where)
        if self.move_text is not None:
            text += f" ({self.move_text!r})" if text else repr(self.move_text)
        msg = f"{text}: {self.reason}" if text else self.reason
        if self.legal is not None:
            shown = ", ".join(self.legal[:40]) if self.legal else "none"
            if len(self.legal) > 40:
                shown += f", ... ({len(self.legal)} in all)"
            msg += f"; legal moves: {shown}"
        return msg

    def located(self, *, source: str | None = None, game_index: int | None = None) -> PdnError:
        """The same error with the file name and game index filled in."""
        if source is not None:
            self.source = source
        if game_index is not None:
            self.game_index = game_index
        self.args = (self._message(),)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": str(self),
            "reason": self.reason,
            "source": self.source,
            "game_index": self.game_index,
            "line": self.line,
            "column": self.column,
            "ply": self.ply,
            "move_text": self.move_text,
            "legal": self.legal,
        }


# --------------------------------------------------------------------------- data


@dataclass
class ClockReading:
    """Clock data from a move comment, in integer milliseconds.

    `[%clock w0:00:10 B0:00:03]` gives both clocks (the upper-case letter marks the clock
    that is running); `[%clk 1:55:21]` gives the clock of the side that just moved
    (`mover`).
    """

    white_ms: int | None = None
    black_ms: int | None = None
    running: str | None = None  # "white" / "black" (the upper-case letter in %clock)
    mover_ms: int | None = None  # %clk: the remaining time of the side that made the move

    def to_dict(self) -> dict[str, Any]:
        return {
            "white_ms": self.white_ms,
            "black_ms": self.black_ms,
            "running": self.running,
            "mover_ms": self.mover_ms,
        }


@dataclass
class PdnMove:
    """One move as written in the movetext, with what is attached to it."""

    text: str  # normalised: no spaces, no leading zeros, ':' -> 'x'
    raw: str  # exactly as written
    line: int
    column: int
    number: int | None = None  # the move number written before it, if any
    black_number: bool = False  # written "n..." (a Black move)
    strength: str | None = None  # '!', '?', '!!', '??', '!?', '?!', '(!?)'; FMJD 9.1 '+'
    nags: list[int] = field(default_factory=list)
    comments_before: list[str] = field(default_factory=list)  # only before a line's first move
    comments: list[str] = field(default_factory=list)  # after the move
    variations: list[list[PdnMove]] = field(default_factory=list)  # alternatives to this move
    commands: dict[str, str] = field(default_factory=dict)  # [%name value] from comments
    clock: ClockReading | None = None
    readable: bool = True  # False for a word that is not a move (reported at replay)
    move: Any = None  # the engine's Move once replayed (variations too, when legal)
    notation: str | None = None  # the engine's notation of `move` (short unless ambiguous)

    def __repr__(self) -> str:
        return f"PdnMove({self.text!r} at {self.line}:{self.column})"


@dataclass
class PdnGame:
    """One game of a PDN file: tags, main line (with comments and variations), result."""

    index: int = 1  # 1-based position in the file
    source: str | None = None
    line: int = 1  # where the game starts
    tags: dict[str, str] = field(default_factory=dict)
    moves: list[PdnMove] = field(default_factory=list)  # the main line
    comments: list[str] = field(default_factory=list)  # before the first move
    terminator: str | None = None  # the result token that ended the movetext, as written
    setups: list[tuple[int, str]] = field(default_factory=list)  # /FEN "..."/ (ply, fen)
    tag_places: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> line, col
    warnings: list[str] = field(default_factory=list)
    error: PdnError | None = None
    # Filled by replay_game:
    start_fen: str | None = None
    positions: list[Any] = field(default_factory=list)  # positions[0] = start, one per ply
    replayed: bool = False

    # ---- derived facts

    @property
    def result(self) -> str:
        """The result in the `2-0` form (from the Result tag, else the terminator).

        A result that is not PDN (e.g. `1-9`) is returned as written.
        """
        for raw in (self.tags.get("Result"), self.terminator):
            if raw is None or raw.strip() in ("", "?"):
                continue
            norm = normalize_result(raw)
            return norm if norm is not None else raw.strip()
        return "*"

    @property
    def plies(self) -> int:
        """Half-moves replayed on the engine (all of the main line unless there is an error)."""
        return max(len(self.positions) - 1, 0)

    @property
    def position(self) -> Any:
        """The last position reached by the replay (None before replay or without a start)."""
        return self.positions[-1] if self.positions else None

    @property
    def fen(self) -> str | None:
        pos = self.position
        return pos.fen() if pos is not None else None

    @property
    def engine_moves(self) -> list[Any]:
        return [m.move for m in self.moves[: self.plies]]

    def to_game(self) -> Any:
        """An engine `Game` holding the replayed moves (draw-rule counters included)."""
        game = Game(self.start_fen) if self.start_fen else Game()
        for move in self.engine_moves:
            game.push(move)
        return game

    def summary(self) -> dict[str, Any]:
        """What `python -m rules replay --json` prints for this game."""
        return {
            "index": self.index,
            "plies": self.plies,
            "fen": self.fen,
            "result": self.result,
            "warnings": list(self.warnings),
            "error": str(self.error) if self.error else None,
        }

    @classmethod
    def from_moves(
        cls,
        moves: Iterable[Any],
        *,
        start_fen: str | None = None,
        tags: dict[str, str] | None = None,
        clocks: Iterable[ClockReading | None] | None = None,
    ) -> PdnGame:
        """A record of engine moves (e.g. a finished game) ready for `write_game`.

        `clocks`, if given, holds one `ClockReading` (or None) per move: the clocks after
        that move, written as a `[%clock ...]` (or `[%clk ...]`) comment.
        """
        start = Position.from_fen(start_fen) if start_fen else Position.start()
        game = cls(tags=dict(tags or {}))
        game.start_fen = start.fen()
        game.positions = [start]
        pos = start
        readings = list(clocks) if clocks is not None else []
        for i, move in enumerate(moves):
            if isinstance(move, str):
                move = pos.parse_move(move)
            text = pos.move_text(move)
            game.moves.append(
                PdnMove(
                    text=text,
                    raw=text,
                    line=0,
                    column=0,
                    move=move,
                    notation=text,
                    clock=readings[i] if i < len(readings) else None,
                )
            )
            pos = pos.play(move)
            game.positions.append(pos)
        game.replayed = True
        return game

    @classmethod
    def from_game(
        cls,
        game: Any,
        *,
        tags: dict[str, str] | None = None,
        clocks: Iterable[ClockReading | None] | None = None,
    ) -> PdnGame:
        """A record of an engine `Game` (its start position and moves)."""
        return cls.from_moves(game.moves, start_fen=game.start_fen, tags=tags, clocks=clocks)


# --------------------------------------------------------------------------- results

_RESULTS = {
    "2-0": "2-0",
    "1-0": "2-0",
    "0-2": "0-2",
    "0-1": "0-2",
    "1-1": "1-1",
    "1/2-1/2": "1-1",
    "½-½": "1-1",
    "0-0": "0-0",
    "*": "*",
}


def normalize_result(text: str | None) -> str | None:
    """`1-0` -> `2-0`, `0-1` -> `0-2`, `1/2-1/2` -> `1-1`; `2-0 1-1 0-2 0-0 *` unchanged.

    None for anything else (a non-standard result such as `1-9`).
    """
    if text is None:
        return None
    return _RESULTS.get(text.strip().replace(" ", ""))


# --------------------------------------------------------------------------- decoding


def decode_pdn(data: bytes | str) -> str:
    """Text of a PDN file: UTF-8 (with or without BOM), UTF-16 with a BOM, else Latin-1;
    line ends made `\\n`."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        if raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        text = None
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with its BOM (Windows tools)
            try:
                text = raw.decode("utf-16")
            except UnicodeDecodeError:
                text = None
        if text is None:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
    else:
        text = data
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


# --------------------------------------------------------------------------- lexer

# Deeper variations are dropped with a warning: reading, replaying and writing them
# recurse once per level, and no real game nests anywhere near this.
MAX_VARIATION_DEPTH = 100

# Token kinds
TAG = "tag"
COMMENT = "comment"
LPAREN = "("
RPAREN = ")"
NUMBER = "number"
MOVE = "move"
ELLIPSIS = "ellipsis"
STRENGTH = "strength"
NAG = "nag"
RESULT = "result"
SETUP = "setup"
WORD = "word"  # anything else: reported where it stands in the main line
BAD = "bad"  # a syntax error the lexer found (unclosed comment, malformed tag)


@dataclass(slots=True)
class Token:
    kind: str
    text: str  # as written
    offset: int
    value: Any = None


_SPACE = re.compile(r"[\s\u00a0\ufeff]+")
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
# Tolerated: a tag whose value has stray quotes, or no quotes, on one line.
_TAG_LOOSE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*(?:"(.*)"|([^\]\n"]*))[ \t]*\]')
_RESULT = re.compile(r"(?:1/2-1/2|½-½|2-0|0-2|1-1|1-0|0-1|0-0|\*)(?![\w/\-x:])")
_NUMBER = re.compile(r"(\d{1,4})[ \t]*(\.\.\.|\.\.|\.|…)")
_MOVE = re.compile(r"(\d{1,2})(?:[ \t]*[-x:×][ \t]*\d{1,2})+(?![\d])")
_ELLIPSIS = re.compile(r"\.\.\.|…")
_STRENGTH = re.compile(r"\([!?]+\)|[!?]+")
_NAG = re.compile(r"\$(\d{1,4})")
_SETUP = re.compile(r"/([^/\n]*)/")
_WORD = re.compile(r"[^\s\[\]{}()]+")
_FMJD_SIGNS = frozenset({"+", "=", "+1", "-1", "a.l.", "+-", "-+", "±", "∓", "#"})
_PUNCTUATION = re.compile(r"[.,;:]+")
_SQUARES = re.compile(r"\d+")
_SEPARATORS = re.compile(r"[-x:×]")


_CANONICAL_MOVE = re.compile(r"[1-9]\d?(?:-[1-9]\d?)+|[1-9]\d?(?:x[1-9]\d?)+")
# A move number, or a move: one match for the usual case of a token starting with a digit.
_NUMBER_OR_MOVE = re.compile(
    r"(\d{1,4})[ \t]*(\.\.\.|\.\.|\.|…)|\d{1,2}(?:[ \t]*[-x:×][ \t]*\d{1,2})+(?!\d)"
)


def _normalize_move(raw: str) -> str:
    if _CANONICAL_MOVE.fullmatch(raw):
        return raw
    squares = [str(int(s)) for s in _SQUARES.findall(raw)]
    seps = ["x" if s in "x:×" else "-" for s in _SEPARATORS.findall(raw)]
    sep = "x" if "x" in seps else "-"
    return sep.join(squares)


def tokenize(text: str) -> Iterator[Token]:
    """Tokens of decoded PDN text (see `decode_pdn`). Never raises: a syntax error is a
    `BAD` token whose value is the reason."""
    pos = 0
    n = len(text)
    while pos < n:
        ch = text[pos]
        if ch.isspace() or ch in "\u00a0\ufeff":
            pos = _SPACE.match(text, pos).end()
            continue
        if "0" <= ch <= "9":  # the common case first: a move number, a move or a result
            m = _RESULT.match(text, pos) if ch in "012" else None
            if m:
                yield Token(RESULT, m.group(0), pos, m.group(0))
                pos = m.end()
                continue
            m = _NUMBER_OR_MOVE.match(text, pos)
            if m:
                if m.group(1) is not None:
                    dots = m.group(2)
                    value = (int(m.group(1)), dots in ("...", "..", "…"))
                    yield Token(NUMBER, m.group(0), pos, value)
                else:
                    raw = m.group(0)
                    yield Token(MOVE, raw, pos, _normalize_move(raw))
                pos = m.end()
                continue
        if ch == "%" and (pos == 0 or text[pos - 1] == "\n"):
            # PDN escape mechanism: a line starting with '%' is ignored.
            end = text.find("\n", pos)
            pos = n if end < 0 else end
            continue
        if ch == ";":
            end = text.find("\n", pos)
            end = n if end < 0 else end
            yield Token(COMMENT, text[pos:end], pos, text[pos + 1 : end].strip())
            pos = end
            continue
        if ch == "{":
            depth, i = 0, pos
            while i < n:
                c = text[i]
                if c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            if i >= n:
                yield Token(BAD, text[pos:], pos, "comment opened here is never closed with '}'")
                return
            body = text[pos + 1 : i]
            yield Token(COMMENT, text[pos : i + 1], pos, body.strip())
            pos = i + 1
            continue
        if ch == "}":
            yield Token(BAD, ch, pos, "'}' without an opening '{'")
            pos += 1
            continue
        if ch == "[":
            m = _TAG.match(text, pos)
            if m:
                value = re.sub(r"\\(.)", r"\1", m.group(2))
                yield Token(TAG, m.group(0), pos, (m.group(1), value))
                pos = m.end()
                continue
            m = _TAG_LOOSE.match(text, pos)
            if m:
                value = m.group(2) if m.group(2) is not None else (m.group(3) or "").strip()
                yield Token(TAG, m.group(0), pos, (m.group(1), value, "loose"))
                pos = m.end()
                continue
            end = text.find("\n", pos)
            end = n if end < 0 else end
            yield Token(BAD, text[pos:end], pos, 'malformed tag pair (expected [Name "value"])')
            pos = end
            continue
        if ch == "]":
            yield Token(BAD, ch, pos, "']' without an opening '['")
            pos += 1
            continue
        if ch == "(":
            m = _STRENGTH.match(text, pos)
            if m and m.group(0).startswith("("):
                yield Token(STRENGTH, m.group(0), pos, m.group(0))
                pos = m.end()
                continue
            yield Token(LPAREN, ch, pos)
            pos += 1
            continue
        if ch == ")":
            yield Token(RPAREN, ch, pos)
            pos += 1
            continue
        if ch == "$":
            m = _NAG.match(text, pos)
            if m:
                yield Token(NAG, m.group(0), pos, int(m.group(1)))
                pos = m.end()
                continue
        if ch in "!?":
            m = _STRENGTH.match(text, pos)
            yield Token(STRENGTH, m.group(0), pos, m.group(0))
            pos = m.end()
            continue
        if ch == "/":
            m = _SETUP.match(text, pos)
            if m and "FEN" in m.group(1).upper():
                inner = m.group(1)
                q = re.search(r'"([^"]*)"', inner)
                yield Token(SETUP, m.group(0), pos, (q.group(1) if q else inner).strip())
                pos = m.end()
                continue
        m = _RESULT.match(text, pos)
        if m:
            yield Token(RESULT, m.group(0), pos, m.group(0))
            pos = m.end()
            continue
        m = _NUMBER.match(text, pos)
        if m:
            dots = m.group(2)
            yield Token(NUMBER, m.group(0), pos, (int(m.group(1)), dots in ("...", "..", "…")))
            pos = m.end()
            continue
        m = _MOVE.match(text, pos)
        if m:
            raw = m.group(0)
            yield Token(MOVE, raw, pos, _normalize_move(raw))
            pos = m.end()
            continue
        m = _ELLIPSIS.match(text, pos)
        if m:
            yield Token(ELLIPSIS, m.group(0), pos)
            pos = m.end()
            continue
        m = _WORD.match(text, pos)
        word = m.group(0) if m else ch
        if _PUNCTUATION.fullmatch(word):
            yield Token(BAD, word, pos, f"stray {word!r} in the movetext")
        else:
            yield Token(WORD, word, pos, word)
        pos += len(word)


# --------------------------------------------------------------------------- parser

_COMMAND = re.compile(r"\[%(\w+)\s*([^\]]*)\]")
_TIME = re.compile(r"(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)|(\d+(?:\.\d+)?)")


def _time_ms(text: str) -> int | None:
    m = _TIME.fullmatch(text.strip())
    if not m:
        return None
    if m.group(4) is not None:
        return round(float(m.group(4)) * 1000)
    hours = int(m.group(1) or 0)
    minutes = int(m.group(2))
    seconds = float(m.group(3))
    return round(((hours * 60 + minutes) * 60 + seconds) * 1000)


def parse_clock(commands: dict[str, str]) -> ClockReading | None:
    """`%clock w0:00:10 B0:00:03` and `%clk 1:55:21` as a `ClockReading` (None if absent
    or unreadable)."""
    reading = ClockReading()
    found = False
    if "clock" in commands:
        for part in commands["clock"].split():
            side, value = part[:1], part[1:]
            ms = _time_ms(value)
            if side.lower() not in ("w", "b") or ms is None:
                continue
            found = True
            if side.lower() == "w":
                reading.white_ms = ms
            else:
                reading.black_ms = ms
            if side.isupper():
                reading.running = "white" if side.lower() == "w" else "black"
    if "clk" in commands:
        ms = _time_ms(commands["clk"])
        if ms is not None:
            reading.mover_ms = ms
            found = True
    return reading if found else None


def _attach_commands(moves: list[PdnMove]) -> None:
    """Read `[%name value]` commands (clock readings among them) out of move comments."""
    for move in moves:
        for comment in move.comments:
            for m in _COMMAND.finditer(comment):
                move.commands[m.group(1)] = m.group(2).strip()
        if "clock" in move.commands or "clk" in move.commands:
            move.clock = parse_clock(move.commands)
        for var in move.variations:
            _attach_commands(var)


def _format_time(ms: int) -> str:
    ms = max(0, int(ms))
    seconds, milli = divmod(ms, 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}"
    if milli:
        text += f".{milli:03d}".rstrip("0")
    return text


def format_clock(reading: ClockReading) -> str:
    """The PDN comment command for a clock reading: `[%clock w0:05:00 B0:04:59]` when both
    clocks are known (upper case: the clock that runs), else `[%clk 1:55:21]`."""
    if reading.white_ms is not None or reading.black_ms is not None:
        parts = []
        for side, ms in (("w", reading.white_ms), ("b", reading.black_ms)):
            if ms is None:
                continue
            running = reading.running == ("white" if side == "w" else "black")
            parts.append(f"{side.upper() if running else side}{_format_time(ms)}")
        return f"[%clock {' '.join(parts)}]"
    if reading.mover_ms is not None:
        return f"[%clk {_format_time(reading.mover_ms)}]"
    return ""


class _Line:
    """A line of moves being built (the main line or a variation)."""

    __slots__ = ("moves", "pending_comments", "pending_number", "variations_before")

    def __init__(self) -> None:
        self.moves: list[PdnMove] = []
        self.pending_comments: list[str] = []
        self.pending_number: tuple[int, bool] | None = None
        self.variations_before: list[list[PdnMove]] = []


class _Parser:
    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def games(self) -> list[PdnGame]:
        games: list[PdnGame] = []
        game: PdnGame | None = None
        stack: list[_Line] = []
        has_body = False
        loose: list[Token] = []  # comments and stray tokens between games
        skipped = 0  # open '(' inside a variation nested too deep (dropped, with a warning)

        def new_game(offset: int) -> PdnGame:
            g = PdnGame(index=len(games) + 1, source=self.source, line=self.where(offset)[0])
            games.append(g)
            for t in loose:
                if t.kind == COMMENT:
                    g.comments.append(t.value)
                else:
                    self._stray(g, t)
            loose.clear()
            return g

        def finish(g: PdnGame, offset: int) -> None:
            if len(stack) > 1:
                line, col = self.where(offset)
                g.warnings.append(
                    f"line {line}:{col}: {len(stack) - 1} variation(s) not closed with ')'"
                )
                while len(stack) > 1:
                    self._close_variation(stack)
            main = stack[0]
            if main.moves and main.moves[0].comments_before:
                g.comments.extend(main.moves[0].comments_before)
                main.moves[0].comments_before = []
            if main.pending_comments:
                target = main.moves[-1].comments if main.moves else g.comments
                target.extend(main.pending_comments)
            for var in main.variations_before:
                g.warnings.append(
                    "a variation before the first move has no move to be an alternative "
                    "to; kept as a comment"
                )
                g.comments.append("(" + " ".join(m.raw for m in var) + ")")
            g.moves = main.moves
            self._after_game(g)
            if g.terminator is None and offset < len(self.text):
                line, col = self.where(offset)
                what = "game" if g.moves else "game without movetext"
                g.warnings.append(
                    f"line {line}:{col}: {what} not terminated by a result or '*' "
                    "before the next tag pairs"
                )

        for tok in tokenize(self.text):
            kind = tok.kind
            if kind == TAG:
                if game is not None and (has_body or tok.value[0] in game.tags):
                    # Movetext, or a tag seen already (a game with no movetext and no
                    # terminator): these tags begin the next game.
                    finish(game, tok.offset)
                    game = None
                if game is None:
                    game = new_game(tok.offset)
                    stack = [_Line()]
                    has_body = False
                    skipped = 0
                name, value = tok.value[0], tok.value[1]
                if len(tok.value) > 2:
                    self._warn(game, tok, f"malformed tag pair {tok.text!r} read as {name}")
                game.tags[name] = value
                game.tag_places[name] = self.where(tok.offset)
                continue
            if game is None:
                if kind in (COMMENT, BAD, RPAREN, STRENGTH, NAG, ELLIPSIS):
                    loose.append(tok)
                    continue
                game = new_game(tok.offset)
                stack = [_Line()]
                has_body = False
                skipped = 0
            if skipped:  # inside a dropped variation: only count its parentheses
                skipped += (kind == LPAREN) - (kind == RPAREN)
                continue
            if kind == LPAREN and len(stack) > MAX_VARIATION_DEPTH:
                self._warn(
                    game, tok, f"variation nested more than {MAX_VARIATION_DEPTH} deep ignored"
                )
                skipped = 1
                continue
            if kind == RESULT and len(stack) == 1:
                game.terminator = tok.value
                finish(game, tok.offset)
                game = None
                continue
            if kind != COMMENT:
                has_body = True
            self._body_token(game, stack, tok)
        if game is not None:
            finish(game, len(self.text))
        if loose and games:
            last = games[-1]
            for t in loose:
                if t.kind == COMMENT:
                    (last.moves[-1].comments if last.moves else last.comments).append(t.value)
                else:
                    self._stray(last, t)
        return games

    def _stray(self, game: PdnGame, tok: Token) -> None:
        if tok.kind == BAD:
            self._warn(game, tok, f"{tok.value}; ignored")
        elif tok.kind != ELLIPSIS:
            self._warn(game, tok, f"{tok.text!r} outside any game ignored")

    def _close_variation(self, stack: list[_Line]) -> None:
        var = stack.pop()
        parent = stack[-1]
        if var.pending_comments and var.moves:
            var.moves[-1].comments.extend(var.pending_comments)
        if not var.moves:
            if var.pending_comments:
                # A comment-only variation: keep its words as a comment of the parent.
                target = parent.moves[-1].comments if parent.moves else parent.pending_comments
                target.append("(" + " ".join(var.pending_comments) + ")")
            return
        if parent.moves:
            parent.moves[-1].variations.append(var.moves)
        else:
            parent.variations_before.append(var.moves)

    def _body_token(self, game: PdnGame, stack: list[_Line], tok: Token) -> None:
        line = stack[-1]
        kind = tok.kind
        if kind == COMMENT:
            if tok.value:
                if line.moves:
                    line.moves[-1].comments.append(tok.value)
                else:
                    line.pending_comments.append(tok.value)
            return
        if kind == NUMBER:
            line.pending_number = tok.value
            return
        if kind == ELLIPSIS:
            if line.pending_number is not None:
                line.pending_number = (line.pending_number[0], True)
            # else: "..." for an unknown move; nothing to play.
            return
        if kind == WORD and tok.text in _FMJD_SIGNS and line.moves:
            # FMJD 9.1 signs after a move ('+' winning, '=' equal, 'a.l.' ad libitum...).
            last = line.moves[-1]
            last.strength = (last.strength or "") + tok.text
            return
        if kind in (MOVE, WORD):
            ln, col = self.where(tok.offset)
            text = tok.value if kind == MOVE else tok.text
            move = PdnMove(text=text, raw=tok.text, line=ln, column=col)
            if line.pending_number is not None:
                move.number, move.black_number = line.pending_number
                line.pending_number = None
            if line.pending_comments:
                if line.moves:
                    line.moves[-1].comments.extend(line.pending_comments)
                else:
                    move.comments_before.extend(line.pending_comments)
                line.pending_comments = []
            if kind == WORD:
                move.readable = False
            line.moves.append(move)
            return
        if kind == STRENGTH:
            if line.moves:
                line.moves[-1].strength = tok.value
            else:
                self._warn(game, tok, f"move strength {tok.text!r} before any move ignored")
            return
        if kind == NAG:
            if line.moves:
                line.moves[-1].nags.append(tok.value)
            else:
                self._warn(game, tok, f"NAG {tok.text!r} before any move ignored")
            return
        if kind == LPAREN:
            line.pending_number = None
            stack.append(_Line())
            return
        if kind == RPAREN:
            if len(stack) > 1:
                self._close_variation(stack)
                stack[-1].pending_number = None
            else:
                self._warn(game, tok, "')' without an opening '(' ignored")
            return
        if kind == RESULT:  # inside a variation: the variation's own ending
            return
        if kind == SETUP:
            if len(stack) == 1:
                game.setups.append((len(line.moves), tok.value))
            return
        if kind == BAD:
            ln, col = self.where(tok.offset)
            if tok.text.startswith("{"):
                # An unclosed comment swallows the rest of the file: the game cannot be
                # trusted past this point.
                if game.error is None:
                    game.error = PdnError(tok.value, line=ln, column=col)
                return
            game.warnings.append(f"line {ln}:{col}: {tok.value}; ignored")
            return

    def _warn(self, game: PdnGame, tok: Token, msg: str) -> None:
        ln, col = self.where(tok.offset)
        game.warnings.append(f"line {ln}:{col}: {msg}")

    def _after_game(self, game: PdnGame) -> None:
        _attach_commands(game.moves)
        # A non-standard result written as the last "move", e.g. "1-9" or "4-6"
        # (delfts.pdn): it matches the Result tag, so it is the terminator.
        if game.terminator is None and game.moves:
            last = game.moves[-1]
            tag = game.tags.get("Result", "").strip()
            if (
                re.fullmatch(r"\d+-\d+", last.raw.strip())
                and last.raw.strip() == tag
                and not last.variations
                and last.number is None
            ):
                game.moves.pop()
                game.terminator = tag
                if last.comments:
                    (game.moves[-1].comments if game.moves else game.comments).extend(last.comments)
        # Result checks.
        tag = game.tags.get("Result")
        if tag is not None and tag.strip() not in ("", "?") and normalize_result(tag) is None:
            game.warnings.append(f"non-standard result {tag.strip()!r} in the Result tag")
        if (
            game.terminator is not None
            and normalize_result(game.terminator) is None
            and (tag is None or game.terminator.strip() != tag.strip())
        ):
            game.warnings.append(f"non-standard result {game.terminator!r} ends the moves")
        if (
            tag is not None
            and game.terminator not in (None, "*")
            and normalize_result(tag) not in (None, "*")
            and normalize_result(game.terminator) is not None
            and normalize_result(tag) != normalize_result(game.terminator)
        ):
            game.warnings.append(
                f"the moves end with {game.terminator!r} but the Result tag says {tag!r}"
            )


def parse_games(data: bytes | str, *, source: str | None = None) -> list[PdnGame]:
    """Games of a PDN text (or bytes), not replayed: tags, main line, comments, variations."""
    text = decode_pdn(data)
    return _Parser(text, source).games()


# --------------------------------------------------------------------------- replay

_MAX_REPLAY_STEPS_FACTOR = 8  # bound on backtracking: steps <= factor * plies + 200


def _game_type_problem(game: PdnGame) -> str | None:
    gt = game.tags.get("GameType")
    if gt is None or not gt.strip():
        return None
    first = gt.split(",")[0].strip()
    if first != "20":
        return (
            f"GameType {gt!r} is not international draughts (20); "
            "only 10x10 FMJD games are replayed"
        )
    fields = [f.strip() for f in gt.split(",")]
    if len(fields) >= 4 and (fields[2], fields[3]) not in (("10", "10"), ("", "")):
        return f"GameType {gt!r} gives a board that is not 10x10"
    return None


def _start_fen(game: PdnGame) -> tuple[str | None, list[str]]:
    notes = []
    fen = game.tags.get("FEN")
    if fen is None:
        return None, notes
    fen = fen.strip()
    if fen.endswith("."):
        fen = fen[:-1].rstrip()
    if fen.startswith("?"):
        notes.append(f"FEN {game.tags['FEN']!r} does not say who is to move; White assumed")
        fen = "W" + fen[1:]
    setup = game.tags.get("SetUp")
    if setup is not None and setup.strip() == "0":
        notes.append('SetUp "0" with a FEN tag: the FEN tag is used')
    return fen, notes


def _expected_number(ply: int, white_first: bool) -> tuple[int, bool]:
    """(move number, is Black) of the 0-based ply in a game whose first mover is given."""
    if white_first:
        return ply // 2 + 1, ply % 2 == 1
    return (ply + 1) // 2 + 1, ply % 2 == 0


def _candidates(pos: Any, text: str, exc: Any) -> list[Any]:
    """The legal moves an ambiguous text may stand for, in a stable order."""
    out = []
    for cand in getattr(exc, "candidates", None) or []:
        try:
            m = cand if not isinstance(cand, str) else pos.parse_move(cand)
        except IllegalMove:
            continue
        if m not in out:
            out.append(m)
    if len(out) >= 2:
        return out
    # Fallback: match the landing squares as an ordered subsequence of each route.
    squares = [int(s) for s in _SQUARES.findall(text)]
    found = []
    for m in pos.legal_moves():
        path = list(m.path)
        if not squares or path[0] != squares[0] or path[-1] != squares[-1]:
            continue
        it = iter(path[1:-1])
        if all(any(s == p for p in it) for s in squares[1:-1]):
            found.append(m)
    return found


def replay_game(game: PdnGame) -> PdnGame:
    """Play the main line on the engine; fills positions, moves' `.move`, warnings, error.

    Returns the same object. Never raises for bad content (the error goes to `game.error`).
    """
    game.replayed = True
    game.positions = []
    problem = _game_type_problem(game)
    if problem:
        if game.error is None:
            line, col = game.tag_places.get("GameType", (game.line, 1))
            game.error = PdnError(
                problem, source=game.source, game_index=game.index, line=line, column=col
            )
        return game
    fen, notes = _start_fen(game)
    game.warnings.extend(notes)
    try:
        start = Position.from_fen(fen) if fen else Position.start()
    except RulesError as exc:
        line, col = game.tag_places.get("FEN", (game.line, 1))
        game.error = PdnError(
            f"bad FEN tag {game.tags.get('FEN')!r}: {exc}",
            source=game.source,
            game_index=game.index,
            line=line,
            column=col,
        )
        return game
    game.start_fen = start.fen()
    if game.setups:
        game.warnings.append(
            "a /FEN/ setup inside the movetext is kept but not replayed "
            f"(after ply {game.setups[0][0]})"
        )

    moves = game.moves
    n = len(moves)
    white_first = _white_to_move(start)
    positions = [start]
    chosen: list[Any] = []
    # Choice points for ambiguous captures: ply -> (candidates, index being tried).
    choices: dict[int, tuple[list[Any], int]] = {}
    budget = _MAX_REPLAY_STEPS_FACTOR * n + 200
    deepest: tuple[int, Exception | None, list[Any], dict] | None = None
    ply = 0
    while ply < n:
        budget -= 1
        pos = positions[ply]
        mv = moves[ply]
        failure: Exception | None = None
        move = None
        if ply in choices:
            cands, k = choices[ply]
            move = cands[k]
        elif mv.readable:
            try:
                move = pos.parse_move(mv.text)
            except AmbiguousMove as exc:
                cands = _candidates(pos, mv.text, exc)
                if len(cands) >= 2:
                    choices[ply] = (cands, 0)
                    move = cands[0]
                elif cands:
                    move = cands[0]
                else:
                    failure = exc
            except (RulesError, ValueError) as exc:
                failure = exc
        if move is not None:
            del chosen[ply:]
            chosen.append(move)
            del positions[ply + 1 :]
            positions.append(pos.play(move))
            ply += 1
            continue
        # This ply failed: remember the deepest failure, then backtrack if possible
        # (FMJD 8.2 notation: only one of the candidates may let the game go on).
        if deepest is None or ply > deepest[0]:
            deepest = (ply, failure, list(chosen[:ply]), dict(choices))
        back = next(
            (
                p
                for p in sorted(choices, reverse=True)
                if p < ply and choices[p][1] + 1 < len(choices[p][0])
            ),
            None,
        )
        if back is None or budget <= 0:
            break
        for p in [p for p in choices if p > back]:
            del choices[p]
        cands, k = choices[back]
        choices[back] = (cands, k + 1)
        ply = back
        del positions[back + 1 :]
        del chosen[back:]

    if ply < n:
        assert deepest is not None
        fail_ply, failure, chosen, choices = deepest
        choices = {p: c for p, c in choices.items() if p < fail_ply}
        positions = [start]
        for m in chosen:
            positions.append(positions[-1].play(m))
        mv = moves[fail_ply]
        pos = positions[fail_ply]
        legal = [pos.move_text(m) for m in sorted(pos.legal_moves())]
        reason = _failure_reason(mv, failure)
        if choices:
            reason += " (after trying every reading of the ambiguous captures before it)"
        if budget <= 0:
            reason += " (gave up: too many ambiguous combinations)"
        game.error = PdnError(
            reason,
            source=game.source,
            game_index=game.index,
            line=mv.line,
            column=mv.column,
            ply=fail_ply + 1,
            move_text=mv.raw,
            legal=legal,
        )
    game.positions = positions
    for i, m in enumerate(moves):
        m.move = chosen[i] if i < len(chosen) else None
        m.notation = positions[i].move_text(m.move) if m.move is not None else None
    for i, m in enumerate(moves[: len(chosen)]):
        for var in m.variations:
            _check_variation(game, positions[i], var)

    # Each ambiguous short capture on the path taken is reported, naming the ply.
    for p in sorted(choices):
        cands, k = choices[p]
        mv = moves[p]
        texts = [_full_path(m) for m in cands]
        if k > 0:
            how = f"with {' or '.join(texts[:k])} the rest of the game does not replay"
        elif game.error is not None:
            how = "the first candidate"
        elif len(choices) > 16:  # the check below replays the rest: keep it bounded
            how = "the rest of the game replays with it"
        elif _others_fail(positions, moves, p, cands, k):
            how = "the only candidate with which the rest of the game replays"
        else:
            how = "the rest of the game replays with more than one; the first was taken"
        game.warnings.append(
            f"ply {p + 1} (line {mv.line}:{mv.column}, {mv.raw!r}) is an ambiguous capture "
            f"({' or '.join(texts)}); played {texts[k]}: {how}"
        )
    # Incomplete capture paths (more than start and end, but not every landing square).
    for i, m in enumerate(chosen):
        mv = moves[i]
        written = len(_SQUARES.findall(mv.text))
        if m.is_capture and 2 < written < len(m.path):
            game.warnings.append(
                f"ply {i + 1} (line {mv.line}:{mv.column}, {mv.raw!r}): incomplete capture "
                f"path read as {_full_path(m)}"
            )
    # Move numbers as written vs. as counted (tolerated: the moves are played in order).
    base = _number_base(game)
    for i, mv in enumerate(moves[: len(chosen) + (1 if game.error else 0)]):
        if mv.number is None:
            continue
        number, black = _expected_number(i, white_first)
        number += base - 1
        if mv.number != number or (mv.black_number and not black):
            shown = f"{mv.number}{'...' if mv.black_number else '.'}"
            want = f"{number}{'...' if black else '.'}"
            game.warnings.append(
                f"ply {i + 1} (line {mv.line}:{mv.column}): move number {shown} where "
                f"{want} was expected"
            )
    return game


def _number_base(game: PdnGame) -> int:
    """The number of the first move: 1, or from a set-up position (FEN tag) the first
    number written, since a position may be set up in the middle of a game."""
    if game.tags.get("FEN") and game.moves and game.moves[0].number is not None:
        return max(1, game.moves[0].number)
    return 1


def _check_variation(game: PdnGame, start: Any, line: list[PdnMove]) -> None:
    """Play a variation from the position before the move it replaces (variations are not
    replayed into the main line). Fills `.move` / `.notation`; an illegal or ambiguous move
    is a warning, and the rest of that variation is kept as written."""
    pos = start
    for mv in line:
        for var in mv.variations:
            _check_variation(game, pos, var)
        if not mv.readable:
            game.warnings.append(
                f"variation at line {mv.line}:{mv.column}: cannot read {mv.raw!r} as a move; "
                "the variation is kept as written"
            )
            return
        try:
            move = pos.parse_move(mv.text)
        except AmbiguousMove as exc:
            game.warnings.append(
                f"variation at line {mv.line}:{mv.column}: {mv.raw!r} is an ambiguous capture "
                f"({' or '.join(exc.candidates)}); the variation is kept as written"
            )
            return
        except (RulesError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or str(exc)
            game.warnings.append(
                f"variation at line {mv.line}:{mv.column}: illegal move {mv.raw!r} "
                f"({reason}); the variation is kept as written"
            )
            return
        mv.move = move
        mv.notation = pos.move_text(move)
        pos = pos.play(move)


def _white_to_move(pos: Any) -> bool:
    turn = pos.turn
    return str(getattr(turn, "name", turn)).upper().startswith("W")


def _others_fail(
    positions: list[Any], moves: list[PdnMove], p: int, cands: list[Any], k: int
) -> bool:
    """Whether every other candidate fails to replay the rest of the game (plain replay,
    no further backtracking; used for the wording of the warning only)."""
    for j, cand in enumerate(cands):
        if j == k:
            continue
        pos = positions[p].play(cand)
        ok = True
        for mv in moves[p + 1 :]:
            try:
                pos = pos.play(pos.parse_move(mv.text))
            except (RulesError, ValueError):
                ok = False
                break
        if ok:
            return False
    return True


def _full_path(move: Any) -> str:
    sep = "x" if move.is_capture else "-"
    return sep.join(str(s) for s in move.path)


def _failure_reason(mv: PdnMove, failure: Exception | None) -> str:
    if not mv.readable:
        return f"cannot read {mv.raw!r} as a move"
    reason = getattr(failure, "reason", None) or (str(failure) if failure else "illegal move")
    return f"illegal move {mv.text}: {reason}"


def read_games(
    data: bytes | str, *, source: str | None = None, replay: bool = True
) -> list[PdnGame]:
    """Read every game of a PDN text or bytes, and (by default) replay it on the engine."""
    games = parse_games(data, source=source)
    for g in games:
        if g.error is not None:
            g.error.located(source=source, game_index=g.index)
        if replay and g.error is None:
            replay_game(g)
        elif replay:
            # A syntax error (unclosed comment): replay what was read before it.
            err = g.error
            g.error = None
            replay_game(g)
            if g.error is None:
                g.error = err
    return games


def read_file(path: str | Path, *, replay: bool = True) -> list[PdnGame]:
    """Read (and replay) every game of a PDN file; the file name goes into every error."""
    p = Path(path)
    return read_games(p.read_bytes(), source=p.name, replay=replay)


def replay_file(path: str | Path) -> list[PdnGame]:
    """The corpus entry point for benchmarks and the CLI: every game read and replayed."""
    return read_file(path, replay=True)


# --------------------------------------------------------------------------- writer

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DEFAULTS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
}
_OWN_TAGS = set(SEVEN_TAG_ROSTER) | {"GameType", "FEN", "SetUp"}
_MAX_LINE = 80


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _quote(value: str) -> str:
    value = " ".join(str(value).splitlines())  # a tag pair stays on one line
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _comment_words(text: str) -> list[str]:
    clean = text.replace("}", ")").replace("{", "(")
    words = clean.split()
    if not words:
        return ["{}"]
    words[0] = "{" + words[0]
    words[-1] = words[-1] + "}"
    return words


def _line_tokens(moves: list[PdnMove], start_ply: int, white_first: bool, base: int) -> list[str]:
    out: list[str] = []
    need_number = True
    for i, mv in enumerate(moves):
        ply = start_ply + i
        for c in mv.comments_before:
            out.extend(_comment_words(c))
            need_number = True
        number, black = _expected_number(ply, white_first)
        number += base - 1
        text = mv.notation or mv.text
        text += mv.strength or ""
        # The number and its move stay on one line.
        if not black:
            text = f"{number}. {text}"
        elif need_number:
            text = f"{number}... {text}"
        need_number = False
        out.append(text)
        out.extend(f"${n}" for n in mv.nags)
        for c in mv.comments:
            out.extend(_comment_words(c))
            need_number = True
        if mv.clock is not None and not ({"clock", "clk"} & set(mv.commands)):
            out.append("{" + format_clock(mv.clock) + "}")
            need_number = True
        for var in mv.variations:
            inner = _line_tokens(var, ply, white_first, base)
            if inner:
                inner[0] = "(" + inner[0]
                inner[-1] = inner[-1] + ")"
                out.extend(inner)
            need_number = True
    return out


def _wrap(tokens: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for tok in tokens:
        if not current:
            current = tok
        elif len(current) + 1 + len(tok) <= _MAX_LINE:
            current += " " + tok
        else:
            lines.append(current)
            current = tok
    if current:
        lines.append(current)
    return lines


def write_game(game: PdnGame) -> str:
    """Canonical PDN for one game (ends with a newline).

    Tags: the seven-tag roster (Event, Site, Date, Round, White, Black, Result) with `?`
    for unknowns, GameType (as read; "20" when absent), FEN when the start is not the initial position, then the
    other tags in their order. Movetext: numbered moves in the engine's notation where the
    game was replayed (as written otherwise), comments, NAGs, strength, variations; lines of
    at most 80 characters unless one comment word is longer; the result in the `2-0` form.
    """
    tags = dict(game.tags)
    for name in tags:
        if not _TAG_NAME.fullmatch(str(name)):
            raise ValueError(
                f"tag name {name!r} is not a PDN name (a letter, then letters, digits, _)"
            )
    result = game.result
    lines = []
    for name in SEVEN_TAG_ROSTER:
        value = tags.get(name)
        if name == "Result":
            value = result if normalize_result(result) is not None else "*"
        elif value is None or not value.strip():
            value = _DEFAULTS[name]
        lines.append(f"[{name} {_quote(value)}]")
    # GameType as read when there is one (never relabel another game as international
    # draughts), "20" otherwise
    game_type = str(tags.get("GameType") or "").strip() or "20"
    lines.append(f"[GameType {_quote(game_type)}]")
    start_fen = game.start_fen
    if start_fen is None and tags.get("FEN"):
        start_fen, _ = _start_fen(game)
    start = None
    if start_fen:
        try:
            start = Position.from_fen(start_fen)
        except Exception:  # noqa: BLE001 - an unreadable FEN tag is written without a start
            start = None
    if start is not None:
        if start.fen() != Position.start().fen():
            lines.append(f"[FEN {_quote(start.fen())}]")
    elif start_fen:
        lines.append(f"[FEN {_quote(start_fen)}]")
    if normalize_result(result) is None and result.strip() not in ("", "*"):
        tags.setdefault("ResultText", result)
    for name, value in tags.items():
        if name not in _OWN_TAGS:
            lines.append(f"[{name} {_quote(value)}]")

    white_first = _white_to_move(start) if start is not None else True
    tokens: list[str] = []
    for c in game.comments:
        tokens.extend(_comment_words(c))
    tokens.extend(_line_tokens(game.moves, 0, white_first, _number_base(game)))
    tokens.append(normalize_result(result) or "*")
    body = _wrap(tokens)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


def write_games(games: Iterable[PdnGame]) -> str:
    """Canonical PDN for several games, separated by blank lines."""
    return "\n".join(write_game(g) for g in games)
