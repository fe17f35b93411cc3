"""The draw rules' state and the endings people bring about, on the arbiter's board page and
the players' clock page, in a real (headless) Chromium; skipped where none is installed."""

from __future__ import annotations

import pytest

from arbiter.events.models import Round
from arbiter.games import selectors, services
from arbiter.games.models import EndingRules, Game
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_game import quiet_step

from .cdp import find_chromium
from .test_board_pages_in_browser import login

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]


@pytest.fixture
def drawn_by_rule(transactional_db):
    """A king and a man against a king, 5 moves each played: FMJD 6.4 applies; the event
    waits for a claim."""
    arbiter = make_user("chief")
    event = make_event(time_control="-", arbiter=arbiter, published=True)
    EndingRules.objects.create(event=event, claim_articles=["6.4"])
    game = make_game(event, fen="W:WK47,36:BK3", white=make_player(), black=make_player())
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    for ply in range(1, 11):
        record = selectors.rules_game(Game.objects.get(pk=game.pk))
        move = quiet_step(record)
        text = record.history[ply - 1].move_text(move)
        services.submit_move(game.pk, ply=ply, move=text, request_id=f"q{ply}", by=arbiter)
    return game, arbiter


def test_the_pages_show_the_draw_rule_that_applies_and_the_arbiter_ends_the_game_on_a_phone(
    phone, live_server, client, drawn_by_rule
):
    game, arbiter = drawn_by_rule
    login(phone, live_server, client, arbiter)
    phone.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    phone.wait_for("document.getElementById('draw-rules').innerText.includes('APPLIES')")
    rules = phone.js("document.getElementById('draw-rules').innerText")
    assert "6.4: 5 of 5 moves each since the material arose" in rules, rules
    assert "6.2: 5 of 25 moves each with kings only" in rules  # only the king moved
    assert "6.3: not in force" in rules
    # The endings' controls make the page no wider than it is without them (the board page
    # itself is wider than a 390 px phone before this part: noted, left to its owner).
    width = phone.js("document.documentElement.scrollWidth")
    without = phone.js(
        "document.getElementById('endings').style.display='none';"
        "document.getElementById('acts-box').style.display='none';"
        "document.documentElement.scrollWidth"
    )
    assert width <= max(without, 390), (width, without)
    phone.open(f"{live_server.url}/games/{game.pk}/clock/")
    phone.wait_for("!document.getElementById('draw-rules').hidden")
    assert "6.4" in phone.js("document.getElementById('draw-rules').textContent")

    # The arbiter claims the draw for White from the board page: the claim is decided.
    phone.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    phone.wait_for("document.getElementById('draw-rules').innerText.includes('APPLIES')")
    phone.js(
        "document.getElementById('claim-article').value = '6.4';"
        "document.getElementById('claim').click(); true"
    )
    phone.wait_for("document.getElementById('message').innerText.includes('stored')")
    from arbiter.games.models import Claim
    from arbiter.games.services import claims

    claims.decide_claim(Claim.objects.get(game=game).pk)  # what the task does
    phone.wait_for("document.getElementById('game-status').innerText.includes('1-1')")
    phone.js("document.querySelector('#acts-box summary').click(); true")
    phone.wait_for("document.getElementById('acts-log').innerText.includes('claim decision')")
