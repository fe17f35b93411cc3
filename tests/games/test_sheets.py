"""Notation sheets (FMJD 10.2): submitted by a game's players only and only until approved,
checked and reconciled, approved by an arbiter as the official record (logged once), the
result changed only through the one result service."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events.models import AuditEntry, Round
from arbiter.games import sheet_selectors
from arbiter.games.models import Game, Move, NotationSheet
from arbiter.games.services import sheets
from rules import Position
from tests.accounts.builders import make_token, make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game, sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(db):
    arbiter, white, black = make_user(), make_user(), make_user()
    event = make_event(time_control="300", arbiter=arbiter)
    game = make_game(event, white=make_player(white), black=make_player(black))
    Round.objects.filter(pk=game.round_id).update(status=Round.Status.PUBLISHED)
    return SimpleNamespace(event=event, game=game, arbiter=arbiter, white=white, black=black)


def submitted(world, side, text):
    s = sheets.submit_sheet(world.game.pk, text, by=getattr(world, side))
    return sheets.check_sheet(s.pk)


def test_fmjd_10_2_a_player_submits_and_the_check_reports(world):
    moves = played_game(30)
    s = submitted(world, "white", sheet(moves, "1-1"))
    assert s.side == "white" and s.version == 1 and s.status == NotationSheet.Status.CHECKED
    assert s.report["plies"] == 30 and s.report["result"] == "1-1"
    again = submitted(world, "white", sheet(moves[:10] + ["50-41"]))
    assert again.version == 2 and again.status == NotationSheet.Status.PROBLEM
    assert again.report["problem"]["ply"] == 11 and again.report["problem"]["legal"]


def test_a_player_cannot_submit_for_another_game(world):
    other = make_game(world.event, white=make_player(make_user()), black=make_player(make_user()))
    Round.objects.filter(pk=other.round_id).update(status=Round.Status.PUBLISHED)
    with pytest.raises(Forbidden, match="your own game only"):
        sheets.submit_sheet(other.pk, "1. 32-28", by=world.white)
    with pytest.raises(Forbidden):
        sheets.submit_sheet(world.game.pk, "1. 32-28", by=make_user())
    assert not NotationSheet.objects.exists()


def test_a_player_cannot_submit_after_approval(world):
    s = submitted(world, "black", sheet(played_game(20), "2-0"))
    sheets.approve_sheet(s.pk, by=world.arbiter)
    with pytest.raises(Conflict, match="a correction now is the arbiter's"):
        sheets.submit_sheet(world.game.pk, "1. 32-28", by=world.white)
    assert NotationSheet.objects.count() == 1


def test_sheets_differing_at_ply_37_are_compared_at_ply_37(world):
    moves = played_game(60, seed=11)
    pos = Position.start()
    for m in moves[:36]:
        pos = pos.play(pos.parse_move(m))
    other = moves[:36] + [next(t for t in pos.legal_texts() if t != moves[36])]
    submitted(world, "white", sheet(moves))
    b = submitted(world, "black", sheet(other))
    assert b.comparison["white"]["first_difference"] == 37
    view = sheet_selectors.comparison(world.game.pk, by=world.arbiter)
    assert view["first_difference"] == 37 and view["first_difference_label"] == "19."
    assert view["fen_before_difference"] == pos.fen()
    assert [r["ply"] for r in view["rows"] if r["differ"]][0] == 37
    with pytest.raises(Forbidden):
        sheet_selectors.comparison(world.game.pk, by=world.white)


def test_approval_without_moves_entered_makes_the_sheet_the_record_with_clock_times(world):
    text = (
        "1. 32-28 {[%clock w1:59:00 B2:00:00]} 19-23 {[%clock W1:59:00 b1:58:30]} "
        "2. 28x19 14x23 2-0"
    )
    s = submitted(world, "white", text)
    sheets.approve_sheet(s.pk, by=world.arbiter, reason="")
    game = Game.objects.get(pk=world.game.pk)
    assert game.ply == 4 and game.result == "2-0" and game.status == Game.Status.FINISHED
    rows = list(Move.objects.filter(game=game).order_by("ply"))
    assert [m.notation for m in rows] == ["32-28", "19-23", "28x19", "14x23"]
    assert rows[0].white_ms == 119 * 60_000 and rows[1].black_ms == 118 * 60_000 + 30_000
    assert rows[2].white_ms is None
    actions = list(AuditEntry.objects.order_by("at", "pk").values_list("action", flat=True))
    assert actions == ["sheet.approved", "game.result"]  # the one result service, logged once


def test_fmjd_10_2_a_differing_result_asks_which_stands(world):
    Game.objects.filter(pk=world.game.pk).update(result="1-1", status=Game.Status.FINISHED)
    s = submitted(world, "black", sheet(played_game(12), "0-2"))
    with pytest.raises(Conflict) as info:
        sheets.approve_sheet(s.pk, by=world.arbiter)
    assert info.value.details["choice"] == "result_stands"
    assert info.value.details == {
        "choice": "result_stands",
        "sheet_result": "0-2",
        "entered_result": "1-1",
    }
    assert not NotationSheet.objects.filter(approved_at__isnull=False).exists()
    sheets.approve_sheet(s.pk, by=world.arbiter, result_stands="entered")
    assert Game.objects.get(pk=world.game.pk).result == "1-1"


def test_the_sheets_result_stands_through_the_result_service(world):
    Game.objects.filter(pk=world.game.pk).update(result="1-1", status=Game.Status.FINISHED)
    s = submitted(world, "black", sheet(played_game(12), "0-2"))
    sheets.approve_sheet(s.pk, by=world.arbiter, result_stands="sheet", reason="sheets agree")
    assert Game.objects.get(pk=world.game.pk).result == "0-2"
    entry = AuditEntry.objects.get(action="game.result_correction")
    assert entry.old["result"] == "1-1" and "notation sheet approved" in entry.reason


def test_a_sheet_with_a_problem_cannot_be_approved_until_edited(world):
    moves = played_game(20)
    s = submitted(world, "white", sheet(moves[:10] + ["50-41"] + moves[11:]))
    with pytest.raises(Conflict, match="ply 11"):
        sheets.approve_sheet(s.pk, by=world.arbiter)
    with pytest.raises(Invalid, match="reason"):
        sheets.edit_sheet(world.game.pk, sheet(moves), by=world.arbiter, reason=" ")
    with pytest.raises(Forbidden):
        sheets.edit_sheet(world.game.pk, sheet(moves), by=world.white, reason="mine")
    fixed = sheets.check_sheet(
        sheets.edit_sheet(
            world.game.pk, sheet(moves), by=world.arbiter, reason="ply 11 was 50-41"
        ).pk
    )
    assert fixed.side == "arbiter" and fixed.status == NotationSheet.Status.CHECKED
    sheets.approve_sheet(fixed.pk, by=world.arbiter)
    assert Game.objects.get(pk=world.game.pk).ply == 20
    edited = AuditEntry.objects.get(action="sheet.edited")
    assert edited.reason == "ply 11 was 50-41"


def test_a_correction_after_approval_is_the_arbiters_and_needs_a_reason(world):
    moves = played_game(20)
    first = submitted(world, "white", sheet(moves[:18]))
    sheets.approve_sheet(first.pk, by=world.arbiter)
    second = sheets.check_sheet(
        sheets.edit_sheet(world.game.pk, sheet(moves), by=world.arbiter, reason="two moves lost").pk
    )
    with pytest.raises(Invalid, match="say why"):
        sheets.approve_sheet(second.pk, by=world.arbiter)
    sheets.approve_sheet(second.pk, by=world.arbiter, reason="black's sheet has them")
    approved = NotationSheet.objects.filter(approved_at__isnull=False)
    assert list(approved.values_list("pk", flat=True)) == [second.pk]
    assert Move.objects.filter(game=world.game).count() == 20
    assert AuditEntry.objects.filter(action="sheet.approved").count() == 2


def test_a_sheet_is_compared_with_the_record_entered_during_play(world):
    moves = played_game(16)
    game = world.game
    pos = Position.start()
    from django.utils import timezone

    for i, m in enumerate(moves, 1):
        pos = pos.play(pos.parse_move(m))
        Move.objects.create(
            game=game, ply=i, notation=m, fen_after=pos.fen(), played_at=timezone.now()
        )
    Game.objects.filter(pk=game.pk).update(ply=16, fen=pos.fen())
    swapped = list(moves)
    swapped[8], swapped[9] = swapped[9], swapped[8]
    s = submitted(world, "white", sheet(swapped))
    record = s.comparison["record"]
    assert record["first_difference"] == 9
    assert record["differences"][0]["kind"] == "swapped"


def test_api_submit_is_for_the_games_player_and_answers_in_the_one_error_form(client, world):
    url = f"/api/games/{world.game.pk}/sheets"
    ok = client.post(
        url,
        {"text": "1. 32-28 19-23"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {make_token(world.white)}",
    )
    assert ok.status_code == 201, ok.content
    assert ok.json()["status"] == "pending" and ok.json()["side"] == "white"
    other = make_user()
    refused = client.post(
        url,
        {"text": "1. 32-28"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {make_token(other)}",
    )
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden" and "own game" in refused.json()["message"]
    empty = client.post(
        url,
        {"text": " "},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {make_token(world.black)}",
    )
    assert empty.status_code == 422 and empty.json()["error"] == "invalid"
    sheets.check_pending(world.game.pk)
    mine = client.get(url, HTTP_AUTHORIZATION=f"Bearer {make_token(world.white)}").json()
    assert [s["status"] for s in mine["sheets"]] == ["checked"] and mine["can_submit"]


def test_api_approve_asks_which_result_stands(client, world):
    Game.objects.filter(pk=world.game.pk).update(result="2-0", status=Game.Status.FINISHED)
    s = submitted(world, "white", sheet(played_game(8), "1-1"))
    token = make_token(world.arbiter)
    url = f"/api/sheets/{s.pk}/approve"
    r = client.post(url, {}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert r.status_code == 409 and r.json()["choice"] == "result_stands"
    r = client.post(
        url,
        {"result_stands": "sheet", "reason": "both sheets 1-1"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert r.status_code == 200 and r.json()["approved"]
    assert Game.objects.get(pk=world.game.pk).result == "1-1"
