"""Codes, not sentences, from the inner layers: every code an error or an outcome carries has
its words in arbiter/messages.py, and every place that raises a code gives its parameters."""

import ast
import string
import subprocess
import sys
from pathlib import Path

import pytest

import arbiter
from arbiter import messages
from arbiter.errors import Conflict, DomainError, Invalid
from clocks import errors as clock_errors
from rules import errors as rules_errors
from rules.outcome import Termination

ROOT = Path(arbiter.__file__).resolve().parent
ERRORS = {"DomainError", "NotFound", "Forbidden", "Conflict", "Invalid", "Unavailable"}
ERRORS |= {"Unauthorized"}  # TooManyAttempts re-raises the throttle's own Problem
# Errors of their own with a code: a refused API token, a wrong password (arbiter/accounts).
ERRORS |= {"TokenRefused"}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _literal_codes(node) -> list[str] | None:
    """The code(s) a call's code argument can be: a literal, or either side of a choice."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, other = _literal_codes(node.body), _literal_codes(node.orelse)
        return body + other if body and other else None
    return None


def _raised_codes() -> list[tuple[str, str, set[str]]]:
    """(where, code, parameter names) of every DomainError and Problem made in arbiter/
    (a LineError's code is its second argument; one that passes another error's code on
    is left out)."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node, "func", None) and getattr(node.func, "id", None)
            if not isinstance(node, ast.Call) or name not in ERRORS | {"Problem", "LineError"}:
                continue
            where = f"{path.relative_to(ROOT.parent)}:{node.lineno}"
            index = 1 if name == "LineError" else 0
            codes = _literal_codes(node.args[index]) if len(node.args) > index else None
            if codes is None and name == "LineError":
                continue
            assert codes, f"{where}: an error's code is a string literal"
            names = {k.arg for k in node.keywords if k.arg and k.arg != "details"}
            found += [(where, code, names) for code in codes]
    return found


def _choice_codes() -> set[str]:
    """The codes of the models' choice labels (`messages.label("event.system.swiss")`)."""
    found = set()
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "label"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(f"choice.{node.args[0].value}")
    return found


def _claim_explanation_codes() -> set[str]:
    """The codes that word a claim's decision, for every article and every decision."""
    from arbiter.games.models import Claim
    from arbiter.games.services import claims

    return {claims.explanation_code(a, c) for a in Claim.ARTICLES for c in claims.WORDED}


def test_every_code_of_rules_clocks_outcomes_and_services_has_words():
    codes = set(rules_errors.CODES) | set(clock_errors.CODES)
    codes |= {f"termination.{t.value}" for t in Termination}
    codes |= _choice_codes()
    codes |= {"time_control.in_part", "time_control.in_part_of_tag"}
    codes |= {"ending.automatic", "request.invalid_fields", "request.not_json"}
    codes.add("request.not_logged_in")
    codes |= _claim_explanation_codes()
    raised = _raised_codes()
    assert len(raised) > 100  # the scan sees the services
    codes |= {code for _, code, _ in raised}
    assert codes - set(messages.MESSAGES) == set()
    # and the table holds nothing that nothing gives (it is kept true); why a game ended by
    # itself is worded for the terminations a rule or the flag gives
    why = {f"why.{t.value}" for t in Termination}
    assert set(messages.MESSAGES) - codes - why == set()


def test_fmjd_6_2_a_game_ending_by_itself_is_logged_with_why():
    assert messages.automatic_ending(Termination.DRAW_25_MOVES) == (
        "automatic: 25 moves each with kings only, no man move, no capture (FMJD 6.2)"
    )
    assert messages.automatic_ending(Termination.FLAG) == "automatic: time exceeded"


@pytest.mark.parametrize("code", sorted(messages.MESSAGES))
def test_every_message_renders_with_its_parameters(code):
    template = messages.MESSAGES[code]
    # a one-item list stands for any value (lists may carry a separator as format spec)
    text = messages.render(code, {name: [7] for name in _fields(template)})
    assert text and "{" not in text.replace("{{", "")


def test_every_raise_gives_the_parameters_its_words_need():
    for where, code, names in _raised_codes():
        assert _fields(messages.MESSAGES[code]) <= names, f"{where}: {code} needs parameters"


def test_rules_and_clocks_codes_have_the_same_parameters_as_their_library_texts():
    for table in (rules_errors.TEXTS, clock_errors.TEXTS):
        for code, text in table.items():
            assert _fields(messages.MESSAGES[code]) == _fields(text), code


def test_a_code_without_words_is_refused_where_it_is_raised():
    with pytest.raises(LookupError, match="no words"):
        Invalid("no.such_code")


