"""Notation sheets (FMJD 8 and 10.2): a player's written record of a game, read, checked
against the rules and compared with another record.

A sheet is PDN movetext (tags allowed) or a plain list such as `1. 32-28 19-23 2. 28x19
14x23`, with the slips of hand-written sheets tolerated by the PDN reader (`32 - 28`,
`28x 19`, a missing move number, leading zeros, dashes typed as en or em dashes).

`check_sheet(text)` replays the sheet on the engine and says:
- the first move that is illegal or unreadable, with the position before it (FEN) and the
  legal moves there (`problem`);
- what it fixed with certainty (`fixes`): an incomplete capture path that only one capture
  completes, or a short capture that two captures match (FMJD 8.2 asks for every landing
  square then) when only one of them lets the rest of the sheet go on. When more than one
  does, the first is read and the note says it is not certain.

`align(a, b)` compares two records ply by ply (a sheet with the tablet's record or with the
opponent's sheet): the first ply that differs, each difference (a different move, a missing
or an extra move, two moves swapped) and a different result.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import AmbiguousMove, IllegalMove, RulesError
from .game import Game, Setup
from .pdn import normalize_result, read_games
from .position import Position

__all__ = [
    "Alignment",
    "Difference",
    "SheetCheck",
    "SheetFix",
    "SheetMove",
    "SheetProblem",
    "align",
    "check_sheet",
    "move_label",
]

MAX_SHEET_CHARS = 100_000
_NESTED_AMBIGUITY_DEPTH = 3  # bound on the look-ahead that resolves an ambiguous capture
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "X": "x", "\u00d7": "x"})
_SQUARES = re.compile(r"\d+")


def move_label(ply: int) -> str:
    """`1.` for ply 1 (White's first move), `1...` for ply 2: how a sheet numbers a ply."""
    return f"{(ply + 1) // 2}{'.' if ply % 2 else '...'}"


@dataclass
class SheetMove:
    ply: int
    written: str  # as on the sheet
    notation: str  # the engine's notation (short unless ambiguous, FMJD 8.2)
    fen_after: str
    clock: dict[str, Any] | None = None  # a `%clock` / `%clk` reading after the move
    comments: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "label": move_label(self.ply),
            "written": self.written,
            "notation": self.notation,
            "fen_after": self.fen_after,
            "clock": self.clock,
            "comments": self.comments,
        }


@dataclass
class SheetFix:
    """A move read otherwise than written, and why the reading is (or is not) certain."""

    ply: int
    written: str
    read_as: str
    kind: str  # "incomplete_capture" | "ambiguous_capture"
    certain: bool
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "label": move_label(self.ply),
            "written": self.written,
            "read_as": self.read_as,
            "kind": self.kind,
            "certain": self.certain,
            "why": self.why,
        }


@dataclass
class SheetProblem:
    """The first move that cannot be played: where it is written, the position before it."""

    kind: str  # "illegal" | "unreadable" | "empty" | "not_one_game" | "setup"
    reason: str
    ply: int | None = None
    written: str | None = None
    line: int | None = None
    column: int | None = None
    fen: str | None = None  # the position before the move
    legal: list[str] = field(default_factory=list)

    @property
    def message(self) -> str:
        where = []
        if self.ply is not None:
            where.append(f"ply {self.ply} (move {move_label(self.ply)})")
        if self.line is not None:
            where.append(f"line {self.line}:{self.column or 1}")
        text = ", ".join(where)
        if self.written is not None:
            text += f" {self.written!r}"
        return f"{text}: {self.reason}" if text else self.reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "reason": self.reason,
            "ply": self.ply,
            "label": move_label(self.ply) if self.ply else None,
            "written": self.written,
            "line": self.line,
            "column": self.column,
            "fen": self.fen,
            "legal": self.legal,
        }


@dataclass
class SheetCheck:
    """What a sheet says once checked: its moves up to the first problem, its result."""

    start_fen: str
    moves: list[SheetMove]
    result: str | None  # "2-0" "1-1" "0-2", or None when the sheet gives none
    fixes: list[SheetFix] = field(default_factory=list)
    problem: SheetProblem | None = None
    unplayed: list[str] = field(default_factory=list)  # moves written after the problem
    tags: dict[str, str] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None  # the result the rules give after the last move
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.problem is None

    @property
    def notations(self) -> list[str]:
        """Every written move in order: the engine's notation where it was played, the
        written text (normalised) after the first problem. Used to align sheets."""
        return [m.notation for m in self.moves] + self.unplayed

    @property
    def has_clock(self) -> bool:
        return any(m.clock for m in self.moves)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "start_fen": self.start_fen,
            "plies": len(self.moves),
            "moves": [m.to_dict() for m in self.moves],
            "unplayed": self.unplayed,
            "result": self.result,
            "fixes": [f.to_dict() for f in self.fixes],
            "problem": self.problem.to_dict() if self.problem else None,
            "outcome": self.outcome,
            "tags": self.tags,
            "warnings": self.warnings,
        }


