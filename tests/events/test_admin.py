"""The admin for organizers: every list and form renders, rows are limited to one's own
events, the audit log and games cannot be edited there, and every save is audited."""

import datetime as dt
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from arbiter.events import services
from arbiter.events.models import AuditEntry, Event
from arbiter.games.models import Game
from tests.accounts.builders import make_user

from .builders import make_event, seed_event

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 5, 1, 13, 30, tzinfo=dt.UTC)  # a round start, UTC

MODELS = [
    "events_event",
    "events_player",
    "events_entry",
    "events_round",
    "events_auditentry",
    "games_game",
]


@pytest.fixture
def admin_client(client, swiss):
    event, _ = swiss
    AuditEntry.objects.create(
        event=event,
        action="set_result",
        target="round 1 board 1",
        old={"result": "1-1"},
        new={"result": "2-0"},
        reason="score sheet signed 2-0",
    )
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", MODELS)
def test_changelist_and_search_render(admin_client, model):
    url = reverse(f"admin:{model}_changelist")
    response = admin_client.get(url)
    assert response.status_code == 200
    assert admin_client.get(url, {"q": "Baliakin"}).status_code == 200


def test_event_change_form_has_entries_and_rounds_inline(admin_client, swiss):
    event, _ = swiss
    html = admin_client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert "entries-TOTAL_FORMS" in html and "round_set-TOTAL_FORMS" in html
    assert "Baliakin" in html


def test_round_change_form_shows_its_games_read_only(admin_client, swiss):
    event, _ = swiss
    rnd = event.round_set.get(number=1)
    html = admin_client.get(reverse("admin:events_round_change", args=[rnd.pk])).content.decode()
    assert "Baliakin" in html and "2-0" in html
    assert 'name="games-0-result"' not in html  # no result field to edit


def test_audit_entries_cannot_be_added_changed_or_deleted(admin_client):
    entry = AuditEntry.objects.get()
    assert admin_client.get(reverse("admin:events_auditentry_add")).status_code == 403
    change = reverse("admin:events_auditentry_change", args=[entry.pk])
    page = admin_client.get(change)
    assert page.status_code == 200 and "score sheet signed 2-0" in page.content.decode()
    admin_client.post(change, {"reason": "rewritten"})
    entry.refresh_from_db()
    assert entry.reason == "score sheet signed 2-0"
    delete = reverse("admin:events_auditentry_delete", args=[entry.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_game_result_is_not_editable_in_the_admin_and_links_to_the_arbiter_page(
    admin_client, swiss
):
    event, _ = swiss
    game = Game.objects.get(round__event=event, round__number=1, board=1)
    url = reverse("admin:games_game_change", args=[game.pk])
    html = admin_client.get(url).content.decode()
    assert 'name="result"' not in html
    assert reverse("events:enter_results", args=[event.slug, 1]) in html
    admin_client.post(url, {"result": "0-2"})
    game.refresh_from_db()
    assert game.result == "2-0"


def test_a_staff_organizer_sees_only_their_own_events(client, swiss):
    event, _ = swiss
    other_organizer = make_user("other", is_staff=True)
    other_organizer.user_permissions.set(
        Permission.objects.filter(codename__in=["view_event", "change_event", "view_game"])
    )
    seed_event(other_organizer, slug="other-cup")
    client.force_login(other_organizer)
    html = client.get(reverse("admin:events_event_changelist")).content.decode()
    assert "Test other-cup" in html and "Test open" not in html
    assert client.get(reverse("admin:events_event_change", args=[event.pk])).status_code == 302
    html = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Baliakin" not in html


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
