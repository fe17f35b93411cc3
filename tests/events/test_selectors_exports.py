import csv
import io
import json

import pytest

from arbiter.events import exports, services
from arbiter.games.models import Game
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db
R = Game.Result


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_standings_csv_has_one_column_per_tiebreak_and_shared_ranks(org):
    event = make_event(org, n_players=4, tiebreaks=["wins", "solkoff"])
    play_round(event, org)  # all draws: all equal
    rows = _rows(exports.standings_csv(event))
    assert rows[0] == [
        "rank",
        "no",
        "name",
        "federation",
        "rating",
        "title",
        "points",
        "games",
        "wins",
        "solkoff",
    ]
    assert {r[0] for r in rows[1:]} == {"1-4"}
    assert {r[6] for r in rows[1:]} == {"1"}


def test_standings_json_after_a_round_ignores_later_rounds(org):
    event = make_event(org, n_players=4)
    play_round(event, org, lambda g: R.WHITE_WINS)
    play_round(event, org, lambda g: R.WHITE_WINS)
    after1 = exports.standings_data(event, after_round=1)
    json.dumps(after1)  # serialisable as it is
    assert sorted(r["points"] for r in after1["rows"]) == [0, 0, 2, 2]
    assert sum(r["points"] for r in exports.standings_data(event)["rows"]) == 8


def test_pairings_csv_by_board_and_alphabetical_and_json_not_paired(org):
    event = make_event(org, n_players=5)
    services.set_absent(event.entries.get(pairing_number=5), [1], by=org)
    round1 = services.pair_next_round(event, by=org)
    board_rows = _rows(exports.pairings_csv(round1))
    assert board_rows[0][:3] == ["board", "white_no", "white"]
    assert [r[0] for r in board_rows[1:]] == ["1", "2"]
    alpha = _rows(exports.pairings_csv(round1, order="alpha"))
    assert len(alpha) == 6 and [r[0] for r in alpha[1:]] == sorted(r[0] for r in alpha[1:])
    data = exports.pairings_data(round1)
    json.dumps(data)
    assert [n["reason"] for n in data["not_paired"]] == ["absent"]


def test_trf_of_a_rounds_state(org):
    event = make_event(org, n_players=4, tiebreaks=["solkoff"], place="Utrecht")
    play_round(event, org, lambda g: R.WHITE_WINS)
    play_round(event, org)
    event.refresh_from_db()
    full = exports.trf(event)
    after1 = exports.trf(event, after_round=1)
    assert "012 Test Open" in full and "022 Utrecht" in full
    players = [ln for ln in after1.splitlines() if ln.startswith("001")]
    assert len(players) == 4
    # After round 1: the points column (81-84) holds 2.0 or 0.0, never the round 2 draws.
    assert sorted(ln[80:84].strip() for ln in players) == ["0.0", "0.0", "2.0", "2.0"]
    full_players = [ln for ln in full.splitlines() if ln.startswith("001")]
    assert sorted(ln[80:84].strip() for ln in full_players) == ["1.0", "1.0", "3.0", "3.0"]