# A move number written without its dot ("3 37-32"): a bare number, not after a move's
# separator, followed by a move.
_BARE_NUMBER = re.compile(r"(?<![\d.])(\d{1,3})(?=[ \t]+\d{1,2}[ \t]*[-x:][ \t]*\d)")
_AFTER_SEPARATOR = re.compile(r"[-x:][ \t]*$")


def _clean(text: str) -> str:
    text = text.translate(_DASHES)

    def number(m: re.Match) -> str:
        before = text[max(0, m.start() - 4) : m.start()]
        return m.group(0) if _AFTER_SEPARATOR.search(before) else m.group(1) + "."

    return _BARE_NUMBER.sub(number, text)


def _written_squares(text: str) -> list[int]:
    return [int(s) for s in _SQUARES.findall(text)]


def _reach(pos: Position, texts: list[str], depth: int = 0) -> int:
    """How many of `texts` play one after another from `pos` (an ambiguous capture among
    them tried every way, to a bounded depth)."""
    for i, text in enumerate(texts):
        try:
            pos = pos.play(pos.parse_move(text))
        except AmbiguousMove as exc:
            if depth >= _NESTED_AMBIGUITY_DEPTH:
                return i
            best = i
            for cand in exc.candidates:
                after = pos.play(pos.parse_move(cand))
                best = max(best, i + 1 + _reach(after, texts[i + 1 :], depth + 1))
            return best
        except (RulesError, ValueError):
            return i
    return len(texts)


def _fix(pos: Position, ply: int, written: str, text: str, chosen, rest: list[str]):
    """The fix of one move read otherwise than written, or None when it was read as written."""
    notation = pos.move_text(chosen)
    full = chosen.full_text() if chosen.is_capture else notation
    normal = "x".join(str(s) for s in _written_squares(text)) if chosen.is_capture else text
    if normal in (notation, full):
        return None
    try:
        pos.parse_move(text)
    except AmbiguousMove as exc:
        reach = {}
        for cand in exc.candidates:
            after = pos.play(pos.parse_move(cand))
            reach[cand] = _reach(after, rest)
        mine = reach.get(full, 0)
        others = [r for c, r in reach.items() if c != full]
        certain = all(r < mine for r in others)
        if certain:
            why = (
                f"{written!r} matches {' and '.join(exc.candidates)} (FMJD 8.2: a capture "
                f"two ways is written with every landing square); only {full} lets the "
                "rest of the sheet be played"
            )
        else:
            why = (
                f"{written!r} matches {' and '.join(exc.candidates)} and the rest of the "
                f"sheet can be played after more than one: {full} was read, the arbiter decides"
            )
        return SheetFix(ply, written, full, "ambiguous_capture", certain, why)
    except (RulesError, ValueError):
        return None
    return SheetFix(
        ply,
        written,
        full,
        "incomplete_capture",
        True,
        f"{written!r} is an incomplete capture path; only {full} passes those squares",
    )


def _outcome(g):
    """The result the rules give after the sheet's last move. Without a king on the board no
    draw rule of art. 6 can apply (each needs a king), so only art. 7.2 is looked at and the
    record is not replayed a second time."""
    last = g.positions[-1]
    if last.kings:
        return g.to_game().outcome()
    return Game(last.fen()).outcome()


