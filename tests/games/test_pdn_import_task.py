"""A PDN file read by the Celery task on a real worker, its progress saved as it goes."""

from __future__ import annotations

import time

import pytest

from arbiter.games.models import PdnImport
from arbiter.games.services import pdn_import
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_the_worker_reads_the_file_and_reports_progress(celery_parts):
    celery_parts.worker("w1")
    arbiter = make_user()
    event = make_event(arbiter=arbiter)
    games = []
    for board in range(1, 401):
        games.append(
            make_game(
                event,
                white=make_player(surname=f"White{board}"),
                black=make_player(surname=f"Black{board}"),
                board=board,
            )
        )
    moves = " ".join(
        (f"{i // 2 + 1}. {m}" if i % 2 == 0 else m) for i, m in enumerate(played_game(40))
    )
    text = "".join(
        f'[White "White{b}"]\n[Black "Black{b}"]\n[Round "1"]\n[Board "{b}"]\n\n{moves} *\n\n'
        for b in range(1, 401)
    )
    job = pdn_import.upload(event.pk, text, file_name="big.pdn", by=arbiter)
    assert job.total == 400
    seen = set()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        job.refresh_from_db()
        seen.add(job.done)
        if job.status == PdnImport.Status.READ:
            break
        time.sleep(0.05)
    assert job.status == PdnImport.Status.READ, "the worker did not read the file"
    assert job.report["counts"]["new"] == 400
    assert any(0 < d < 400 for d in seen), f"no progress seen between 0 and 400: {sorted(seen)}"
