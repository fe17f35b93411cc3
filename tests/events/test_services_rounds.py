import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import AuditEntry, Round
from arbiter.events.pairing import berger_rounds
from arbiter.events.records import event_games, player_states
from arbiter.games import services as game_services
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db

START = dt.datetime(2026, 5, 1, 13, 30, tzinfo=dt.UTC)  # a round start, UTC
R = Game.Result


def _ids(round_):
    out = []
    for w, b in round_.games.values_list("white", "black"):
        out += [w] + ([b] if b else [])
    return out


def test_pairing_round_one_of_a_swiss_creates_a_draft_round_with_noted_games(org):
    event = make_event(org, n_players=7)
    round1 = services.pair_next_round(event, by=org)
    assert (round1.number, round1.status) == (1, Round.Status.DRAFT)
    assert round1.paired_at is not None
    games = list(round1.games.order_by("board"))
    assert [g.board for g in games] == [1, 2, 3, 4]
    assert sorted(_ids(round1)) == sorted(event.entries.values_list("player_id", flat=True))
    assert all(g.pairing_note.get("reason") for g in games)
    bye = round1.games.get(black__isnull=True)
    assert (bye.result, bye.termination, bye.status) == ("bye", "bye", "finished")
    assert AuditEntry.objects.filter(event=event, action="round.pair", user=org).exists()


def test_next_round_is_refused_while_the_previous_round_is_a_draft(org):
    event = make_event(org, n_players=4)
    services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="publish"):
        services.pair_next_round(event, by=org)


