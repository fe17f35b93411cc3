"""Arbiter pages: login and role required; results, corrections, pairing, import,
round start times and requested byes."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from arbiter.events import services
from arbiter.events.models import AuditEntry, Entry, Round
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.pages import text

from .builders import make_event, seed_event, seed_round

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 5, 1, 13, 30, tzinfo=dt.UTC)  # a round start, UTC


def arbiter_urls(slug):
    return {
        "GET": [
            reverse("events:manage", args=[slug]),
            reverse("events:enter_results", args=[slug, 2]),
            reverse("events:edit_pairing", args=[slug, 3]),
            reverse("events:import", args=[slug]),
        ],
        "POST": [
            reverse("events:pair_next", args=[slug]),
            reverse("events:publish_round", args=[slug, 3]),
            reverse("events:enter_results", args=[slug, 2]),
            reverse("events:edit_pairing", args=[slug, 3]),
            reverse("events:withdraw", args=[slug, 1]),
            reverse("events:set_absent", args=[slug, 1]),
            reverse("events:import", args=[slug]),
        ],
    }


def test_arbiter_pages_send_the_public_to_the_login_page(client, swiss):
    event, _ = swiss
    for method, urls in arbiter_urls(event.slug).items():
        for url in urls:
            response = getattr(client, method.lower())(url)
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("login")), url


def test_arbiter_pages_are_403_for_a_user_who_is_not_an_arbiter_of_the_event(client, swiss):
    event, _ = swiss
    client.force_login(make_user("spectator"))
    for method, urls in arbiter_urls(event.slug).items():
        for url in urls:
            response = getattr(client, method.lower())(url, {"reason": "x", "rounds": "3"})
            assert response.status_code == 403, (method, url)
    assert Round.objects.filter(event=event).count() == 3  # nothing paired, nothing published


def test_the_arbiter_link_shows_only_to_arbiters(client, swiss, org):
    event, _ = swiss
    url = reverse("events:detail", args=[event.slug])
    assert "Arbiter" not in text(client.get(url))
    client.force_login(org)
    assert "Arbiter" in text(client.get(url))


def _results_post(game, result, reason="", termination=""):
    prefix = f"board-{game.board}"
    data = {}
    for other in game.round.games.exclude(black=None):
        data[f"board-{other.board}-result"] = other.result
        data[f"board-{other.board}-termination"] = other.termination
        data[f"board-{other.board}-reason"] = ""
    data.update(
        {
            f"{prefix}-result": result,
            f"{prefix}-termination": termination,
            f"{prefix}-reason": reason,
        }
    )
    return data


def test_a_correction_without_a_reason_is_refused_and_changes_nothing(client, swiss, org):
    event, _ = swiss
    game = Game.objects.get(round__event=event, round__number=2, board=1)
    client.force_login(org)
    url = reverse("events:enter_results", args=[event.slug, 2])
    response = client.post(url, _results_post(game, "1-1"))
    assert response.status_code == 200
    assert "already has the result 0-2: say why it is corrected" in text(response)
    game.refresh_from_db()
    assert game.result == "0-2"


def test_entering_a_result_saves_it_and_the_pages_show_it(client, swiss, org):
    event, p = swiss
    rnd = event.round_set.get(number=3)
    rnd.status = Round.Status.PUBLISHED
    rnd.save()
    game = rnd.games.get(board=1)
    client.force_login(org)
    url = reverse("events:enter_results", args=[event.slug, 3])
    response = client.post(url, _results_post(game, "2-0", termination="resigned"))
    assert response.status_code == 302, text(response)
    game.refresh_from_db()
    assert (game.result, game.termination) == ("2-0", "resigned")
    page = text(client.get(reverse("events:round", args=[event.slug, 3])))
    assert "Baliakin Alexander 4 2-0 3 Schwarzman Alexei" in page


def test_a_correction_with_a_reason_changes_the_result_and_logs_it(client, swiss, org):
    event, _ = swiss
    game = Game.objects.get(round__event=event, round__number=2, board=1)
    client.force_login(org)
    url = reverse("events:enter_results", args=[event.slug, 2])
    response = client.post(url, _results_post(game, "1-1", reason="both signed a draw"))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == "1-1"
    log = AuditEntry.objects.filter(event=event, reason="both signed a draw").get()
    assert log.user == org
    assert "0-2" in str(log.old) and "1-1" in str(log.new)
    standings = text(client.get(reverse("events:standings", args=[event.slug]), {"after": 2}))
    assert re.search(r"Baliakin Alexander \d* 3 2", standings)


def test_the_import_form_lists_every_bad_line_with_its_number_and_imports_nothing(
    client, swiss, org
):
    event, _ = swiss
    before = Entry.objects.filter(event=event).count()
    client.force_login(org)
    csv = (
        "surname,given_name,fmjd_id,federation,rating,title,club\n"
        "Jansen,Jan,,NED,1200,,Emmen\n"
        ",Nameless,,NED,1200,,\n"
        "Smit,Piet,,NED,lots,,\n"
    )
    response = client.post(reverse("events:import", args=[event.slug]), {"text": csv})
    assert response.status_code == 200
    rows = re.findall(
        r"<tr><td class=\"num\">(\d+)</td><td>(.*?)</td></tr>", response.content.decode()
    )
    lines = {int(n): reason for n, reason in rows}
    assert set(lines) == {3, 4}
    assert "surname" in lines[3] and "rating" in lines[4]
    assert Entry.objects.filter(event=event).count() == before


def test_the_import_form_imports_good_lines(client, swiss, org):
    event, _ = swiss
    client.force_login(org)
    csv = "surname,given_name,federation,rating\nJansen,Jan,NED,1200\nSmit,Piet,NED,1100\n"
    response = client.post(reverse("events:import", args=[event.slug]), {"text": csv})
    assert response.status_code == 302
    assert event.entries.filter(player__surname__in=["Jansen", "Smit"]).count() == 2


def test_publishing_a_round_shows_it_to_the_public(client, swiss, org):
    event, _ = swiss
    url = reverse("events:round", args=[event.slug, 3])
    assert client.get(url).status_code == 404
    client.force_login(org)
    client.post(reverse("events:publish_round", args=[event.slug, 3]))
    client.logout()
    assert client.get(url).status_code == 200


def test_swapping_two_players_shows_the_warnings_of_the_new_pairing(client, swiss, org):
    event, p = swiss
    client.force_login(org)
    url = reverse("events:edit_pairing", args=[event.slug, 3])
    # Round 3 pairs Baliakin-Schwarzman and Ndjofang-Georgiev; swapping Schwarzman and
    # Georgiev makes Baliakin meet Georgiev again (they met in round 2).
    response = client.post(
        url,
        {
            "action": "swap",
            "swap-first": p[2].pk,
            "swap-second": p[1].pk,
            "swap-reason": "players asked",
        },
        follow=True,
    )
    game = Game.objects.get(round__event=event, round__number=3, board=1)
    assert {game.white_id, game.black_id} == {p[0].pk, p[1].pk}
    messages = [str(m) for m in response.context["messages"]]
    assert any("pairing changed" in m for m in messages)
    assert len(messages) >= 2, messages  # the rematch warning


def test_pair_next_round_button_pairs_a_draft_round_seen_only_by_arbiters(client, org):
    event, p = seed_event(org, slug="two-played")
    seed_round(event, 1, [(p[0], p[3], "2-0"), (p[2], p[1], "1-1"), (p[4], None, "bye")])
    seed_round(event, 2, [(p[1], p[0], "0-2"), (p[3], p[4], "1-1"), (p[2], None, "bye")])
    client.force_login(org)
    response = client.post(reverse("events:pair_next", args=[event.slug]))
    assert response.status_code == 302
    assert response["Location"] == reverse("events:round", args=[event.slug, 3])
    rnd = event.round_set.get(number=3)
    assert rnd.status == Round.Status.DRAFT
    assert rnd.games.count() == 3  # five players: two boards and a bye
    page = text(client.get(response["Location"]))
    assert "draft: not published" in page
    client.logout()
    assert client.get(response["Location"]).status_code == 404


def test_pairing_while_a_round_is_unfinished_is_refused_with_the_services_reason(
    client, swiss, org
):
    event, _ = swiss  # round 3 is paired (draft), no results
    client.force_login(org)
    response = client.post(reverse("events:pair_next", args=[event.slug]), follow=True)
    messages = [str(m) for m in response.context["messages"]]
    assert any(m.startswith("Round not paired: ") and len(m) > 20 for m in messages), messages
    assert event.round_set.count() == 3


def test_results_of_a_draft_round_are_refused_and_nothing_is_saved(client, swiss, org):
    event, _ = swiss
    game = Game.objects.get(round__event=event, round__number=3, board=1)
    client.force_login(org)
    url = reverse("events:enter_results", args=[event.slug, 3])
    response = client.post(url, _results_post(game, "2-0"))
    assert response.status_code == 200
    assert "Nothing was saved" in text(response)
    assert "round 3 is not published yet" in text(response)
    game.refresh_from_db()
    assert game.result == ""


def test_results_of_several_boards_are_saved_together_or_not_at_all(client, swiss, org):
    event, _ = swiss
    rnd = event.round_set.get(number=3)
    rnd.status = Round.Status.PUBLISHED
    rnd.save()
    first, second = rnd.games.get(board=1), rnd.games.get(board=2)
    data = _results_post(first, "2-0")
    data.update({"board-2-result": "1-1", "board-2-termination": "resigned"})  # a draw by resigning
    client.force_login(org)
    response = client.post(reverse("events:enter_results", args=[event.slug, 3]), data)
    assert response.status_code == 200
    assert "Nothing was saved" in text(response)
    assert "board 2: a game that ended by &#x27;resigned&#x27; cannot score &#x27;1-1&#x27;" in (
        response.content.decode()
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.result, second.result) == ("", "")


def test_withdrawing_and_announcing_an_absence(client, swiss, org):
    event, _ = swiss
    event.rounds = 7
    event.save()
    client.force_login(org)
    client.post(reverse("events:set_absent", args=[event.slug, 2]), {"rounds": "4, 5"})
    entry = event.entries.get(pairing_number=2)
    assert entry.absent_rounds == [4, 5]
    response = client.post(
        reverse("events:set_absent", args=[event.slug, 2]), {"rounds": "four"}, follow=True
    )
    assert any("'four' is not a round number" in str(m) for m in response.context["messages"])
    response = client.post(
        reverse("events:set_absent", args=[event.slug, 2]), {"rounds": "9"}, follow=True
    )
    assert any("9 do not exist" in str(m) for m in response.context["messages"])
    assert event.entries.get(pairing_number=2).absent_rounds == [4, 5]
    client.post(reverse("events:withdraw", args=[event.slug, 5]), {"reason": "ill"})
    entry = event.entries.get(pairing_number=5)
    assert entry.status == Entry.Status.WITHDRAWN
    assert AuditEntry.objects.filter(event=event, reason="ill").exists()


def test_the_warnings_of_a_hand_made_pairing_stay_on_the_arbiters_pages_only(client, swiss, org):
    event, p = swiss
    client.force_login(org)
    client.post(
        reverse("events:edit_pairing", args=[event.slug, 3]),
        {"action": "swap", "swap-first": p[2].pk, "swap-second": p[1].pk, "swap-reason": "asked"},
    )
    page = text(client.get(reverse("events:edit_pairing", args=[event.slug, 3])))
    assert "This pairing breaks" in page
    rnd = event.round_set.get(number=3)
    assert rnd.warnings and rnd.warnings[0] in page
    client.post(reverse("events:publish_round", args=[event.slug, 3]))
    client.logout()
    public = text(client.get(reverse("events:round", args=[event.slug, 3])))
    assert "breaks" not in public and rnd.warnings[0] not in public


def test_undo_pairing_deletes_the_last_unplayed_round_and_logs_why(client, swiss, org):
    event, _ = swiss
    client.force_login(org)
    desk = text(client.get(reverse("events:manage", args=[event.slug])))
    assert "Undo pairing" in desk
    client.post(reverse("events:unpair_round", args=[event.slug, 3]), {"reason": "wrong lot"})
    assert not event.round_set.filter(number=3).exists()
    assert AuditEntry.objects.filter(event=event, reason="wrong lot").exists()
    response = client.post(reverse("events:unpair_round", args=[event.slug, 1]), follow=True)
    assert any("only the last round" in str(m) for m in response.context["messages"])
    assert event.round_set.filter(number=1).exists()


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