def _one_game(text: str | bytes, start: Position, start_fen: str | None):
    """The one game of a sheet's text, or the problem that there is not exactly one."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    text = _clean(str(text or ""))
    if len(text) > MAX_SHEET_CHARS:
        return None, SheetProblem(
            "not_one_game", f"the sheet is longer than {MAX_SHEET_CHARS} characters"
        )
    if start_fen and "[FEN" not in text:
        text = f'[FEN "{start.fen()}"]\n' + text
    games = [g for g in read_games(text, source=None) if g.moves or g.tags]
    if not games or not games[0].moves and len(games) == 1:
        return None, SheetProblem("empty", "the sheet holds no moves")
    if len(games) != 1:
        return None, SheetProblem(
            "not_one_game", f"the sheet holds {len(games)} games; one sheet is one game"
        )
    return games[0], None


def _read_moves(g, check: SheetCheck) -> None:
    """The sheet's moves up to the first problem, with the fixes made on the way."""
    positions = g.positions
    for i, mv in enumerate(g.moves[: g.plies]):
        if isinstance(mv.move, Setup):
            check.problem = SheetProblem(
                "setup",
                "a position set within the game (FMJD 5.4) is the arbiter's to record, "
                "not a sheet's",
                ply=i + 1,
                written=mv.raw,
                line=mv.line,
                column=mv.column,
                fen=positions[i].fen(),
            )
            check.unplayed = [m.text for m in g.moves[i:]]
            return
        clock = mv.clock.to_dict() if mv.clock else None
        comments = [c for c in mv.comments if not c.startswith("[%")]
        check.moves.append(
            SheetMove(i + 1, mv.raw, mv.notation, positions[i + 1].fen(), clock, comments)
        )
        if mv.text != mv.notation:  # read otherwise than written: a fix, or just a form
            fix = _fix(
                positions[i], i + 1, mv.raw, mv.text, mv.move, [m.text for m in g.moves[i + 1 :]]
            )
            if fix is not None:
                check.fixes.append(fix)


def _replay_problem(g) -> tuple[SheetProblem, list[str]]:
    """The first move the replay could not play: the problem, and the moves from it on."""
    err = g.error
    if err.ply is None:
        return SheetProblem("unreadable", err.reason, line=err.line, column=err.column), []
    mv = g.moves[err.ply - 1]
    pos = g.positions[err.ply - 1]
    kind = "unreadable" if not mv.readable else "illegal"
    reason = err.reason
    if kind == "illegal":
        try:
            pos.parse_move(mv.text)
        except IllegalMove as exc:
            reason = exc.reason
        except (RulesError, ValueError):
            pass
    problem = SheetProblem(
        kind,
        reason,
        ply=err.ply,
        written=mv.raw,
        line=mv.line,
        column=mv.column,
        fen=pos.fen(),
        legal=[pos.move_text(m) for m in sorted(pos.legal_moves())],
    )
    return problem, [m.text for m in g.moves[err.ply - 1 :]]


def check_sheet(text: str | bytes, *, start_fen: str | None = None) -> SheetCheck:
    """Read and check one sheet (see the module). Never raises for bad content."""
    start = Position.from_fen(start_fen) if start_fen else Position.start()
    g, problem = _one_game(text, start, start_fen)
    if g is None:
        return SheetCheck(start.fen(), [], None, problem=problem)
    result = normalize_result(g.result)
    check = SheetCheck(
        g.start_fen or start.fen(),
        [],
        result if result not in (None, "*") else None,
        tags={k: v for k, v in g.tags.items() if k != "FEN"},
        warnings=[w for w in g.warnings if "ambiguous capture" not in w],
    )
    _read_moves(g, check)
    if check.problem is not None:
        return check
    if g.error is not None:
        check.problem, check.unplayed = _replay_problem(g)
        return check
    outcome = _outcome(g)
    if outcome is not None:
        check.outcome = outcome.to_dict()
        if check.result and outcome.score.value != check.result:
            check.warnings.append(
                f"the sheet gives {check.result} but after its last move the rules give "
                f"{outcome.score.value} (FMJD {outcome.article})"
            )
    return check


# --------------------------------------------------------------------------- alignment


@dataclass
class Difference:
    kind: str  # "differs" | "missing" | "extra" | "swapped" | "result"
    ply: int | None  # the ply (of `a`) where it starts
    a: list[str] = field(default_factory=list)
    b: list[str] = field(default_factory=list)

    def describe(self, a_name: str = "a", b_name: str = "b") -> str:
        where = f"ply {self.ply} (move {move_label(self.ply)})" if self.ply else ""
        a, b = " ".join(self.a) or "nothing", " ".join(self.b) or "nothing"
        if self.kind == "result":
            return f"result: {a_name} {a}, {b_name} {b}"
        if self.kind == "missing":
            return f"{where}: {a_name} lacks {b} that {b_name} has"
        if self.kind == "extra":
            return f"{where}: {a_name} has {a} that {b_name} lacks"
        if self.kind == "swapped":
            return f"{where}: {a_name} has {a}, {b_name} the same moves in the order {b}"
        return f"{where}: {a_name} {a}, {b_name} {b}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ply": self.ply, "a": self.a, "b": self.b}


