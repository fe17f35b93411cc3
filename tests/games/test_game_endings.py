"""A game that ends by itself (a rule, a flag) is logged and closes its round like a result
an arbiter enters; a result an arbiter enters stops the game's clock."""

from __future__ import annotations

import pytest
from django.db import transaction

from arbiter.events.models import AuditEntry, Round
from arbiter.games import services
from arbiter.games.services import set_result
from arbiter.games.services.locking import lock_game

from .builders import make_event, make_game

pytestmark = pytest.mark.django_db


def published_round_game(arbiter_user, fen):
    game = make_game(make_event(arbiter=arbiter_user), fen=fen)
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    return game


def test_fmjd_7_2_3_a_game_ended_by_rule_is_logged_and_finishes_its_round(arbiter_user):
    game = published_round_game(arbiter_user, "W:W28:B22")
    services.start_clocks(game, by=arbiter_user)
    services.submit_move(game.pk, ply=1, move="28x17", request_id="r", by=arbiter_user)

    entry = AuditEntry.objects.get(action="game.result")
    assert entry.new["result"] == "2-0" and entry.user is None
    assert "7.2.3" in entry.reason
    assert Round.objects.get(pk=game.round_id).status == Round.Status.FINISHED


def test_a_round_with_another_board_still_playing_stays_open(arbiter_user):
    game = published_round_game(arbiter_user, "W:W28:B22")
    make_game(game.round.event)  # a second board of the same round, not finished
    services.start_clocks(game, by=arbiter_user)
    services.submit_move(game.pk, ply=1, move="28x17", request_id="r", by=arbiter_user)
    assert Round.objects.get(pk=game.round_id).status == Round.Status.PUBLISHED


def test_a_result_entered_by_the_arbiter_stops_the_running_clock(arbiter_user):
    game = published_round_game(arbiter_user, None)
    services.start_clocks(game, by=arbiter_user)
    game.refresh_from_db()
    assert game.clock.running and game.clock.deadline is not None

    set_result(game, "1-1", by=arbiter_user, termination="agreed_draw")
    game.clock.refresh_from_db()
    assert not game.clock.running
    assert game.clock.deadline is None  # no flag can fall on a finished game


def test_a_locked_game_reads_its_rounds_real_status_not_the_models_default(arbiter_user):
    # lock_game loads only some columns of the round and event: the others must be loaded
    # on access, never silently read as the model's defaults.
    game = published_round_game(arbiter_user, None)
    with transaction.atomic():
        locked = lock_game(game.pk)
        assert locked.round.status == Round.Status.PUBLISHED
        assert locked.round.event.late_arrival_minutes == game.round.event.late_arrival_minutes
        assert locked.round.event.slug == game.round.event.slug
