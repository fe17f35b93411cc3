"""The services behind the organizer's pages: settings fixed by a paired or published round,
every bad value at once, chief and deputy arbiters, an arbiter's new login, one player
entered or corrected."""

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Entry
from tests.accounts.builders import make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def org():
    return make_user("org", organizer=True)


def test_before_round_1_every_setting_may_change(org):
    event = make_event(org, n_players=4)
    assert services.locked_settings(event) == {}
    services.update_event(
        event, by=org, time_control="4800+60", tiebreaks=["wins", "solkoff"], points_win=3
    )
    event.refresh_from_db()
    assert (event.time_control, event.tiebreaks, event.points_win) == (
        "4800+60",
        ["wins", "solkoff"],
        3,
    )


def test_a_paired_draft_round_fixes_the_system_and_numbering_only(org):
    event = make_event(org, n_players=4)
    services.pair_next_round(event, by=org)
    locked = services.locked_settings(event)
    assert set(locked) == {"system", "numbering", "pairing_seed"}
    services.update_event(event, by=org, time_control="4800+60")  # still allowed
    with pytest.raises(Conflict, match="system: fixed once round 1 is paired"):
        services.update_event(event, by=org, system="round_robin")


def test_once_round_1_is_published_the_rules_of_play_are_fixed_and_the_reason_given(org):
    event = make_event(org, n_players=4, tiebreaks=["solkoff"])
    services.publish_round(services.pair_next_round(event, by=org), by=org)
    with pytest.raises(Conflict) as refused:
        services.update_event(event, by=org, tiebreaks=["wins"], time_control="4800+60")
    assert "players were told these rules before they played" in refused.value.message
    assert refused.value.details["fields"] == ["tiebreaks", "time_control"]
    event.refresh_from_db()
    assert (event.tiebreaks, event.time_control) == (["solkoff"], "50/7200:25/3600")
    # What may still change does.
    services.update_event(event, by=org, name="Renamed Open", place="Emmen", rounds=7)
    event.refresh_from_db()
    assert (event.name, event.place, event.rounds) == ("Renamed Open", "Emmen", 7)


def test_check_settings_gives_every_bad_value_at_once_with_the_apis_messages(org):
    errors = services.check_settings(
        {"name": " ", "rounds": 0, "time_control": "7200/50", "late_arrival_minutes": 90}
    )
    assert set(errors) == {"name", "rounds", "time_control", "late_arrival_minutes"}
    with pytest.raises(Invalid) as api:
        services.create_event(by=org, name="X", rounds=5, time_control="7200/50")
    assert errors["time_control"] == api.value.message
    assert "outside 0..60 (FMJD)" in errors["late_arrival_minutes"]


def test_check_settings_names_what_a_published_round_fixed(org):
    event = make_event(org, n_players=4)
    services.publish_round(services.pair_next_round(event, by=org), by=org)
    errors = services.check_settings({"points_win": 3, "name": "New name"}, event=event)
    assert list(errors) == ["points_win"]
    assert "fixed once round 1 is published" in errors["points_win"]


def test_the_organizer_names_a_chief_arbiter_and_deputies(org):
    event = make_event(org)
    chief, deputy = make_user("chief"), make_user("deputy")
    services.set_arbiters(event, [deputy], by=org, chief=chief)
    event.refresh_from_db()
    assert event.chief_arbiter == chief
    assert set(event.arbiters.all()) == {chief, deputy}  # the chief is an arbiter too
    log = AuditEntry.objects.filter(event=event, action="event.arbiters").latest("at")
    assert log.new == {"arbiters": ["chief", "deputy"], "chief": "chief"}
    with pytest.raises(Forbidden):
        services.set_arbiters(event, [], by=deputy)
    # Naming the arbiters again without a chief (as the API does) keeps the chief...
    services.set_arbiters(event, [chief, deputy, make_user("third")], by=org)
    event.refresh_from_db()
    assert event.chief_arbiter == chief
    # ...unless they are no longer an arbiter.
    services.set_arbiters(event, [deputy], by=org)
    event.refresh_from_db()
    assert event.chief_arbiter is None


def test_inviting_an_arbiter_creates_their_login_and_names_them_deputy(org):
    event = make_event(org)
    services.invite_arbiter(
        event, by=org, username="anna", password="a-long-pass-2026", full_name="Anna de Vries"
    )
    anna = event.arbiters.get(username="anna")
    assert anna.check_password("a-long-pass-2026") and anna.get_full_name() == "Anna de Vries"
    with pytest.raises(Conflict, match="'Anna' is taken"):
        services.invite_arbiter(event, by=org, username="Anna", password="a-long-pass-2026")
    with pytest.raises(Invalid, match="password: "):
        services.invite_arbiter(event, by=org, username="bob", password="123")
    assert not event.arbiters.filter(username="bob").exists()
    with pytest.raises(Forbidden):
        services.invite_arbiter(event, by=anna, username="carl", password="a-long-pass-2026")


def test_an_arbiter_enters_one_player_and_corrects_a_rating(org):
    arbiter = make_user("arb")
    event = make_event(org, arbiters=[arbiter], n_players=2)
    entry = services.enter_player(
        event, by=arbiter, surname="Boomstra", given_name="Roel", rating="2400", federation="ned"
    )
    assert entry.pairing_number == 3 and entry.player.federation == "NED"
    services.correct_player(entry, by=arbiter, rating="2410")
    entry.player.refresh_from_db()
    assert entry.player.rating == 2410
    with pytest.raises(Invalid, match="rating: 'x' is not a whole number"):
        services.enter_player(event, by=arbiter, surname="Bad", rating="x")
    assert Entry.objects.filter(event=event).count() == 3  # the bad one made nothing


def test_a_user_who_is_no_arbiter_of_the_event_cannot_enter_or_correct_players(org):
    other_event = make_event(org, name="Other", arbiters=[make_user("elsewhere")])
    event = make_event(org, n_players=1)
    stranger = other_event.arbiters.get()
    with pytest.raises(Forbidden):
        services.enter_player(event, by=stranger, surname="X")
    with pytest.raises(Forbidden):
        services.correct_player(event.entries.get(), by=stranger, rating="1")
