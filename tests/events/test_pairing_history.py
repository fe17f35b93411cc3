"""build_states: the pairing's inputs derived from the game records of earlier rounds."""

import pytest

from arbiter.events.pairing import EntryInfo, build_states
from arbiter.events.tiebreaks import GameRecord, Scoring
from devtools.pairing_simulation import SwissSimulation


def test_states_from_records_match_a_simulated_events_own_bookkeeping():
    sim = SwissSimulation(25, 3, forfeit_rate=0.1, withdraw_rate=0.03, bye_request_rate=0.05)
    for rnd in range(1, 8):
        sim.prepare_round()
        expected = sim.states()
        games = [GameRecord(*g) for g in sim.games]
        got = build_states(
            sim.entries(),
            games,
            rnd,
            bye_requests=[p.id for p in sim.players if p.bye_requested],
        )
        assert got == expected
        sim.play(sim.pair())


def test_fide_c04_1_b_and_d_forfeits_are_not_meetings_and_count_as_a_bye_for_the_winner():
    entries = [EntryInfo(1, 1, 2000), EntryInfo(2, 2, 1900), EntryInfo(3, 3, 1800)]
    games = [
        GameRecord(1, 1, 2, "+/-"),
        GameRecord(1, 3, None, "bye"),
        GameRecord(2, 2, 3, "1-1"),
    ]
    s1, s2, s3 = build_states(entries, games, 3, absent=[1])
    assert (s1.score, s1.opponents, s1.colours, s1.had_bye, s1.active) == (
        2,
        (),
        ("-", "-"),
        True,
        False,
    )
    # Each was in a pairing (a forfeit, the bye): the Dutch colours by rank count them.
    assert s1.paired_before and s2.paired_before and s3.paired_before
    without_round_one = build_states(entries, games[2:], 3, absent=[1])
    assert [s.paired_before for s in without_round_one] == [False, True, True]
    assert (s2.score, s2.opponents, s2.colours, s2.had_bye) == (1, (3,), ("-", "W"), False)
    assert (s3.score, s3.opponents, s3.colours, s3.had_bye) == (3, (2,), ("-", "B"), True)
    # Floats: 1 (0) v 2 (0) equal; 3's bye is a downfloat; round 2: 2 (0) v 3 (2): up, down.
    assert s1.floats == (None, None) and s2.floats == (None, "up") and s3.floats == ("down", "down")


def test_fmjd_7_scoring_and_bad_records():
    entries = [EntryInfo(1, 1), EntryInfo(2, 2)]
    s1, s2 = build_states(entries, [GameRecord(1, 1, 2, "2-0")], 2, scoring=Scoring(win=3))
    assert (s1.score, s2.score) == (3, 0)
    with pytest.raises(ValueError, match="has no entry"):
        build_states(entries, [GameRecord(1, 1, 9, "2-0")], 2)
    with pytest.raises(ValueError, match="unknown result"):
        build_states(entries, [GameRecord(1, 1, 2, "1-0")], 2)
