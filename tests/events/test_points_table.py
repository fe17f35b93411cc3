"""One table from results to points (tiebreaks.RESULT_POINTS): the standings, the pairing's
player states and the selectors all score a result from it, so a scoring whose forfeit loss
is not 0 (or any new result code) cannot make them disagree."""

from __future__ import annotations

import pytest

from arbiter.events.pairing import EntryInfo, build_states
from arbiter.events.tiebreaks import (
    RESULT_POINTS,
    GameRecord,
    PlayerInfo,
    Scoring,
    compute_standings,
    points,
)
from arbiter.games.models import Game

ODD = Scoring(win=3, draw=1, loss=0, bye=2, forfeit_win=4, forfeit_loss=-1)
GAMES = [
    GameRecord(round=1, white_id=1, black_id=2, result="2-0"),
    GameRecord(round=1, white_id=3, black_id=4, result="1-1"),
    GameRecord(round=1, white_id=5, black_id=6, result="+/-"),
    GameRecord(round=1, white_id=7, black_id=8, result="-/-"),
    GameRecord(round=1, white_id=9, black_id=None, result="bye"),
]
EXPECTED = {1: 3, 2: 0, 3: 1, 4: 1, 5: 4, 6: -1, 7: -1, 8: -1, 9: 2}


def test_the_table_covers_every_result_code_of_a_game():
    assert set(RESULT_POINTS) == {r.value for r in Game.Result}


def test_fmjd_7_default_scoring_is_2_1_0():
    assert [points(r, "white", Scoring()) for r in ("2-0", "1-1", "0-2")] == [2, 1, 0]


def test_standings_and_pairing_states_score_alike_from_the_table():
    players = [PlayerInfo(id=i, pairing_number=i) for i in EXPECTED]
    rows = compute_standings(players, GAMES, tiebreaks=[], scoring=ODD)
    assert {r.player_id: r.points for r in rows} == EXPECTED
    states = build_states(
        [EntryInfo(id=i, pairing_number=i) for i in EXPECTED], GAMES, 2, scoring=ODD
    )
    assert {s.id: s.score for s in states} == EXPECTED


def test_an_unknown_result_is_refused():
    with pytest.raises(ValueError, match="unknown result"):
        points("1-0", "white", Scoring())
