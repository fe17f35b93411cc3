"""The organizer's and the arbiter's paths in a real (headless) Chromium, forms filled and
buttons pressed as a user would (no API call, no admin):

- organizer: create an event, name its arbiters, add players one by one and by CSV, correct
  one, pair and publish round 1;
- arbiter: reach round 1's clocks from the desk, enter its results, pair round 2.

On the way, every page is measured at 390 px and 1,280 px (never wider than the window) and
checked by axe-core (no serious violation) when axe-core can be had (tests/e2e/axe.py).
"""

from __future__ import annotations

import pytest

from arbiter.events.models import Event, Round
from arbiter.games.models import Game

from ..accounts.builders import make_user
from .axe import serious_violations
from .cdp import find_chromium

CHROMIUM = find_chromium()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt install chromium)"),
]

CSV = """surname,given_name,federation,rating,title
Baliakin,Alexander,RUS,2400,GMI
Georgiev,Alexander,RUS,2390,GMI
Schwarzman,Alexei,RUS,2350,GMI
Ndjofang,Jean Marc,CMR,2300,GMI
"""


class User:
    """A user at the browser: opens pages, fills fields, presses buttons, checks each page."""

    def __init__(self, browser, base, shots, axe):
        self.b, self.base, self.shots, self.axe = browser, base, shots, axe
        self.seen: list[str] = []

    def open(self, path: str) -> None:
        self.b.open(self.base + path)
        self.check()

    def fill(self, fields: dict) -> None:
        for name, value in fields.items():
            self.b.js(
                f"(() => {{ const e = document.querySelector({name!r});"
                f" if (!e) throw new Error('no field ' + {name!r});"
                f" if (e.type === 'checkbox') e.checked = {str(bool(value)).lower()};"
                f" else e.value = {str(value)!r};"
                " e.dispatchEvent(new Event('input', {bubbles: true}));"
                " e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()"
            )

    def press(self, selector: str) -> None:
        """Click a button or a link and wait for the next page."""
        self.b.js("window.__before = true")
        self.b.js(
            f"(() => {{ const e = document.querySelector({selector!r});"
            f" if (!e) throw new Error('nothing to press: ' + {selector!r});"
            " e.click(); return true; })()"
        )
        self.b.wait_for("!window.__before && document.readyState === 'complete'")
        self.check()

    def tab_through(self, limit: int = 300) -> list[dict]:
        """Press Tab until the focus comes round again: each control reached, with its
        outline (a visible focus ring) and its text."""
        reached = []
        for _ in range(limit):
            for kind in ("rawKeyDown", "keyUp"):
                self.b.call(
                    "Input.dispatchKeyEvent",
                    type=kind,
                    key="Tab",
                    code="Tab",
                    windowsVirtualKeyCode=9,
                )
            now = self.b.js(
                "(() => { const e = document.activeElement; if (!e || e === document.body)"
                " return null; const s = getComputedStyle(e);"
                " return {tag: e.tagName, text: (e.innerText || e.value || '').trim(),"
                " href: e.getAttribute('href') || '', outline: s.outlineStyle,"
                " width: parseFloat(s.outlineWidth)}; })()"
            )
            if now is None or (reached and now == reached[0]):
                break
            reached.append(now)
        return reached

    def text(self) -> str:
        return self.b.js("document.body.innerText")

    def path(self) -> str:
        return self.b.js("location.pathname")

    def check(self) -> None:
        """No page wider than the window at 390 px and at 1,280 px; no serious axe finding."""
        path = self.path()
        if path in self.seen:
            return
        self.seen.append(path)
        for width in (390, 1280):
            self.b.call(
                "Emulation.setDeviceMetricsOverride",
                width=width,
                height=900,
                deviceScaleFactor=1,
                mobile=False,
            )
            wide = self.b.js("document.documentElement.scrollWidth")
            window = self.b.js("window.innerWidth")
            assert wide <= window, f"{path} is {wide} px wide in a {window} px window"
            if width == 390:
                name = path.strip("/").replace("/", "_") or "home"
                self.b.screenshot(self.shots / f"{name}_{width}.png")
        if self.axe:
            found = serious_violations(self.b, self.axe)
            assert not found, f"{path}: {found}"


