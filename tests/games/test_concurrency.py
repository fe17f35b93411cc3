"""Many submissions of the same ply at once, on PostgreSQL (row locks, SELECT ... FOR UPDATE)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from arbiter.errors import Conflict
from arbiter.games import services
from arbiter.games.models import Game, Move
from tests.accounts.builders import make_user

from .builders import make_event, make_game
from .concurrent import all_at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL is not a PostgreSQL server")


def submit_all(game_id: int, submissions: list[dict], by) -> list:
    """Every submission at once; a refused one (409) is ("409", exc)."""
    calls = [(lambda p=p: services.submit_move(game_id, by=by, **p)) for p in submissions]
    return [
        ("409" if kind == "Conflict" else kind, value)
        for kind, value in all_at_once(calls, expected=(Conflict,))
    ]


def test_twenty_threads_on_the_same_ply_one_move_is_accepted():
    arbiter = make_user()
    game = make_game(make_event(arbiter=arbiter))
    services.start_clocks(game, by=arbiter)
    # Ten retries of one request, ten other requests for the same ply (a race of devices).
    submissions = [{"ply": 1, "move": "32-28", "request_id": "shared"} for _ in range(10)] + [
        {"ply": 1, "move": "33-28", "request_id": f"other-{i}"} for i in range(10)
    ]
    outcomes = submit_all(game.pk, submissions, arbiter)

    assert not [o for o in outcomes if o[0] == "error"], outcomes
    accepted = [state for kind, state in outcomes if kind == "ok"]
    moves = list(Move.objects.filter(game=game))
    assert len(moves) == 1, "exactly one move stored"
    winner = moves[0]
    if winner.request_id == "shared":
        # The first answer, repeated to every retry of the same request; the others: 409.
        assert len(accepted) == 10 and all(s == accepted[0] for s in accepted)
        assert sum(kind == "409" for kind, _ in outcomes) == 10
    else:
        assert len(accepted) == 1
        conflicts = [exc for kind, exc in outcomes if kind == "409"]
        assert len(conflicts) == 19
        assert all(exc.details["game"]["ply"] == 1 for exc in conflicts)
    game.refresh_from_db()
    assert game.ply == 1 and game.fen == winner.fen_after


def test_a_whole_game_entered_by_racing_devices_loses_and_doubles_nothing():
    arbiter = make_user()
    game = make_game(make_event(arbiter=arbiter))
    services.start_clocks(game, by=arbiter)
    line = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]
    for ply, move in enumerate(line, start=1):
        outcomes = submit_all(
            game.pk,
            [{"ply": ply, "move": move, "request_id": f"{ply}-{i % 3}"} for i in range(6)],
            arbiter,
        )
        assert all(kind in ("ok", "409") for kind, _ in outcomes), outcomes
    stored = list(Move.objects.filter(game=game).order_by("ply").values_list("ply", "notation"))
    assert stored == list(enumerate(line, start=1))
    assert Game.objects.get(pk=game.pk).ply == len(line)


def test_the_last_two_boards_ending_at_once_finish_the_round():
    """A result entered on one board and a flag on the other, the first held uncommitted
    while the second ends: the second waits for the round and then sees both results."""
    from django.db import transaction

    from arbiter.events.models import Round
    from arbiter.games.services import results

    arbiter = make_user()
    event = make_event(arbiter=arbiter)
    entered, flagged = make_game(event), make_game(event)
    Round.objects.filter(pk=entered.round_id).update(status=Round.Status.PUBLISHED)
    services.start_clocks(flagged, by=arbiter)
    services.set_clock_times(flagged, 0, 300_000, by=arbiter, reason="test: White's time out")
    held, release = threading.Event(), threading.Event()
    errors: list = []

    def enter_result_and_hold() -> None:
        try:
            with transaction.atomic():
                results.set_result(Game.objects.get(pk=entered.pk), "1-1", by=arbiter)
                held.set()
                release.wait(30)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            held.set()
            connection.close()

    def flag() -> None:
        try:
            assert services.check_flag(flagged.pk, ply=0) is True
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    first = threading.Thread(target=enter_result_and_hold)
    first.start()
    assert held.wait(30)
    second = threading.Thread(target=flag)
    second.start()
    second.join(0.5)  # the flag now waits on the round row held by the first transaction
    release.set()
    first.join(30)
    second.join(30)

    assert not errors, errors
    assert Game.objects.get(pk=flagged.pk).result == "0-2"
    assert Game.objects.get(pk=entered.pk).result == "1-1"
    assert Round.objects.get(pk=entered.round_id).status == Round.Status.FINISHED
