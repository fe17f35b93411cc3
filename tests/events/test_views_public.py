"""Public event pages: what a visitor (or a player at the hall) sees, and what stays hidden."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

import arbiter
from arbiter.events.models import Event
from tests.accounts.builders import make_user
from tests.pages import text

from .builders import make_event, play_round, seed_event, seed_round

pytestmark = pytest.mark.django_db


def test_home_lists_published_events_only(client, org):
    seed_event(org, slug="spring-open")
    seed_event(org, slug="secret-cup", published=False)
    page = text(client.get("/"))
    assert "Test spring-open" in page
    assert "Test secret-cup" not in page


def test_home_shows_a_draft_to_its_organizer(client, org):
    seed_event(org, slug="secret-cup", published=False)
    client.force_login(org)
    page = text(client.get("/"))
    assert "Test secret-cup" in page and "draft" in page


@pytest.mark.parametrize(
    "name, args",
    [
        ("events:detail", []),
        ("events:round", [1]),
        ("events:round_alpha", [1]),
        ("events:results", []),
        ("events:standings", []),
        ("events:crosstable", []),
        ("events:player", [1]),
    ],
)
def test_an_unpublished_event_is_404_for_the_public_and_shown_to_its_arbiter(
    client, org, name, args
):
    event, p = seed_event(org, slug="draft-cup", published=False)
    seed_round(event, 1, [(p[0], p[1], "2-0"), (p[2], p[3], "1-1"), (p[4], None, "bye")])
    url = reverse(name, args=[event.slug, *args])
    assert client.get(url).status_code == 404
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    arbiter = make_user("arb")
    event.arbiters.add(arbiter)
    client.force_login(arbiter)
    assert client.get(url).status_code == 200


def test_event_page_shows_rules_of_play_and_players(client, swiss):
    event, _ = swiss
    page = text(client.get(reverse("events:detail", args=[event.slug])))
    assert "Swiss, 3 rounds" in page
    assert "120 min for 50 moves, then 60 min per 25 moves" in page
    assert "Win 2 · Draw 1 · Loss 0" in page
    # tie-breaks in the event's order
    assert page.index("olkoff") < page.index("onneborn")
    assert "Baliakin Alexander" in page and "Ndjofang Jean Marc" in page
    # the draft round 3 is not listed for the public
    assert "Round 3" not in page and "Round 2" in page


def test_pairings_by_board_show_names_scores_before_the_round_and_results(client, swiss):
    event, _ = swiss
    response = client.get(reverse("events:round", args=[event.slug, 2]))
    rows = re.findall(r"<tr>(.*?)</tr>", response.content.decode(), re.S)
    cells = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r)).strip() for r in rows[1:]]
    # board, No., white, points before, result, points before, black, No.
    assert cells[0] == "1 2 Georgiev Alexander 1 0-2 2 Baliakin Alexander 1"
    assert cells[1] == "2 4 Boomstra Roel 0 +/- 2 Ndjofang Jean Marc 5"
    assert cells[2].startswith("3 3 Schwarzman Alexei 1") and "bye" in cells[2]


def test_pairings_by_name_list_every_player_alphabetically_with_board_and_colour(client, swiss):
    event, _ = swiss
    response = client.get(reverse("events:round_alpha", args=[event.slug, 2]))
    page = text(response)
    rows = re.findall(r"<tr>(.*?)</tr>", response.content.decode(), re.S)[1:]
    first_cells = [
        re.sub(r"<[^>]+>|\s+", "", re.search(r"<td.*?</td>", r, re.S).group(0)) for r in rows
    ]
    assert first_cells == [
        "BaliakinAlexander",
        "BoomstraRoel",
        "GeorgievAlexander",
        "NdjofangJeanMarc",
        "SchwarzmanAlexei",
    ]
    assert "Baliakin Alexander 1 2 1 Black Georgiev Alexander 2" in page
    assert "Schwarzman Alexei 3 1 – bye" in page


def test_a_draft_round_is_404_for_the_public(client, swiss):
    event, _ = swiss
    assert client.get(reverse("events:round", args=[event.slug, 3])).status_code == 404
    assert client.get(reverse("events:round", args=[event.slug, 9])).status_code == 404


def test_a_draft_round_is_shown_to_the_organizer_marked_as_draft(client, swiss, org):
    event, _ = swiss
    client.force_login(org)
    page = text(client.get(reverse("events:round", args=[event.slug, 3])))
    assert "draft: not published" in page


def test_pairings_page_has_a_print_stylesheet_and_no_script(client, swiss):
    event, _ = swiss
    html = client.get(reverse("events:round", args=[event.slug, 1])).content.decode()
    assert "<script" not in html
    css = (Path(arbiter.__file__).parent / "web/static/arbiter/site.css").read_text()
    print_rules = css[css.index("@media print") :]
    assert "@page { size: A4" in css
    assert "nav.tabs" in print_rules and "header.site" in print_rules


def test_results_page_lists_each_published_round(client, swiss):
    event, _ = swiss
    page = text(client.get(reverse("events:results", args=[event.slug])))
    assert "Round 2" in page and "Round 1" in page and "Round 3" not in page
    assert "Baliakin Alexander 2-0 Boomstra Roel" in page


def test_standings_after_each_round(client, swiss):
    event, _ = swiss
    url = reverse("events:standings", args=[event.slug])
    after_two = text(client.get(url))
    # Baliakin 2+2, Schwarzman 1+2 (bye), Boomstra 0+2 (forfeit win), Ndjofang 2+0, Georgiev 1+0
    assert "Standings after round 2" in after_two
    assert re.search(r"1 1 Baliakin Alexander \d* 4 2", after_two)
    after_one = text(client.get(url, {"after": 1}))
    assert "Standings after round 1" in after_one
    assert re.search(r"Baliakin Alexander \d* 2 1", after_one)
    assert client.get(url, {"after": 3}).status_code == 404  # round 3 is a draft


def test_crosstable_of_a_swiss_is_a_wallchart(client, swiss):
    event, _ = swiss
    html = client.get(reverse("events:crosstable", args=[event.slug])).content.decode()
    assert "wallchart" in html
    row = re.search(r"Baliakin Alexander.*?</tr>", html, re.S).group(0)
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r'<td class="cell">(.*?)</td>', row)]
    assert cells == ["4w2", "2b2", ""]  # R1 white v. no. 4, won; R2 black v. no. 2; R3 draft


def test_crosstable_of_a_round_robin_is_a_grid(client, org):
    event, p = seed_event(org, slug="rr", system=Event.System.ROUND_ROBIN)
    seed_round(event, 1, [(p[0], p[3], "2-0"), (p[1], p[2], "1-1"), (p[4], None, "bye")])
    html = client.get(reverse("events:crosstable", args=[event.slug])).content.decode()
    assert "crosstable grid" in html
    header = re.search(r"<thead>.*?</thead>", html, re.S).group(0)
    columns = [int(n) for n in re.findall(r'<th class="num cell"[^>]*>(\d+)</th>', header)]
    row = re.search(r"Baliakin Alexander.*?</tr>", html, re.S).group(0)
    cells = re.findall(r'<td class="num cell[^"]*">(.*?)</td>', row)
    by_number = dict(zip(columns, cells, strict=True))
    # 2 points against no. 4, 1 for no. 2 against no. 3; nothing yet against the others
    assert by_number == {1: "", 2: "", 3: "", 4: "2", 5: ""}
    assert columns[-1] == 4  # Boomstra, 0 points, last: rows and columns in ranking order
    row = re.search(r"Georgiev Alexander.*?</tr>", html, re.S).group(0)
    cells = re.findall(r'<td class="num cell[^"]*">(.*?)</td>', row)
    assert dict(zip(columns, cells, strict=True))[3] == "1"


def test_player_card_lists_games_results_and_running_score(client, swiss):
    event, _ = swiss
    page = text(client.get(reverse("events:player", args=[event.slug, 4])))
    assert "Boomstra Roel" in page
    assert "1 1 Black Baliakin Alexander 1 2-0 0 0" in page
    assert "2 2 White Ndjofang Jean Marc 5 +/- 2 2" in page
    assert client.get(reverse("events:player", args=[event.slug, 99])).status_code == 404


def test_standings_tiebreak_values_reveal_how_they_were_computed(client, swiss):
    event, _ = swiss
    html = client.get(reverse("events:standings", args=[event.slug]), {"after": 2}).content
    html = html.decode()
    header = re.search(r"<thead>.*?</thead>", html, re.S).group(0)
    assert header.index("Solkoff") < header.index("S-B")  # the event's order
    row = re.search(r"Baliakin Alexander.*?</tr>", html, re.S).group(0)
    details = re.findall(r"<details><summary>(.*?)</summary>(.*?)</details>", row, re.S)
    assert len(details) == 2
    (solkoff, solkoff_lines), _ = details
    # Baliakin met Boomstra (2 points after round 2) and Georgiev (1 point)
    assert solkoff == "3"
    lines = re.findall(r"<li>(.*?)</li>", solkoff_lines)
    assert any("Boomstra" in line for line in lines)
    assert any("Georgiev" in line for line in lines)
    assert lines[-1].endswith("3")


def test_public_pages_link_to_csv_json_and_trf_exports_that_answer(client, org):
    event = make_event(org, n_players=4, published=True)
    play_round(event, org)
    page = client.get(reverse("events:standings", args=[event.slug]) + "?after=1")
    links = re.findall(r'href="(/api/[^"]+)"', page.content.decode())
    assert len(links) == 3 and any("export.trf?after_round=1" in u for u in links)
    round_page = client.get(reverse("events:round", args=[event.slug, 1]))
    links += re.findall(r'href="(/api/[^"]+)"', round_page.content.decode())
    assert len(links) == 5
    for url in links:
        response = client.get(url.replace("&amp;", "&"))
        assert response.status_code == 200, url
    trf = client.get(f"/api/events/{event.pk}/export.trf?after_round=1").content.decode()
    assert sum(1 for line in trf.splitlines() if line.startswith("001")) == 4