def login(browser, live_server, client, user) -> None:
    client.force_login(user)
    browser.call(
        "Network.setCookie",
        name="sessionid",
        value=client.cookies["sessionid"].value,
        url=live_server.url,
    )


def test_the_organizer_and_the_arbiter_run_round_1_from_the_browser(
    browser, live_server, client, transactional_db, shots, axe
):
    organizer = make_user("olga", organizer=True)
    make_user("chief")
    make_user("deputy")
    login(browser, live_server, client, organizer)
    user = User(browser, live_server.url, shots, axe)

    # Create the event: a bad value first, answered with the API's message.
    user.open("/")
    user.press("a[href='/events/new/']")
    user.fill(
        {
            "#id_name": "Emmen Open",
            "#id_place": "Emmen",
            "#id_start_date": "2026-12-10",
            "#id_end_date": "2026-12-12",
            "#id_rounds": "5",
            "#id_time_control": "7200/50",
            "#id_tb_solkoff_cut1": "1",
            "#id_tb_sonneborn_berger": "2",
            "#id_published": True,
        }
    )
    browser.wait_for("document.getElementById('tc-words').textContent.includes('did you mean')")
    user.press("form.form-grid button[type=submit]")
    assert "did you mean '50/7200'?" in user.text()
    user.fill({"#id_time_control": "4800+60"})
    browser.wait_for("document.getElementById('tc-words').textContent.includes('80 min')")
    user.press("form.form-grid button[type=submit]")
    event = Event.objects.get()
    assert user.path() == f"/events/{event.slug}/manage/"
    assert event.tiebreaks == ["solkoff_cut1", "sonneborn_berger"]

    # Name the arbiters: a chief and a deputy, and a new one invited with a login.
    user.press("a[href$='/manage/arbiters/']")
    chief, deputy = make_user_ids("chief", "deputy")
    user.fill({"#id_pick-chief": chief})
    browser.js(f"document.querySelector('input[name=pick-deputies][value=\"{deputy}\"]').click()")
    user.press("input[value=choose] ~ button[type=submit]")
    user.fill({"#id_new-username": "anna", "#id_new-password": "a-long-pass-2026"})
    user.press("input[value=invite] ~ button[type=submit]")
    assert "Login 'anna' created" in user.text()
    assert {u.username for u in event.arbiters.all()} == {"chief", "deputy", "anna"}

    # Players: two one by one, four by CSV, one rating corrected.
    desk = f"/events/{event.slug}/manage/"
    for surname, rating in (("Boomstra", "2410"), ("Sijbrands", "2390")):
        user.open(desk)
        user.press("a[href$='/manage/players/add/']")
        user.fill({"#id_surname": surname, "#id_rating": rating, "#id_federation": "NED"})
        user.press("form.card-form button[type=submit]")
    user.press("a[href$='/manage/import/']")
    user.fill({"#id_text": CSV})
    user.press("main form button[type=submit]")
    assert "4 player(s) imported" in user.text()
    assert "Provisional numbers" in user.text()
    user.press("a[href$='/manage/players/1/edit/']")
    user.fill({"#id_rating": "2420"})
    user.press("form.card-form button[type=submit]")
    assert event.entries.get(player__surname="Boomstra").player.rating == 2420

    # Pair and publish round 1.
    user.press("form[action$='/manage/pair/'] button")
    assert "Round 1 paired (draft)" in user.text()
    user.open(desk)
    user.press("form[action$='/rounds/1/publish/'] button")
    assert Round.objects.get(event=event, number=1).status == Round.Status.PUBLISHED

    # The chief arbiter: from the desk to round 1's clocks and back, results, round 2.
    event.refresh_from_db()
    client.logout()
    login(browser, live_server, client, event.chief_arbiter)
    user.open(desk)
    user.press(f"a[href='/events/{event.slug}/rounds/1/arbiter/']")
    assert browser.js("document.querySelectorAll('tr[data-game]').length") == 3
    user.press(f"a[href='/events/{event.slug}/manage/']")
    user.press("a[href$='/manage/rounds/1/results/']")
    boards = Game.objects.filter(round__event=event, round__number=1).exclude(black=None)
    user.fill({f"#id_board-{g.board}-result": "1-1" for g in boards})
    user.press("form.results-entry button[type=submit]")
    assert "results saved for board(s) 1, 2, 3" in user.text()
    # The desk by keyboard alone: Tab reaches the round's clocks and the pair button, and
    # every control reached shows a focus ring.
    user.open(desk)
    reached = user.tab_through()
    assert any(r["href"].endswith("/rounds/1/arbiter/") for r in reached), reached
    assert any(r["text"] == "Pair round 2" for r in reached), reached
    assert all(r["outline"] != "none" and r["width"] >= 2 for r in reached), [
        r for r in reached if r["outline"] == "none" or r["width"] < 2
    ]
    user.press("form[action$='/manage/pair/'] button")
    assert "Round 2 paired (draft)" in user.text()

    # The public pages of the event, measured and checked as well.
    for page in ("", "rounds/1/", "results/", "standings/", "crosstable/", "players/1/"):
        user.open(f"/events/{event.slug}/{page}")
    assert len(user.seen) >= 15

    # Printed on A4 (186 mm between the margins: 703 px at 96 dpi), the sheets fit the
    # width and say which event, where, when and which round.
    browser.call("Emulation.setEmulatedMedia", media="print")
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=703,
        height=1000,
        deviceScaleFactor=1,
        mobile=False,
    )
    for page, what in (("rounds/1/", "round 1"), ("results/", "results"), ("standings/", "")):
        browser.open(f"{live_server.url}/events/{event.slug}/{page}")
        assert browser.js("document.documentElement.scrollWidth") <= 703, page
        head = browser.js("document.querySelector('.sheet-head').innerText")
        assert "Emmen Open · Emmen · 10 Dec 2026 – 12 Dec 2026" in head, head
        assert what in head and "printed" in head, head
        assert not browser.js("document.querySelector('header.site').offsetParent"), page
    browser.call("Emulation.setEmulatedMedia", media="")


