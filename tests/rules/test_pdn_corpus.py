"""Every real game in ../shared/data/pdn is read and replayed on the engine.

Game counts come from shared/data/pdn/SOURCES.txt ("games" = tag blocks, "with moves" =
blocks that contain movetext), which were checked there with two other PDN readers.
"""

from functools import cache
from pathlib import Path

import pytest

from rules.pdn import PdnError, read_file

# file -> (games, games with moves), as SOURCES.txt counts them.
WIEGERW_SUCCEED = {
    "wk2003.pdn": (23, 23),
    "nk2003-amsterdam.pdn": (33, 32),
    "PROF2.pdn": (16, 16),
    "candidate95.pdn": (8, 8),
    "DUTCH96H.pdn": (13, 13),
    "nk ronde 01.pdn": (7, 7),
    "nk ronde 02.pdn": (7, 7),
    "rk ronde 12.pdn": (7, 7),
    "090417ronde12.pdn": (7, 7),
    "kurnik.pdn": (4, 4),
    "schildpad.pdn": (34, 34),
    "windragon.pdn": (1, 1),
    "PWCP_2.pdn": (51, 51),
    "PWCP 2a.pdn": (59, 59),
    "Cat.B1.pdn": (37, 37),
    "Cat.D1.pdn": (19, 19),
    # PDN-syntax snippets: one game each (fen.pdn: three FEN-only games, no moves).
    "fen.pdn": (3, 0),
    "movestrength.pdn": (1, 1),
    "variation.pdn": (1, 1),
    "gameterminator.pdn": (1, 1),
    "linecomment.pdn": (1, 1),
    "string.pdn": (1, 1),
    "unicode.pdn": (1, 1),
}
WIEGERW_FAIL = {
    "40Camp.DamaInternazionaleAssoluto.pdn": (45, 45),
    "delfts.pdn": (2, 2),
    "Cat.A1.pdn": (35, 35),
    # 45 tag blocks, then a stray "36x27 1-0" after the last game: a 46th, tagless game.
    "Cat.C1.pdn": (46, 46),
    "nested_comment.pdn": (1, 1),
}
MOBYDAM = {
    "babasy1.pdn": 43,
    "babasy2.pdn": 42,
    "babasy3.pdn": 49,
    "babasy4.pdn": 49,
    "babasy5.pdn": 41,
    "babasy6.pdn": 47,
    "babasy7.pdn": 30,
    "babasy8.pdn": 30,
    "sur01.pdn": 77,
    "sur06.pdn": 73,
    "sur11.pdn": 61,
    "sur16.pdn": 66,
    "loi20.pdn": 22,
    "loi21.pdn": 24,
    "loi22.pdn": 18,
    "loi23.pdn": 12,
    "loi24.pdn": 18,
    "opening1.pdn": 44,
    "opening2.pdn": 46,
    "toprest1.pdn": 27,
    "toprest2.pdn": 26,
    "wierswal.pdn": 20,
    "diversen.pdn": 13,
    "flankgam.pdn": 5,
    "flankopn.pdn": 8,
    "sijbgant.pdn": 6,
}


def test_mobydam_counts_add_up_to_the_sources_totals():
    # SOURCES.txt: babasy1-8: 331, sur01/06/11/16: 277, loi20-24: 94, opening1-2: 90,
    # toprest1-2: 53; 897 games in all.
    assert sum(MOBYDAM[f"babasy{i}.pdn"] for i in range(1, 9)) == 331
    assert sum(MOBYDAM[f"sur{i:02d}.pdn"] for i in (1, 6, 11, 16)) == 277
    assert sum(MOBYDAM[f"loi{i}.pdn"] for i in range(20, 25)) == 94
    assert sum(MOBYDAM.values()) == 897


@cache
def _replayed(path: Path):
    return read_file(path)


def _check_located_errors(games, name):
    for g in games:
        assert g.index >= 1
        if g.error is not None:
            assert isinstance(g.error, PdnError)
            assert g.error.source == name and g.error.game_index == g.index
            assert g.error.line is not None


