"""Late arrival (FMJD 10.5, competition rules): a player later than the event's delay loses.

Worked examples use a round scheduled at 14:00 UTC and the default delay of 60 minutes
unless they say otherwise.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events.models import AuditEntry, Event, Round
from arbiter.games import selectors
from arbiter.games.models import Game
from arbiter.games.services import arrival
from arbiter.games.tasks import sweep_late_arrivals
from tests.accounts.builders import make_user

from .builders import make_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 5, 9, 14, 0, tzinfo=UTC)


def at(hh: int, mm: int, ss: int = 0) -> datetime:
    return START.replace(hour=hh, minute=mm, second=ss)


@pytest.fixture
def event(arbiter_user):
    event = Event.objects.create(name="Open", slug="open", status=Event.Status.RUNNING)
    event.arbiters.add(arbiter_user)
    return event


@pytest.fixture
def round1(event):
    return Round.objects.create(
        event=event, number=1, scheduled_start=START, status=Round.Status.PUBLISHED
    )


def new_game(round_, board: int, *, bye: bool = False) -> Game:
    return make_game(round_.event, board=board, round_number=round_.number, bye=bye)


@pytest.fixture
def game(round1):
    return new_game(round1, 1)


def test_fmjd_10_5_black_absent_at_15_00_01_loses_plus_minus(game):
    # White came at 13:55; Black never. Limit 14:00 + 60 min = 15:00.
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(13, 55))
    assert arrival.forfeit_late_arrivals(at(15, 0, 0)) == []  # exactly at the limit: in time
    assert arrival.forfeit_late_arrivals(at(15, 0, 1)) == [game.pk]
    game.refresh_from_db()
    assert (game.result, game.termination, game.status) == ("+/-", "forfeit", "finished")
    assert game.finished_at == at(15, 0, 1)
    entry = AuditEntry.objects.get(action="late_arrival_forfeit")
    assert entry.new == {"result": "+/-", "termination": "forfeit", "game_id": game.pk}
    assert "Black not at the board 60 min after" in entry.reason and "FMJD 10.5" in entry.reason


def test_fmjd_10_5_white_absent_loses_minus_plus(game):
    Game.objects.filter(pk=game.pk).update(black_arrived_at=at(14, 30))
    assert arrival.forfeit_late_arrivals(at(15, 1)) == [game.pk]
    game.refresh_from_db()
    assert game.result == "-/+"


def test_fmjd_10_5_both_absent_lose_minus_minus(game):
    assert arrival.forfeit_late_arrivals(at(15, 1)) == [game.pk]
    game.refresh_from_db()
    assert game.result == "-/-"
    assert "White and Black not at the board" in AuditEntry.objects.get().reason


def test_fmjd_10_5_both_present_before_the_limit_play_on(game):
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(13, 50), black_arrived_at=at(15, 0))
    assert arrival.forfeit_late_arrivals(at(18, 0)) == []
    game.refresh_from_db()
    assert (game.result, game.status) == ("", "scheduled")


def test_fmjd_10_5_an_arrival_recorded_after_the_limit_is_still_late(game):
    # Black's first move came at 15:00:05, before the sweep ran: the move is an arrival,
    # but a late one.
    game.white_arrived_at = at(13, 59)
    game.save()
    game.save(update_fields=arrival.note_arrival_by_move(game, "black", at(15, 0, 5)))
    assert arrival.forfeit_late_arrivals(at(15, 0, 9)) == [game.pk]
    game.refresh_from_db()
    assert game.result == "+/-"


def test_fmjd_10_5_zero_minutes_allowed_means_present_at_the_start(event, game):
    event.late_arrival_minutes = 0
    event.save()
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(14, 0))  # exactly on time
    assert arrival.forfeit_late_arrivals(at(14, 0, 0)) == []
    assert arrival.forfeit_late_arrivals(at(14, 0, 1)) == [game.pk]
    game.refresh_from_db()
    assert game.result == "+/-"


def test_fmjd_10_5_zero_minutes_with_both_present_nobody_loses(event, game):
    event.late_arrival_minutes = 0
    event.save()
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(13, 58), black_arrived_at=at(13, 59))
    assert arrival.forfeit_late_arrivals(at(14, 30)) == []


def test_fmjd_10_5_limit_counts_from_when_the_arbiter_started_the_rounds_clocks(round1, game):
    # Scheduled 14:00, clocks started 14:20 (on board 2 first, 14:21 on board 1): the
    # round began at 14:20, so the limit is 15:20, not 15:00.
    other = new_game(round1, 2)
    Game.objects.filter(pk=other.pk).update(
        started_at=at(14, 20), white_arrived_at=at(14, 0), black_arrived_at=at(14, 0)
    )
    Game.objects.filter(pk=game.pk).update(started_at=at(14, 21), white_arrived_at=at(14, 0))
    assert arrival.forfeit_late_arrivals(at(15, 10)) == []
    assert arrival.forfeit_late_arrivals(at(15, 20, 1)) == [game.pk]


def test_fmjd_10_5_a_round_without_start_time_or_started_clocks_forfeits_nobody(event):
    round_ = Round.objects.create(event=event, number=2, status=Round.Status.PUBLISHED)
    new_game(round_, 1)
    assert arrival.forfeit_late_arrivals(at(23, 0)) == []


def test_draft_rounds_byes_and_finished_games_are_left_alone(event, round1, game):
    draft = Round.objects.create(
        event=event, number=2, scheduled_start=START, status=Round.Status.DRAFT
    )
    new_game(draft, 1)
    bye = new_game(round1, 2, bye=True)
    Game.objects.filter(pk=game.pk).update(result="2-0", status=Game.Status.FINISHED)
    assert arrival.forfeit_late_arrivals(at(20, 0)) == []
    bye.refresh_from_db()
    assert bye.result == ""


def test_the_sweep_is_idempotent(game):
    assert arrival.forfeit_late_arrivals(at(15, 1)) == [game.pk]
    assert arrival.forfeit_late_arrivals(at(15, 2)) == []
    assert AuditEntry.objects.filter(action="late_arrival_forfeit").count() == 1
    game.refresh_from_db()
    assert game.finished_at == at(15, 1)  # the first forfeit stands


def test_a_stale_read_does_not_forfeit_a_player_who_arrived_meanwhile(game):
    # The sweep read the game with Black absent; Black was marked present (on time) before
    # the sweep wrote: the check made again under the game's lock changes nothing.
    stale = Game.objects.select_related("round__event").get(pk=game.pk)
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(14, 0), black_arrived_at=at(14, 59))
    limit = selectors.ArrivalLimit(START, 60)
    assert arrival._forfeit_if_late(stale, limit, at(15, 1)) is False
    game.refresh_from_db()
    assert game.result == ""


def test_the_periodic_task_runs_the_sweep(game):
    Game.objects.filter(pk=game.pk).update(white_arrived_at=at(13, 0))
    # The task uses the real clock: this round started in the past (2026-05-09).
    assert sweep_late_arrivals() == 1
    game.refresh_from_db()
    assert game.result == "+/-"


def test_the_sweep_is_scheduled_every_10_seconds_on_the_clock_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["late-arrival-forfeits"]
    assert entry["task"] == sweep_late_arrivals.name
    assert entry["schedule"] == 10.0
    # Found by autodiscovery (games/tasks.py), with no CELERY_IMPORTS list to keep up.
    from arbiter.celery import app

    app.autodiscover_tasks(force=True)
    assert sweep_late_arrivals.name in app.tasks
    assert not getattr(settings, "CELERY_IMPORTS", None)


# -- mark_arrived ---------------------------------------------------------------------------


def test_an_arbiter_marks_a_player_present_once(game, arbiter_user):
    first = arrival.mark_arrived(game.pk, "white", by=arbiter_user, now=at(13, 55))
    assert first.white_arrived_at == at(13, 55)
    again = arrival.mark_arrived(game.pk, "white", by=arbiter_user, now=at(14, 10))
    assert again.white_arrived_at == at(13, 55)  # the first arrival is kept
    assert AuditEntry.objects.filter(action="arrival").count() == 1


def test_only_arbiters_mark_arrivals(game):
    someone = make_user("someone")
    with pytest.raises(Forbidden):
        arrival.mark_arrived(game.pk, "white", by=someone, now=at(13, 55))
    game.refresh_from_db()
    assert game.white_arrived_at is None


def test_bad_side_and_bye_side_are_refused_with_the_reason(round1, game, arbiter_user):
    with pytest.raises(Invalid, match="'white' or 'black'"):
        arrival.mark_arrived(game.pk, "red", by=arbiter_user, now=at(13, 55))
    bye = new_game(round1, 2, bye=True)
    with pytest.raises(Invalid, match="no black player"):
        arrival.mark_arrived(bye.pk, "black", by=arbiter_user, now=at(13, 55))


def test_fmjd_10_5_marking_present_after_the_limit_is_refused_and_the_forfeit_stands(
    game, arbiter_user
):
    arrival.mark_arrived(game.pk, "white", by=arbiter_user, now=at(13, 55))
    with pytest.raises(Conflict, match="already over"):
        arrival.mark_arrived(game.pk, "black", by=arbiter_user, now=at(15, 3))
    game.refresh_from_db()
    assert (game.result, game.termination, game.black_arrived_at) == ("+/-", "forfeit", None)


# -- the API endpoint -----------------------------------------------------------------------


def test_api_arrival_marks_present_for_an_arbiter(client, round1, game, arbiter_user):
    # The API uses the server's clock: a round starting in an hour.
    before = datetime.now(UTC)
    round1.scheduled_start = (before + timedelta(hours=1)).replace(microsecond=0)
    round1.save()
    client.force_login(arbiter_user)
    response = client.post(
        f"/api/games/{game.pk}/arrival", {"side": "black"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["side"] == "black" and body["white_arrived_at"] is None
    arrived = datetime.fromisoformat(body["black_arrived_at"].replace("Z", "+00:00"))
    assert before - timedelta(seconds=1) <= arrived <= datetime.now(UTC)
    deadline = datetime.fromisoformat(body["deadline"].replace("Z", "+00:00"))
    assert deadline == round1.scheduled_start + timedelta(minutes=60)


def test_api_arrival_is_refused_to_others_and_for_a_bad_side(client, game, arbiter_user):
    url = f"/api/games/{game.pk}/arrival"
    anonymous = client.post(url, {"side": "white"}, content_type="application/json")
    assert anonymous.status_code == 401
    client.force_login(make_user("p"))
    assert client.post(url, {"side": "white"}, content_type="application/json").status_code == 403
    client.force_login(arbiter_user)
    bad = client.post(url, {"side": "red"}, content_type="application/json")
    assert bad.status_code == 422
    game.refresh_from_db()
    assert game.white_arrived_at is None and game.black_arrived_at is None


# -- with the clocks and the move-entry service ----------------------------------------------


@pytest.fixture
def timed_game(event, round1, arbiter_user, monkeypatch):
    """A published round at 14:00 whose clocks the arbiter starts at 14:00 (5 min each)."""
    from django.utils import timezone as tz

    from arbiter.games import services

    event.time_control = "300"
    event.save()
    game = new_game(round1, 1)
    now = {"t": at(14, 0)}
    monkeypatch.setattr(tz, "now", lambda: now["t"])
    services.start_clocks(game, by=arbiter_user, reason="round starts")
    game.refresh_from_db()
    return game, now


def test_fmjd_10_5_a_move_is_an_arrival(timed_game, arbiter_user):
    from arbiter.games import services

    game, now = timed_game
    now["t"] = at(14, 0, 20)
    services.submit_move(game.pk, ply=1, move="32-28", request_id="m1", by=arbiter_user)
    game.refresh_from_db()
    assert (game.white_arrived_at, game.black_arrived_at) == (at(14, 0, 20), None)


def test_fmjd_10_5_a_move_after_the_limit_with_the_opponent_absent_ends_the_game(
    event, timed_game, arbiter_user
):
    # 10 minutes allowed; White arrived at 14:02; Black never. White's move at 14:10:01 is
    # refused: the game ended by forfeit, in White's favour; the clock stopped.
    from arbiter.games import services

    event.late_arrival_minutes = 10
    event.save()
    game, now = timed_game
    arrival.mark_arrived(game.pk, "white", by=arbiter_user, now=at(14, 2))
    services.adjust_clock(game.pk, "white", 3_600_000, by=arbiter_user, reason="long think")
    now["t"] = at(14, 10, 1)
    with pytest.raises(Conflict, match="lost by forfeit.* 10 min after") as refused:
        services.submit_move(game.pk, ply=1, move="32-28", request_id="m1", by=arbiter_user)
    answered = refused.value.details["game"]
    assert answered["result"] == "+/-" and answered["clock"]["running"] is None
    game.refresh_from_db()
    assert (game.result, game.termination, game.ply) == ("+/-", "forfeit", 0)
    assert game.clock.running == "" and game.clock.deadline is None


def test_fmjd_10_5_the_sweep_stops_a_forfeited_games_clock(timed_game):
    game, _ = timed_game
    assert game.clock.running == "white"
    assert arrival.forfeit_late_arrivals(at(15, 0, 1)) == [game.pk]
    game.refresh_from_db()
    game.clock.refresh_from_db()
    assert game.result == "-/-"
    assert game.clock.running == "" and game.clock.deadline is None


def test_api_arrival_state_is_readable_where_the_event_is(client, event, game, arbiter_user):
    url = f"/api/games/{game.pk}/arrival"
    assert client.get(url).status_code == 404  # a draft event: not for the public
    event.published = True
    event.save()
    body = client.get(url).json()
    assert body["white_arrived_at"] is None and body["late_arrival_minutes"] == 60
    assert body["deadline"].startswith("2026-05-09T15:00:00")
