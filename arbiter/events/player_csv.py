"""Reading a list of players from CSV (for `import_players_csv`).

The file is UTF-8 text (a byte-order mark is ignored), comma- or semicolon-separated, with
a header line naming the columns, in any order (case and spaces around names ignored):

| column       | required | meaning                                                    |
| ------------ | -------- | ---------------------------------------------------------- |
| `surname`    | yes      | family name                                                |
| `given_name` | no       | first name(s)                                              |
| `fmjd_id`    | no       | FMJD id (digits); a player with this id is reused, not duplicated |
| `federation` | no       | three-letter country code, e.g. `NED`                      |
| `rating`     | no       | FMJD rating, a whole number (empty: unrated)               |
| `title`      | no       | GMI, MI, MF, GMIF, MIF, MFF, ...                           |
| `club`       | no       | club name                                                  |

Blank lines are skipped. Any other column is an error. Example:

    surname,given_name,fmjd_id,federation,rating,title
    Verhoeven,Anna,16001,NED,2310,MI

Every bad line is reported by its line number in the file (the header is line 1) and the
reason; the import is all or nothing. The file is bounded (MAX_CHARS, MAX_COLUMNS, MAX_ROWS,
and each field by its column's length) so that reading it takes little time and memory
whatever it holds; a quote left open is reported on its line instead of swallowing the
lines after it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from arbiter.errors import Invalid

COLUMNS = ("surname", "given_name", "fmjd_id", "federation", "rating", "title", "club")
REQUIRED = ("surname",)
MAX_ROWS = 5000
#: Far more than the known columns; a longer header is refused before it is looked at.
MAX_COLUMNS = 30
#: 5000 players of a few hundred characters each.
MAX_CHARS = 1_000_000


@dataclass(frozen=True)
class Row:
    line: int
    values: dict[str, str]


@dataclass(frozen=True)
class LineError:
    line: int
    reason: str

    def as_dict(self) -> dict:
        return {"line": self.line, "reason": self.reason}


def read_rows(text: str) -> tuple[list[Row], list[LineError]]:
    """The data rows with their line numbers, and the errors found in the file's shape."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            return [], [LineError(1, f"the file is not UTF-8 text ({exc.reason})")]
    text = text.lstrip("\ufeff")
    if len(text) > MAX_CHARS:
        return [], [LineError(1, f"the file has {len(text)} characters; at most {MAX_CHARS}")]
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    if first.count(delimiter) >= MAX_COLUMNS:
        return [], [
            LineError(1, f"{first.count(delimiter) + 1} columns; at most {MAX_COLUMNS} are read")
        ]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        return [], [LineError(1, f"unreadable header ({exc})")]
    if not header or not any(h.strip() for h in header):
        return [], [LineError(1, "the file is empty: the first line must name the columns")]
    if len(header) > MAX_COLUMNS or reader.line_num > 1:
        return [], [LineError(1, f"the header must be one line of at most {MAX_COLUMNS} names")]
    names = [h.strip().lower().replace(" ", "_") for h in header]
    errors = []
    unknown = [n for n in names if n not in COLUMNS]
    if unknown:
        errors.append(
            LineError(1, f"unknown column(s) {', '.join(unknown)}; known: {', '.join(COLUMNS)}")
        )
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        errors.append(LineError(1, f"missing column(s) {', '.join(missing)}"))
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        errors.append(LineError(1, f"column(s) {', '.join(dupes)} given twice"))
    if errors:
        return [], errors
    rows = []
    start = reader.line_num + 1
    try:
        for cells in reader:
            line = start
            start = reader.line_num + 1
            if not any(c.strip() for c in cells):
                continue
            if any("\n" in c or "\r" in c for c in cells):
                # No name holds a line break: a quote opened here and closed late or never.
                end = reader.line_num
                errors.append(
                    LineError(line, f"a quote opened on this line is not closed before line {end}")
                )
                continue
            if len(cells) != len(names):
                errors.append(
                    LineError(line, f"{len(cells)} fields where the header has {len(names)}")
                )
                continue
            rows.append(Row(line, {n: c.strip() for n, c in zip(names, cells, strict=True)}))
            if len(rows) > MAX_ROWS:
                errors.append(LineError(line, f"more than {MAX_ROWS} players in one file"))
                break
    except csv.Error as exc:
        errors.append(LineError(start, f"unreadable CSV ({exc})"))
    return rows, errors


def raise_if_errors(errors: list[LineError]) -> None:
    if errors:
        errors = sorted(errors, key=lambda e: e.line)
        shown = "; ".join(f"line {e.line}: {e.reason}" for e in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        raise Invalid(
            f"nothing imported: {len(errors)} bad line(s): {shown}{more}",
            details={"errors": [e.as_dict() for e in errors]},
        )
