"""check_pairing lists every rule a hand-made pairing breaks (FIDE C.04.1 b, d, f, g)."""

import ast
from pathlib import Path

from arbiter.events.pairing import Board, PlayerState, check_pairing

ROOT = Path(__file__).resolve().parents[2]


def p(no, **kw):
    return PlayerState(id=100 + no, pairing_number=no, rating=2000, **kw)


def board(number, white, black):
    return Board(number, 100 + white, None if black is None else 100 + black, {})


def test_a_legal_pairing_has_no_problems():
    players = [p(1), p(2), p(3)]
    assert check_pairing(players, [board(1, 1, 2), board(2, 3, None)]) == []


def test_fide_c04_1_b_rematch_is_reported():
    players = [p(1, opponents=(102,)), p(2, opponents=(101,))]
    assert check_pairing(players, [board(1, 1, 2)]) == [
        "board 1: no. 1 and no. 2 have already played each other"
    ]


def test_fide_c04_1_g_and_f_colour_rules_are_reported():
    players = [p(1, colours=("B", "W", "W")), p(2, colours=("B", "W", "B", "B", "-"))]
    problems = check_pairing(players, [board(1, 1, 2)])
    assert problems == [
        "board 1: no. 1 with white: white three times in a row",
        "board 1: no. 2 with black: colour difference would be -3 (at most 2 either way)",
        "board 1: no. 2 with black: black three times in a row",
    ]


def test_fide_c04_1_d_second_bye_and_bye_with_even_numbers():
    players = [p(1, had_bye=True), p(2), p(3)]
    assert check_pairing(players, [board(1, 2, 3), board(2, 1, None)]) == [
        "board 2: no. 1 gets a second bye"
    ]
    players = [p(1), p(2), p(3), p(4)]
    problems = check_pairing(players, [board(1, 1, 2), board(2, 3, None), board(3, 4, None)])
    assert problems == ["2 pairing-allocated byes (no. 3, no. 4); at most one is needed"]
    problems = check_pairing(players[:2], [board(1, 1, None), board(2, 2, None)])
    assert "at most one is needed" in problems[0]


def test_unpaired_doubly_paired_absent_and_requested_bye_players():
    players = [p(1), p(2), p(3, active=False), p(4, bye_requested=True), p(5), p(6)]
    problems = check_pairing(players, [board(1, 1, 3), board(2, 2, 4), board(3, 5, 1)])
    assert problems == [
        "board 1: no. 3 is withdrawn or absent but is paired",
        "board 2: no. 4 requested a bye but is paired in a game",
        "no. 1 is on 2 boards",
        "no. 6 is active but not paired",
    ]


def test_unknown_player_and_self_pairing():
    players = [p(1), p(2)]
    problems = check_pairing(players, [board(1, 1, 1), Board(2, 100 + 2, 999, {})])
    assert "board 1: no. 1 is paired against themself" in problems
    assert "board 2: player id 999 is not in this event" in problems


def test_pure_modules_do_not_import_django():
    """The pairing, tie-break and TRF modules are pure: no Django import anywhere in them."""
    files = [*sorted((ROOT / "arbiter/events/pairing").glob("*.py"))]
    files += [ROOT / "arbiter/events/tiebreaks.py", ROOT / "arbiter/events/trf.py"]
    for path in files:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert not any(n.split(".")[0] == "django" for n in names), path
