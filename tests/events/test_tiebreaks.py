"""Standings and tie-breaks, each checked against a hand computation.

The worked event: 5 players, a round robin by the Berger table for 6 (number 6 is the dummy,
so each player has one bye, worth 2 points like a win). Scoring 2/1/0 (FMJD 7).

    R1: 1 bye      2-5 2-0    3-4 1-1
    R2: 4 bye      5-3 0-2    1-2 1-1
    R3: 2 bye      3-1 0-2    4-5 2-0
    R4: 5 bye      1-4 +/-    2-3 0-2      (4 did not come: 1 wins by forfeit)
    R5: 3 bye      4-2 1-1    5-1 2-0

Points (round by round):
    no. 1: 2 (bye) + 1 + 2 + 2 (forfeit) + 0 = 7
    no. 2: 2 + 1 + 2 (bye) + 0 + 1          = 6
    no. 3: 1 + 2 + 0 + 2 + 2 (bye)          = 7
    no. 4: 1 + 2 (bye) + 2 + 0 (forfeit) + 1 = 6
    no. 5: 0 + 0 + 0 + 2 (bye) + 2          = 4      (total 30 = 5 rounds x 6 points)
Ratings: 1: 2300, 2: 2200, 3: 2100, 4: 2000, 5: unrated.
Unplayed rounds (byes, forfeits) count a virtual opponent with the player's own points.
"""

from fractions import Fraction

import pytest

from arbiter.events.tiebreaks import (
    TIEBREAKS,
    GameRecord,
    PlayerInfo,
    Scoring,
    compute_standings,
    fide_dp,
)

PLAYERS = [
    PlayerInfo(1, 1, 2300, "Ann"),
    PlayerInfo(2, 2, 2200, "Bob"),
    PlayerInfo(3, 3, 2100, "Cor"),
    PlayerInfo(4, 4, 2000, "Dirk"),
    PlayerInfo(5, 5, None, "Eva"),
]
GAMES = [
    GameRecord(1, 1, None, "bye"),
    GameRecord(1, 2, 5, "2-0"),
    GameRecord(1, 3, 4, "1-1"),
    GameRecord(2, 4, None, "bye"),
    GameRecord(2, 5, 3, "0-2"),
    GameRecord(2, 1, 2, "1-1"),
    GameRecord(3, 2, None, "bye"),
    GameRecord(3, 3, 1, "0-2"),
    GameRecord(3, 4, 5, "2-0"),
    GameRecord(4, 5, None, "bye"),
    GameRecord(4, 1, 4, "+/-"),
    GameRecord(4, 2, 3, "0-2"),
    GameRecord(5, 3, None, "bye"),
    GameRecord(5, 4, 2, "1-1"),
    GameRecord(5, 5, 1, "2-0"),
]


def values(code, **kw):
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=[code], **kw)
    return {r.player_id: r.values[code] for r in rows}


def test_fmjd_7_points_two_for_a_win_one_for_a_draw_byes_and_forfeits_as_wins():
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=[])
    assert {r.player_id: r.points for r in rows} == {1: 7, 2: 6, 3: 7, 4: 6, 5: 4}
    # Games played over the board: 1 played R2, R3, R5; 4 played R1, R3, R5.
    assert {r.player_id: r.games_played for r in rows} == {1: 3, 2: 4, 3: 4, 4: 3, 5: 4}


def test_solkoff_sums_opponents_points_unplayed_rounds_count_own_points():
    # 1: bye 7 (own) + no.2 6 + no.3 7 + forfeit 7 (own) + no.5 4 = 31
    # 2: no.5 4 + no.1 7 + bye 6 (own) + no.3 7 + no.4 6        = 30
    # 3: no.4 6 + no.5 4 + no.1 7 + no.2 6 + bye 7 (own)        = 30
    # 4: no.3 7 + bye 6 (own) + no.5 4 + forfeit 6 (own) + no.2 6 = 29
    # 5: no.2 6 + no.3 7 + no.4 6 + bye 4 (own) + no.1 7        = 30
    assert values("solkoff") == {1: 31, 2: 30, 3: 30, 4: 29, 5: 30}


def test_truncated_solkoff_drops_the_lowest():
    # Everyone's lowest is 4 (no. 5, or no. 5's own 4 for its bye): 31-4, 30-4, 30-4, 29-4, 30-4
    assert values("solkoff_cut1") == {1: 27, 2: 26, 3: 26, 4: 25, 5: 26}


def test_median_solkoff_drops_the_highest_and_the_lowest():
    # Everyone's highest is 7: 31-4-7, 30-4-7, 30-4-7, 29-4-7, 30-4-7
    assert values("solkoff_median") == {1: 20, 2: 19, 3: 19, 4: 18, 5: 19}


