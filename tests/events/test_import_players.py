import re
from pathlib import Path

import pytest

from arbiter.errors import Forbidden, Invalid
from arbiter.events import services
from arbiter.events.models import Player
from arbiter.events.player_csv import COLUMNS
from tests.accounts.builders import make_user
from tests.events.builders import make_event

pytestmark = pytest.mark.django_db
README = Path(__file__).resolve().parents[2] / "README.md"


GOOD = """surname,given_name,fmjd_id,federation,rating,title,club
Verhoeven,Anna,16001,NED,2310,MI,DC Utrecht
Mbaye,Ousmane,,SEN,,,
Leclerc, Louis ,16003,fra,1980,,
"""


def test_a_good_file_enters_every_player_with_their_details(org):
    event = make_event(org)
    entries = services.import_players_csv(event, GOOD, by=org)
    assert [e.pairing_number for e in entries] == [1, 2, 3]
    anna = Player.objects.get(fmjd_id="16001")
    assert (anna.surname, anna.given_name, anna.federation, anna.rating, anna.title, anna.club) == (
        "Verhoeven",
        "Anna",
        "NED",
        2310,
        "MI",
        "DC Utrecht",
    )
    louis = Player.objects.get(fmjd_id="16003")
    assert (louis.given_name, louis.federation) == ("Louis", "FRA")
    assert Player.objects.get(surname="Mbaye").rating is None


def test_semicolons_a_byte_order_mark_and_any_column_order_are_read(org):
    event = make_event(org)
    text = "\ufeffRating;Surname;Given Name\n2100;Dupont;Marie\n\n1900;Klaassen;Piet\n"
    entries = services.import_players_csv(event, text, by=org)
    assert [(e.player.surname, e.player.rating) for e in entries] == [
        ("Dupont", 2100),
        ("Klaassen", 1900),
    ]


def test_a_known_fmjd_id_reuses_the_player(org):
    known = services.create_player(by=org, surname="Verhoeven", fmjd_id="16001")
    event = make_event(org)
    entries = services.import_players_csv(event, GOOD, by=org)
    assert entries[0].player == known
    assert Player.objects.count() == 3


def test_every_bad_line_is_reported_by_number_and_reason_and_nothing_is_saved(org):
    event = make_event(org)
    text = (
        "surname,given_name,fmjd_id,federation,rating\n"  # line 1
        "Good,One,17001,NED,2000\n"  # 2
        ",Nobody,,NED,2000\n"  # 3: no surname
        "Bad,Rating,,NED,strong\n"  # 4
        "Bad,Federation,,Holland,\n"  # 5
        "Too,Many,,NED,2000,extra\n"  # 6
        "Dup,Id,17001,NED,\n"  # 7: fmjd id of line 2
        "\n"  # 8: blank, skipped
        "Bad,Id,A12,NED,\n"  # 9
    )
    with pytest.raises(Invalid) as exc:
        services.import_players_csv(event, text, by=org)
    errors = exc.value.details["errors"]
    assert [e["line"] for e in errors] == [3, 4, 5, 6, 7, 9]
    reasons = {e["line"]: e["reason"] for e in errors}
    # a bad line says why as a code and its parameters, as the service's own error would
    codes = {e["line"]: (e["code"], e["params"]) for e in errors}
    assert codes[4] == ("player.bad_rating", {"rating": "strong"})
    assert codes[6] == ("import.field_count", {"fields": 6, "columns": 5})
    assert codes[7] == ("import.fmjd_id_repeated", {"fmjd_id": "17001", "first": 2})
    # each line's column when the fault is in one field; None when it is the line's shape
    columns = {e["line"]: e["column"] for e in errors}
    assert columns == {
        3: "surname",
        4: "rating",
        5: "federation",
        6: None,
        7: "fmjd_id",
        9: "fmjd_id",
    }
    assert "surname" in reasons[3]
    assert "strong" in reasons[4]
    assert "Holland".upper() in reasons[5]
    assert "6 fields" in reasons[6]
    assert "line 2" in reasons[7]
    assert "A12" in reasons[9]
    assert "line 3" in exc.value.message
    assert not Player.objects.exists() and not event.entries.exists()


def test_unknown_and_missing_columns_are_reported_on_line_1(org):
    event = make_event(org)
    with pytest.raises(Invalid) as exc:
        services.import_players_csv(event, "name,elo\nX,1\n", by=org)
    errors = exc.value.details["errors"]
    assert {e["line"] for e in errors} == {1}
    text = " ".join(e["reason"] for e in errors)
    assert "name" in text and "elo" in text and "missing column(s) surname" in text


def test_an_empty_file_is_refused(org):
    with pytest.raises(Invalid, match="empty"):
        services.import_players_csv(make_event(org), "", by=org)
    with pytest.raises(Invalid, match="no players"):
        services.import_players_csv(make_event(org, name="B"), "surname\n", by=org)


