"""Endings people bring about (FMJD art. 5-7): claims decided against the record, draw offers,
resignations, rulings with a reason, irregularities rectified or maintained, and the record
of every act. Decisions are called here as the task calls them (the task is one line)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events.models import AuditEntry
from arbiter.games import selectors, services
from arbiter.games.models import Claim, DrawOffer, EndingRules, Game, Irregularity, Move
from arbiter.games.services import claims, irregularities, offers
from rules import Game as RulesGame
from rules import Position
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_game import quiet_step

pytestmark = pytest.mark.django_db
SEC = timedelta(seconds=1)


@pytest.fixture
def people(db):
    from types import SimpleNamespace

    arbiter = make_user("arb")
    return SimpleNamespace(arbiter=arbiter, white=make_user("w"), black=make_user("b"))


def untimed_game(people, fen, **rules):
    event = make_event(time_control="-", arbiter=people.arbiter)
    if rules:
        EndingRules.objects.create(event=event, **rules)
    return make_game(
        event, fen=fen, white=make_player(people.white), black=make_player(people.black)
    )


def play_quiet(game_id: int, n: int, by) -> None:
    """Play `n` quiet moves (no capture offered, no position repeated) through move entry."""
    for _ in range(n):
        game = Game.objects.get(pk=game_id)
        record = selectors.rules_game(game)
        before = record.plies
        move = quiet_step(record)
        text = record.history[before].move_text(move)
        services.submit_move(
            game_id, ply=game.ply + 1, move=text, request_id=f"q{game.ply + 1}", by=by
        )


def claim(game, people, article, who="white", rid=None, **kw):
    by = getattr(people, who)
    made = claims.make_claim(
        game.pk, article=article, request_id=rid or f"c{Claim.objects.count()}", by=by, **kw
    )
    claims.decide_claim(made["id"])
    return Claim.objects.get(pk=made["id"])


# ----- claims under FMJD 6.1-6.4


COUNTED_RULES = [
    ("6.2", "W:WK47,K49,36:BK2,K4,15", 50, "draw_25_moves", "24 of 25 moves each"),
    ("6.3", "W:WK47,K49,K48:BK3", 32, "draw_16_moves", "15 of 16 moves each"),
    ("6.4", "W:WK47,36:BK3", 10, "draw_5_moves", "4 of 5 moves each"),
]


@pytest.mark.parametrize("article, fen, plies, termination, words", COUNTED_RULES)
def test_claim_fmjd_6_2_to_6_4_refused_one_move_early_then_granted(
    people, article, fen, plies, termination, words
):
    game = untimed_game(people, fen, claim_articles=[article])
    play_quiet(game.pk, plies - 1, people.arbiter)
    early = claim(game, people, article)
    assert early.status == Claim.Status.REFUSED and early.code == "too_early"
    assert early.explanation["params"]["plies"] == plies - 1
    assert words in early.explanation["message"]
    play_quiet(game.pk, 1, people.arbiter)
    game.refresh_from_db()
    # claim mode: the rule applies, the game waits; the arbiter is alerted in the record
    assert game.status == Game.Status.RUNNING
    assert AuditEntry.objects.filter(action="game.draw_rule_applies").count() == 1
    state = selectors.game_state(Game.objects.get(pk=game.pk))
    assert next(r for r in state["draw_rules"] if r["article"] == article)["applies"]
    granted = claim(game, people, article, who="black")
    assert granted.status == Claim.Status.GRANTED
    game.refresh_from_db()
    assert (game.result, game.termination) == ("1-1", termination)


@pytest.mark.parametrize("article, fen, plies, termination, words", COUNTED_RULES)
def test_automatic_mode_ends_the_game_on_the_move_fmjd_6_2_to_6_4(
    people, article, fen, plies, termination, words
):
    game = untimed_game(people, fen)
    play_quiet(game.pk, plies, people.arbiter)
    game.refresh_from_db()
    assert (game.result, game.termination, game.ply) == ("1-1", termination, plies)


def test_automatic_mode_ends_the_game_on_the_move_fmjd_6_1(people):
    game = untimed_game(people, "W:WK47,K49:BK2,K4")
    for i, m in enumerate(["47-41", "2-7", "41-47", "7-2"] * 2, start=1):
        services.submit_move(game.pk, ply=i, move=m, request_id=f"m{i}", by=people.arbiter)
    game.refresh_from_db()
    assert (game.result, game.termination, game.ply) == ("1-1", "draw_repetition", 8)


def test_claim_fmjd_6_1_with_the_occurrences_in_the_explanation(people):
    game = untimed_game(people, "W:WK47,K49:BK2,K4", claim_articles=["6.1"])
    moves = ["47-41", "2-7", "41-47", "7-2"] * 2
    for i, m in enumerate(moves[:-1], start=1):
        services.submit_move(game.pk, ply=i, move=m, request_id=f"m{i}", by=people.arbiter)
    refused = claim(game, people, "6.1")
    assert refused.explanation["params"]["occurred_at"] == [3, 7]
    assert "occurred 2 time(s) of 3" in refused.explanation["message"]
    services.submit_move(game.pk, ply=8, move="7-2", request_id="m8", by=people.arbiter)
    assert claim(game, people, "6.1").status == Claim.Status.GRANTED
    game.refresh_from_db()
    assert game.termination == "draw_repetition"


def test_a_claim_on_a_finished_game_is_refused_with_the_reason(people):
    game = untimed_game(people, "W:WK47,36:BK3")
    offers.resign(game.pk, by=people.black)
    refused = claim(game, people, "6.4")
    assert refused.status == Claim.Status.REFUSED and refused.code == "game_over"
    assert "the game is over (2-0, resigned)" in refused.explanation["message"]


def test_claims_are_idempotent_by_request_id_and_decided_once(people):
    game = untimed_game(people, "W:WK47,36:BK3")
    a = claims.make_claim(game.pk, article="6.4", request_id="same", by=people.white)
    b = claims.make_claim(game.pk, article="6.4", request_id="same", by=people.white)
    assert a["id"] == b["id"] and Claim.objects.count() == 1
    assert claims.decide_claim(a["id"]) is True
    assert claims.decide_claim(a["id"]) is False  # a second task or the sweep: nothing


def test_the_sweep_decides_a_claim_whose_task_was_lost(people, clock_at, t0):
    game = untimed_game(people, "W:WK47,36:BK3")
    clock_at(t0)
    made = claims.make_claim(game.pk, article="6.4", request_id="lost", by=people.white)
    assert claims.sweep_claims(t0 + SEC) == 0  # too young: its task may still come
    assert claims.sweep_claims(t0 + 3 * SEC) == 1
    assert Claim.objects.get(pk=made["id"]).status == Claim.Status.REFUSED
    game.refresh_from_db()
    assert game.acts_pending is False


def test_one_task_decides_every_claim_pending_in_its_round(people, monkeypatch):
    # A burst of claims (FMJD 6.4 on each board of a round) is decided in one drain: the
    # first task decides them all in one transaction, the others' tasks find theirs decided.
    event = make_event(time_control="-", arbiter=people.arbiter)
    EndingRules.objects.create(event=event, claim_articles=["6.4"])
    games = [make_game(event, fen="W:WK47,36:BK3") for _ in range(5)]
    for game in games:
        play_quiet(game.pk, 10, people.arbiter)  # 6.4: 5 moves each, the claim is right
    monkeypatch.setattr(claims, "queue_decision", lambda claim_id: None)  # no eager task
    made = [
        claims.make_claim(g.pk, article="6.4", request_id=f"b{g.pk}", by=people.arbiter)
        for g in games
    ]
    transactions = []
    monkeypatch.setattr(claims, "_decide_games", _counting(claims._decide_games, transactions))
    assert claims.decide_claim(made[2]["id"]) is True
    assert len(transactions) == 1 and transactions[0] == 5
    assert [claims.decide_claim(m["id"]) for m in made] == [False] * 5
    decided = Claim.objects.filter(pk__in=[m["id"] for m in made])
    assert {c.status for c in decided} == {Claim.Status.GRANTED}
    assert Game.objects.filter(pk__in=[g.pk for g in games], result="1-1").count() == 5
    assert not Game.objects.filter(pk__in=[g.pk for g in games], acts_pending=True).exists()
    assert AuditEntry.objects.filter(action="game.claim_decision").count() == 5
    games[0].round.refresh_from_db()
    assert games[0].round.status == "finished"  # every board has its result: closed once


def test_a_drain_decides_at_most_a_batch_then_the_next(people, monkeypatch):
    event = make_event(time_control="-", arbiter=people.arbiter)
    games = [make_game(event, fen="W:WK47,36:BK3") for _ in range(3)]
    monkeypatch.setattr(claims, "queue_decision", lambda claim_id: None)
    monkeypatch.setattr(claims, "DRAIN_BATCH", 2)
    made = [
        claims.make_claim(g.pk, article="6.4", request_id=f"d{g.pk}", by=people.arbiter)
        for g in games
    ]
    first = claims.drain_round(games[0].round_id)
    assert first == [made[0]["id"], made[1]["id"]]  # the oldest claims first
    assert claims.drain_round(games[0].round_id) == [made[2]["id"]]
    assert claims.drain_round(games[0].round_id) == []
    # 6.4 does not apply at the start: each refused with the count, none lost
    assert set(Claim.objects.values_list("status", flat=True)) == {Claim.Status.REFUSED}


def _counting(decide_games, calls: list):
    def counted(games, now):
        decided = decide_games(games, now)
        calls.append(len(decided))
        return decided

    return counted


def test_a_player_claims_for_their_own_side_only(people):
    game = untimed_game(people, "W:WK47,36:BK3")
    with pytest.raises(Forbidden):
        claims.make_claim(game.pk, article="6.4", request_id="x", by=people.white, side="black")
    with pytest.raises(Forbidden):
        claims.make_claim(game.pk, article="6.4", request_id="y", by=make_user("stranger"))


def test_a_move_while_a_claim_is_pending_decides_the_claim_first(people):
    game2 = untimed_game(people, "W:WK47,36:BK3", claim_articles=["6.4"])
    play_quiet(game2.pk, 10, people.arbiter)
    claims.make_claim(game2.pk, article="6.4", request_id="p", by=people.black)  # task not run
    game2.refresh_from_db()
    record = selectors.rules_game(game2)
    text = record.position.move_text(record.position.legal_moves()[0])
    with pytest.raises(Conflict, match="ended by a claim decided before this move"):
        services.submit_move(game2.pk, ply=11, move=text, request_id="late", by=people.arbiter)
    game2.refresh_from_db()
    assert (game2.result, game2.ply) == ("1-1", 10)
    assert not Move.objects.filter(game=game2, ply=11).exists()


def test_a_move_while_a_claim_is_pending_is_refused_under_the_refuse_rule(people):
    game = untimed_game(people, "W:WK47,36:BK3", move_during_claim="refuse")
    claims.make_claim(game.pk, article="6.4", request_id="p", by=people.black)
    with pytest.raises(Conflict, match="waits for its decision"):
        services.submit_move(game.pk, ply=1, move="47-41", request_id="m", by=people.arbiter)


# ----- flag claims and the false-claim rule


def timed_game(people, flag_policy="claim", **rules):
    event = make_event(time_control="60", flag_policy=flag_policy, arbiter=people.arbiter)
    if rules:
        EndingRules.objects.create(event=event, **rules)
    game = make_game(event, white=make_player(people.white), black=make_player(people.black))
    return game


def test_a_flag_claim_is_granted_once_the_time_ran_out(people, clock_at, t0):
    game = timed_game(people)
    clock_at(t0)
    services.start_clocks(game.pk, by=people.arbiter)
    clock_at(t0 + 30 * SEC)
    early = claim(game, people, "flag", who="black")
    assert early.code == "flag_not_fallen" and early.explanation["params"]["white_ms"] == 30000
    clock_at(t0 + 61 * SEC)
    granted = claim(game, people, "flag", who="black")
    assert granted.status == Claim.Status.GRANTED
    game.refresh_from_db()
    assert (game.result, game.termination) == ("0-2", "flag")


def test_a_false_claim_adds_time_to_the_opponent_when_the_event_says_so(people, clock_at, t0):
    game = timed_game(people, false_claim_penalty_ms=5000)
    clock_at(t0)
    services.start_clocks(game.pk, by=people.arbiter)
    clock_at(t0 + 10 * SEC)
    refused = claim(game, people, "flag", who="white")  # black's flag has not fallen
    assert refused.status == Claim.Status.REFUSED
    state = selectors.game_state(Game.objects.get(pk=game.pk))
    assert state["clock"]["black_ms"] == 65000 and state["clock"]["white_ms"] == 50000


# ----- draw offers (FMJD 7.3.1), resignation (7.2.1), rulings (7.2.4, 7.3.3)


def test_draw_offer_procedure_fmjd_7_3_1(people):
    game = untimed_game(people, "W:WK47,K49:BK2,K4", offer_min_moves=2)
    play_quiet(game.pk, 1, people.arbiter)
    with pytest.raises(Conflict, match="too early"):
        offers.offer_draw(game.pk, by=people.white)
    play_quiet(game.pk, 2, people.arbiter)  # White has played 2 moves; Black to move
    with pytest.raises(Conflict, match="turn to move first"):
        offers.offer_draw(game.pk, by=people.black)
    offers.offer_draw(game.pk, by=people.white)
    with pytest.raises(Conflict, match="only the opponent"):
        offers.accept_draw(game.pk, by=people.white)
    play_quiet(game.pk, 1, people.arbiter)  # Black moves: the offer is declined
    assert DrawOffer.objects.get().status == DrawOffer.Status.DECLINED
    play_quiet(game.pk, 1, people.arbiter)
    with pytest.raises(Conflict, match="may not offer again"):
        offers.offer_draw(game.pk, by=people.white)
    play_quiet(game.pk, 1, people.arbiter)
    offers.offer_draw(game.pk, by=people.black)  # the opponent may
    state = offers.accept_draw(game.pk, by=people.white)
    assert (state["result"], state["termination"]) == ("1-1", "agreed_draw")
    actions = list(AuditEntry.objects.order_by("at", "pk").values_list("action", flat=True))
    assert actions.count("game.draw_offer") == 2 and "game.draw_decline" in actions


def test_resignation_by_the_player_or_entered_by_the_arbiter_fmjd_7_2_1(people):
    game = untimed_game(people, "W:WK47,36:BK3")
    with pytest.raises(Invalid):
        offers.resign(game.pk, by=people.arbiter)  # the arbiter names the side
    state = offers.resign(game.pk, by=people.arbiter, side="white", reason="said so at the board")
    assert (state["result"], state["termination"]) == ("0-2", "resigned")


@pytest.mark.parametrize(
    "termination, result",
    [("refused_rules", "2-0"), ("no_win_possible", "1-1"), ("arbiter", "0-2")],
)
def test_rulings_need_a_written_reason_fmjd_7_2_4_7_3_3(people, termination, result):
    game = untimed_game(people, "W:WK47,36:BK3")
    with pytest.raises(Invalid, match="written reason"):
        offers.rule(game.pk, result=result, termination=termination, reason="", by=people.arbiter)
    with pytest.raises(Forbidden):
        offers.rule(
            game.pk, result=result, termination=termination, reason="xxxxxx", by=people.white
        )
    state = offers.rule(
        game.pk,
        result=result,
        termination=termination,
        reason="refused to press the clock",
        by=people.arbiter,
    )
    assert (state["result"], state["termination"]) == (result, termination)
    entry = AuditEntry.objects.get(action="game.ruling")
    assert entry.reason == "refused to press the clock" and entry.user == people.arbiter


# ----- irregularities (FMJD 5.4, 5.5, 5.7, 5.8)


def irregular_game(people):
    """1. 32-28 19-23: White must take 28x19 (FMJD 4.1) and plays 37-32 instead."""
    game = untimed_game(people, None)
    for i, m in enumerate(["32-28", "19-23"], start=1):
        services.submit_move(game.pk, ply=i, move=m, request_id=f"m{i}", by=people.arbiter)
    irr = irregularities.record_irregularity(
        game.pk,
        kind="not_capturing",
        side="white",
        by=people.arbiter,
        fen_on_board="B:W28,31-36,38-50:B1-18,20,23",
        note="played 37-32 instead of taking",
    )
    return game, irr


def test_fmjd_5_4_moves_wait_for_the_choice_and_only_the_opponent_chooses(people):
    game, irr = irregular_game(people)
    with pytest.raises(Conflict, match="waits for black's choice"):
        services.submit_move(game.pk, ply=3, move="28x19", request_id="m3", by=people.arbiter)
    with pytest.raises(Forbidden, match="opponent of the player"):
        irregularities.choose(game.pk, irr["id"], choice="rectify", by=people.white)
    with pytest.raises(Invalid, match="partial"):
        irregularities.choose(game.pk, irr["id"], choice="half", by=people.black)


def test_fmjd_5_4_rectified_the_record_stands_and_play_goes_on(people):
    game, irr = irregular_game(people)
    state = irregularities.choose(game.pk, irr["id"], choice="rectify", by=people.black)
    assert state["ply"] == 2 and state["legal_moves"] == ["28x19"]
    services.submit_move(game.pk, ply=3, move="28x19", request_id="m3", by=people.arbiter)
    assert Irregularity.objects.get().status == Irregularity.Status.RECTIFIED
    with pytest.raises(Conflict, match="decided already"):
        irregularities.choose(game.pk, irr["id"], choice="maintain", by=people.black)


def test_fmjd_5_4_maintained_the_game_goes_on_from_the_board(people):
    game, irr = irregular_game(people)
    state = irregularities.choose(
        game.pk, irr["id"], choice="maintain", by=people.arbiter, reason="Black's choice"
    )
    assert state["ply"] == 3 and state["turn"] == "black"
    assert state["fen"] == Position.from_fen("B:W28,31-36,38-50:B1-18,20,23").fen()
    setup_row = Move.objects.get(game=game, ply=3)
    assert setup_row.notation.startswith('/FEN "B:')
    services.submit_move(game.pk, ply=4, move="18-22", request_id="m4", by=people.black)
    game.refresh_from_db()
    record = RulesGame.from_state(game.rules_state)
    assert record.setups[0][0] == 3 and record.setups[0][1].article == "5.4"
    assert record.history[3] == Position.from_fen("B:W28,31-36,38-50:B1-18,20,23")


def test_fmjd_5_7_a_move_by_the_opponent_accepts_the_irregularity(people):
    game, irr = irregular_game(people)
    state = irregularities.accept_by_move(
        game.pk, irr["id"], move="18-22", request_id="m4", by=people.black
    )
    assert state["ply"] == 4 and state["move"]["notation"] == "18-22"
    assert Irregularity.objects.get().status == Irregularity.Status.ACCEPTED
    acts = selectors.read_acts(game.pk, by=people.arbiter)
    kinds = [e["action"] for e in acts["record"]]
    assert kinds == ["game.irregularity", "game.irregularity_choice"]
    assert acts["record"][1]["what"]["choice"] == "accepted"


def test_fmjd_5_5_an_accident_is_logged_without_a_ruling(people):
    game = untimed_game(people, None)
    state = irregularities.restore_after_accident(
        game.pk, by=people.arbiter, reason="a sleeve swept two men; put back at once"
    )
    assert state["ply"] == 0
    assert AuditEntry.objects.get().action == "game.accident_restored"
    with pytest.raises(Forbidden):
        selectors.read_acts(game.pk, by=people.white)


def test_fmjd_5_1_a_board_wrongly_placed_annuls_the_game_and_restarts_it(people, clock_at, t0):
    event = make_event(time_control="300", arbiter=people.arbiter)
    game = make_game(event, white=make_player(people.white), black=make_player(people.black))
    clock_at(t0)
    services.start_clocks(game.pk, by=people.arbiter)
    for i, m in enumerate(["32-28", "19-23"], start=1):
        clock_at(t0 + i * 10 * SEC)
        services.submit_move(game.pk, ply=i, move=m, request_id=f"m{i}", by=people.arbiter)
    with pytest.raises(Forbidden):
        irregularities.annul_and_restart(game.pk, by=people.white, reason="board turned")
    state = irregularities.annul_and_restart(
        game.pk, by=people.arbiter, reason="the long diagonal ran from the right"
    )
    assert state["fen"] == Position.start().fen() and state["ply"] == 3
    assert state["clock"]["started"] is False and state["clock"]["white_ms"] == 300_000
    assert Move.objects.filter(game=game).count() == 3  # nothing deleted
    record = RulesGame.from_state(Game.objects.get(pk=game.pk).rules_state)
    assert record.setups[0][1].article == "5.1"
    assert AuditEntry.objects.filter(action="game.annulled_restart").count() == 1


@pytest.mark.parametrize(
    "rule, expected", [("loss", ("2-0", "flag")), ("draw", ("1-1", "no_win_possible"))]
)
def test_a_flag_against_a_lone_king_follows_the_events_rule(people, clock_at, t0, rule, expected):
    """Black's time runs out; White has only a lone king: a loss by default (the plain
    reading), a draw where the event says so (FMJD 7.3.3)."""
    event = make_event(time_control="60", arbiter=people.arbiter)
    EndingRules.objects.create(event=event, flag_vs_lone_king=rule)
    game = make_game(event, fen="B:WK47:BK3,10", white=make_player(), black=make_player())
    clock_at(t0)
    services.start_clocks(game.pk, by=people.arbiter)
    assert services.check_flag(game.pk, ply=0, now=t0 + 61 * SEC)
    game.refresh_from_db()
    assert (game.result, game.termination) == expected


def test_a_flag_is_a_loss_when_the_opponent_has_more_than_a_lone_king(people, clock_at, t0):
    event = make_event(time_control="60", arbiter=people.arbiter)
    EndingRules.objects.create(event=event, flag_vs_lone_king="draw")
    game = make_game(event, fen="B:WK47,36:BK3", white=make_player(), black=make_player())
    clock_at(t0)
    services.start_clocks(game.pk, by=people.arbiter)
    assert services.check_flag(game.pk, ply=0, now=t0 + 61 * SEC)
    game.refresh_from_db()
    assert (game.result, game.termination) == ("2-0", "flag")
