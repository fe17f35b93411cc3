"""The sheet pages: a player's submit form (own game only), the arbiter's comparison with
the diagram at the first difference, and approval asking which result stands."""

from __future__ import annotations

import pytest

from arbiter.games.models import Game, NotationSheet
from arbiter.games.services import sheets
from rules import Position
from tests.accounts.builders import make_user
from tests.rules.test_notation_sheet import played_game, sheet

from .test_sheets import world  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


def test_player_page_submits_and_shows_the_check(client, world):  # noqa: F811
    client.force_login(world.white)
    url = f"/games/{world.game.pk}/sheet/"
    page = client.get(url)
    assert page.status_code == 200 and b"Submit sheet" in page.content
    moves = played_game(12)
    r = client.post(url, {"text": sheet(moves[:6] + ["50-41"])})
    assert r.status_code == 302
    sheets.check_pending(world.game.pk)
    page = client.get(url).content.decode()
    assert "ply 7 (move 4.)" in page and "Legal moves there:" in page


def test_player_page_refuses_another_game_in_words(client, world):  # noqa: F811
    client.force_login(make_user())
    r = client.get(f"/games/{world.game.pk}/sheet/")
    assert r.status_code == 403
    assert client.get("/games/999999/sheet/").status_code == 404
    client.logout()
    assert client.get(f"/games/{world.game.pk}/sheet/").status_code == 302  # to the login


def test_empty_sheet_is_refused_in_words(client, world):  # noqa: F811
    client.force_login(world.black)
    r = client.post(f"/games/{world.game.pk}/sheet/", {"text": "  "})
    assert r.status_code == 422 and "the sheet is empty" in r.content.decode()
    assert not NotationSheet.objects.exists()


def test_arbiter_compares_with_the_diagram_at_the_first_difference(client, world):  # noqa: F811
    moves = played_game(40, seed=5)
    pos = Position.start()
    for m in moves[:36]:
        pos = pos.play(pos.parse_move(m))
    other = moves[:36] + [next(t for t in pos.legal_texts() if t != moves[36])]
    for side, text in (("white", sheet(moves)), ("black", sheet(other))):
        sheets.check_sheet(sheets.submit_sheet(world.game.pk, text, by=getattr(world, side)).pk)
    client.force_login(world.arbiter)
    page = client.get(f"/games/{world.game.pk}/sheets/").content.decode()
    assert "First difference: ply 37 (move 19.)" in page
    assert "<svg" in page and 'id="ply-37"' in page
    client.force_login(world.white)
    assert client.get(f"/games/{world.game.pk}/sheets/").status_code == 403


def test_arbiter_page_asks_which_result_stands_then_approves(client, world):  # noqa: F811
    Game.objects.filter(pk=world.game.pk).update(result="2-0", status=Game.Status.FINISHED)
    s = sheets.check_sheet(
        sheets.submit_sheet(world.game.pk, sheet(played_game(10), "1-1"), by=world.white).pk
    )
    client.force_login(world.arbiter)
    url = f"/games/{world.game.pk}/sheets/"
    r = client.post(url, {"action": "approve", "sheet": s.pk})
    assert r.status_code == 409
    assert "Which result stands?" in r.content.decode()
    r = client.post(
        url, {"action": "approve", "sheet": s.pk, "result_stands": "sheet", "reason": "agreed"}
    )
    assert r.status_code == 302
    assert Game.objects.get(pk=world.game.pk).result == "1-1"