def test_a_player_already_entered_is_a_bad_line(org):
    event = make_event(org)
    services.import_players_csv(event, GOOD, by=org)
    with pytest.raises(Invalid) as exc:
        services.import_players_csv(event, "surname,fmjd_id\nVerhoeven,16001\n", by=org)
    assert exc.value.details["errors"] == [
        {
            "line": 2,
            "column": "fmjd_id",
            "code": "import.already_entered",
            "params": {"player": "Verhoeven, Anna", "fmjd_id": "16001"},
            "reason": "Verhoeven, Anna (FMJD 16001) is already entered",
        }
    ]
    assert event.entries.count() == 3


def test_only_the_events_arbiters_import(org):
    other = make_user("other")
    make_event(org, name="Theirs", arbiters=[other])
    with pytest.raises(Forbidden):
        services.import_players_csv(make_event(org), GOOD, by=other)
    assert not Player.objects.exists()


def test_readme_documents_every_column_of_the_import():
    text = README.read_text(encoding="utf-8")
    assert "## Importing players" in text
    section = text.split("## Importing players", 1)[1].split("\n## ", 1)[0]
    for column in COLUMNS:
        assert f"`{column}`" in section, column


def _players_file(n: int, first_id: int) -> str:
    return "surname,given_name,fmjd_id,rating\n" + "".join(
        f"S{first_id + i},G,{first_id + i},{1500 + i % 1000}\n" for i in range(n)
    )


def _queries(event, text, org) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        services.import_players_csv(event, text, by=org)
    return len(ctx.captured_queries)


def test_an_import_runs_as_many_queries_for_800_lines_as_for_10(org):
    # 5000 players took ~8 s with a query per line (FMJD id lookup); no statement per line
    few = _queries(make_event(org, name="Few"), _players_file(10, 1000), org)
    many = _queries(make_event(org, name="Many"), _players_file(800, 2000), org)
    assert many == few
    # the same players again in another event: all known by FMJD id, still no query per line
    again = _queries(make_event(org, name="Again"), _players_file(800, 2000), org)
    assert again <= few  # one fewer where no player is created
    assert Player.objects.count() == 810


def test_known_and_new_players_mixed_keep_the_files_order_and_their_details(org):
    first = make_event(org, name="First")
    services.import_players_csv(first, _players_file(3, 100), by=org)
    before = {p.fmjd_id: p.pk for p in Player.objects.all()}
    event = make_event(org, name="Second")
    text = "surname,fmjd_id,club\nNew,,Club A\nS101,101,\nOther,900,Club B\nS100,100,\n"
    entries = services.import_players_csv(event, text, by=org)
    assert [(e.pairing_number, e.player.surname) for e in entries] == [
        (1, "New"),
        (2, "S101"),
        (3, "Other"),
        (4, "S100"),
    ]
    assert entries[1].player.pk == before["101"] and entries[3].player.pk == before["100"]
    stored = {e.pk: e for e in event.entries.select_related("player")}
    for entry in entries:  # what the import returns is what was stored
        row = stored[entry.pk]
        assert (row.player_id, row.pairing_number, row.status) == (
            entry.player.pk,
            entry.pairing_number,
            entry.status,
        )
        assert row.absent_rounds == [] and row.requested_byes == []
    assert Player.objects.get(surname="Other").club == "Club B"
    assert Player.objects.get(surname="New").created_at is not None


def test_the_desk_lists_each_bad_line_with_its_column_and_imports_nothing(client, org):
    event = make_event(org)
    client.force_login(org)
    text = "surname,rating\nGood,2000\nBad,strong\n"
    r = client.post(f"/events/{event.slug}/manage/import/", {"text": text})
    assert r.status_code == 200
    page = r.content.decode()
    assert "Nothing was imported: 1 bad line" in page
    row = re.search(r"<tr><td class=\"num\">3</td><td>(\w*)</td><td>([^<]*)</td>", page)
    assert row and row.group(1) == "rating" and "strong" in row.group(2)
    assert not event.entries.exists()


def test_a_file_of_more_players_than_the_limit_is_refused_naming_the_limit(client, org):
    from arbiter.events.player_csv import MAX_ROWS
    from tests.accounts.builders import bearer

    event = make_event(org)
    r = client.post(
        f"/api/events/{event.pk}/entries/import",
        {"csv": _players_file(MAX_ROWS + 1, 1)},
        content_type="application/json",
        **bearer(org),
    )
    assert r.status_code == 422
    errors = r.json()["errors"]
    assert errors[-1]["code"] == "import.too_many_rows"
    assert f"more than {MAX_ROWS} players" in errors[-1]["reason"]
    assert not Player.objects.exists() and not event.entries.exists()
