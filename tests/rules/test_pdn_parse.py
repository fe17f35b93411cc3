"""PDN 3.0 syntax: tags, movetext, comments, variations, NAGs, results, encodings.

These tests need no rules engine: `parse_games` reads the text without replaying it.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.pdn import (
    ClockReading,
    decode_pdn,
    normalize_result,
    parse_clock,
    parse_games,
    read_games,
    write_game,
)


def one(text, **kw):
    games = parse_games(text, **kw)
    assert len(games) == 1, games
    return games[0]


def texts(moves):
    return [m.text for m in moves]


def test_tag_pairs_with_escaped_quote_and_backslash():
    g = one('[White "This is a string with an escaped character \\""] [Black "a\\\\b"] 32-28')
    assert g.tags == {"White": 'This is a string with an escaped character "', "Black": "a\\b"}
    assert texts(g.moves) == ["32-28"]


def test_move_numbers_without_space_and_black_numbers():
    g = one("1.33-28 18-22  2.38-33 12-18 3...7-12 *")
    assert texts(g.moves) == ["33-28", "18-22", "38-33", "12-18", "7-12"]
    assert [m.number for m in g.moves] == [1, None, 2, None, 3]
    assert g.moves[4].black_number is True
    assert g.terminator == "*"


def test_ellipsis_after_move_number_marks_a_black_move_and_a_lone_ellipsis_is_skipped():
    g = one("1. ... 7-12 2. 8x17 18-23 3. ... {unknown} *")
    assert texts(g.moves) == ["7-12", "8x17", "18-23"]
    assert g.moves[0].number == 1 and g.moves[0].black_number
    assert g.moves[-1].comments == ["unknown"]


def test_spaces_inside_moves_leading_zeros_and_colon_separator_are_normalised():
    g = one("21. 35x 4 17-22 22.  4-15  1- 7 01-06 9:20:29 *")
    assert texts(g.moves) == ["35x4", "17-22", "4-15", "1-7", "1-6", "9x20x29"]
    assert g.moves[0].raw == "35x 4"
    assert g.moves[0].line == 1 and g.moves[0].column == 5


def test_brace_comments_attach_to_the_move_before_and_the_prelude_to_the_game():
    g = one("{ before } 1. 32-28 { after white } 19-23 {after black} *")
    assert g.comments == ["before"]
    assert g.moves[0].comments == ["after white"]
    assert g.moves[1].comments == ["after black"]


def test_semicolon_and_percent_line_comments():
    g = one('% escape line\n[Date "2012.02.01"]\n1. 32-28 ; rest of line\n19-23 *\n')
    assert g.tags == {"Date": "2012.02.01"}
    assert texts(g.moves) == ["32-28", "19-23"]
    assert g.moves[0].comments == ["rest of line"]


def test_nested_variations_are_kept_beside_the_main_line():
    g = one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    assert texts(g.moves) == ["32-28", "19-23", "28x19", "14x23"]
    (var,) = g.moves[1].variations
    assert texts(var) == ["18-23", "38-32", "12-18"]
    (inner,) = var[1].variations
    assert texts(inner) == ["37-32", "23-29"]
    assert inner[0].strength == "?" and inner[1].strength == "!"
    assert inner[1].comments == ["Black wins"]


def test_variation_with_leading_comment_and_black_number():
    g = one("4. 41-37 19-23 ( { Meestal eerst } 4... 1-6 5. 46-41 ) 5. 28x19 *")
    (var,) = g.moves[1].variations
    assert var[0].comments_before == ["Meestal eerst"]
    assert var[0].number == 4 and var[0].black_number
    assert texts(g.moves) == ["41-37", "19-23", "28x19"]


def test_black_move_number_after_a_variation():
    g = one("6. 39x30 ( { Over het algemeen } 6. 40x29 ) 6... 13-19 7. 44-39 *")
    assert texts(g.moves) == ["39x30", "13-19", "44-39"]
    assert g.moves[1].number == 6 and g.moves[1].black_number


def test_nags_and_every_move_strength_form():
    g = one("1.32-28!? 19-23(!?!!!) 2.28x19 $1 $14 14x23?! 3.a?? *".replace("3.a??", "3.33-28??"))
    assert [m.strength for m in g.moves] == ["!?", "(!?!!!)", None, "?!", "??"]
    assert g.moves[2].nags == [1, 14]
    g = one("32-28!! 19-23? 28x19! *")
    assert [m.strength for m in g.moves] == ["!!", "?", "!"]


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("2-0", "2-0"),
        ("1-1", "1-1"),
        ("0-2", "0-2"),
        ("0-0", "0-0"),
        ("*", "*"),
        ("1-0", "2-0"),
        ("0-1", "0-2"),
        ("1/2-1/2", "1-1"),
    ],
)
def test_fmjd_7_results_in_both_scoring_forms_end_the_game(written, canonical):
    games = parse_games(f'[Result "{written}"]\n1. 32-28 19-23 {written}\n[Event "next"]\n*')
    assert len(games) == 2
    assert games[0].terminator == written
    assert games[0].result == canonical
    assert normalize_result(written) == canonical
    assert games[0].warnings == []


def test_fmjd_7_non_standard_result_is_the_terminator_and_a_warning():
    # delfts.pdn writes 10-point match scores: "1-9", "4-6".
    g = one('[Result "1-9"]\n62. 15-10 04x24 1-9\n')
    assert texts(g.moves) == ["15-10", "4x24"]
    assert g.terminator == "1-9"
    assert g.result == "1-9"
    assert any("non-standard result '1-9'" in w for w in g.warnings)
    assert normalize_result("1-9") is None


def test_star_terminator_with_a_result_tag_keeps_the_tag_result():
    g = one('[Result "1-1"]\n 51.38-33  *\n')
    assert g.terminator == "*" and g.result == "1-1"
    assert g.warnings == []


def test_terminator_contradicting_the_result_tag_is_a_warning():
    g = one('[Result "0-1"]\n1. 32-28 1-0\n')
    assert any("Result tag says '0-1'" in w for w in g.warnings)


def test_games_without_tags_or_terminators_are_split_at_the_next_tags():
    games = parse_games('1. 32-28 19-23\n[Event "b"]\n1. 33-28 *\n36x27 1-0\n')
    assert [texts(g.moves) for g in games] == [["32-28", "19-23"], ["33-28"], ["36x27"]]
    assert any("not terminated" in w and "line 2:1" in w for w in games[0].warnings)
    assert [g.index for g in games] == [1, 2, 3]
    assert games[1].tags == {"Event": "b"} and games[1].line == 2


def test_fen_tag_and_empty_games():
    games = parse_games('[FEN "?:W29,13,11:B22,4,2"]\r\n*\r\n\r\n[FEN "W:W31-50:B1-20"]\r\n*\r\n')
    assert [g.tags["FEN"] for g in games] == ["?:W29,13,11:B22,4,2", "W:W31-50:B1-20"]
    assert all(g.moves == [] for g in games)


def test_clock_comments_are_parsed_into_milliseconds_per_move():
    g = one("1. 32-28 {[%clock w0:00:10 B0:00:03]} 19-23 { [%clk 1:55:21] thinking } *")
    c0, c1 = g.moves[0].clock, g.moves[1].clock
    assert c0 == ClockReading(white_ms=10_000, black_ms=3_000, running="black")
    assert c1.mover_ms == (1 * 3600 + 55 * 60 + 21) * 1000
    assert g.moves[1].commands == {"clk": "1:55:21"}
    assert parse_clock({"clk": "0:00:01.5"}).mover_ms == 1500
    assert parse_clock({"clock": "nonsense"}) is None


def test_other_comment_commands_are_kept():
    g = one("1. 33-29 {[%drgnode 0 1]} 20-25 {[%eval -0.048][%depth 12]} *")
    assert g.moves[0].commands == {"drgnode": "0 1"}
    assert g.moves[1].commands == {"eval": "-0.048", "depth": "12"}
    assert g.moves[1].clock is None


def test_latin1_bytes_fall_back_and_utf8_with_bom_is_read():
    latin = '[White "Bertè Daniele"]\n1. 32-28 *\n'.encode("latin-1")
    assert one(latin).tags["White"] == "Bertè Daniele"
    utf8 = '\ufeff[White "Сергей"]\n1. 32-28 *\n'.encode()
    assert one(utf8).tags["White"] == "Сергей"
    assert decode_pdn(b"\xef\xbb\xbf1. 32-28") == "1. 32-28"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_utf16_with_a_byte_order_mark_is_read(encoding):
    data = '\ufeff[White "Bertè"]\r\n1. 32-28 *\r\n'.encode(encoding)
    assert data[:2] in (b"\xff\xfe", b"\xfe\xff")
    g = one(data)
    assert g.tags["White"] == "Bertè" and [m.text for m in g.moves] == ["32-28"]


def test_crlf_line_ends_give_the_right_line_and_column():
    g = one('[Event "x"]\r\n\r\n1. 32-28 19-23\r\n2. 28x19 14x23 *\r\n')
    assert [(m.line, m.column) for m in g.moves] == [(3, 4), (3, 10), (4, 4), (4, 10)]
    assert one("1. 32-28\r19-23 *").moves[1].line == 2


def test_nested_braces_in_a_comment_are_one_comment():
    g = one("1. 33-29 19-23 2. 35-30 { nested { comment } } *")
    assert g.moves[-1].comments == ["nested { comment }"]


def test_unclosed_comment_is_an_error_at_its_line_and_column():
    g = one("1. 32-28\n19-23 { never closed\n2. 28x19 *")
    assert g.error is not None
    assert (g.error.line, g.error.column) == (2, 7)
    assert "never closed" in str(g.error)
    assert texts(g.moves) == ["32-28", "19-23"]


def test_unbalanced_parentheses_are_warnings_not_failures():
    g = one("1. 32-28 ) 19-23 ( 18-23 *")
    assert texts(g.moves) == ["32-28", "19-23"]
    assert g.moves[1].variations and texts(g.moves[1].variations[0]) == ["18-23"]
    assert any("')' without an opening '('" in w for w in g.warnings)
    assert any("not closed" in w for w in g.warnings)


def test_words_that_are_not_moves_are_kept_for_the_replay_to_report():
    g = one("1. 32-28 hello 2. 28x19 *")
    assert texts(g.moves) == ["32-28", "hello", "28x19"]
    assert g.moves[1].readable is False


def test_setup_command_in_movetext_is_kept():
    g = one('1. 32-28 /FEN "B:W18,24:B12,16"/ 19-23 *')
    assert g.setups == [(1, "B:W18,24:B12,16")]


pdn_fragments = st.sampled_from(
    [
        "1.",
        "23...",
        "32-28",
        "19x30",
        "35x 4",
        "{",
        "}",
        "{c}",
        "(",
        ")",
        "[",
        "]",
        '[Event "e"]',
        '[Result "2-0"]',
        "2-0",
        "1-9",
        "*",
        "$3",
        "!?",
        "(!)",
        ";x\n",
        "\n%esc\n",
        "...",
        '/FEN "W:W1:B2"/',
        "\r\n",
        " ",
        "x",
        '"',
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_parser_never_crashes_on_arbitrary_text(text):
    for g in parse_games(text):
        assert g.index >= 1
        assert isinstance(g.warnings, list)


@settings(max_examples=300, deadline=None)
@given(st.lists(pdn_fragments, max_size=60).map("".join))
def test_parser_never_crashes_on_pdn_like_text(text):
    games = parse_games(text)
    assert [g.index for g in games] == list(range(1, len(games) + 1))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_parser_never_crashes_on_arbitrary_bytes(data):
    games = parse_games(data)
    assert [g.index for g in games] == list(range(1, len(games) + 1))
    assert all(isinstance(w, str) for g in games for w in g.warnings)


def test_fmjd_9_1_signs_after_a_move_are_annotations_not_moves():
    g = one("1. 32-28+ 19-23 = 2. 28x19 a.l. *")
    assert [m.text for m in g.moves] == ["32-28", "19-23", "28x19"]
    assert [m.strength for m in g.moves] == ["+", "=", "a.l."]


def test_a_repeated_tag_starts_the_next_game_when_the_first_has_no_movetext():
    games = parse_games('[Event "a"]\n[FEN "W:W31:B1"]\n\n[Event "b"]\n1. 32-28 *')
    assert [g.tags.get("Event") for g in games] == ["a", "b"]
    assert games[0].moves == [] and games[0].tags["FEN"] == "W:W31:B1"
    assert any("game without movetext not terminated" in w for w in games[0].warnings)


def test_variations_nested_thousands_deep_are_cut_with_a_warning_not_a_crash():
    text = "1. 32-28 " + "(33-28 " * 3000 + ")" * 3000 + " 19-23 *\n\n1. 31-27 *"
    first, second = read_games(text)
    assert [m.text for m in first.moves] == ["32-28", "19-23"] and first.error is None
    assert any("nested more than 100 deep ignored" in w for w in first.warnings)
    depth, move = 0, first.moves[0]
    while move.variations:
        depth, move = depth + 1, move.variations[0][0]
    assert depth == 100
    again = read_games(write_game(first))[0]
    assert [m.text for m in again.moves] == ["32-28", "19-23"]
    assert [m.text for m in second.moves] == ["31-27"] and second.warnings == []
