"""The public page of a game: the moves with clock times and comments, the result and how
the game ended, the draw rules' state at each move, the PDN download; published rounds only;
pairings, results, crosstable and player cards link to it."""

from __future__ import annotations

import json
import re

import pytest

from arbiter.events.models import Entry, Round
from arbiter.games.services import set_result, sheets
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game

from .pdn_builders import played, publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    from types import SimpleNamespace

    arbiter = make_user()
    event = make_event(arbiter=arbiter)
    white, black = make_player(surname="Boomstra"), make_player(surname="Schwarzman")
    for n, p in enumerate((white, black), 1):
        Entry.objects.create(event=event, player=p, pairing_number=n)
    game = make_game(event, white=white, black=black, board=1)
    publish(game)
    moves = played_game(10)
    played(game, moves, [(600_000 - 1000 * i, 600_000 - 2000 * i) for i in range(1, 11)])
    set_result(game, "1-1", by=arbiter, termination="agreed_draw")
    game.refresh_from_db()
    return SimpleNamespace(event=event, game=game, moves=moves, arbiter=arbiter)


def url(world):
    return f"/events/{world.event.slug}/rounds/1/boards/1/"


def test_public_game_page_shows_moves_clocks_result_and_pdn(client, world):
    r = client.get(url(world))
    assert r.status_code == 200
    page = r.content.decode()
    for m in world.moves:
        assert f">{m}<" in page
    assert "0:09:59" in page  # White's clock after ply 1 (600 s - 1 s)
    assert "1-1 · Draw" in page and "draw agreed (FMJD 7.3.1)" in page
    assert f'href="/events/{world.event.slug}/rounds/1/boards/1.pdn"' in page
    fens = json.loads(re.search(r'id="viewer-fens"[^>]*>(.*?)</script>', page, re.S).group(1))
    assert len(fens) == 11 and fens[-1] == world.game.fen
    assert 'data-step="next"' in page and 'data-ply="10"' in page


def test_draw_rule_state_is_shown_at_each_move(client, world):
    # FMJD 6.4: a king against a king; the count of 5 moves each runs from the start.
    game = make_game(
        world.event, white=make_player(), black=make_player(), board=2, fen="W:WK46:BK4"
    )
    played(game, ["46-37", "4-9", "37-46", "9-4"])
    page = client.get(f"/events/{world.event.slug}/rounds/1/boards/2/").content.decode()
    assert "6.4: 0.5 of 5 moves each" in page and "6.4: 2 of 5 moves each" in page
    assert "6.2: 2 of 25 king moves each" in page
    assert "6.1: position seen 2 times" in page  # the start position again, White to move


def test_comments_of_the_approved_sheet_are_shown(client, world):
    game = make_game(world.event, white=make_player(make_user()), black=make_player(), board=3)
    s = sheets.submit_sheet(
        game.pk, "1. 32-28 {a strong start} 19-23 2. 28x19 14x23 *", by=game.white.user
    )
    sheets.approve_sheet(sheets.check_sheet(s.pk).pk, by=world.arbiter)
    page = client.get(f"/events/{world.event.slug}/rounds/1/boards/3/").content.decode()
    assert "a strong start" in page


def test_unpublished_game_is_not_shown_to_the_public(client, world):
    hidden = make_game(
        world.event,
        white=make_player(),
        black=make_player(),
        round_number=2,
        board=1,
        round_status=Round.Status.DRAFT,
    )
    played(hidden, played_game(4))
    assert Round.objects.get(pk=hidden.round_id).status == Round.Status.DRAFT
    assert client.get(f"/events/{world.event.slug}/rounds/2/boards/1/").status_code == 404
    client.force_login(world.arbiter)
    assert client.get(f"/events/{world.event.slug}/rounds/2/boards/1/").status_code == 200


def test_pairings_results_crosstable_and_player_cards_link_to_the_game(client, world):
    link = f'href="{url(world)}"'
    slug = world.event.slug
    for page in (
        f"/events/{slug}/rounds/1/",
        f"/events/{slug}/results/",
        f"/events/{slug}/crosstable/",
        f"/events/{slug}/players/1/",
        f"/events/{slug}/players/2/",
    ):
        r = client.get(page)
        assert r.status_code == 200, page
        assert link in r.content.decode(), page


def _labels(game):
    from arbiter.games.public_game import game_page

    return [(p["label"], p["white_move"]) for p in game_page(game)["plies"]]


def test_a_game_started_with_black_to_move_is_numbered_from_black(world):
    # A set start position may have Black to move: its first ply is "1...", White's reply "2."
    game = make_game(world.event, board=4, fen="B:WK46:BK4")
    played(game, ["4-9", "46-37", "9-4"])
    assert _labels(game) == [("1...", False), ("2.", True), ("2...", False)]


def test_a_position_set_within_the_game_keeps_the_move_numbers(world):
    # FMJD 5.4: a rectified irregularity sets the position before it; the set position takes
    # a ply of the record but no move number, and the side it names moves next.
    from rules import Game as RulesGame

    game = make_game(world.event, board=5)
    played(game, ["32-28", "19-23"])
    engine = RulesGame.from_state(game.rules_state)
    engine.push("28x19")
    engine.set_position(engine.history[-2].fen(), article="5.4", note="rectified")
    engine.push("28x19")
    game.rules_state = engine.to_state()
    game.save(update_fields=["rules_state"])
    assert _labels(game) == [
        ("1.", True),
        ("1...", False),
        ("2.", True),
        ("", False),
        ("2.", True),
    ]
