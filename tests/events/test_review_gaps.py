"""Gaps closed in review: round start times, requested byes and start times on the arbiter's
desk, admin saves in the audit log, player corrections logged."""

import datetime as dt
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Entry, Event, Round

from .builders import make_event, make_user, play_round

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 5, 1, 13, 30, tzinfo=dt.UTC)


@pytest.fixture
def org():
    return make_user("org", organizer=True)


def test_schedule_round_sets_the_start_and_logs_old_and_new(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    services.schedule_round(round1, START, by=org, reason="hall opens late")
    round1.refresh_from_db()
    assert round1.scheduled_start == START
    later = START + dt.timedelta(hours=1)
    services.schedule_round(round1, later, by=org)
    entry = AuditEntry.objects.filter(event=event, action="round.schedule").first()
    assert entry.old == START.isoformat() and entry.new == later.isoformat()
    assert AuditEntry.objects.filter(event=event, action="round.schedule").count() == 2
    services.schedule_round(round1, None, by=org)
    round1.refresh_from_db()
    assert round1.scheduled_start is None


def test_schedule_round_refuses_a_time_without_zone_and_changes_nothing(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    with pytest.raises(Invalid, match="time zone"):
        services.schedule_round(round1, dt.datetime(2026, 5, 1, 13, 30), by=org)
    with pytest.raises(Invalid, match="date and time"):
        services.schedule_round(round1, "tomorrow", by=org)
    round1.refresh_from_db()
    assert round1.scheduled_start is None
    assert not AuditEntry.objects.filter(action="round.schedule").exists()


def test_schedule_round_is_refused_to_others_and_for_finished_rounds(org):
    event = make_event(org, n_players=4)
    other_arbiter = make_user("other")
    make_event(org, name="Other Open", arbiters=[other_arbiter])
    round1 = play_round(event, org)
    assert round1.status == Round.Status.FINISHED
    with pytest.raises(Forbidden):
        services.schedule_round(round1, START, by=other_arbiter)
    with pytest.raises(Conflict, match="finished"):
        services.schedule_round(round1, START, by=org)


def test_the_desk_sets_a_round_start_in_server_time(client, org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    client.force_login(org)
    url = reverse("events:schedule_round", args=[event.slug, 1])
    response = client.post(url, {"scheduled_start": "2026-05-01T13:30"})
    assert response.status_code == 302
    round1.refresh_from_db()
    assert round1.scheduled_start == START  # settings.TIME_ZONE is UTC
    page = client.get(reverse("events:manage", args=[event.slug])).content.decode()
    assert 'value="2026-05-01T13:30"' in page
    client.post(url, {"scheduled_start": "not a date"})
    round1.refresh_from_db()
    assert round1.scheduled_start == START


def test_the_desk_records_and_cancels_a_requested_bye(client, org):
    event = make_event(org, n_players=4)
    entry = event.entries.get(pairing_number=2)
    client.force_login(org)
    url = reverse("events:request_bye", args=[event.slug, 2])
    assert (
        "Request a bye" in client.get(reverse("events:manage", args=[event.slug])).content.decode()
    )
    client.post(url, {"round": "2"})
    entry.refresh_from_db()
    assert entry.requested_byes == [2]
    response = client.post(url, {"round": "9"}, follow=True)
    assert "do not exist" in response.content.decode()
    client.post(url, {"round": "2", "cancel": "on"})
    entry.refresh_from_db()
    assert entry.requested_byes == []


def test_the_desk_bye_is_403_for_an_arbiter_of_another_event(client, org):
    event = make_event(org, n_players=4, published=True)
    other_arbiter = make_user("other")
    make_event(org, name="Other Open", arbiters=[other_arbiter])
    client.force_login(other_arbiter)
    response = client.post(reverse("events:request_bye", args=[event.slug, 2]), {"round": "2"})
    assert response.status_code == 403
    assert Entry.objects.get(event=event, pairing_number=2).requested_byes == []


def test_update_player_is_logged_in_the_players_events(org):
    event = make_event(org, n_players=2)
    player = event.entries.get(pairing_number=1).player
    services.update_player(player, by=org, rating=2222)
    entry = AuditEntry.objects.get(event=event, action="player.update")
    assert entry.new == {"rating": 2222} and entry.old == {"rating": 2000}
    services.update_player(player, by=org, rating=2222)  # no change, no entry
    assert AuditEntry.objects.filter(action="player.update").count() == 1


@pytest.fixture
def staff_org(org):
    org.is_staff = True
    org.save()
    codenames = ["change_event", "view_event", "change_entry", "view_entry", "change_player"]
    for codename in [*codenames, "change_round", "view_round"]:
        org.user_permissions.add(Permission.objects.get(codename=codename))
    return type(org).objects.get(pk=org.pk)


def test_admin_saves_of_events_are_audited_with_old_and_new(client, staff_org):
    event = make_event(staff_org, n_players=2)
    client.force_login(staff_org)
    url = reverse("admin:events_event_change", args=[event.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and k != "arbiters"}
    data.update(
        {
            "tiebreaks": '["solkoff"]',
            "late_arrival_minutes": 30,
            "start_date": "",
            "end_date": "",
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "round_set-TOTAL_FORMS": 0,
            "round_set-INITIAL_FORMS": 0,
        }
    )
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = AuditEntry.objects.get(event=event, action="admin.event.change")
    assert entry.user == staff_org
    assert entry.old["late_arrival_minutes"] == 60 and entry.new["late_arrival_minutes"] == 30
    assert Event.objects.get(pk=event.pk).late_arrival_minutes == 30


def test_admin_saves_of_entries_are_audited(client, staff_org):
    event = make_event(staff_org, n_players=2)
    entry = event.entries.get(pairing_number=1)
    client.force_login(staff_org)
    url = reverse("admin:events_entry_change", args=[entry.pk])
    response = client.post(
        url,
        {
            "event": event.pk,
            "player": entry.player_id,
            "pairing_number": 1,
            "status": "withdrawn",
            "absent_rounds": "[]",
            "requested_byes": "[]",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    logged = AuditEntry.objects.get(event=event, action="admin.entry.change")
    assert logged.old == {"status": "active"} and logged.new == {"status": "withdrawn"}
    assert timezone.now() - logged.at < dt.timedelta(minutes=1)


def test_public_pages_link_to_csv_json_and_trf_exports_that_answer(client, org):
    event = make_event(org, n_players=4, published=True)
    play_round(event, org)
    page = client.get(reverse("events:standings", args=[event.slug]) + "?after=1")
    links = re.findall(r'href="(/api/[^"]+)"', page.content.decode())
    assert len(links) == 3 and any("export.trf?after_round=1" in u for u in links)
    round_page = client.get(reverse("events:round", args=[event.slug, 1]))
    links += re.findall(r'href="(/api/[^"]+)"', round_page.content.decode())
    assert len(links) == 5
    for url in links:
        response = client.get(url.replace("&amp;", "&"))
        assert response.status_code == 200, url
    trf = client.get(f"/api/events/{event.pk}/export.trf?after_round=1").content.decode()
    assert sum(1 for line in trf.splitlines() if line.startswith("001")) == 4


class _FormFields(HTMLParser):
    """The values a browser would send for the admin's change form, as rendered."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            checkable = a.get("type") in ("checkbox", "radio")
            if checkable and "checked" not in a:
                return
            self.data.setdefault(name, []).append(a.get("value", "on" if checkable else ""))
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in a:
            self.data.setdefault(self._select, []).append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = [""]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea][-1] += data


def test_admin_inline_edits_of_rounds_are_audited(client, staff_org):
    event = make_event(staff_org, n_players=4)
    round1 = services.pair_next_round(event, by=staff_org)
    client.force_login(staff_org)
    url = reverse("admin:events_event_change", args=[event.pk])
    parser = _FormFields()
    parser.feed(client.get(url).content.decode())
    data = {k: v if len(v) > 1 else v[0] for k, v in parser.data.items()}
    data = {k: v for k, v in data.items() if "__prefix__" not in k}
    data["round_set-0-scheduled_start_0"] = "2026-05-01"
    data["round_set-0-scheduled_start_1"] = "13:30:00"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["errors"]
    round1.refresh_from_db()
    assert round1.scheduled_start == START
    logged = AuditEntry.objects.get(event=event, action="admin.round.change")
    assert logged.old == {"scheduled_start": None}
    assert logged.new == {"scheduled_start": START.isoformat()}
    assert not AuditEntry.objects.filter(action="admin.event.change").exists()  # unchanged
