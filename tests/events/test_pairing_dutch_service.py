"""An event that announces the FIDE rules is paired by the Dutch system (C.04.3), chosen
per event; the FMJD-style Swiss stays the default."""

import pytest

from arbiter.errors import Invalid
from arbiter.events import services
from arbiter.events.models import Event
from arbiter.events.pairing import Board, check_pairing
from arbiter.events.records import event_games, player_states
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db
R = Game.Result


@pytest.fixture
def org():
    return make_user("org", organizer=True)


def test_a_dutch_event_is_paired_by_the_dutch_system_c04_3(org):
    event = make_event(org, n_players=9, pairing_system=Event.PairingSystem.DUTCH)
    results = iter([R.WHITE_WINS, R.DRAW, R.BLACK_WINS] * 20)
    rounds = [play_round(event, org, pick=lambda g: next(results)) for _ in range(3)]
    for round_ in rounds:
        assert round_.stats["system"] == "dutch"
        notes = [g.pairing_note for g in round_.games.all()]
        assert all(n.get("system") == "dutch" and n.get("reason") for n in notes)
        entries = list(event.entries.order_by("pairing_number"))
        states = player_states(
            event, entries, event_games(event, before_round=round_.number), round_.number
        )
        boards = [Board(g.board, g.white_id, g.black_id) for g in round_.games.all()]
        assert check_pairing(states, boards) == []  # no rematch, colours within the rules


def test_the_default_stays_the_fmjd_swiss(org):
    event = make_event(org, n_players=6)
    assert event.pairing_system == Event.PairingSystem.FMJD
    round_ = services.pair_next_round(event, by=org)
    assert round_.stats.get("system") != "dutch"


def test_baku_acceleration_pairs_group_a_together_in_round_one_c04_5_1(org):
    event = make_event(org, n_players=8, rounds=9, pairing_system=Event.PairingSystem.DUTCH_BAKU)
    round_ = services.pair_next_round(event, by=org)
    number = {e.player_id: e.pairing_number for e in event.entries.all()}
    pairs = {frozenset((number[g.white_id], number[g.black_id])) for g in round_.games.all()}
    # Group A is 1-4 (a virtual win each), group B 5-8: 1-3, 2-4, 5-7, 6-8.
    assert pairs == {frozenset(p) for p in ((1, 3), (2, 4), (5, 7), (6, 8))}


def test_an_unknown_pairing_system_is_refused(org):
    with pytest.raises(Invalid, match="pairing_system"):
        make_event(org, n_players=2, pairing_system="monrad")


def test_trf_export_marks_who_is_not_paired_next_round(org):
    from arbiter.events import exports
    from arbiter.events.pairing.trf_states import states_before
    from arbiter.events.trf import read_trf

    event = make_event(org, n_players=6, pairing_system=Event.PairingSystem.DUTCH)
    play_round(event, org)
    leaving = event.entries.get(pairing_number=3)
    services.withdraw_entry(leaving, by=org, reason="ill")
    resting = event.entries.get(pairing_number=5)
    services.request_bye(resting, 2, by=org)
    text = exports.trf(event)
    data = states_before(read_trf(text), 2)
    inactive = sorted(p.pairing_number for p in data.players if not p.active)
    assert inactive == [3, 5]
