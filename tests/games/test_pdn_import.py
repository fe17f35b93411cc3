"""Importing a PDN file of many games: each matched to its pairing by round, board and
players (case, accents, order of names, initials, FMJD ids); unmatched and conflicting games
listed, nothing overwritten without confirmation; a bad game named by game, line and move
while the others go on; import, export, import again gives the same games."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from arbiter.events.models import AuditEntry, Round
from arbiter.games import pdn_export
from arbiter.games.models import Game, Move, PdnImport
from arbiter.games.services import pdn_import
from rules.pdn import normalize_result, read_file, read_games
from tests.accounts.builders import make_user
from tests.games.builders import make_event, make_game, make_player
from tests.rules.test_notation_sheet import played_game

from .pdn_builders import played, publish

pytestmark = pytest.mark.django_db


def pdn(white, black, moves, *, round_="1", board="", result="2-0", extra=""):
    text = " ".join((f"{i // 2 + 1}. {m}" if i % 2 == 0 else m) for i, m in enumerate(moves))
    tags = f'[White "{white}"]\n[Black "{black}"]\n[Round "{round_}"]\n[Result "{result}"]\n'
    if board:
        tags += f'[Board "{board}"]\n'
    return f"{tags}{extra}\n{text} {result}\n\n"


@pytest.fixture
def world(db):
    arbiter = make_user()
    event = make_event(arbiter=arbiter)

    def player(surname, given="", fmjd=""):
        p = make_player(surname=surname)
        p.given_name, p.fmjd_id = given, fmjd
        p.save()
        return p

    ton, alex = player("Sijbrands", "Ton"), player("Baliakin", "Alexander", "1234")
    jan, gérard = player("van der Wal", "Jan"), player("Jansen", "Gérard")
    g1 = make_game(event, white=ton, black=alex, board=1)
    g2 = make_game(event, white=jan, black=gérard, board=2)
    publish(g1)
    return SimpleNamespace(event=event, arbiter=arbiter, g1=g1, g2=g2, alex=alex)


def read(world, text, name="games.pdn"):
    job = pdn_import.upload(world.event.pk, text.encode(), file_name=name, by=world.arbiter)
    return pdn_import.read_import(job.pk)


def test_names_as_programs_write_them_are_matched(world):
    moves = played_game(20)
    text = pdn("TON SIJBRANDS", "Alex Baliakin", moves, board="1") + pdn(
        "Wal, Jan van der", "Jansen, G.", moves[:10], result="1/2-1/2"
    )
    job = read(world, text)
    assert job.status == PdnImport.Status.READ and job.done == job.total == 2
    matched = {m["game_id"]: m for m in job.report["matched"]}
    assert set(matched) == {world.g1.pk, world.g2.pk}
    assert matched[world.g2.pk]["result"] == "1-1" and matched[world.g2.pk]["action"] == "new"
    assert not job.report["unmatched"] and not job.report["conflicts"]


def test_accents_and_fmjd_ids_match(world):
    moves = played_game(6)
    text = pdn("Jan van der Wal", "Gerard JANSEN", moves) + pdn(
        "Sijbrands", "A. Somebody", moves, extra='[BlackFmjdId "1234"]\n'
    )
    job = read(world, text)
    assert {m["game_id"] for m in job.report["matched"]} == {world.g1.pk, world.g2.pk}


def test_unmatched_and_reversed_colours_are_listed_not_written(world):
    moves = played_game(8)
    text = (
        pdn("Nobody", "Else", moves)
        + pdn("Baliakin", "Sijbrands", moves)
        + pdn("Sijbrands", "Baliakin", moves, round_="5")
    )
    job = read(world, text)
    assert [u["game"] for u in job.report["unmatched"]] == [1, 3]
    assert "in round 5" in job.report["unmatched"][1]["why"]
    (conflict,) = job.report["conflicts"]
    assert conflict["game"] == 2 and "colours reversed" in conflict["why"]
    pdn_import.apply_import(job.pk, by=world.arbiter)
    assert not Move.objects.exists()


def test_nothing_is_overwritten_without_confirmation(world):
    entered = played_game(10, seed=1)
    played(world.g1, entered)
    other = played_game(12, seed=2)
    job = read(world, pdn("Sijbrands, Ton", "Baliakin, Alexander", other, result="0-2"))
    (entry,) = job.report["matched"]
    assert entry["action"] == "overwrite" and "10 plies entered, 12 in the file" in entry["why"]
    out = pdn_import.apply_import(job.pk, by=world.arbiter)
    assert out["left_unconfirmed"] == [1] and out["written"] == []
    assert list(Move.objects.filter(game=world.g1).values_list("notation", flat=True)) == entered

    job2 = read(world, pdn("Sijbrands, Ton", "Baliakin, Alexander", other, result="0-2"))
    out = pdn_import.apply_import(job2.pk, by=world.arbiter, confirm=[1])
    assert out["written"] == [1]
    g = Game.objects.get(pk=world.g1.pk)
    assert g.ply == 12 and g.result == "0-2"
    assert (
        list(Move.objects.filter(game=g).order_by("ply").values_list("notation", flat=True))
        == other
    )
    assert AuditEntry.objects.filter(action="pdn.import").count() == 2
    assert AuditEntry.objects.filter(action="game.result").count() == 1


def test_a_bad_game_is_named_and_the_others_go_on(world):
    moves = played_game(10)
    bad = moves[:5] + ["50-41"] + moves[6:]
    text = pdn("van der Wal", "Jansen", moves) + pdn("Sijbrands", "Baliakin", bad)
    job = read(world, text)
    (err,) = job.report["errors"]
    assert err["game"] == 2 and err["ply"] == 6 and err["move"] == "50-41"
    assert err["line"] == 13  # the line of the move in the file (4 tags, blank, moves, blank)
    assert "game 2 (Sijbrands - Baliakin), line 13, ply 6 ('50-41')" in err["message"]
    assert [m["game_id"] for m in job.report["matched"]] == [world.g2.pk]


def test_clock_readings_in_the_file_are_imported(world):
    text = (
        '[White "Sijbrands"]\n[Black "Baliakin"]\n[Round "1"]\n[Result "*"]\n\n'
        "1. 32-28 {[%clock w1:59:00 B2:00:00]} 19-23 {[%clock W1:59:00 b1:58:00]} *\n"
    )
    job = read(world, text)
    pdn_import.apply_import(job.pk, by=world.arbiter)
    rows = list(Move.objects.filter(game=world.g1).order_by("ply"))
    assert [(m.white_ms, m.black_ms) for m in rows] == [
        (7_140_000, 7_200_000),
        (7_140_000, 7_080_000),
    ]


def test_only_arbiters_import(world):
    with pytest.raises(Exception, match="only an arbiter"):
        pdn_import.upload(world.event.pk, b"1. 32-28 *", by=make_user())


# --------------------------------------------------------------------------- real games


def _split(name: str) -> tuple[str, str]:
    if "," in name:
        surname, given = name.split(",", 1)
    else:
        words = name.split()
        surname, given = words[-1], " ".join(words[:-1])
    return surname.strip(), given.strip()


def _event_of_file(games, arbiter):
    """An event whose pairings are those of the file's games (names written otherwise:
    upper-case surnames), one game per pair of players and round."""
    event = make_event(arbiter=arbiter)
    players: dict[str, object] = {}
    busy: set[tuple[int, str]] = set()
    boards: dict[int, int] = {}
    kept = []
    for g in games:
        number = (
            int(re.match(r"\d+", g.tags.get("Round", "x") or "x").group(0))
            if re.match(r"\d+", g.tags.get("Round", ""))
            else None
        )
        white, black = g.tags.get("White", "?"), g.tags.get("Black", "?")
        if number is None or g.error or "FEN" in g.tags or "?" in (white, black):
            continue
        if (number, white) in busy or (number, black) in busy:
            continue
        busy |= {(number, white), (number, black)}
        for name in (white, black):
            if name not in players:
                surname, given = _split(name)
                players[name] = make_player(surname=surname.upper())
                players[name].given_name = given
                players[name].save()
        boards[number] = boards.get(number, 0) + 1
        game = make_game(
            event,
            white=players[white],
            black=players[black],
            round_number=number,
            board=boards[number],
        )
        kept.append((g, game))
    Round.objects.filter(event=event).update(status=Round.Status.PUBLISHED)
    return event, kept


@pytest.mark.parametrize(
    "name", ["wiegerw-pdn/succeed/wk2003.pdn", "wiegerw-pdn/succeed/nk2003-amsterdam.pdn"]
)
def test_real_games_import_export_import_gives_the_same_games(shared_data, name):
    path = shared_data / "pdn" / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    games = read_file(path)
    arbiter = make_user()
    event, kept = _event_of_file(games, arbiter)
    assert len(kept) >= 10
    job = pdn_import.upload(event.pk, path.read_bytes(), file_name=path.name, by=arbiter)
    job = pdn_import.read_import(job.pk)
    assert {m["game_id"] for m in job.report["matched"]} == {game.pk for _, game in kept}
    pdn_import.apply_import(job.pk, by=arbiter)
    for g, game in kept:
        game.refresh_from_db()
        assert game.ply == g.plies
        moves = list(
            Move.objects.filter(game=game).order_by("ply").values_list("notation", flat=True)
        )
        assert moves == [m.notation for m in g.moves[: g.plies]]
        result = normalize_result(g.result)
        assert game.result == (result if result in ("2-0", "1-1", "0-2") else "")

    _, exported = pdn_export.event_pdn(event, by=None)
    again = pdn_import.read_import(
        pdn_import.upload(event.pk, exported.encode(), file_name="again.pdn", by=arbiter).pk
    )
    counts = again.report["counts"]
    assert counts["same"] == len(kept) and counts["new"] == counts["overwrite"] == 0
    assert counts["errors"] == counts["unmatched"] == counts["conflicts"] == 0
    by_id = {game.pk: g for g, game in kept}
    for back in read_games(exported):
        original = next(
            g
            for g, game in kept
            if game.round.number == int(back.tags["Round"])
            and game.board == int(back.tags["Board"])
        )
        assert [m.notation for m in back.moves] == [
            m.notation for m in original.moves[: original.plies]
        ]
    assert len(by_id) == len(kept)


def test_import_pages_upload_show_progress_and_apply(client, world):
    client.force_login(world.arbiter)
    slug = world.event.slug
    moves = played_game(8)
    r = client.post(
        f"/events/{slug}/manage/pdn/", {"pdn": pdn("Sijbrands", "Baliakin", moves, board="1")}
    )
    assert r.status_code == 302
    job = PdnImport.objects.get()
    page = client.get(r["Location"]).content.decode()
    assert "<progress" in page and "0 of 1 games read" in page and "Read it now" in page
    page = client.post(r["Location"], {"action": "read"}).content.decode()
    assert "1 new" in page and "round 1 board 1" in page
    assert client.post(r["Location"], {}).status_code == 302
    assert Game.objects.get(pk=world.g1.pk).ply == 8
    job.refresh_from_db()
    assert job.status == PdnImport.Status.APPLIED
    state = client.get(f"/api/pdn-imports/{job.pk}").json()
    assert state["done"] == state["total"] == 1 and "moves" not in state["report"]["matched"][0]


def test_import_pages_are_for_arbiters_and_say_what_went_wrong(client, world):
    client.force_login(make_user())
    assert client.get(f"/events/{world.event.slug}/manage/pdn/").status_code == 403
    client.force_login(world.arbiter)
    r = client.post(f"/events/{world.event.slug}/manage/pdn/", {"pdn": ""})
    assert r.status_code == 422 and "the PDN file is empty" in r.content.decode()


def test_api_upload_and_apply(client, world):
    from tests.accounts.builders import make_token

    token = make_token(world.arbiter)
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    r = client.post(
        f"/api/events/{world.event.pk}/pdn-imports",
        {"pdn": pdn("Sijbrands", "Baliakin", played_game(6)), "file_name": "x.pdn"},
        content_type="application/json",
        **auth,
    )
    assert r.status_code == 201 and r.json()["status"] == "pending"
    pdn_import.read_import(r.json()["id"])
    out = client.post(
        f"/api/pdn-imports/{r.json()['id']}/apply", {}, content_type="application/json", **auth
    )
    assert out.status_code == 200 and out.json()["written"] == [1]
