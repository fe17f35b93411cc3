"""Notation sheets (FMJD 8, 10.2): hand-written slips read, the first bad move reported with
its position and the legal moves, certain fixes said, sheets aligned with records."""

import random

import pytest

from rules import Position
from rules.notation_sheet import align, check_sheet, move_label

SCHILDPAD_FEN = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"
# schildpad.pdn game 3 from its 35th move (White to play 36x16: 36x13x2x16 or 36x18x7x16;
# only the first lets the game go on).
SCHILDPAD_REST = (
    "35. 36x16 19-24 36. 38-33 24-30 37. 32-28 30-35 38. 16-32 14-20 39. 28-22 20-25 "
    "40. 32-49 6-11 41. 33-29 34x23 42. 45-40 35x44 43. 49x16 25-30 44. 22-18 30-35 "
    "45. 18-13 35-40 46. 16-11 40-45 47. 11-50 3-9"
)


def played_game(plies: int, seed: int = 7) -> list[str]:
    """A legal game of `plies` plies (random moves from a fixed seed), in PDN notation."""
    rng = random.Random(seed)
    pos, out = Position.start(), []
    for _ in range(plies):
        moves = sorted(pos.legal_moves())
        assert moves, "the walk must not end early"
        move = rng.choice(moves)
        out.append(pos.move_text(move))
        pos = pos.play(move)
    return out


def sheet(moves: list[str], result: str = "") -> str:
    parts = []
    for i, m in enumerate(moves):
        if i % 2 == 0:
            parts.append(f"{i // 2 + 1}.")
        parts.append(m)
    return " ".join(parts) + (f" {result}" if result else "")


def test_move_labels_number_plies_as_a_sheet_does():
    assert [move_label(p) for p in (1, 2, 3, 37)] == ["1.", "1...", "2.", "19."]


def test_fmjd_8_hand_written_slips_are_read():
    c = check_sheet("1. 32 - 28 19-23 2 28x 19 14x23 37-32 10–14\n4.32-27 1-0")
    assert c.ok, c.problem
    assert [m.notation for m in c.moves] == [
        "32-28",
        "19-23",
        "28x19",
        "14x23",
        "37-32",
        "10-14",
        "32-27",
    ]
    assert c.result == "2-0"  # 1-0 written the chess way
    assert c.moves[2].written == "28x 19"


def test_pdn_movetext_with_tags_and_clock_comments_is_a_sheet():
    c = check_sheet(
        '[White "A"]\n[Black "B"]\n[Result "1-1"]\n'
        "1. 32-28 {[%clock w1:59:30 B1:59:50]} 19-23 {[%clock W1:59:30 b1:59:10]} 1-1"
    )
    assert c.ok and c.result == "1-1" and c.tags["White"] == "A"
    assert c.moves[0].clock["white_ms"] == (119 * 60 + 30) * 1000
    assert c.moves[1].clock["black_ms"] == (119 * 60 + 10) * 1000


def test_fmjd_3_wrong_square_reports_the_ply_position_and_legal_moves():
    moves = played_game(20)
    bad = list(moves)
    bad[9] = "50-41"  # not a move of anyone's man on ply 10
    c = check_sheet(sheet(bad))
    assert not c.ok
    p = c.problem
    assert p.kind == "illegal" and p.ply == 10 and p.written == "50-41"
    before = Position.start()
    for m in moves[:9]:
        before = before.play(before.parse_move(m))
    assert p.fen == before.fen()
    assert moves[9] in p.legal and set(p.legal) == set(before.legal_texts())
    assert len(c.moves) == 9 and c.unplayed[0] == "50-41"
    assert "ply 10 (move 5...)" in p.message


def test_unreadable_move_is_named_with_its_line():
    c = check_sheet("1. 32-28 19-23\n2. 28x19 abc")
    assert c.problem.kind == "unreadable" and c.problem.ply == 4
    assert c.problem.line == 2 and c.problem.written == "abc"
    assert "14x23" in c.problem.legal


def test_missing_move_is_found_by_the_engine_and_by_the_alignment():
    moves = played_game(40)
    short = moves[:20] + moves[21:]
    c = check_sheet(sheet(short))
    assert not c.ok and c.problem.ply >= 21  # the colours shift from the missing move on
    a = align(c.notations, moves)
    assert a.first_difference == 21
    assert [d.kind for d in a.differences] == ["missing"]
    assert a.differences[0].b == [moves[20]]


