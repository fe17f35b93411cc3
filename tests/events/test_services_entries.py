import pytest
from django.contrib.auth.models import AnonymousUser

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Entry, Player
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db


def _numbers(event):
    return {e.player.surname: e.pairing_number for e in event.entries.select_related("player")}


def _player(org, surname, rating=None, given=""):
    return services.create_player(by=org, surname=surname, given_name=given, rating=rating)


def test_entries_are_numbered_as_entered_until_the_event_starts(org):
    event = make_event(org)
    for name, rating in [("Low", 1500), ("High", 2300), ("Mid", 1900)]:
        services.add_entry(event, _player(org, name, rating), by=org)
    assert _numbers(event) == {"Low": 1, "High": 2, "Mid": 3}


def test_at_start_numbers_go_by_rating_then_name_unrated_last(org):
    event = make_event(org)
    for name, rating in [("Zeta", 2000), ("Unrated", None), ("Alpha", 2000), ("Top", 2400)]:
        services.add_entry(event, _player(org, name, rating), by=org)
    services.pair_next_round(event, by=org)
    assert _numbers(event) == {"Top": 1, "Alpha": 2, "Zeta": 3, "Unrated": 4}
    event.refresh_from_db()
    assert event.status == "running"


def test_numbering_as_entered_is_kept_at_start(org):
    event = make_event(org, numbering="entry")
    for name, rating in [("Low", 1500), ("High", 2300)]:
        services.add_entry(event, _player(org, name, rating), by=org)
    services.start_event(event, by=org)
    assert _numbers(event) == {"Low": 1, "High": 2}


def test_numbering_by_lot_is_reproducible_from_the_seed(org):
    orders = []
    for i in range(2):
        event = make_event(org, name=f"Lot {i}", numbering="lot", pairing_seed="drawn-7")
        for k in range(8):
            services.add_entry(event, _player(org, f"P{i}-{k}", 2000), by=org)
        services.start_event(event, by=org)
        orders.append([e.player.surname[3:] for e in event.entries.order_by("pairing_number")])
    assert orders[0] == orders[1]
    assert orders[0] != [str(k) for k in range(8)]  # really shuffled (fixed seed)


def test_an_arbiter_of_another_event_cannot_add_entries(org):
    arb_a, arb_b = make_user("a"), make_user("b")
    event_a = make_event(org, name="A", arbiters=[arb_a])
    make_event(org, name="B", arbiters=[arb_b])
    player = _player(org, "Someone")
    with pytest.raises(Forbidden):
        services.add_entry(event_a, player, by=arb_b)
    services.add_entry(event_a, player, by=arb_a)
    assert event_a.entries.count() == 1


def test_a_player_may_not_enter_anyone(org):
    user = make_user("p")
    player = _player(org, "Self")
    services.link_user(player, user, by=org)
    event = make_event(org)
    with pytest.raises(Forbidden):
        services.add_entry(event, player, by=user)


def test_a_player_cannot_be_entered_twice(org):
    event = make_event(org)
    player = _player(org, "Twice")
    services.add_entry(event, player, by=org)
    with pytest.raises(Conflict, match="already entered"):
        services.add_entry(event, player, by=org)


def test_create_player_checks_fields_and_unique_fmjd_id(org):
    services.create_player(by=org, surname="A", fmjd_id="123")
    with pytest.raises(Conflict, match="123"):
        services.create_player(by=org, surname="B", fmjd_id="123")
    with pytest.raises(Invalid, match="federation"):
        services.create_player(by=org, surname="C", federation="Netherlands")
    with pytest.raises(Invalid, match="surname"):
        services.create_player(by=org, surname="  ")
    with pytest.raises(Forbidden):
        services.create_player(by=make_user("nobody"), surname="D")
    assert Player.objects.count() == 1


def test_late_entry_joins_a_running_swiss_at_the_next_round(org):
    event = make_event(org, n_players=5)
    play_round(event, org)
    late = _player(org, "Late", 2500)
    entry = services.add_entry(event, late, by=org)
    assert entry.pairing_number == 6
    log = AuditEntry.objects.get(event=event, action="entry.add", target=str(late))
    assert log.new["late"] is True and log.new["first_round"] == 2
    round2 = services.pair_next_round(event, by=org)
    assert round2.games.filter(white=late).exists() or round2.games.filter(black=late).exists()


def test_no_late_entry_in_a_round_robin_once_paired(org):
    event = make_event(org, system="round_robin", n_players=4)
    services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="round robin"):
        services.add_entry(event, _player(org, "Late"), by=org)


def test_withdrawal_before_the_start_removes_the_entry(org):
    event = make_event(org, n_players=3)
    entry = event.entries.first()
    assert services.withdraw_entry(entry, by=org, reason="ill") is None
    assert event.entries.count() == 2
    assert AuditEntry.objects.filter(event=event, action="entry.remove", reason="ill").exists()


