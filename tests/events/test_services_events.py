import pytest
from django.contrib.auth.models import AnonymousUser

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Event
from tests.accounts.builders import make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db


def test_organizer_creates_a_swiss_event_with_settings_and_is_its_owner(org):
    event = services.create_event(
        by=org,
        name="Club Open",
        system="swiss",
        rounds=7,
        time_control="45/5400+30:1800+30",
        tiebreaks=["solkoff_cut1", "sonneborn_berger"],
        late_arrival_minutes=30,
        points_bye=1,
        published=True,
    )
    event.refresh_from_db()
    assert event.organizer == org
    assert (event.rounds, event.time_control, event.late_arrival_minutes) == (
        7,
        "45/5400+30:1800+30",
        30,
    )
    assert event.tiebreaks == ["solkoff_cut1", "sonneborn_berger"]
    assert event.points_bye == 1 and event.published
    assert event.slug == "club-open"
    assert AuditEntry.objects.filter(event=event, action="event.create", user=org).exists()


def test_slugs_stay_unique_for_events_of_the_same_name(org):
    a = services.create_event(by=org, name="Open", rounds=5)
    b = services.create_event(by=org, name="Open", rounds=5)
    assert a.slug != b.slug


@pytest.mark.parametrize("who", ["anonymous", "plain user"])
def test_only_organizers_may_create_events(who):
    user = AnonymousUser() if who == "anonymous" else make_user("someone")
    with pytest.raises(Forbidden):
        services.create_event(by=user, name="X", rounds=5)
    assert not Event.objects.exists()


def test_unknown_tiebreak_code_is_refused_naming_it(org):
    with pytest.raises(Invalid) as exc:
        services.create_event(by=org, name="X", rounds=5, tiebreaks=["solkoff", "buchholz"])
    assert "buchholz" in exc.value.message and exc.value.details["unknown"] == ["buchholz"]
    assert not Event.objects.exists()


def test_a_tiebreak_listed_twice_is_refused(org):
    with pytest.raises(Invalid, match="twice"):
        services.create_event(by=org, name="X", rounds=5, tiebreaks=["wins", "wins"])


@pytest.mark.parametrize("tc", ["50/7200:25/3600", "4800+60", "45/5400+30:1800+30", "1800d5", "-"])
def test_pdn_time_control_tags_are_accepted(org, tc):
    assert services.create_event(by=org, name="X", rounds=5, time_control=tc).time_control == tc


def test_a_time_control_is_stored_in_its_canonical_form(org):
    event = services.create_event(by=org, name="X", rounds=5, time_control=" 50/7200 : 25/3600 ")
    assert event.time_control == "50/7200:25/3600"


@pytest.mark.parametrize(
    ("tc", "hint"), [("7200/50:3600/25", "7200/50"), ("5400/45:1800+30", "5400/45")]
)
def test_a_time_control_written_seconds_first_is_refused_with_a_hint(org, tc, hint):
    # PDN/PGN write moves first: "7200/50" would be 7200 moves in 50 seconds.
    with pytest.raises(Invalid, match=f"did you mean '{hint.split('/')[1]}/{hint.split('/')[0]}'"):
        services.create_event(by=org, name="X", rounds=5, time_control=tc)


@pytest.mark.parametrize("tc", ["", "two hours", "50/7200::3600", "90 min", "?", "*180"])
def test_a_time_control_that_is_no_pdn_tag_is_refused(org, tc):
    with pytest.raises(Invalid, match="time_control"):
        services.create_event(by=org, name="X", rounds=5, time_control=tc)


@pytest.mark.parametrize("minutes", [-1, 61, 90])
def test_fmjd_late_arrival_limit_is_between_0_and_60_minutes(org, minutes):
    with pytest.raises(Invalid, match="late_arrival_minutes"):
        services.create_event(by=org, name="X", rounds=5, late_arrival_minutes=minutes)


def test_a_swiss_needs_its_number_of_rounds(org):
    with pytest.raises(Invalid, match="rounds"):
        services.create_event(by=org, name="X", system="swiss")


def test_numbering_by_lot_needs_a_seed(org):
    with pytest.raises(Invalid, match="pairing_seed"):
        services.create_event(by=org, name="X", rounds=5, numbering="lot")


def test_a_new_event_cannot_start_as_running(org):
    with pytest.raises(Invalid, match="status"):
        services.create_event(by=org, name="X", rounds=5, status="running")


def test_update_event_logs_old_and_new_values_with_reason(org):
    event = make_event(org)
    services.update_event(event, by=org, rounds=9, tiebreaks=["wins"], reason="longer event")
    event.refresh_from_db()
    assert event.rounds == 9 and event.tiebreaks == ["wins"]
    log = AuditEntry.objects.get(event=event, action="event.update")
    assert log.old == {"rounds": 5, "tiebreaks": []}
    assert log.new == {"rounds": 9, "tiebreaks": ["wins"]}
    assert log.reason == "longer event" and log.user == org


def test_arbiters_and_other_organizers_may_not_change_an_event(org):
    arbiter = make_user("arb")
    event = make_event(org, arbiters=[arbiter])
    other_org = make_user("org2", organizer=True)
    for user in (arbiter, other_org, AnonymousUser()):
        with pytest.raises(Forbidden):
            services.update_event(event, by=user, rounds=3)
    event.refresh_from_db()
    assert event.rounds == 5


def test_update_with_a_bad_value_changes_nothing(org):
    event = make_event(org)
    with pytest.raises(Invalid):
        services.update_event(event, by=org, rounds=9, tiebreaks=["nope"])
    event.refresh_from_db()
    assert event.rounds == 5


def test_system_and_numbering_are_fixed_once_round_one_is_paired(org):
    event = make_event(org, n_players=4)
    services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="system"):
        services.update_event(event, by=org, system="round_robin")
    with pytest.raises(Conflict, match="numbering"):
        services.update_event(event, by=org, numbering="entry")


def test_rounds_cannot_drop_below_the_rounds_already_paired(org):
    event = make_event(org, n_players=4)
    play_round(event, org)
    services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="rounds"):
        services.update_event(event, by=org, rounds=1)


def test_finishing_an_event_with_games_still_unplayed_is_refused(org):
    event = make_event(org, n_players=4)
    services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="no result"):
        services.update_event(event, by=org, status="finished")


def test_only_the_organizer_assigns_arbiters(org):
    arbiter = make_user("arb")
    event = make_event(org, arbiters=[arbiter])
    assert list(event.arbiters.all()) == [arbiter]
    with pytest.raises(Forbidden):
        services.set_arbiters(event, [arbiter, make_user("friend")], by=arbiter)
    assert event.arbiters.count() == 1


def test_reopening_a_finished_event_keeps_its_pairing_numbers(org):
    event = make_event(org, n_players=4)
    play_round(event, org)
    late = services.create_player(by=org, surname="Late", rating=2900)
    services.add_entry(event, late, by=org)  # no. 5, though the highest rated
    numbers = list(event.entries.order_by("pairing_number").values_list("player_id", flat=True))
    services.update_event(event, by=org, status="finished")
    services.update_event(event, by=org, status="running")
    assert (
        list(event.entries.order_by("pairing_number").values_list("player_id", flat=True))
        == numbers
    )


def test_setting_status_running_before_round_one_gives_the_numbers(org):
    event = make_event(org, n_players=3, ratings=[1500, 2000, 1800])
    services.update_event(event, by=org, status="running")
    ratings = [e.player.rating for e in event.entries.order_by("pairing_number")]
    assert ratings == [2000, 1800, 1500]
