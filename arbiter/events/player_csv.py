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

Every bad line is reported by its line number in the file (the header is line 1), the
column when the fault is in one field, and the reason; the import is all or nothing. The file is bounded (MAX_CHARS, MAX_COLUMNS, MAX_ROWS,
and each field by its column's length) so that reading it takes little time and memory
whatever it holds; a quote left open is reported on its line instead of swallowing the
lines after it.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from arbiter import messages
from arbiter.errors import Invalid
from arbiter.messages import Problem

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


class LineError(Problem):
    """What is wrong with one line of the file: a code and its params (arbiter/messages.py),
    and the column it is in when it is about one field (None: the line as a whole)."""

    def __init__(self, line: int, code: str, /, *, column: str | None = None, **params):
        super().__init__(code, **params)
        self.line = line
        self.column = column

    @property
    def reason(self) -> str:
        return messages.render(self.code, self.params)

    def as_dict(self) -> dict:
        return {
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "params": messages.jsonable(self.params),
            "reason": self.reason,
        }


def read_rows(text: str) -> tuple[list[Row], list[LineError]]:
    """The data rows with their line numbers, and the errors found in the file's shape."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            return [], [LineError(1, "import.not_utf8", error=exc.reason)]
    text = text.lstrip("\ufeff")
    if len(text) > MAX_CHARS:
        return [], [LineError(1, "import.too_long", chars=len(text), max=MAX_CHARS)]
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","
    if first.count(delimiter) >= MAX_COLUMNS:
        columns = first.count(delimiter) + 1
        return [], [LineError(1, "import.too_many_columns", columns=columns, max=MAX_COLUMNS)]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    names, errors = _header(reader)
    if errors:
        return [], errors
    return _data_rows(reader, names)


def _header(reader) -> tuple[list[str], list[LineError]]:
    """The column names of the header line (line 1), or what is wrong with it."""
    try:
        header = next(reader, None)
    except csv.Error as exc:
        return [], [LineError(1, "import.unreadable_header", error=str(exc))]
    if not header or not any(h.strip() for h in header):
        return [], [LineError(1, "import.empty_file")]
    if len(header) > MAX_COLUMNS or reader.line_num > 1:
        return [], [LineError(1, "import.header_shape", max=MAX_COLUMNS)]
    names = [h.strip().lower().replace(" ", "_") for h in header]
    errors = []
    unknown = [n for n in names if n not in COLUMNS]
    if unknown:
        errors.append(
            LineError(1, "import.unknown_columns", unknown=list(unknown), known=list(COLUMNS))
        )
    missing = [c for c in REQUIRED if c not in names]
    if missing:
        errors.append(LineError(1, "import.missing_columns", missing=missing))
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        errors.append(LineError(1, "import.duplicate_columns", columns=dupes))
    return names, errors


def _data_rows(reader, names: list[str]) -> tuple[list[Row], list[LineError]]:
    """The lines after the header, each a Row or a LineError saying what is wrong with it."""
    errors: list[LineError] = []
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
                errors.append(LineError(line, "import.unclosed_quote", end=end))
                continue
            if len(cells) != len(names):
                errors.append(
                    LineError(line, "import.field_count", fields=len(cells), columns=len(names))
                )
                continue
            rows.append(Row(line, {n: c.strip() for n, c in zip(names, cells, strict=True)}))
            if len(rows) > MAX_ROWS:
                errors.append(LineError(line, "import.too_many_rows", max=MAX_ROWS))
                break
    except csv.Error as exc:
        errors.append(LineError(start, "import.unreadable_csv", error=str(exc)))
    return rows, errors


def raise_if_errors(errors: list[LineError]) -> None:
    if errors:
        errors = sorted(errors, key=lambda e: e.line)
        shown = [Problem("import.line", line=e.line, reason=e) for e in errors[:5]]
        raise Invalid(
            "import.bad_lines" if len(errors) <= 5 else "import.bad_lines_more",
            count=len(errors),
            lines=shown,
            more=len(errors) - 5,
            details={"errors": [e.as_dict() for e in errors]},
        )
