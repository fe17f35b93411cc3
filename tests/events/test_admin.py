"""The admin for organizers: every list and form renders, rows are limited to one's own
events, the audit log and games cannot be edited there."""

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from arbiter.events.models import AuditEntry
from arbiter.games.models import Game

from .web_fixtures import make_event, make_user, organizer_fixture, swiss_fixture  # noqa: F401

pytestmark = pytest.mark.django_db

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
    make_event(other_organizer, slug="other-cup")
    client.force_login(other_organizer)
    html = client.get(reverse("admin:events_event_changelist")).content.decode()
    assert "Test other-cup" in html and "Test open" not in html
    assert client.get(reverse("admin:events_event_change", args=[event.pk])).status_code == 302
    html = client.get(reverse("admin:games_game_changelist")).content.decode()
    assert "Baliakin" not in html
