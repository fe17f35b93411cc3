"""Claims racing moves, flags and each other, on PostgreSQL with a real Redis and Celery worker:
exactly one outcome, no claim lost (every claim ends granted or refused), and a claim whose
task was lost decided by the sweep (beat)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from arbiter.errors import Conflict
from arbiter.events.models import AuditEntry
from arbiter.games import selectors, services
from arbiter.games.models import Claim, EndingRules, Game, Move
from arbiter.games.services import claims
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_game import quiet_step

pytestmark = [pytest.mark.postgres, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: DATABASE_URL is not a PostgreSQL server")


def quiet_text(game_id: int) -> tuple[int, str]:
    game = Game.objects.get(pk=game_id)
    record = selectors.rules_game(game)
    before = record.plies
    move = quiet_step(record)
    return game.ply + 1, record.history[before].move_text(move)


def play_quiet(game_id: int, n: int, by) -> None:
    for _ in range(n):
        ply, text = quiet_text(game_id)
        services.submit_move(game_id, ply=ply, move=text, request_id=f"q{ply}", by=by)


def in_threads(calls) -> list:
    """Run each call in its own thread (own connection), all released at once."""
    barrier = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            out[i] = ("ok", call())
        except Conflict as exc:
            out[i] = ("409", exc)
        except Exception as exc:  # noqa: BLE001 - reported by the assertions
            out[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def wait_decided(game_id: int, timeout: float = 15) -> list[Claim]:
    end = time.monotonic() + timeout
    while True:
        pending = Claim.objects.filter(game_id=game_id, status=Claim.Status.PENDING).count()
        if not pending or time.monotonic() > end:
            return list(Claim.objects.filter(game_id=game_id).order_by("pk"))
        time.sleep(0.05)


def claim_game(time_control="-", **rules):
    arbiter, white, black = make_user(), make_user(), make_user()
    event = make_event(time_control=time_control, arbiter=arbiter)
    EndingRules.objects.create(event=event, claim_articles=["6.4"], **rules)
    game = make_game(event, fen="W:WK47,36:BK3", white=make_player(white), black=make_player(black))
    return game, arbiter, white, black


def test_a_claim_racing_the_move_that_completes_the_count_fmjd_6_4(celery_parts):
    celery_parts.worker("w1")
    game, arbiter, white, black = claim_game()
    play_quiet(game.pk, 9, arbiter)  # 6.4: 4 moves each and one ply; Black to move
    ply, text = quiet_text(game.pk)
    outcomes = in_threads(
        [
            lambda: claims.make_claim(game.pk, article="6.4", request_id="race", by=white),
            lambda: services.submit_move(game.pk, ply=ply, move=text, request_id="m", by=black),
        ]
    )
    assert not [o for o in outcomes if o[0] == "error"], outcomes
    (decided,) = wait_decided(game.pk)
    assert decided.status != Claim.Status.PENDING, "the claim was lost"
    game.refresh_from_db()
    # The move is never lost: a claim decided first (refused: 4 of 5) lets it through, and
    # a claim decided after it is granted (5 of 5). Nothing else can happen.
    assert Move.objects.filter(game=game, ply=10).exists()
    at_ply = decided.explanation["params"]["ply"]
    assert at_ply in (9, 10)
    assert (decided.status == Claim.Status.GRANTED) == (at_ply == 10)
    assert game.result == ("1-1" if at_ply == 10 else "")
    assert AuditEntry.objects.filter(action="game.result").count() == (1 if at_ply == 10 else 0)


def test_a_claim_racing_a_flag_one_ending_only(celery_parts):
    celery_parts.worker("w1")
    game, arbiter, white, black = claim_game(time_control="300")
    services.start_clocks(game.pk, by=arbiter)
    play_quiet(game.pk, 10, arbiter)  # 6.4 applies now; the event waits for a claim
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    # White is to move (10 plies from a White-to-move start): 1 s left on its clock.
    services.set_clock_times(game.pk, 1_000, 300_000, by=arbiter, reason="test: 1 s left")
    game.refresh_from_db()
    deadline = game.clock.deadline
    # Claim at the deadline, when the flag task (ETA) fires too.
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()))
    made = claims.make_claim(game.pk, article="6.4", request_id="at-flag", by=white)
    (decided,) = wait_decided(game.pk)
    game.refresh_from_db()
    assert decided.status != Claim.Status.PENDING and game.status == Game.Status.FINISHED
    endings = AuditEntry.objects.filter(action="game.result")
    assert endings.count() == 1, "a claim and a flag both ended the game"
    if decided.status == Claim.Status.GRANTED:
        assert (game.result, game.termination) == ("1-1", "draw_5_moves")
    else:
        assert decided.code == "game_over" and (game.result, game.termination) == ("0-2", "flag")
    assert made["id"] == decided.pk


def test_twenty_claims_at_once_exactly_one_outcome_none_lost(celery_parts):
    celery_parts.worker("w1")
    game, arbiter, white, black = claim_game()
    play_quiet(game.pk, 10, arbiter)
    users = [white, black, arbiter]
    calls = [
        (lambda: claims.make_claim(game.pk, article="6.4", request_id="shared", by=white))
        for _ in range(10)
    ] + [
        (
            lambda i=i: claims.make_claim(
                game.pk,
                article="6.4",
                request_id=f"own-{i}",
                by=users[i % 3],
                side=("white" if i % 3 == 2 else None),
            )
        )
        for i in range(10)
    ]
    outcomes = in_threads(calls)
    assert not [o for o in outcomes if o[0] != "ok"], outcomes
    shared = {o[1]["id"] for o in outcomes[:10]}
    assert len(shared) == 1, "one claim for one request_id"
    decided = wait_decided(game.pk)
    assert len(decided) == 11
    assert [c.status for c in decided].count(Claim.Status.PENDING) == 0, "a claim was lost"
    assert [c.status for c in decided].count(Claim.Status.GRANTED) == 1
    refused = [c for c in decided if c.status == Claim.Status.REFUSED]
    assert len(refused) == 10 and {c.code for c in refused} == {"game_over"}
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-1", "draw_5_moves")
    assert AuditEntry.objects.filter(action="game.result").count() == 1


def test_a_claim_whose_task_was_lost_is_decided_by_the_sweep(celery_parts, monkeypatch):
    celery_parts.worker("w1")
    celery_parts.beat()
    game, arbiter, white, black = claim_game()
    play_quiet(game.pk, 10, arbiter)
    monkeypatch.setattr(claims, "queue_decision", lambda claim_id: None)  # the task is lost
    made = claims.make_claim(game.pk, article="6.4", request_id="lost", by=black)
    start = timezone.now()
    (decided,) = wait_decided(game.pk, timeout=20)
    assert decided.pk == made["id"] and decided.status == Claim.Status.GRANTED
    assert decided.decided_at - start >= claims.SWEEP_AFTER - timedelta(milliseconds=50)
    assert decided.decided_at - start < claims.SWEEP_AFTER + timedelta(seconds=4)


def test_a_drain_skips_a_game_another_transaction_holds(monkeypatch):
    # Two boards of one round with a claim each; a move's transaction holds board 2. The
    # drain of board 1's task decides board 1 without waiting; board 2's own task then
    # waits for the lock and decides it: no claim lost, none decided twice.
    from arbiter.games.services.locking import lock_game

    game, arbiter, white, black = claim_game()
    other = make_game(game.round.event, fen="W:WK47,36:BK3")
    monkeypatch.setattr(claims, "queue_decision", lambda claim_id: None)
    first = claims.make_claim(game.pk, article="6.4", request_id="one", by=arbiter)
    second = claims.make_claim(other.pk, article="6.4", request_id="two", by=arbiter)
    held, release = threading.Event(), threading.Event()

    def hold():
        from django.db import transaction

        try:
            with transaction.atomic():
                lock_game(other.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    try:
        assert claims.drain_round(game.round_id) == [first["id"]]
        assert Claim.objects.get(pk=second["id"]).status == Claim.Status.PENDING
    finally:
        threading.Timer(0.3, release.set).start()
    assert claims.decide_claim(second["id"]) is True  # waited for the holder
    holder.join(10)
    assert set(Claim.objects.values_list("status", flat=True)) == {Claim.Status.REFUSED}
    assert AuditEntry.objects.filter(action="game.claim_decision").count() == 2
