"""The board's tablet: binding by one-time code, the device token's scope (its game or board,
never the arbiter's rights), presses with and without moves, and the network lag credit."""

from __future__ import annotations

from datetime import timedelta

import pytest

from arbiter.accounts import devices, throttle, tokens
from arbiter.accounts.models import ApiToken, DeviceCode
from arbiter.errors import TooManyAttempts, Unauthorized
from arbiter.games import services
from arbiter.games.models import Game, Move
from clocks import clock as clockmath
from clocks.models import ClockLog
from tests.accounts.builders import make_user

from .builders import make_event, make_game

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)
MS = timedelta(milliseconds=1)


@pytest.fixture
def board(t0, clock_at):
    """An event with an arbiter, two games (boards 1 and 2), round 1 published."""
    clock_at(t0)
    arbiter = make_user("arb")
    event = make_event(time_control="300", arbiter=arbiter)
    game = make_game(event, board=1)
    other = make_game(event, board=2)

    class Board:
        pass

    b = Board()
    b.arbiter, b.event, b.game, b.other = arbiter, event, game, other
    return b


def bind(game, arbiter, follow_board=False, address="10.0.0.7"):
    binding = devices.new_binding(game, by=arbiter, follow_board=follow_board)
    return devices.redeem(binding.short_display.lower(), address=address)


def api(client, method, url, secret, body=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}
    if method == "get":
        return client.get(url, **headers)
    return getattr(client, method)(url, body or {}, content_type="application/json", **headers)


def started(b, clock_at, at):
    clock_at(at)
    services.start_clocks(b.game, by=b.arbiter, reason="round starts")


# --- binding ------------------------------------------------------------------------------------


def test_a_code_binds_once_and_is_stored_hashed(board):
    binding = devices.new_binding(board.game, by=board.arbiter)
    row = DeviceCode.objects.get()
    assert binding.short not in (row.short_hash, row.link_hash)
    assert row.short_hash == tokens.hash_secret(binding.short)
    token, secret = devices.redeem(binding.link, address="10.0.0.1")
    assert token.device and token.game_id == board.game.pk and token.user != board.arbiter
    assert token.created_by == board.arbiter
    assert ApiToken.objects.get(pk=token.pk).key_hash == tokens.hash_secret(secret)
    with pytest.raises(Unauthorized) as err:
        devices.redeem(binding.short, address="10.0.0.1")  # the other code of the same binding
    assert err.value.code == "tablet.code_used"


def test_a_code_expires(board, clock_at, t0):
    binding = devices.new_binding(board.game, by=board.arbiter)
    clock_at(t0 + (devices.BINDING_MINUTES * 60 + 1) * S)
    with pytest.raises(Unauthorized) as err:
        devices.redeem(binding.short, address="10.0.0.1")
    assert err.value.code == "tablet.code_expired"


def test_wrong_codes_are_limited_per_address(board):
    for _ in range(throttle.PER_ADDRESS):
        with pytest.raises(Unauthorized):
            devices.redeem("AAAA-AAAA", address="10.0.0.9")
    binding = devices.new_binding(board.game, by=board.arbiter)
    with pytest.raises(TooManyAttempts) as err:
        devices.redeem(binding.short, address="10.0.0.9")  # even the right one, from there
    assert err.value.status == 429
    token, _ = devices.redeem(binding.short, address="10.0.0.10")  # another tablet is not locked
    assert token.device


def test_only_an_arbiter_of_the_event_binds_a_tablet(board, client):
    from arbiter.errors import Forbidden

    with pytest.raises(Forbidden):
        devices.new_binding(board.game, by=make_user("someone"))


