"""Input bounds checked at the edge: text, ids and numbers that a request may carry.

Every text a request brings is refused (never cut) when it holds a NUL (PostgreSQL cannot
store it) or a lone surrogate (not encodable as UTF-8), or is longer than its column; every
number is bounded so that no request can overflow a column or make the server work for long.
The pydantic types below carry their limits into the OpenAPI schema (maxLength, minimum,
maximum); `check_text` is the same rule for the services and forms.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from arbiter.errors import Invalid
from arbiter.messages import Problem

#: The largest id the API accepts in a path or a body: a 64-bit signed integer (BigAutoField).
MAX_ID = 2**63 - 1

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")


def text_problem(value: str, max_length: int | None = None) -> Problem | None:
    """Why `value` cannot be stored as text (a code and its params), or None."""
    bad = _BAD_CHARS.search(value)
    if bad is not None:
        if bad.group() == "\x00":
            return Problem("text.nul", position=bad.start())
        return Problem("text.lone_surrogate", position=bad.start())
    if max_length is not None and len(value) > max_length:
        return Problem("text.too_long", length=len(value), max=max_length)
    return None


def check_text(field: str, value, max_length: int | None = None) -> str:
    """`value` as a string when it can be stored in a column of `max_length`; else Invalid."""
    text = "" if value is None else str(value)
    problem = text_problem(text, max_length)
    if problem:
        raise Invalid("text.field", field=field, problem=problem, details={"field": field})
    return text


def _clean(value: str) -> str:
    problem = text_problem(value)
    if problem:
        # pydantic words it "Value error, <this>" in the API's 422 (arbiter/api.py)
        raise ValueError(str(Problem("text.value", problem=problem)))
    return value


def Text(max_length: int, *, min_length: int = 0):
    """A string type of at most `max_length` characters, without NUL or lone surrogates."""
    return Annotated[
        str,
        StringConstraints(max_length=max_length, min_length=min_length),
        AfterValidator(_clean),
    ]


#: A database id in a path or a body.
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
#: A reason written into an audit or clock log.
Reason = Text(1000)
