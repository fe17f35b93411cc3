"""The official record in PDN 3.0: tags, %clock comments, per game, round and event at stable
public URLs and through the API; read back by the project's reader and by py-draughts."""

from __future__ import annotations

import datetime as dt

import pytest

from arbiter.events.models import Round
from arbiter.games import pdn_export
from arbiter.games.services import set_result
from rules.pdn import read_games
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game

from .pdn_builders import played, publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    from types import SimpleNamespace

    arbiter = make_user()
    event = make_event(time_control="50/7200:25/3600", arbiter=arbiter)
    event.place, event.start_date = "Wageningen", dt.date(2026, 11, 28)
    event.save()
    white = make_player(surname="Sijbrands")
    white.given_name, white.fmjd_id, white.rating = "Ton", "10001", 2410
    white.save()
    black = make_player(surname="Baliakin")
    black.given_name, black.fmjd_id, black.rating = "Alexander", "10002", 2380
    black.save()
    game = make_game(event, white=white, black=black, board=3)
    publish(game)
    moves = played_game(24)
    clocks = [(7_200_000 - 1000 * i, 7_200_000 - 900 * i) for i in range(1, 25)]
    played(game, moves, clocks)
    set_result(game, "1-1", by=arbiter, termination="agreed_draw")
    game.refresh_from_db()
    return SimpleNamespace(event=event, game=game, moves=moves, clocks=clocks, arbiter=arbiter)


def test_pdn_3_tags_and_clock_comments(world):
    name, text = pdn_export.game_pdn(world.game.pk, by=None)
    assert name == f"{world.event.slug}-r1-b3.pdn"
    (g,) = read_games(text)
    assert g.error is None
    assert g.tags == {
        "Event": world.event.name,
        "Site": "Wageningen",
        "Date": "2026.11.28",
        "Round": "1",
        "White": "Sijbrands, Ton",
        "Black": "Baliakin, Alexander",
        "Result": "1-1",
        "GameType": "20",
        "Board": "3",
        "WhiteFmjdId": "10001",
        "WhiteRating": "2410",
        "BlackFmjdId": "10002",
        "BlackRating": "2380",
        "TimeControl": "50/7200:25/3600",
        "Termination": "agreed_draw",
    }
    assert [m.notation for m in g.moves] == world.moves
    assert [(m.clock.white_ms, m.clock.black_ms) for m in g.moves] == world.clocks
    assert g.moves[0].clock.running == "black" and g.moves[1].clock.running == "white"
    assert "[%clock w1:59:59 B1:59:59.1]" in text
    assert text.rstrip().endswith("1-1")


def test_moves_without_clock_readings_have_no_clock_comment(world):
    game = make_game(world.event, white=make_player(), black=make_player(), board=4)
    played(game, played_game(6))
    _, text = pdn_export.game_pdn(game.pk, by=None)
    assert "%clock" not in text and "%clk" not in text
    assert read_games(text)[0].result == "*"


def test_py_draughts_reads_the_same_moves(world):
    draughts = pytest.importorskip("draughts", reason="py-draughts (the test extra) is absent")
    _, text = pdn_export.game_pdn(world.game.pk, by=None)
    board = draughts.StandardBoard.from_pdn(text)
    theirs = [str(m) for m in board._moves_stack]

    def ends(t):
        squares = t.replace("x", "-").split("-")
        return squares[0], squares[-1]

    assert [ends(t) for t in theirs] == [ends(t) for t in world.moves]


def test_round_and_event_files_hold_published_rounds_only(client, world):
    hidden = make_game(
        world.event,
        white=make_player(),
        black=make_player(),
        round_number=2,
        round_status=Round.Status.DRAFT,
    )
    played(hidden, played_game(4))
    slug = world.event.slug
    r1 = client.get(f"/events/{slug}/rounds/1/games.pdn")
    assert r1.status_code == 200 and r1["Content-Type"].startswith("application/x-draughts-pdn")
    assert len(read_games(r1.content)) == 1
    assert client.get(f"/events/{slug}/rounds/2/games.pdn").status_code == 404
    assert client.get(f"/events/{slug}/rounds/2/boards/{hidden.board}.pdn").status_code == 404
    event_file = client.get(f"/events/{slug}/games.pdn")
    assert [g.tags["Round"] for g in read_games(event_file.content)] == ["1"]
    game_file = client.get(f"/events/{slug}/rounds/1/boards/3.pdn")
    assert game_file.status_code == 200 and "attachment" in game_file["Content-Disposition"]
    client.force_login(world.arbiter)
    assert client.get(f"/events/{slug}/rounds/2/games.pdn").status_code == 200
    assert len(read_games(client.get(f"/events/{slug}/games.pdn").content)) == 2


def test_anonymous_cannot_read_an_unpublished_games_pdn_through_the_api(client, world):
    Round.objects.filter(pk=world.game.round_id).update(status=Round.Status.DRAFT)
    r = client.get(f"/api/games/{world.game.pk}/pdn")
    assert r.status_code == 404 and r.json()["error"] == "not_found"
    Round.objects.filter(pk=world.game.round_id).update(status=Round.Status.PUBLISHED)
    world.event.published = False
    world.event.save()
    assert client.get(f"/api/games/{world.game.pk}/pdn").status_code == 404
    assert client.get(f"/api/events/{world.event.pk}/pdn").status_code == 404


def test_api_gives_the_game_round_and_event(client, world):
    game = client.get(f"/api/games/{world.game.pk}/pdn")
    assert game.status_code == 200
    (g,) = read_games(game.content)
    assert g.tags["Board"] == "3" and g.plies == 24
    assert len(read_games(client.get(f"/api/rounds/{world.game.round_id}/pdn").content)) == 1
    assert len(read_games(client.get(f"/api/events/{world.event.pk}/pdn").content)) == 1


def test_a_forfeit_is_written_with_its_termination(world):
    game = make_game(world.event, white=make_player(), black=make_player(), board=9)
    set_result(game, "+/-", by=world.arbiter, termination="forfeit", reason="absent")
    _, text = pdn_export.game_pdn(game.pk, by=None)
    (g,) = read_games(text)
    assert g.tags["Result"] == "2-0" and g.tags["Termination"] == "forfeit" and not g.moves


def test_fmjd_5_4_a_maintained_position_is_written_as_a_pdn_3_setup(client, world):
    from rules import Position
    from tests.rules.test_setups import MAINTAINED, maintained_game

    game = make_game(world.event, white=make_player(), black=make_player(), board=7)
    engine = maintained_game()
    game.rules_state, game.fen, game.ply = engine.to_state(), engine.position.fen(), engine.plies
    game.save()
    _, text = pdn_export.game_pdn(game.pk, by=None)
    assert '/FEN "' in text and "FMJD 5.4: White did not capture" in text
    (back,) = read_games(text)
    assert back.error is None
    assert [p.fen() for p in back.positions] == [p.fen() for p in engine.history]
    assert back.positions[3].fen() == Position.from_fen(MAINTAINED).fen()
    page = client.get(f"/events/{world.event.slug}/rounds/1/boards/7/").content.decode()
    assert "position set (FMJD 5.4)" in page and "White did not capture" in page