@pytest.mark.parametrize("name", sorted(WIEGERW_SUCCEED))
def test_succeed_files_replay_without_any_error(shared_data, name):
    path = shared_data / "pdn" / "wiegerw-pdn" / "succeed" / name
    games = _replayed(path)
    total, with_moves = WIEGERW_SUCCEED[name]
    assert len(games) == total
    assert sum(1 for g in games if g.moves) == with_moves
    assert [str(g.error) for g in games if g.error] == []
    for g in games:
        assert g.plies == len(g.moves)
        assert g.fen is not None


@pytest.mark.parametrize("name", sorted(WIEGERW_FAIL))
def test_fail_files_mostly_read_and_say_clearly_what_they_cannot(shared_data, name):
    path = shared_data / "pdn" / "wiegerw-pdn" / "fail" / name
    games = _replayed(path)
    total, with_moves = WIEGERW_FAIL[name]
    assert len(games) == total
    assert sum(1 for g in games if g.moves) == with_moves
    _check_located_errors(games, name)
    failed = [g for g in games if g.error]
    assert len(failed) <= max(1, total // 10), [str(g.error) for g in failed]


def test_fail_cat_c1_trailing_fragment_error_names_everything(shared_data):
    games = _replayed(shared_data / "pdn" / "wiegerw-pdn" / "fail" / "Cat.C1.pdn")
    last = games[-1]
    assert last.tags == {} and [m.text for m in last.moves] == ["36x27"]
    err = last.error
    assert (err.source, err.game_index, err.line, err.column, err.ply) == (
        "Cat.C1.pdn",
        46,
        611,
        1,
        1,
    )
    assert err.move_text == "36x27"
    assert "32-28" in err.legal and len(err.legal) == 9
    assert "Cat.C1.pdn, game 46, line 611:1, ply 1" in str(err)
    assert [g.index for g in games if g.error] == [46]


def test_fail_delfts_non_standard_results_are_warnings(shared_data):
    games = _replayed(shared_data / "pdn" / "wiegerw-pdn" / "fail" / "delfts.pdn")
    assert [g.result for g in games] == ["4-6", "1-9"]
    assert [g.plies for g in games] == [128, 124]
    assert all(g.error is None for g in games)
    assert any("non-standard result '1-9'" in w for w in games[1].warnings)


def test_wiersma_star_terminators_with_result_tags(shared_data):
    games = _replayed(shared_data / "pdn" / "wiersma.pdn")
    assert len(games) == 34
    assert sum(1 for g in games if g.moves) == 28
    assert [str(g.error) for g in games if g.error] == []
    assert games[0].terminator == "*" and games[0].result == "1-1"
    assert games[0].plies == 101


@pytest.mark.parametrize("name", sorted(MOBYDAM))
def test_mobydam_games_replay(shared_data, name):
    games = _replayed(shared_data / "pdn" / "mobydam" / name)
    assert len(games) == MOBYDAM[name]
    assert [str(g.error) for g in games if g.error] == []
    assert all(g.result == "*" and g.plies == len(g.moves) > 0 for g in games)


def test_mobydam_incomplete_capture_path(shared_data):
    # SOURCES.txt: babasy4 #48 (0-based) uses "2x30x17" for 2x30x39x17.
    games = _replayed(shared_data / "pdn" / "mobydam" / "babasy4.pdn")
    g = games[48]
    (m,) = [m for m in g.moves if m.text == "2x30x17"]
    assert m.move.path == (2, 30, 39, 17)
    assert any("incomplete capture path read as 2x30x39x17" in w for w in g.warnings)


def test_every_shared_pdn_file_is_listed_here(shared_data):
    # a file added to ../shared/data/pdn without a count here would go untested
    root = shared_data / "pdn"
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*.pdn")}
    listed = (
        {f"wiegerw-pdn/succeed/{n}" for n in WIEGERW_SUCCEED}
        | {f"wiegerw-pdn/fail/{n}" for n in WIEGERW_FAIL}
        | {f"mobydam/{n}" for n in MOBYDAM}
        | {"wiersma.pdn"}  # test_wiersma_star_terminators_with_result_tags
    )
    assert on_disk == listed
