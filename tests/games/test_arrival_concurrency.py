"""Late-arrival forfeits under concurrency, on PostgreSQL: sweeps that overlap (two beat
instances, a slow worker) and an arbiter marking a player present while a sweep runs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection

from arbiter.events.models import AuditEntry, Round
from arbiter.games.models import Game
from arbiter.games.services import arrival
from tests.accounts.builders import make_user

from .builders import make_event, make_game
from .concurrent import all_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

START = datetime(2026, 5, 9, 14, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL is not a PostgreSQL server")


def published_game(**arrivals):
    arbiter = make_user()
    game = make_game(make_event(arbiter=arbiter))
    Round.objects.filter(pk=game.round_id).update(
        status=Round.Status.PUBLISHED, scheduled_start=START
    )
    Game.objects.filter(pk=game.pk).update(**arrivals)
    return game, arbiter


def test_fmjd_10_5_eight_overlapping_sweeps_forfeit_a_game_once():
    game, _ = published_game(white_arrived_at=START)
    late = datetime(2026, 5, 9, 15, 0, 1, tzinfo=UTC)
    outcomes = all_at_once([lambda: arrival.forfeit_late_arrivals(late) for _ in range(8)])
    assert not [o for o in outcomes if o[0] == "error"], outcomes
    assert sorted(sum((ids for _, ids in outcomes), [])) == [game.pk]
    assert AuditEntry.objects.filter(action="late_arrival_forfeit").count() == 1
    game.refresh_from_db()
    assert game.result == "+/-"


def test_fmjd_10_5_a_late_mark_racing_the_sweeps_forfeits_once_and_is_refused():
    # Black is marked present at 15:00:01 while four sweeps run: too late either way. One
    # forfeit, one audit line, the mark refused with 409, Black's arrival not recorded.
    from arbiter.errors import Conflict

    game, arbiter = published_game(white_arrived_at=START)
    late = datetime(2026, 5, 9, 15, 0, 1, tzinfo=UTC)
    outcomes = all_at_once(
        [lambda: arrival.mark_arrived(game.pk, "black", by=arbiter, now=late)]
        + [lambda: arrival.forfeit_late_arrivals(late) for _ in range(4)]
    )
    mark, sweeps = outcomes[0], outcomes[1:]
    assert mark[0] == "error" and isinstance(mark[1], Conflict), mark
    assert not [o for o in sweeps if o[0] == "error"], sweeps
    assert AuditEntry.objects.filter(action="late_arrival_forfeit").count() == 1
    game.refresh_from_db()
    assert (game.result, game.black_arrived_at) == ("+/-", None)