def test_sonneborn_berger_weights_opponents_by_result_unplayed_as_draw_against_self():
    # 1: bye 7/2=3.5 + draw no.2 6/2=3 + win no.3 7 + forfeit 7/2=3.5 + loss 0   = 17
    # 2: win no.5 4 + draw no.1 7/2=3.5 + bye 6/2=3 + loss 0 + draw no.4 6/2=3    = 13.5
    # 3: draw no.4 3 + win no.5 4 + loss 0 + win no.2 6 + bye 7/2=3.5             = 16.5
    # 4: draw no.3 3.5 + bye 3 + win no.5 4 + forfeit loss 6/2=3 + draw no.2 3    = 16.5
    # 5: loss + loss + loss + bye 4/2=2 + win no.1 7                              = 9
    assert values("sonneborn_berger") == {1: 17, 2: 13.5, 3: 16.5, 4: 16.5, 5: 9}


def test_wins_count_only_games_won_over_the_board():
    # 1 beat 3 (R3); its forfeit win in R4 does not count. 3 beat 5 and 2.
    assert values("wins") == {1: 1, 2: 1, 3: 2, 4: 1, 5: 1}


def test_direct_encounter_between_tied_players():
    # Tied on 7: 1 and 3; 1 beat 3 (R3): 1 -> 2, 3 -> 0.
    # Tied on 6: 2 and 4; they drew (R5): 1 each. No. 5 is alone: 0.
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=["direct_encounter", "sonneborn_berger"])
    assert {r.player_id: r.values["direct_encounter"] for r in rows} == {
        1: 2,
        3: 0,
        2: 1,
        4: 1,
        5: 0,
    }
    # Order: 1 (DE), 3; then 4 before 2 on Sonneborn-Berger (16.5 > 13.5); then 5.
    assert [r.player_id for r in rows] == [1, 3, 4, 2, 5]
    assert [r.shared_rank for r in rows] == ["1", "2", "3", "4", "5"]
    assert rows[0].explain["direct_encounter"] == [
        "R3: 2 against no. 3 Cor",
        "= 2 against the 1 tied player(s)",
    ]


def test_direct_encounter_not_applied_when_not_all_tied_players_met():
    # a beat b; c beat d. a and c (2 points each) never met: DE is 0 for both, explained.
    players = [PlayerInfo(i, i, None, n) for i, n in enumerate("abcd", start=1)]
    games = [GameRecord(1, 1, 2, "2-0"), GameRecord(1, 3, 4, "2-0")]
    rows = compute_standings(players, games, tiebreaks=["direct_encounter"])
    top = [r for r in rows if r.points == 2]
    assert [r.values["direct_encounter"] for r in top] == [0, 0]
    assert "have not met: not applied" in top[0].explain["direct_encounter"][0]
    assert [r.shared_rank for r in top] == ["1-2", "1-2"]


def test_results_against_the_higher_ranked():
    # Points in played games against opponents with at least as many points:
    # 1 (7): beat 3 (7) -> 2.         2 (6): drew 1, lost to 3, drew 4 -> 2.
    # 3 (7): lost to 1 -> 0.          4 (6): drew 3 (7), drew 2 (6) -> 2 (R4 forfeit not played).
    # 5 (4): every opponent has more; beat 1 -> 2.
    assert values("higher_ranked") == {1: 2, 2: 2, 3: 0, 4: 2, 5: 2}


def test_average_rating_of_opponents_played_and_rated():
    # 1: 2200, 2100 (no. 5 unrated)       = 4300/2 = 2150
    # 2: 2300, 2100, 2000                 = 6400/3 = 2133.3 -> 2133
    # 3: 2000, 2300, 2200                 = 6500/3 = 2166.7 -> 2167
    # 4: 2100, 2200 (R4 forfeit unplayed) = 4300/2 = 2150
    # 5: 2200, 2100, 2000, 2300           = 8600/4 = 2150
    assert values("avg_rating_opponents") == {1: 2150, 2: 2133, 3: 2167, 4: 2150, 5: 2150}


def test_performance_rating_with_the_fide_table():
    # 1: 1.5/2 = 0.75 -> dp +193: 2150 + 193 = 2343
    # 2: 1/3 = 0.33   -> dp -125: 2133 - 125 = 2008
    # 3: 1.5/3 = 0.50 -> dp 0:    2167
    # 4: 1/2 = 0.50   -> dp 0:    2150
    # 5: 1/4 = 0.25   -> dp -193: 2150 - 193 = 1957
    assert values("performance") == {1: 2343, 2: 2008, 3: 2167, 4: 2150, 5: 1957}
    assert fide_dp(Fraction(1)) == 800
    assert fide_dp(Fraction(1, 100)) == -677


def test_progressive_score_sums_running_points():
    # 1: 2, 3, 5, 7, 7 = 24     2: 2, 3, 5, 5, 6 = 21     3: 1, 3, 3, 5, 7 = 19
    # 4: 1, 3, 5, 5, 6 = 20     5: 0, 0, 0, 2, 4 = 6
    assert values("progressive") == {1: 24, 2: 21, 3: 19, 4: 20, 5: 6}


