"""TRF-2026 export: fixed columns checked field by field (FIDE TRF-2026, TRF16 base)."""

from datetime import date

from arbiter.events.tiebreaks import Scoring
from arbiter.events.trf import TrfEvent, TrfPlayer, write_trf

from .test_tiebreaks import GAMES, PLAYERS

EVENT = TrfEvent(
    name="Open Utrecht 2026",
    city="Utrecht",
    federation="NED",
    start_date=date(2026, 11, 28),
    end_date=date(2026, 11, 30),
    system="Round robin",
    chief_arbiter="J. de Vries",
    time_control="90 min + 30 s",
    rounds=5,
    round_dates=(date(2026, 11, 28), date(2026, 11, 28), None, date(2026, 11, 29)),
    tiebreaks=("direct_encounter", "sonneborn_berger", "higher_ranked"),
)
TRF_PLAYERS = [
    TrfPlayer(p.id, p.pairing_number, f"Surname{p.id}, {p.name}", p.rating, federation="ned")
    for p in PLAYERS
]
TRF_PLAYERS[0] = TrfPlayer(
    1,
    1,
    "Ann, Anna",
    2300,
    title="GMI",
    federation="NED",
    fmjd_id="15123",
    sex="w",
    birth_date=date(1990, 5, 17),
)
TRF_PLAYERS[2] = TrfPlayer(3, 3, "Surname3, Cor", 2100, title="GMIF", federation="NED")


def lines():
    text = write_trf(EVENT, TRF_PLAYERS, GAMES, Scoring())
    assert text.endswith("\r\n")
    return text.split("\r\n")[:-1]


def record(tag):
    return [line for line in lines() if line.startswith(tag)]


def col(line, start, end):
    """1-based inclusive columns, as the TRF tables give them."""
    return line[start - 1 : end]


def test_tournament_records():
    assert record("012") == ["012 Open Utrecht 2026"]
    assert record("022") == ["022 Utrecht"]
    assert record("042") == ["042 2026/11/28"] and record("052") == ["052 2026/11/30"]
    assert record("062") == ["062 5"] and record("072") == ["072 4"]  # no. 5 is unrated
    assert record("092") == ["092 Round robin"]
    assert record("102") == ["102 J. de Vries"]
    assert record("122") == ["122 90 min + 30 s"]
    assert record("142") == ["142 5"]


def test_round_dates_in_columns_92_and_every_10():
    (line,) = record("132")
    assert col(line, 92, 99) == "26/11/28"
    assert col(line, 102, 109) == "26/11/28"
    assert col(line, 112, 119).strip() == ""
    assert col(line, 122, 129) == "26/11/29"


def test_fmjd_7_scoring_two_one_zero_written_in_record_162():
    assert record("162") == ["162  W 2.0    D 1.0"]
    (line,) = record("162")
    assert col(line, 6, 6) == "W" and col(line, 7, 10) == " 2.0"
    assert col(line, 15, 15) == "D" and col(line, 16, 19) == " 1.0"
    # A bye worth a draw is written as P (pairing-allocated bye) after W and D.
    text = write_trf(EVENT, TRF_PLAYERS, GAMES, Scoring(bye=1))
    (line,) = [x for x in text.split("\r\n") if x.startswith("162")]
    assert col(line, 24, 24) == "P" and col(line, 25, 28) == " 1.0"


def test_tiebreak_codes_where_fide_has_one():
    assert record("202") == ["202 DE,SB"]
    assert any(line.startswith("### tie-breaks") for line in lines())


def test_player_line_fields():
    line = record("001")[0]
    assert col(line, 1, 3) == "001"
    assert col(line, 5, 8) == "   1"
    assert col(line, 10, 10) == "w"
    assert col(line, 11, 13) == "GMI"
    assert col(line, 15, 47) == "Ann, Anna".ljust(33)
    assert col(line, 49, 52) == "2300"
    assert col(line, 54, 56) == "NED"
    assert col(line, 58, 68) == "15123".rjust(11)
    assert col(line, 70, 79) == "1990/05/17"
    assert col(line, 81, 84) == " 7.0"  # points in the event's scoring
    assert col(line, 86, 89) == "   1"  # first on direct encounter against no. 3


def test_round_fields_opponent_colour_result():
    by_number = {int(col(line, 5, 8)): line for line in record("001")}

    def rnd(no, r):
        start = 92 + 10 * (r - 1)
        line = by_number[no]
        return (
            col(line, start, start + 3),
            col(line, start + 5, start + 5),
            col(line, start + 7, start + 7),
        )

    assert rnd(1, 1) == ("0000", "-", "U")  # pairing-allocated bye
    assert rnd(1, 2) == ("   2", "w", "=")  # draw with white against no. 2
    assert rnd(1, 3) == ("   3", "b", "1")  # won with black against no. 3
    assert rnd(1, 4) == ("   4", "w", "+")  # forfeit win
    assert rnd(4, 4) == ("   1", "b", "-")  # forfeit loss
    assert rnd(1, 5) == ("   5", "b", "0")  # lost with black against no. 5


def test_long_draughts_title_goes_to_a_comment():
    line = [x for x in record("001") if col(x, 5, 8) == "   3"][0]
    assert col(line, 11, 13) == "   "
    assert "### title of no. 3: GMIF" in lines()


