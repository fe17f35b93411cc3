"""The checking task of notation sheets, on a real Redis and a real Celery worker: a sheet
submitted is checked and compared without any further request."""

from __future__ import annotations

import time

import pytest

from arbiter.events.models import Round
from arbiter.games.models import NotationSheet
from arbiter.games.services import sheets
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game, sheet

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_submitted_sheet_is_checked_and_reconciled_by_the_worker(celery_parts):
    celery_parts.worker("w1")
    white, black = make_user(), make_user()
    game = make_game(make_event(), white=make_player(white), black=make_player(black))
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    moves = played_game(30)
    sheets.submit_sheet(game.pk, sheet(moves, "1-1"), by=white)
    theirs = sheets.submit_sheet(game.pk, sheet(moves[:20] + ["50-41"]), by=black)
    end = time.monotonic() + 20
    while time.monotonic() < end:
        if not NotationSheet.objects.filter(status=NotationSheet.Status.PENDING).exists():
            break
        time.sleep(0.1)
    theirs.refresh_from_db()
    assert theirs.status == NotationSheet.Status.PROBLEM, "the worker did not check the sheet"
    assert theirs.report["problem"]["ply"] == 21
    mine = NotationSheet.objects.get(side="white")
    assert mine.status == NotationSheet.Status.CHECKED and mine.report["plies"] == 30
    # Whichever was checked second compared itself with the other.
    later = max([mine, theirs], key=lambda s: s.checked_at)
    other = "black" if later.side == "white" else "white"
    assert later.comparison[other]["first_difference"] == 21