def test_a_withdrawn_player_is_not_paired_in_later_rounds(org):
    event = make_event(org, n_players=5)
    play_round(event, org)
    entry = event.entries.get(pairing_number=1)
    services.withdraw_entry(entry, by=org, reason="left")
    entry.refresh_from_db()
    assert (entry.status, entry.withdrawn_after_round) == (Entry.Status.WITHDRAWN, 1)
    round2 = services.pair_next_round(event, by=org)
    in_round = set(round2.games.values_list("white", flat=True)) | set(
        round2.games.values_list("black", flat=True)
    )
    assert entry.player_id not in in_round
    assert len(in_round - {None}) == 4  # the other four, no bye needed


def test_a_player_announces_their_own_absence_but_not_another_players(org):
    event = make_event(org, n_players=4)
    own, other = event.entries.order_by("pairing_number")[:2]
    user = make_user("p1")
    services.link_user(own.player, user, by=org)
    services.set_absent(own, [2, 3], by=user, reason="exam")
    own.refresh_from_db()
    assert own.absent_rounds == [2, 3]
    with pytest.raises(Forbidden):
        services.set_absent(other, [2], by=user)
    with pytest.raises(Forbidden):
        services.request_bye(other, 2, by=user)
    with pytest.raises(Forbidden):
        services.set_absent(own, [4], by=AnonymousUser())


def test_absence_for_a_paired_round_is_refused(org):
    event = make_event(org, n_players=4)
    services.pair_next_round(event, by=org)
    entry = event.entries.first()
    with pytest.raises(Conflict, match="already paired"):
        services.set_absent(entry, [1], by=org)
    with pytest.raises(Invalid, match=r"round\(s\) 9 do not exist \(1\.\.5\)") as exc:
        services.set_absent(entry, [9], by=org)
    assert exc.value.as_dict()["params"] == {
        "what": {"code": "field.absent_rounds", "params": {}},
        "rounds": [9],
        "last": 5,
    }


def test_an_absent_player_is_not_paired_in_a_swiss(org):
    event = make_event(org, n_players=5)
    absent = event.entries.get(pairing_number=2)
    services.set_absent(absent, [1], by=org)
    round1 = services.pair_next_round(event, by=org)
    ids = set(round1.games.values_list("white", flat=True)) | set(
        round1.games.values_list("black", flat=True)
    )
    assert absent.player_id not in ids
    assert round1.games.filter(black__isnull=True).count() == 0  # four left: no bye


def test_a_requested_bye_gives_no_game_and_no_points(org):
    event = make_event(org, n_players=4)
    entry = event.entries.get(pairing_number=3)
    user = make_user("p3")
    services.link_user(entry.player, user, by=org)
    services.request_bye(entry, 1, by=user)
    round1 = services.pair_next_round(event, by=org)
    assert not Game.objects.filter(round=round1, white=entry.player).exists()
    assert not Game.objects.filter(round=round1, black=entry.player).exists()
    # Three players left: one pairing-allocated bye, one game.
    assert round1.games.count() == 2
    assert round1.games.filter(result="bye").count() == 1


def test_a_requested_bye_can_be_taken_back(org):
    event = make_event(org, n_players=4)
    entry = event.entries.first()
    services.request_bye(entry, 2, by=org)
    services.request_bye(entry, 2, by=org, cancel=True)
    entry.refresh_from_db()
    assert entry.requested_byes == []


def test_no_requested_byes_in_a_round_robin(org):
    event = make_event(org, system="round_robin", n_players=4)
    with pytest.raises(Conflict, match="round robin"):
        services.request_bye(event.entries.first(), 1, by=org)


def test_a_round_robin_has_as_many_rounds_as_its_berger_table_before_the_start(org):
    event = make_event(org, system="round_robin", n_players=5)
    event.refresh_from_db()
    assert event.rounds == 5  # odd: each player is free once
    services.add_entry(event, _player(org, "Sixth"), by=org)
    event.refresh_from_db()
    assert event.rounds == 5
    services.withdraw_entry(event.entries.first(), by=org)
    services.withdraw_entry(event.entries.first(), by=org)
    event.refresh_from_db()
    assert event.rounds == 3
    services.update_event(event, by=org, system="double_round_robin")
    event.refresh_from_db()
    assert event.rounds == 6


def test_withdrawals_are_for_the_events_arbiters_not_players_or_other_arbiters(org):
    other = make_user("other")
    event = make_event(org, n_players=4)
    make_event(org, name="Other", arbiters=[other])
    entry = event.entries.first()
    own = make_user("own")
    services.link_user(entry.player, own, by=org)
    for user in (own, other, AnonymousUser()):
        with pytest.raises(Forbidden):
            services.withdraw_entry(entry, by=user)
    assert event.entries.count() == 4


def test_update_player_is_logged_in_the_players_events(org):
    event = make_event(org, n_players=2)
    player = event.entries.get(pairing_number=1).player
    services.update_player(player, by=org, rating=2222)
    entry = AuditEntry.objects.get(event=event, action="player.update")
    assert entry.new == {"rating": 2222} and entry.old == {"rating": 2000}
    services.update_player(player, by=org, rating=2222)  # no change, no entry
    assert AuditEntry.objects.filter(action="player.update").count() == 1