def test_withdrawn_player_rounds_are_zero_point_absences():
    from arbiter.events.tiebreaks import GameRecord

    games = [*GAMES, GameRecord(6, 1, 2, "2-0")]  # round 6: only 1-2 played; 3, 4, 5 absent
    text = write_trf(EVENT, TRF_PLAYERS, games, Scoring())
    line = [x for x in text.split("\r\n") if x.startswith("001    3")][0]
    assert col(line, 142, 149) == "0000 - Z"


def test_an_independent_trf_parser_reads_the_same_results():
    """Cross-check with another program's TRF16 parser, when installed (the bench extra)."""
    import pytest

    trf = pytest.importorskip("caissify_pairings.trf")
    from arbiter.events.tiebreaks import GameRecord
    from devtools.pairing_simulation import SwissSimulation

    sim = SwissSimulation(15, 4, forfeit_rate=0.1, withdraw_rate=0.05)
    sim.run(5)
    players = [TrfPlayer(p.id, p.pairing_number, f"Player {p.id}", p.rating) for p in sim.players]
    games = [GameRecord(*g) for g in sim.games]
    parsed = trf.parse_trf(write_trf(TrfEvent("Sim", rounds=5), players, games, Scoring()))
    by_number = {p["starting_number"]: p for p in parsed["players"]}
    for p in sim.players:
        # Points in the event's scoring (2/1/0), as the 162 record says.
        assert by_number[p.pairing_number]["score"] == p.score
    number = {p.id: p.pairing_number for p in sim.players}
    for rnd, white, black, result in sim.games:
        got = by_number[number[white]]["results"][rnd]
        if black is None:
            assert got["result"] == "U"
        else:
            assert got["opponent"] == number[black] and got["color"] == "w"
            assert (
                got["result"]
                == {"2-0": "1", "1-1": "=", "0-2": "0", "+/-": "+", "-/+": "-"}[result]
            )


# --- reading (the files Swiss-Manager, Vega, JaVaFo and bbpPairings write) ---------------

READ_SAMPLE = "\r".join(
    [
        "012 Sample Open",
        "XXR 5",
        "XXC black1",
        "BBW  2.0",
        "BBD  1.0",
        "001    1      One                               2300                             "
        "2.0    1     2 w 1     3 b =",
        "001    2      Two                               2200                             "
        "0.0    3     1 b 0  0000 - Z",
        "001    3      Three                             2100                             "
        "3.0    2  0000 - U     1 w =",
        "XXA    1  1.0  0.5",
        "XXP 2 3",
        "",
    ]
)


def test_read_trf_records_and_cells():
    from arbiter.events.trf import read_trf

    trf = read_trf(READ_SAMPLE)
    assert trf.name == "Sample Open"
    assert trf.rounds == 5 and trf.initial_colour == "B"
    assert trf.value("win") == 2.0 and trf.value("draw") == 1.0 and trf.value("U") == 2.0
    one = trf.players[1]
    assert one.rating == 2300 and one.points == 2.0
    assert [(c.opponent, c.colour, c.code) for c in one.cells] == [(2, "w", "1"), (3, "b", "=")]
    assert trf.players[2].cells[1].paired is False  # Z: not paired in round 2
    assert trf.players[3].cells[0].paired is True  # U: the pairing-allocated bye
    assert trf.accelerations[1] == [1.0, 0.5]
    assert trf.forbidden == [(2, 3)]
    assert trf.paired_rounds == 2


def test_read_trf_says_which_line_is_wrong():
    import pytest

    from arbiter.events.trf import TrfError, read_trf

    bad = READ_SAMPLE.replace("    2 w 1", "    2 w ?")
    with pytest.raises(TrfError, match="line 6, round 1"):
        read_trf(bad)
    with pytest.raises(TrfError, match="opponent 9 has no player line"):
        read_trf(READ_SAMPLE.replace("    3 b =", "    9 b ="))


def test_states_before_a_round_from_a_trf():
    from arbiter.events.pairing.trf_states import states_before
    from arbiter.events.trf import read_trf

    data = states_before(read_trf(READ_SAMPLE), 2)
    by_number = {p.pairing_number: p for p in data.players}
    assert by_number[1].score == 20 and by_number[1].colours == ("W",)
    assert by_number[3].had_bye and by_number[3].floats == ("down",)  # the bye is a downfloat
    assert by_number[2].active is False  # Z in round 2: not paired
    assert data.acceleration == {1: 5}
    assert data.initial_colour == "B"
    assert data.forbidden == [(2, 3)]


def test_players_not_paired_next_round_are_marked_for_pairing_programs():
    from arbiter.events.pairing.trf_states import states_before
    from arbiter.events.trf import read_trf

    text = write_trf(EVENT, TRF_PLAYERS, GAMES, after_round=2, not_paired_next={2: "Z"})
    two = next(line for line in text.split("\r\n") if line.startswith("001    2"))
    assert two[91 + 20 : 91 + 28] == "0000 - Z"  # round 3 columns
    data = states_before(read_trf(text), 3)
    active = {p.pairing_number: p.active for p in data.players}
    assert active[2] is False and all(v for k, v in active.items() if k != 2)
