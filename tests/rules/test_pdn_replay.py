"""Replaying PDN games on the engine: ambiguous and incomplete captures, start positions,
move numbers, game types, and errors that say what, where and why."""

import pytest

from rules import Position, Termination
from rules.pdn import PdnError, read_file, read_games

SCHILDPAD_FEN = "W:W32,K36,37,38,42,45,47:B3,6,8,11,12,14,19,27,34"
# The rest of schildpad.pdn game 3 from its 35th move on (White to play 36x16).
SCHILDPAD_REST = (
    "35. 36x16 19-24 36. 38-33 24-30 37. 32-28 30-35 38. 16-32 14-20 39. 28-22 20-25 "
    "40. 32-49 6-11 41. 33-29 34x23 42. 45-40 35x44 43. 49x16 25-30 44. 22-18 30-35 "
    "45. 18-13 35-40 46. 16-11 40-45 47. 11-50 3-9 2-0"
)


def one(text, **kw):
    games = read_games(text, **kw)
    assert len(games) == 1
    return games[0]


def test_fmjd_8_2_ambiguous_short_capture_resolved_by_the_rest_of_the_game():
    pdn = f'[FEN "{SCHILDPAD_FEN}"]\n{SCHILDPAD_REST}\n'
    with pytest.raises(Exception) as info:
        Position.from_fen(SCHILDPAD_FEN).parse_move("36x16")
    assert sorted(info.value.candidates) == ["36x13x2x16", "36x18x7x16"]
    g = one(pdn)
    assert g.error is None
    assert g.plies == 26
    assert g.moves[0].move.path == (36, 13, 2, 16)
    assert sorted(g.moves[0].move.captures) == [8, 11, 27]
    (warning,) = g.warnings
    assert warning.startswith("ply 1 (line 2:5, '36x16') is an ambiguous capture")
    assert "played 36x13x2x16" in warning
    assert "the only candidate with which the rest of the game replays" in warning


def test_fmjd_8_2_ambiguous_capture_backtracks_when_the_first_candidate_fails_later():
    # schildpad.pdn game 7, ply 111: "4x24"; 4x22x33x24 comes first but the game goes on
    # only after 4x31x42x24 (Black then plays 28-32).
    pdn = (
        '[FEN "W:WK4,20,39,44:B12,18,28,29,37"]\n'
        "56. 4x24 28-32 57. 20-15 32-37 58. 24-47 12-18 59. 15-10 18-23 60. 10-5 23-29 "
        "61. 47x20 2-0\n"
    )
    g = one(pdn)
    assert g.error is None and g.plies == 11
    assert g.moves[0].move.path == (4, 31, 42, 24)
    assert any(
        "played 4x31x42x24: with 4x22x33x24 the rest of the game does not replay" in w
        for w in g.warnings
    )


def test_ambiguous_capture_in_the_real_file_names_the_ply(shared_data):
    games = read_file(shared_data / "pdn" / "wiegerw-pdn" / "succeed" / "schildpad.pdn")
    g = games[2]
    assert g.positions[68].fen() == SCHILDPAD_FEN
    assert g.moves[68].move.path == (36, 13, 2, 16)
    assert any(w.startswith("ply 69 (line 52:70, '36x16')") for w in g.warnings)
    assert all(x.error is None for x in games)


def test_ambiguous_capture_at_the_end_of_a_game_takes_the_first_candidate_and_says_so():
    g = one(f'[FEN "{SCHILDPAD_FEN}"]\n35. 36x16 *\n')
    assert g.error is None
    assert g.moves[0].move.path == (36, 13, 2, 16)
    assert "more than one; the first was taken" in g.warnings[0]


def test_fmjd_8_2_incomplete_capture_path_matches_an_ordered_subsequence():
    # Cat.C1.pdn game 22: "2x30x11" stands for 2x30x39x11.
    pdn = (
        '[FEN "W:W20,24,27,37,38,45,46,49:B13,15,16,18,34,36,39,40."]\n'
        "1. 49-43 39x48 2. 24-19 48x22 3. 19x8 15x24 4. 46-41 36x47 5. 8-2 47x29 "
        "6. 2x30x11 16x7 7. 45x1 2-0"
    )
    g = one(pdn)
    assert g.error is None and g.plies == 13
    assert g.moves[10].move.path == (2, 30, 39, 11)
    assert g.warnings == [
        "ply 11 (line 2:76, '2x30x11'): incomplete capture path read as 2x30x39x11"
    ]


@pytest.mark.parametrize("written", ["32x12", "32x21x12", "32 x 21 x 12", "32:21:12"])
def test_fmjd_4_capture_written_short_or_with_every_landing_square(written):
    g = one(f'[FEN "W:W32:B27,17,1"]\n1. {written} *')
    assert g.error is None and g.warnings == []
    assert g.moves[0].move.path == (32, 21, 12)
    assert g.fen == "B:W12:B1"


def test_fen_ending_with_a_dot_and_black_to_move_with_black_move_numbers():
    g = one('[SetUp "1"]\n[FEN "B:W8,25,30:B7,15,18."]\n1. ... 7-12 2. 8x17 18-23 *')
    assert g.error is None and g.plies == 3
    assert g.start_fen == "B:W8,25,30:B7,15,18"
    assert g.warnings == []


def test_fen_without_side_to_move_assumes_white_with_a_warning():
    g = one('[FEN "?:W29,13,11:B22,4,2"]\n*')
    assert g.error is None
    assert g.fen == "W:W11,13,29:B2,4,22"
    assert any("White assumed" in w for w in g.warnings)