def test_standings_after_an_earlier_round():
    # After round 2: 1: 2+1, 2: 2+1, 3: 1+2, 4: 1+2 -> 3 each; 5: 0.
    # Progressive: 1: 2+3 = 5, 2: 5, 3: 1+3 = 4, 4: 4.
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=["progressive"], after_round=2)
    assert {r.player_id: r.points for r in rows} == {1: 3, 2: 3, 3: 3, 4: 3, 5: 0}
    assert [r.player_id for r in rows] == [1, 2, 3, 4, 5]
    assert [r.shared_rank for r in rows] == ["1-2", "1-2", "3-4", "3-4", "5"]


def test_shared_place_when_every_tiebreak_is_equal():
    players = [PlayerInfo(1, 1, 2000), PlayerInfo(2, 2, 1900)]
    rows = compute_standings(
        players, [GameRecord(1, 1, 2, "1-1")], tiebreaks=["solkoff", "sonneborn_berger", "wins"]
    )
    assert [r.shared_rank for r in rows] == ["1-2", "1-2"]
    assert [r.rank for r in rows] == [1, 2]  # listed by pairing number within the tie
    # A rating-based tie-break separates them: 2 met the higher-rated opponent.
    rows = compute_standings(
        players, [GameRecord(1, 1, 2, "1-1")], tiebreaks=["avg_rating_opponents"]
    )
    assert [(r.player_id, r.shared_rank) for r in rows] == [(2, "1"), (1, "2")]


def test_games_not_played_yet_are_ignored_and_absence_counts_as_unplayed():
    players = [PlayerInfo(1, 1), PlayerInfo(2, 2), PlayerInfo(3, 3)]
    games = [GameRecord(1, 1, 2, "2-0"), GameRecord(2, 1, 3, "")]
    rows = {r.player_id: r for r in compute_standings(players, games, tiebreaks=["solkoff"])}
    # Round 1 only (round 2 pending). 3 had no game in round 1: virtual opponent, own 0 points.
    assert rows[1].values["solkoff"] == 0 and rows[2].values["solkoff"] == 2
    assert rows[3].explain["solkoff"][0] == "R1: no game, virtual opponent with own 0"


def test_every_value_is_explained_line_by_line():
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=list(TIEBREAKS))
    first = rows[0]
    assert set(first.explain) == set(TIEBREAKS)
    assert first.explain["solkoff"] == [
        "R1: bye, virtual opponent with own 7",
        "R2: no. 2 Bob has 6",
        "R3: no. 3 Cor has 7",
        "R4: won by forfeit, virtual opponent with own 7",
        "R5: no. 5 Eva has 4",
        "= 31",
    ]


def test_bad_input_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="unknown tie-break"):
        compute_standings(PLAYERS, GAMES, tiebreaks=["buchholz"])
    with pytest.raises(ValueError, match="unknown result '1-0'"):
        compute_standings(PLAYERS, [GameRecord(1, 1, 2, "1-0")], tiebreaks=[])
    with pytest.raises(ValueError, match="not in the player list"):
        compute_standings(PLAYERS, [GameRecord(1, 1, 99, "2-0")], tiebreaks=[])


def test_custom_scoring_changes_points_and_values():
    # A bye worth a draw (1) instead of a win: 1 has 6, not 7.
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=[], scoring=Scoring(bye=1))
    assert {r.player_id: r.points for r in rows}[1] == 6


# -- properties over simulated events ------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from devtools.pairing_simulation import SwissSimulation  # noqa: E402


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(min_value=5, max_value=30),
    seed=st.integers(min_value=0, max_value=10**6),
    rounds=st.integers(min_value=1, max_value=9),
)
def test_standings_properties_over_random_events(n, seed, rounds):
    sim = SwissSimulation(n, seed, forfeit_rate=0.05, withdraw_rate=0.02, bye_request_rate=0.03)
    sim.run(rounds)
    players = [PlayerInfo(p.id, p.pairing_number, p.rating) for p in sim.players]
    games = [GameRecord(*g) for g in sim.games]
    codes = list(TIEBREAKS)
    rows = compute_standings(players, games, tiebreaks=codes)
    # The same points as the simulation counted, in a ranking by points then tie-breaks.
    assert {r.player_id: r.points for r in rows} == {p.id: p.score for p in sim.players}
    assert [r.rank for r in rows] == list(range(1, n + 1))
    keys = [[r.points] + [r.values[c] for c in codes] for r in rows]
    assert keys == sorted(keys, reverse=True)
    for r in rows:
        assert r.values["solkoff"] >= r.values["solkoff_cut1"] >= r.values["solkoff_median"]
        first, _, last = r.shared_rank.partition("-")
        shared = [x for x in rows if x.shared_rank == r.shared_rank]
        assert len(shared) == (int(last) - int(first) + 1 if last else 1)
        assert all(x.values == r.values and x.points == r.points for x in shared)
    # The order of the game records does not matter.
    again = compute_standings(players, list(reversed(games)), tiebreaks=codes)
    assert [(r.player_id, r.values) for r in again] == [(r.player_id, r.values) for r in rows]