@dataclass
class Alignment:
    first_difference: int | None  # the first ply where the moves differ (1-based)
    differences: list[Difference]
    same_moves: bool
    same_result: bool
    plies_a: int
    plies_b: int

    @property
    def agree(self) -> bool:
        return self.same_moves and self.same_result

    def to_dict(self, a_name: str = "a", b_name: str = "b") -> dict[str, Any]:
        return {
            "agree": self.agree,
            "first_difference": self.first_difference,
            "first_difference_label": (
                move_label(self.first_difference) if self.first_difference else None
            ),
            "same_moves": self.same_moves,
            "same_result": self.same_result,
            "plies": {a_name: self.plies_a, b_name: self.plies_b},
            "differences": [
                {**d.to_dict(), "text": d.describe(a_name, b_name)} for d in self.differences
            ],
        }


def _key(text: str) -> str:
    """A move as compared: squares and the kind of move, spaces and zeros aside. A capture
    compares by start and end (one sheet may write the full path, the other the short form:
    the replay has checked both against the same position)."""
    squares = _written_squares(text)
    if not squares:
        return text.strip()
    capture = "x" in text or ":" in text
    return f"{squares[0]}{'x' if capture else '-'}{squares[-1]}"


def _undoes(kind, i1, i2, j1, j2, nxt, ka, kb) -> bool:
    kind2, x1, x2, y1, y2 = nxt
    if {kind, kind2} == {"missing", "extra"}:
        moved = kb[j1:j2] if kind == "missing" else ka[i1:i2]
        back = ka[x1:x2] if kind2 == "extra" else kb[y1:y2]
        return bool(moved) and sorted(moved) == sorted(back)
    if kind == kind2 == "differs" and i2 - i1 == j2 - j1 == x2 - x1 == y2 - y1 == 1:
        return ka[i1] == kb[y1] and ka[x1] == kb[j1]
    return False


def align(
    a: list[str], b: list[str], *, result_a: str | None = None, result_b: str | None = None
) -> Alignment:
    """Compare two records ply by ply (see the module). `a` and `b` are move texts."""
    ka, kb = [_key(t) for t in a], [_key(t) for t in b]
    raw = []  # (kind, i1, i2, j1, j2)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=ka, b=kb, autojunk=False).get_opcodes():
        if tag != "equal":
            raw.append(
                (
                    {"replace": "differs", "delete": "extra", "insert": "missing"}[tag],
                    i1,
                    i2,
                    j1,
                    j2,
                )
            )
    diffs: list[Difference] = []
    k = 0
    while k < len(raw):
        kind, i1, i2, j1, j2 = raw[k]
        nxt = raw[k + 1] if k + 1 < len(raw) else None
        # Two moves written in the other order: a move one record has and the other lacks,
        # then the same move the other way round further on (or two single replacements
        # that undo each other), with the same moves between them.
        if nxt is not None and _undoes(kind, i1, i2, j1, j2, nxt, ka, kb):
            e_i2, e_j2 = nxt[2], nxt[4]
            diffs.append(Difference("swapped", i1 + 1, a[i1:e_i2], b[j1:e_j2]))
            k += 2
            continue
        if kind == "differs" and i2 - i1 == j2 - j1 == 2 and ka[i1:i2] == kb[j1:j2][::-1]:
            diffs.append(Difference("swapped", i1 + 1, a[i1:i2], b[j1:j2]))
        else:
            diffs.append(Difference(kind, i1 + 1, a[i1:i2], b[j1:j2]))
        k += 1
    first = next((i + 1 for i, (x, y) in enumerate(zip(ka, kb, strict=False)) if x != y), None)
    if first is None and len(ka) != len(kb):
        first = min(len(ka), len(kb)) + 1
    ra, rb = normalize_result(result_a or ""), normalize_result(result_b or "")
    ra = None if ra == "*" else ra
    rb = None if rb == "*" else rb
    same_result = ra == rb or ra is None or rb is None
    if not same_result:
        diffs.append(Difference("result", None, [ra or "none"], [rb or "none"]))
    return Alignment(
        first, diffs, not any(d.kind != "result" for d in diffs), same_result, len(a), len(b)
    )


def record_game(start_fen: str | None, notations: list[str]) -> Game:
    """An engine game of a record's moves (each legal: a checked sheet's, or a game's)."""
    game = Game(start_fen)
    for text in notations:
        game.push(text)
    return game