def test_an_error_is_worded_from_its_code_and_params_and_answers_them_as_json():
    inner = rules_errors.IllegalMove("32-23", "move.square_occupied", square=23)
    exc = Invalid("move.illegal_at_ply", move="32-23", ply=1, reason=inner)
    assert str(exc) == exc.message == "move '32-23' at ply 1 is not legal: square 23 is occupied"
    assert exc.as_dict() == {
        "error": "invalid",
        "code": "move.illegal_at_ply",
        "params": {
            "move": "32-23",
            "ply": 1,
            "reason": {"code": "move.square_occupied", "params": {"square": 23}},
        },
        "message": "move '32-23' at ply 1 is not legal: square 23 is occupied",
    }


def test_lists_are_joined_and_a_separator_can_be_given():
    assert messages.render("round.boards_in_play", {"round_number": 2, "boards": [1, 3]}) == (
        "round 2 has play or results on board(s) 1, 3"
    )
    assert messages.render("pairing.invalid", {"errors": ["a", "b"]}) == "a; b"


def test_terminations_are_worded_by_the_arbiter():
    assert messages.termination(Termination.DRAW_25_MOVES) == "Draw 25 moves"
    assert not hasattr(Termination.NO_PIECES, "label")  # rules gives the code only


def test_domain_error_subclasses_keep_their_kind_and_status():
    exc = Conflict("move.clocks_paused")
    assert (exc.status, exc.error, exc.code, exc.params) == (
        409,
        "conflict",
        "move.clocks_paused",
        {},
    )
    assert isinstance(exc, DomainError)


RULES_ERRORS_WITHOUT_DJANGO = r"""
import json, sys
from rules import Position
from rules.errors import AmbiguousMove, FenError, IllegalMove
from clocks.timecontrol import TimeControl, TimeControlError
out = {}
def catch(name, fn):
    try:
        fn()
    except (IllegalMove, FenError, TimeControlError) as exc:
        out[name] = [type(exc).__name__, exc.code, exc.params, str(exc)]
catch("no_piece", lambda: Position.start().parse_move("28-22"))
catch("majority", lambda: Position.from_fen("W:W48:B24,K31,34,K42,43").parse_move("48x30"))
catch("ambiguous", lambda: Position.from_fen(
    "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34").parse_move("36x16"))
catch("fen", lambda: Position.from_fen("W:W31-50:B1-20,33"))
catch("time_control", lambda: TimeControl.parse("50/7200:---"))
out["django"] = "django" in sys.modules
print(json.dumps(out))
"""


def test_rules_and_clocks_errors_carry_code_and_params_without_django():
    import json

    proc = subprocess.run(
        [sys.executable, "-c", RULES_ERRORS_WITHOUT_DJANGO],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT.parent,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got["django"] is False
    assert got["no_piece"][:3] == ["IllegalMove", "move.no_piece", {"square": 28}]
    assert got["no_piece"][3] == "illegal move '28-22': there is no piece on 28"
    # FMJD 4.13: the majority rule names both counts.
    assert got["majority"][:3] == ["IllegalMove", "move.majority", {"required": 3, "taken": 2}]
    kind, code, params, _ = got["ambiguous"]
    assert (kind, code, params["count"]) == ("AmbiguousMove", "move.ambiguous", 2)
    assert all(c.startswith("36x") and c.endswith("x16") for c in params["candidates"])
    assert got["fen"][:3] == ["FenError", "fen.square_both_colours", {"square": 33}]
    assert got["time_control"][1] == "time_control.bad_period"
    assert got["time_control"][2]["part"] == "---"


def test_the_models_choices_are_labelled_from_the_table(db):
    from arbiter.events.models import Event
    from arbiter.games.models import Game

    assert Event.System.SWISS.label == messages.MESSAGES["choice.event.system.swiss"] == "Swiss"
    assert Game.Result.WHITE_FORFEIT_WIN.label == "+/- (black forfeits)"
    assert dict(Game._meta.get_field("termination").choices)["draw_25_moves"] == "Draw 25 moves"
    assert len(_choice_codes()) > 20


def test_a_time_control_error_says_where_in_the_tag_as_the_clock_library_does():
    from clocks.timecontrol import TimeControl, TimeControlError

    with pytest.raises(TimeControlError) as exc:
        TimeControl.parse("50/7200:---")
    assert messages.words(exc.value) == str(exc.value)
    assert messages.words(exc.value).endswith(" in '---' of TimeControl tag '50/7200:---'")
    inner = Invalid("event.bad_time_control", error=exc.value)
    assert "in '---' of TimeControl tag" in inner.message