def make_user_ids(*names):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.filter(username__in=names)
    by_name = {u.username: u.pk for u in users}
    return [by_name[n] for n in names]


def test_clock_faces_count_moves_in_words_say_paused_and_fit_a_tablet(
    browser, live_server, client, transactional_db
):
    """'1 move' (not '1 moves'); a paused game reads 'Paused', not 'Running'; on a 768 px
    tablet the players' clock shows '0:07.9' (six characters) inside its half."""
    from django.utils import timezone

    from arbiter.games import services as games
    from tests.accounts.builders import make_user as make_games_user
    from tests.games.builders import make_event, make_game

    arbiter = make_games_user("clockwatcher")
    event = make_event(time_control="9", flag_policy="claim", arbiter=arbiter)
    game = make_game(event)
    Round.objects.filter(pk=game.round_id).update(
        status=Round.Status.PUBLISHED, scheduled_start=timezone.now()
    )
    games.start_clocks(game, by=arbiter, reason="start")
    games.submit_move(game.pk, ply=1, move="32-28", request_id="one", by=arbiter)
    games.pause_clocks(game, by=arbiter, reason="a claim")
    login(browser, live_server, client, arbiter)

    browser.open(f"{live_server.url}/games/{game.pk}/arbiter/")
    browser.wait_for("document.getElementById('white-sub').textContent !== ''")
    assert browser.js("document.getElementById('white-sub').textContent") == "1 move"
    assert browser.js("document.getElementById('black-sub').textContent") == "0 moves"
    assert browser.js("document.getElementById('game-status').textContent").startswith("Paused")

    games.resume_clocks(game, by=arbiter, reason="go on")
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        width=768,
        height=1024,
        deviceScaleFactor=1,
        mobile=False,
    )
    browser.open(f"{live_server.url}/games/{game.pk}/clock/")
    face = "document.querySelector('.pc-face[data-side=\"black\"]')"
    browser.wait_for(f"/^0:0\\d\\.\\d$/.test({face}.querySelector('.time').textContent)")
    fits = browser.js(
        f"(() => {{ const f = {face}, t = f.querySelector('.time');"
        " return [t.getBoundingClientRect().width, f.clientWidth, t.textContent]; })()"
    )
    assert fits[0] <= fits[1], fits