def test_two_moves_swapped_are_reported_as_swapped():
    moves = played_game(30, seed=3)
    swapped = list(moves)
    swapped[12], swapped[13] = swapped[13], swapped[12]
    c = check_sheet(sheet(swapped))
    assert not c.ok and c.problem.ply == 13
    a = align(c.notations, moves)
    assert a.first_difference == 13
    (d,) = a.differences
    assert d.kind == "swapped" and d.a == [moves[13], moves[12]]


def test_fmjd_8_2_short_ambiguous_capture_fixed_by_what_follows():
    c = check_sheet(f'[FEN "{SCHILDPAD_FEN}"]\n{SCHILDPAD_REST} *')
    assert c.ok
    (fix,) = c.fixes
    assert fix.kind == "ambiguous_capture" and fix.certain and fix.ply == 1
    assert fix.written == "36x16" and fix.read_as == "36x13x2x16"
    assert "only 36x13x2x16 lets the rest of the sheet be played" in fix.why


def test_ambiguous_capture_at_the_end_is_read_but_not_certain():
    c = check_sheet(f'[FEN "{SCHILDPAD_FEN}"]\n35. 36x16 *')
    (fix,) = c.fixes
    assert not fix.certain and "the arbiter decides" in fix.why


def test_fmjd_8_2_incomplete_capture_path_is_completed():
    c = check_sheet(
        '[FEN "W:W20,24,27,37,38,45,46,49:B13,15,16,18,34,36,39,40."]\n'
        "1. 49-43 39x48 2. 24-19 48x22 3. 19x8 15x24 4. 46-41 36x47 5. 8-2 47x29 "
        "6. 2x30x11 16x7 7. 45x1 2-0"
    )
    assert c.ok
    (fix,) = c.fixes
    assert fix.kind == "incomplete_capture" and fix.read_as == "2x30x39x11" and fix.certain


def test_differing_result_is_reported():
    moves = played_game(10)
    a = check_sheet(sheet(moves, "2-0"))
    b = check_sheet(sheet(moves, "1-1"))
    al = align(a.notations, b.notations, result_a=a.result, result_b=b.result)
    assert al.same_moves and not al.same_result and not al.agree
    assert al.first_difference is None
    assert al.differences[-1].kind == "result"
    assert (
        "result: white's sheet 2-0, black's sheet 1-1"
        in al.to_dict("white's sheet", "black's sheet")["differences"][-1]["text"]
    )


def test_two_sheets_differing_at_ply_37_are_shown_differing_at_ply_37():
    moves = played_game(60, seed=11)
    other = list(moves)
    pos = Position.start()
    for m in moves[:36]:
        pos = pos.play(pos.parse_move(m))
    alternatives = [t for t in pos.legal_texts() if t != moves[36]]
    assert alternatives, "ply 37 needs another legal move for this test"
    other[36] = alternatives[0]
    a, b = check_sheet(sheet(moves)), check_sheet(sheet(other))
    assert a.ok and b.problem is None or b.problem.ply > 37
    al = align(a.notations, b.notations)
    assert al.first_difference == 37
    assert al.differences[0].ply == 37 and al.differences[0].kind == "differs"
    assert al.to_dict()["first_difference_label"] == "19."


def test_identical_records_agree():
    moves = played_game(24)
    al = align(moves, [m.replace("x", ":") for m in moves], result_a="1-1", result_b="1/2-1/2")
    assert al.agree and al.first_difference is None and not al.differences


def test_extra_moves_after_the_record_ends_are_listed():
    moves = played_game(24)
    al = align(moves + ["1-2"], moves)
    assert al.first_difference == 25
    assert [(d.kind, d.ply) for d in al.differences] == [("extra", 25)]


@pytest.mark.parametrize("text", ["", "   ", "1-1"])
def test_a_sheet_without_moves_says_so(text):
    c = check_sheet(text)
    assert c.problem is not None and c.problem.kind == "empty"


def test_a_file_of_two_games_is_not_one_sheet():
    c = check_sheet("1. 32-28 *\n\n1. 33-28 *\n")
    assert c.problem.kind == "not_one_game"


def test_the_rules_result_after_the_last_move_is_checked_against_the_sheet():
    # White takes Black's last piece: FMJD 7.2.3, White wins; the sheet says 0-2.
    c = check_sheet('[FEN "W:W32:B27"]\n1. 32x21 0-2')
    assert c.ok and c.outcome["score"] == "2-0"
    assert any("the rules give 2-0" in w for w in c.warnings)