def test_next_round_is_refused_while_games_have_no_result_naming_the_boards(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    game_services.set_result(round1.games.get(board=1), R.DRAW, by=org)
    with pytest.raises(Conflict) as exc:
        services.pair_next_round(event, by=org)
    assert "board(s) 2" in exc.value.message and exc.value.details["boards"] == [2]
    assert event.round_set.count() == 1


def test_no_round_beyond_the_planned_number(org):
    event = make_event(org, n_players=4, rounds=2)
    play_round(event, org)
    play_round(event, org)
    with pytest.raises(Conflict, match="all 2 rounds"):
        services.pair_next_round(event, by=org)


def test_a_round_needs_two_players(org):
    event = make_event(org, n_players=1)
    with pytest.raises(Conflict, match="two players"):
        services.pair_next_round(event, by=org)


def test_pairing_is_for_the_events_arbiters_only(org):
    arb_a, arb_b = make_user("a"), make_user("b")
    event = make_event(org, n_players=4, arbiters=[arb_a])
    make_event(org, name="Other", arbiters=[arb_b])
    player_user = make_user("p")
    services.link_user(event.entries.first().player, player_user, by=org)
    for user in (arb_b, player_user, AnonymousUser()):
        with pytest.raises(Forbidden):
            services.pair_next_round(event, by=user)
    round1 = services.pair_next_round(event, by=arb_a)
    for user in (arb_b, player_user):
        with pytest.raises(Forbidden):
            services.publish_round(round1, by=user)
    services.publish_round(round1, by=arb_a)


def test_publish_round_once(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    round1.refresh_from_db()
    assert round1.status == Round.Status.PUBLISHED and round1.published_at
    with pytest.raises(Conflict, match="already published"):
        services.publish_round(round1, by=org)


def test_round_robin_rounds_follow_the_berger_table_by_pairing_number(org):
    event = make_event(org, system="round_robin", n_players=6)
    table = berger_rounds(6)
    for r in range(1, 6):
        round_ = play_round(event, org)
        number = {e.player_id: e.pairing_number for e in event.entries.all()}
        got = [
            (number[w], number[b])
            for w, b in round_.games.order_by("board").values_list("white", "black")
        ]
        assert got == table[r - 1], f"round {r}"
    event.refresh_from_db()
    assert event.rounds == 5
    with pytest.raises(Conflict, match="all 5 rounds"):
        services.pair_next_round(event, by=org)


def test_double_round_robin_reverses_colours_in_the_second_cycle(org):
    event = make_event(org, system="double_round_robin", n_players=4)
    rounds = [play_round(event, org) for _ in range(6)]
    event.refresh_from_db()
    assert event.rounds == 6
    number = {e.player_id: e.pairing_number for e in event.entries.all()}
    games = [
        [(number[w], number[b]) for w, b in r.games.order_by("board").values_list("white", "black")]
        for r in rounds
    ]
    table = berger_rounds(4)
    for k in range(3):  # second cycle: the Berger table again, colours reversed
        assert games[3 + k] == [(b, w) for w, b in table[k]]
    first = {g for rnd in games[:3] for g in rnd}
    second = {(b, w) for rnd in games[3:] for (w, b) in rnd}
    assert first == second and len(first) == 6


def test_a_round_robin_with_an_odd_number_has_a_free_player_without_a_game(org):
    event = make_event(org, system="round_robin", n_players=5)
    round1 = services.pair_next_round(event, by=org)
    assert round1.games.count() == 2
    assert not round1.games.filter(black__isnull=True).exists()
    assert len(set(_ids(round1))) == 4


def test_an_absent_player_in_a_round_robin_forfeits_the_paired_game(org):
    event = make_event(org, system="round_robin", n_players=4)
    absent = event.entries.get(pairing_number=4)
    services.set_absent(absent, [1], by=org)
    round1 = services.pair_next_round(event, by=org)
    game = round1.games.get(board=1)  # player 4 sits on board 1 (Berger)
    assert absent.player_id in (game.white_id, game.black_id)
    expected = R.BLACK_FORFEIT_WIN if game.white_id == absent.player_id else R.WHITE_FORFEIT_WIN
    assert (game.result, game.termination) == (expected, "forfeit")
    assert game.pairing_note["auto_forfeit"] is True


def test_set_pairing_by_hand_returns_the_rules_it_breaks_and_logs_it(org):
    arbiter = make_user("arb")
    event = make_event(org, n_players=4, arbiters=[arbiter])
    round1 = play_round(event, org)
    round2 = services.pair_next_round(event, by=org)
    rematch = [tuple(round1.games.values_list("white", "black").get(board=1))]
    others = [p for p in event.entries.values_list("player_id", flat=True) if p not in rematch[0]]
    boards = [rematch[0], (others[0], others[1])]
    old = sorted(round2.games.values_list("board", "white", "black"))
    warnings = services.set_pairing(round2, boards, by=arbiter, reason="players asked")
    assert any("already played" in w for w in warnings)
    round2.refresh_from_db()
    assert round2.warnings == warnings
    assert sorted(round2.games.values_list("white", "black")) == sorted(boards)
    log = AuditEntry.objects.get(event=event, action="round.set_pairing")
    assert log.user == arbiter and log.reason == "players asked"
    assert sorted(tuple(b) for b in log.old) == [tuple(x) for x in old]
    assert [b[1:] for b in log.new["boards"]] == [list(b) for b in boards]
    note = round2.games.get(board=1).pairing_note
    assert note["manual"] is True


def test_set_pairing_without_breaking_rules_has_no_warnings(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    boards = list(round1.games.order_by("board").values_list("white", "black"))
    swapped = [(boards[1][0], boards[1][1]), (boards[0][0], boards[0][1])]
    assert services.set_pairing(round1, swapped, by=org, reason="board order") == []


def test_set_pairing_refuses_unknown_or_doubled_players_and_changes_nothing(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    before = sorted(round1.games.values_list("board", "white", "black"))
    ids = list(event.entries.values_list("player_id", flat=True))
    with pytest.raises(Invalid) as exc:
        services.set_pairing(round1, [(ids[0], ids[1]), (ids[1], 999999)], by=org, reason="x")
    assert any("already on board 1" in e for e in exc.value.details["errors"])
    assert any("999999" in e for e in exc.value.details["errors"])
    # each problem is a code with its board and player
    problems = {
        (e.code, e.params["board"], e.params["player_id"]) for e in exc.value.params["errors"]
    }
    assert problems == {("pairing.twice", 2, ids[1]), ("pairing.not_entered", 2, 999999)}
    assert exc.value.as_dict()["params"]["errors"][0]["code"] in {
        "pairing.twice",
        "pairing.not_entered",
    }
    with pytest.raises(Invalid, match="reason"):
        services.set_pairing(round1, [(ids[0], ids[1])], by=org, reason="")
    assert sorted(round1.games.values_list("board", "white", "black")) == before


def test_set_pairing_is_refused_once_results_are_in(org):
    event = make_event(org, n_players=4)
    round1 = services.pair_next_round(event, by=org)
    services.publish_round(round1, by=org)
    game_services.set_result(round1.games.get(board=2), R.DRAW, by=org)
    ids = list(event.entries.values_list("player_id", flat=True))
    with pytest.raises(Conflict, match="board"):
        services.set_pairing(round1, [(ids[0], ids[1]), (ids[2], ids[3])], by=org, reason="x")


def test_set_pairing_by_another_events_arbiter_is_forbidden(org):
    other = make_user("other")
    event = make_event(org, n_players=4)
    make_event(org, name="Other", arbiters=[other])
    round1 = services.pair_next_round(event, by=org)
    ids = list(event.entries.values_list("player_id", flat=True))
    with pytest.raises(Forbidden):
        services.set_pairing(round1, [(ids[0], ids[1]), (ids[2], ids[3])], by=other, reason="x")


def test_unpair_the_last_round_to_pair_it_again(org):
    event = make_event(org, n_players=4)
    round1 = play_round(event, org)
    round2 = services.pair_next_round(event, by=org)
    with pytest.raises(Conflict, match="last round"):
        services.unpair_round(round1, by=org)
    services.unpair_round(round2, by=org, reason="late entry")
    assert list(event.round_set.values_list("number", flat=True)) == [1]
    assert services.pair_next_round(event, by=org).number == 2


def test_player_states_take_scores_from_the_events_scoring_and_floats_from_the_scores(org):
    event = make_event(org, n_players=5, points_win=3, points_bye=1)
    round1 = play_round(event, org, lambda g: R.WHITE_WINS)
    round2 = play_round(event, org, lambda g: R.DRAW)
    entries = list(event.entries.select_related("player"))
    states = {s.id: s for s in player_states(event, entries, event_games(event), 3)}
    bye1 = round1.games.get(black__isnull=True).white_id
    winners = set(round1.games.exclude(black__isnull=True).values_list("white", flat=True))
    for pid, s in states.items():
        first = 1 if pid == bye1 else (3 if pid in winners else 0)
        assert s.score == first + 1  # round 2: a draw or the bye, 1 point either way
        assert s.had_bye == (
            pid == bye1 or round2.games.filter(white_id=pid, black__isnull=True).exists()
        )
        assert len(s.colours) == len(s.floats) == 2
    before = {s.id: s.score for s in player_states(event, entries, event_games(event), 2)}
    for g in round2.games.all():
        if g.black_id is None:
            assert states[g.white_id].floats[1] == "down"  # a bye counts as a downfloat
            continue
        w, b = before[g.white_id], before[g.black_id]
        assert states[g.white_id].floats[1] == ("down" if w > b else "up" if w < b else None)
        assert states[g.black_id].floats[1] == ("down" if b > w else "up" if b < w else None)
    assert any(s.floats[1] == "up" for s in states.values())  # 3 winners: one floats


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