def test_bad_fen_tag_is_an_error_naming_the_game():
    games = read_games('[FEN "W:W51:B1"]\n1. 32-28 *\n\n1. 32-28 *', source="x.pdn")
    assert games[0].error is not None
    assert "bad FEN tag 'W:W51:B1'" in str(games[0].error)
    assert str(games[0].error).startswith("x.pdn, game 1, line 1:1")
    assert games[1].error is None and games[1].plies == 1


def test_wrong_move_numbers_are_tolerated_with_a_warning():
    # PROF2.pdn writes "29." for "27."; the moves are played in order all the same.
    g = one("1. 32-28 19-23 5. 28x19 14x23 3. 37-32 *")
    assert g.error is None and g.plies == 5
    assert g.warnings == ["ply 3 (line 1:19): move number 5. where 2. was expected"]


@pytest.mark.parametrize("game_type", ["20", "20,W,10,10,N1,0", " 20 "])
def test_game_type_20_is_replayed(game_type):
    g = one(f'[GameType "{game_type}"]\n1. 32-28 19-23 *')
    assert g.error is None and g.plies == 2


@pytest.mark.parametrize("game_type", ["21", "0", "20,W,8,8,N1,0"])
def test_other_game_types_are_errors_not_misreadings(game_type):
    g = one(f'[GameType "{game_type}"]\n1. 32-28 19-23 *')
    assert g.error is not None and g.plies == 0
    assert "GameType" in g.error.reason


def test_illegal_move_error_names_file_game_line_column_ply_text_and_legal_moves():
    text = (
        '[Event "one"]\n1. 32-28 19-23 *\n\n'
        '[Event "two"]\n1. 32-28 19-23\n2. 28-22 14x23 *\n\n'
        '[Event "three"]\n1. 33-28 *\n'
    )
    games = read_games(text.encode(), source="club.pdn")
    assert [g.error is None for g in games] == [True, False, True]
    err = games[1].error
    assert isinstance(err, PdnError)
    assert (err.source, err.game_index, err.line, err.column, err.ply) == (
        "club.pdn",
        2,
        6,
        4,
        3,
    )
    assert err.move_text == "28-22"
    assert err.legal == ["28x19"]
    assert "capture is compulsory (FMJD 4.1)" in err.reason
    assert str(err).startswith("club.pdn, game 2, line 6:4, ply 3 ('28-22'): illegal move")
    assert str(err).endswith("legal moves: 28x19")
    assert (
        games[1].plies == 2 and games[1].fen == Position.start().play("32-28").play("19-23").fen()
    )
    assert games[2].plies == 1


def test_unreadable_word_is_an_error_at_its_place():
    g = one("1. 32-28 19-23 2. 28x19 blunder *")
    assert g.error.ply == 4 and g.error.move_text == "blunder"
    assert "cannot read 'blunder' as a move" in str(g.error)
    assert g.plies == 3


def test_latin1_crlf_file_replays(tmp_path):
    path = tmp_path / "latin.pdn"
    path.write_bytes(
        '[White "Bertè Daniele"]\r\n[Result "1/2-1/2"]\r\n\r\n1. 34-29 17-22 1/2-1/2\r\n'.encode(
            "latin-1"
        )
    )
    (g,) = read_file(path)
    assert g.tags["White"] == "Bertè Daniele"
    assert g.result == "1-1" and g.plies == 2 and g.error is None
    assert g.moves[1].line == 4


def test_to_game_gives_the_engine_record_with_its_outcome():
    # FMJD 7.2.3: White takes Black's last piece.
    g = one('[FEN "W:W28:B23"]\n1. 28x19 2-0')
    game = g.to_game()
    assert game.plies == 1 and game.position == g.position
    assert game.outcome().termination == Termination.NO_PIECES


def test_variations_are_not_replayed_into_the_main_line():
    g = one("1. 32-28 19-23 (1... 18-23 2. 99-98) 2. 28x19 14x23 *")
    assert g.error is None and g.plies == 4
    (var,) = g.moves[1].variations
    assert [m.text for m in var] == ["18-23", "99-98"]
    # The variation is checked from the position before 19-23: 18-23 is legal, 99-98 not.
    assert var[0].move is not None and var[0].notation == "18-23"
    assert var[1].move is None
    assert g.warnings == [
        "variation at line 1:31: illegal move '99-98' (99 is not a square (1-50, FMJD 2.6)); "
        "the variation is kept as written"
    ]


def test_variation_moves_get_the_engines_notation():
    g = one('[FEN "W:W32:B27,17,1"]\n1. 32-21 (1. 32x21x12) 1... 1-6 *')
    assert g.error is not None  # 32-21 is not legal: capture is compulsory (FMJD 4.1)
    g = one('[FEN "W:W32,45:B27,17,1"]\n1. 32x12 (1. 32x21x12 1-6) 1... 1-6 *')
    (var,) = g.moves[0].variations
    assert [m.notation for m in var] == ["32x12", "1-6"]
    assert g.warnings == []


def test_when_no_reading_of_an_ambiguous_capture_replays_the_error_says_so():
    g = one(f'[FEN "{SCHILDPAD_FEN}"]\n35. 36x16 50-45 *\n')
    err = g.error
    assert err is not None and err.ply == 2 and err.move_text == "50-45"
    assert "after trying every reading of the ambiguous captures before it" in err.reason
    assert g.plies == 1 and g.moves[0].move.path == (36, 13, 2, 16)
    assert any("ambiguous capture" in w for w in g.warnings)
