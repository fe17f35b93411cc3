"""The one convention for unplayed games (README "Standings and tie-breaks"), checked for
every tie-break on a small event with a forfeit, a double forfeit and byes.

    R1: A-B +/-  (B did not come: A wins by forfeit)   C bye
    R2: C-A 1-1                                         B bye
    R3: A-B -/-  (neither came)                         C bye
Points: A 2 + 1 + 0 = 3, B 0 + 2 + 0 = 2, C 2 + 1 + 2 = 5. A and B never played over the board.
"""

from arbiter.events.tiebreaks import TIEBREAKS, GameRecord, PlayerInfo, compute_standings

A, B, C = 1, 2, 3
PLAYERS = [PlayerInfo(A, 1, 2000, "A"), PlayerInfo(B, 2, 1900, "B"), PlayerInfo(C, 3, 1800, "C")]
GAMES = [
    GameRecord(1, A, B, "+/-"),
    GameRecord(1, C, None, "bye"),
    GameRecord(2, C, A, "1-1"),
    GameRecord(2, B, None, "bye"),
    GameRecord(3, A, B, "-/-"),
    GameRecord(3, C, None, "bye"),
]


def _rows():
    rows = compute_standings(PLAYERS, GAMES, tiebreaks=list(TIEBREAKS))
    return {r.player_id: r for r in rows}


def test_unplayed_rounds_score_their_points_and_are_not_games_played():
    rows = _rows()
    assert {pid: r.points for pid, r in rows.items()} == {A: 3, B: 2, C: 5}
    assert {pid: r.games_played for pid, r in rows.items()} == {A: 1, B: 0, C: 1}


def test_solkoff_family_counts_a_virtual_opponent_with_own_points_for_unplayed_rounds():
    a = _rows()[A].values
    # R1 forfeit win: own 3; R2 against C: 5; R3 double forfeit: own 3.
    assert a["solkoff"] == 3 + 5 + 3
    assert a["solkoff_cut1"] == 5 + 3
    assert a["solkoff_median"] == 3
    assert _rows()[B].values["solkoff"] == 2 * 3  # three unplayed rounds


def test_sonneborn_berger_counts_unplayed_rounds_as_a_draw_against_own_points():
    # A: 3/2 (forfeit) + 5/2 (draw with C) + 3/2 (double forfeit) = 5.5
    assert _rows()[A].values["sonneborn_berger"] == 5.5
    assert _rows()[B].values["sonneborn_berger"] == 3  # 3 x 2/2


def test_played_only_tiebreaks_ignore_forfeits_and_byes():
    rows = _rows()
    a, b = rows[A].values, rows[B].values
    assert a["wins"] == 0  # a forfeit win is not a win over the board
    assert a["avg_rating_opponents"] == 1800 and a["performance"] == 1800  # C only, 50%
    assert b["avg_rating_opponents"] == 0 and b["performance"] == 0
    assert a["higher_ranked"] == 1  # the draw against C (5 points), not the forfeit
    assert b["higher_ranked"] == 0


def test_progressive_score_includes_unplayed_rounds():
    rows = _rows()
    assert rows[A].values["progressive"] == 2 + 3 + 3
    assert rows[B].values["progressive"] == 0 + 2 + 2


def test_direct_encounter_counts_a_forfeit_by_its_result_but_not_a_double_forfeit():
    tied = [PlayerInfo(A, 1, None, "A"), PlayerInfo(B, 2, None, "B")]
    # A and B tie on 2 points: A from the forfeit win in R1, B from a bye in R2; R3 is a
    # double forfeit. The forfeit counts by its result; the double forfeit adds nothing.
    games = [
        GameRecord(1, A, B, "+/-"),
        GameRecord(2, B, None, "bye"),
        GameRecord(3, B, A, "-/-"),
    ]
    rows = {r.player_id: r for r in compute_standings(tied, games, tiebreaks=["direct_encounter"])}
    assert rows[A].points == rows[B].points == 2
    assert rows[A].values["direct_encounter"] == 2 and rows[B].values["direct_encounter"] == 0
    assert rows[A].rank == 1
    only_double = [GameRecord(1, A, B, "-/-")]
    rows = compute_standings(tied, only_double, tiebreaks=["direct_encounter"])
    assert all(r.values["direct_encounter"] == 0 for r in rows)
    assert "have not met" in rows[0].explain["direct_encounter"][0]
    assert rows[0].shared_rank == "1-2"