def test_binding_through_the_api(board, client):
    client.force_login(board.arbiter)
    made = client.post(
        f"/api/games/{board.game.pk}/tablet-codes",
        {"follow_board": True},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["board"] == 1 and "/tablet/?code=" in body["link"]
    client.logout()
    got = client.post(
        "/api/tablet/bind", {"code": body["short_code"]}, content_type="application/json"
    )
    assert got.status_code == 201, got.content
    assert got.json()["game_id"] == board.game.pk and got.json()["follow_board"] is True
    again = client.post(
        "/api/tablet/bind", {"code": body["short_code"]}, content_type="application/json"
    )
    assert again.status_code == 401 and again.json()["code"] == "tablet.code_used"
    # The token is listed where tokens are listed, for the arbiter who bound it.
    client.force_login(board.arbiter)
    listed = client.get("/api/tokens").json()
    assert [t["id"] for t in listed] == [got.json()["token_id"]]


# --- what a tablet may do ------------------------------------------------------------------------


def test_a_tablet_of_one_board_cannot_press_another_games_clock(board, client, clock_at, t0):
    started(board, clock_at, t0)
    services.start_clocks(board.other, by=board.arbiter, reason="round starts")
    _, secret = bind(board.game, board.arbiter)
    body = {"ply": 1, "move": "32-28", "request_id": "x1"}
    other = api(client, "post", f"/api/games/{board.other.pk}/moves", secret, body)
    assert other.status_code == 403 and other.json()["code"] == "token.game_only"
    assert not Move.objects.filter(game=board.other).exists()
    own = api(client, "post", f"/api/games/{board.game.pk}/moves", secret, body)
    assert own.status_code == 201, own.content


def test_a_tablet_does_not_act_for_the_arbiter(board, client, clock_at, t0):
    started(board, clock_at, t0)
    _, secret = bind(board.game, board.arbiter)
    url = f"/api/games/{board.game.pk}"
    for path, body in [
        ("/clock", {"action": "pause", "reason": "tablet"}),
        ("/ruling", {"result": "2-0", "termination": "arbiter", "reason": "tablet says so"}),
        ("/accident", {"reason": "knocked over"}),
        ("/irregularities", {"kind": "played_twice", "side": "white"}),
    ]:
        got = api(client, "post", url + path, secret, body)
        assert got.status_code == 403, (path, got.content)
    assert api(client, "get", url + "/acts", secret).status_code == 403
    assert api(client, "get", url + "/clock/log", secret).status_code == 403
    put = client.put(
        url + "/result",
        {"result": "2-0", "reason": "x"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )
    assert put.status_code == 403
    tokens_list = api(client, "get", "/api/tokens", secret)
    assert tokens_list.status_code == 403
    game = Game.objects.get(pk=board.game.pk)
    assert game.result == "" and not game.clock.paused


def test_a_revoked_tablet_token_is_refused_with_401(board, client, clock_at, t0):
    started(board, clock_at, t0)
    token, secret = bind(board.game, board.arbiter)
    tokens.revoke(token.pk, by=board.arbiter)  # the arbiter who bound it may revoke it
    got = api(
        client, "post", f"/api/games/{board.game.pk}/moves", secret,
        {"ply": 1, "move": "32-28", "request_id": "r"},
    )  # fmt: skip
    assert got.status_code == 401 and got.json()["code"] == "token.revoked"
    assert not Move.objects.filter(game=board.game).exists()


def test_a_tablet_following_its_board_plays_the_next_round(board, client, clock_at, t0):
    _, secret = bind(board.game, board.arbiter, follow_board=True)
    nxt = make_game(board.event, board=1, round_number=2)
    third = make_game(board.event, board=3, round_number=2)
    assert api(client, "get", "/api/tablet", secret).json()["game_id"] == nxt.pk
    clock_at(t0)
    services.start_clocks(nxt, by=board.arbiter, reason="round 2")
    body = {"ply": 1, "move": "32-28", "request_id": "n1"}
    assert api(client, "post", f"/api/games/{nxt.pk}/moves", secret, body).status_code == 201
    refused = api(
        client, "post", f"/api/games/{third.pk}/moves", secret, {**body, "request_id": "n2"}
    )
    assert refused.status_code == 403


def test_tablet_acts_draw_offer_and_acceptance_resignation(board, client, clock_at, t0):
    from arbiter.games.models import EndingRules

    EndingRules.objects.create(event=board.event, offer_min_moves=1)
    started(board, clock_at, t0)
    _, secret = bind(board.game, board.arbiter)
    url = f"/api/games/{board.game.pk}"
    assert (
        api(
            client, "post", url + "/moves", secret, {"ply": 1, "move": "32-28", "request_id": "a"}
        ).status_code
        == 201
    )
    # FMJD 7.3.1: White offers after their move; Black accepts on the same tablet.
    offered = api(client, "post", url + "/offers", secret, {"side": "white"})
    assert offered.status_code == 201, offered.content
    accepted = api(client, "post", url + "/offers/accept", secret, {"side": "black"})
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["result"] == "1-1"
    # The acts are the arbiter's to read, by the tablet's own login.
    client.force_login(board.arbiter)
    record = client.get(url + "/acts").json()["record"]
    assert [e["action"] for e in record][:2] == ["game.draw_offer", "game.draw_accept"]
    assert record[0]["by"].startswith("tablet-")


# --- presses and the lag credit -------------------------------------------------------------------


def test_lag_credit_is_the_difference_up_to_the_quota_and_logged(board, clock_at, t0):
    # FMJD: the server's clock is the authority; the transit of a press is not thinking time.
    board.event.lag_quota_ms = 1000
    board.event.save()
    started(board, clock_at, t0)
    token, _ = bind(board.game, board.arbiter)
    device = token.user
    device.device_game_id = board.game.pk  # as the token's check sets it on a request
    clock_at(t0 + 10 * S + 400 * MS)  # the server counted 10.4 s, the tablet 10.0 s
    state = services.submit_move(
        board.game.pk, ply=1, move="32-28", request_id="m1", by=device, thinking_ms=10_000
    )
    assert state["clock"]["white_ms"] == 300_000 - 10_000
    clock_at(t0 + 20 * S + 400 * MS)  # Black: 10 s counted, the tablet lies: 0 ms
    state = services.submit_move(
        board.game.pk, ply=2, move="19-23", request_id="m2", by=device, thinking_ms=0
    )
    # Black's clock started at the press as the tablet saw it (t0 + 10.0 s): 10.4 s counted,
    # the quota (1 s) credited, not 10.4 s.
    assert state["clock"]["black_ms"] == 300_000 - 9_400
    clock_at(t0 + 30 * S + 400 * MS)  # White's clock from t0 + 19.4 s; 600 ms of quota left
    state = services.submit_move(
        board.game.pk, ply=3, move="28x19", request_id="m3", by=device, thinking_ms=0
    )
    assert state["clock"]["white_ms"] == 290_000 - 11_000 + 600
    lines = ClockLog.objects.filter(action="lag").order_by("pk")
    assert [(x.side, x.delta_ms) for x in lines] == [
        ("white", 400),
        ("black", 1000),
        ("white", 600),
    ]
    clock = Game.objects.get(pk=board.game.pk).clock
    assert (clock.lag_credit_white_ms, clock.lag_credit_black_ms) == (1000, 1000)
    assert "the tablet 0 ms" in lines[1].reason


@pytest.mark.parametrize(
    ("server_ms", "client_ms", "left", "credit"),
    [
        (1000, 700, 5000, 300),
        (1000, 1200, 5000, 0),  # never negative
        (1000, 0, 400, 400),  # never more than the quota left
        (300, 0, 5000, 300),  # never more than the server's own figure
        (1000, None, 5000, 0),  # no figure from the tablet: nothing
        (1000, -50, 5000, 1000),
        (1000, 0, 0, 0),
    ],
)
def test_lag_credit_never_exceeds_quota_nor_the_servers_figure(server_ms, client_ms, left, credit):
    assert clockmath.lag_credit(server_ms, client_ms, left) == credit


def test_a_move_retried_after_a_lost_answer_is_applied_once(board, clock_at, t0):
    started(board, clock_at, t0)
    token, _ = bind(board.game, board.arbiter)
    device = token.user
    device.device_game_id = board.game.pk
    clock_at(t0 + 5 * S)
    first = services.submit_move(
        board.game.pk, ply=1, move="32-28", request_id="same", by=device, thinking_ms=4000
    )
    clock_at(t0 + 9 * S)  # the answer was lost: the tablet sends it again, same request id
    again = services.submit_move(
        board.game.pk, ply=1, move="32-28", request_id="same", by=device, thinking_ms=4000
    )
    assert again["move"] == first["move"] and again["clock"] == first["clock"]
    assert Move.objects.filter(game=board.game).count() == 1
    assert ClockLog.objects.filter(action="lag").count() == 1


def test_a_press_without_a_move_where_the_event_allows_it(board, clock_at, t0, client):
    started(board, clock_at, t0)
    token, secret = bind(board.game, board.arbiter)
    url = f"/api/games/{board.game.pk}/press"
    refused = api(client, "post", url, secret, {"press": 1, "request_id": "p1"})
    assert refused.status_code == 409 and refused.json()["code"] == "press.moves_required"
    board.event.tablet_moves_required = False
    board.event.save()
    clock_at(t0 + 7 * S)
    got = api(client, "post", url, secret, {"press": 1, "request_id": "p1", "thinking_ms": 6800})
    assert got.status_code == 200, got.content
    body = got.json()
    assert body["clock"]["running"] == "black" and body["clock"]["white_ms"] == 293_200
    assert body["press"] == {"number": 1, "side": "white", "lag_credit_ms": 200}
    # The answer was lost: the same press again is applied once.
    clock_at(t0 + 8 * S)
    again = api(client, "post", url, secret, {"press": 1, "request_id": "p1", "thinking_ms": 6800})
    assert again.status_code == 200 and again.json()["press"]["replayed"] is True
    assert again.json()["clock"]["running"] == "black"
    assert ClockLog.objects.filter(action="press").count() == 1
    stale = api(client, "post", url, secret, {"press": 1, "request_id": "p2"})
    assert stale.status_code == 409 and stale.json()["code"] == "press.not_next"
    other = api(client, "post", url, secret, {"press": 2, "request_id": "p1"})
    assert other.status_code == 409 and other.json()["code"] == "press.request_id_other_press"
    game = Game.objects.get(pk=board.game.pk)
    assert game.ply == 0 and game.status == Game.Status.RUNNING  # the moves come from the sheets


def test_the_tablet_enters_the_opponents_choice_and_a_claim(board, client, clock_at, t0):
    # FMJD 5.4: after an irregularity recorded by the arbiter, the opponent chooses; from the
    # board's tablet, for the side the button names. FMJD 6: a claim from the tablet.
    from arbiter.games.services import irregularities

    started(board, clock_at, t0)
    _, secret = bind(board.game, board.arbiter)
    url = f"/api/games/{board.game.pk}"
    assert (
        api(
            client, "post", url + "/moves", secret, {"ply": 1, "move": "32-28", "request_id": "a"}
        ).status_code
        == 201
    )
    irr = irregularities.record_irregularity(
        board.game.pk, kind="played_twice", side="white", by=board.arbiter
    )
    pending = api(client, "get", url + "/pending", secret).json()
    assert [i["id"] for i in pending["irregularities"] if i["status"] == "pending"] == [irr["id"]]
    chose = api(
        client, "post", f"{url}/irregularities/{irr['id']}/choice", secret, {"choice": "rectify"}
    )
    assert chose.status_code == 200, chose.content
    claim = api(
        client, "post", url + "/claims", secret,
        {"article": "6.1", "side": "black", "request_id": "c1"},
    )  # fmt: skip
    assert claim.status_code == 202, claim.content
    assert claim.json()["side"] == "black"
    # Another game's pending acts are not the tablet's to read.
    other = api(client, "get", f"/api/games/{board.other.pk}/pending", secret)
    assert other.status_code == 403
