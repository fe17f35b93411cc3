import pytest
from django.contrib.auth.models import AnonymousUser

from arbiter.errors import Forbidden, NotFound
from arbiter.events import selectors, services
from arbiter.games.models import Game
from tests.accounts.builders import make_user
from tests.events.builders import make_event, play_round

pytestmark = pytest.mark.django_db
R = Game.Result


def white_wins(game):
    return R.WHITE_WINS


def test_visible_events_public_sees_published_arbiters_see_their_drafts(org):
    arbiter, stranger = make_user("arb"), make_user("stranger")
    public = make_event(org, name="Public", published=True)
    draft = make_event(org, name="Draft", arbiters=[arbiter])
    other_draft = make_event(org, name="Other draft")
    assert list(selectors.visible_events(AnonymousUser())) == [public]
    assert list(selectors.visible_events(stranger)) == [public]
    assert set(selectors.visible_events(arbiter)) == {public, draft}
    assert set(selectors.visible_events(org)) == {public, draft, other_draft}
    with pytest.raises(NotFound):
        selectors.get_event(draft.pk, stranger)
    assert selectors.get_event(draft.pk, arbiter) == draft


def test_draft_rounds_are_hidden_from_the_public(org):
    event = make_event(org, n_players=4, published=True)
    round1 = services.pair_next_round(event, by=org)
    assert list(selectors.visible_rounds(event, AnonymousUser())) == []
    with pytest.raises(NotFound):
        selectors.get_round(round1.pk, AnonymousUser())
    services.publish_round(round1, by=org)
    assert selectors.get_round(round1.pk, AnonymousUser()) == round1


def test_standings_use_the_events_scoring_and_tiebreaks_after_any_round(org):
    event = make_event(org, n_players=4, tiebreaks=["wins", "solkoff"], points_draw=1)
    round1 = play_round(event, org, white_wins)
    play_round(event, org)  # all draws
    winners = set(round1.games.values_list("white", flat=True))
    after1 = selectors.standings(event, after_round=1)
    assert {ln.player.pk for ln in after1 if ln.points == 2} == winners
    assert all(ln.values.keys() == {"wins", "solkoff"} for ln in after1)
    final = selectors.standings(event)
    assert sorted(ln.points for ln in final) == [1, 1, 3, 3]
    top = final[0]
    assert top.player.pk in winners and top.values["wins"] == 1
    assert top.entry.event_id == event.pk and top.explain["solkoff"]


def test_equal_players_on_everything_share_their_place(org):
    event = make_event(org, n_players=4, tiebreaks=["wins"])
    play_round(event, org)  # four draws: all equal
    shared = {ln.shared_rank for ln in selectors.standings(event)}
    assert shared == {"1-4"}


def test_round_pairings_by_board_with_points_before_the_round(org):
    event = make_event(org, n_players=5)
    play_round(event, org, white_wins)
    round2 = services.pair_next_round(event, by=org)
    lines = selectors.round_pairings(round2, order="board")
    assert [ln.board for ln in lines] == sorted(ln.board for ln in lines)
    before = {ln.player.pk: ln.points for ln in selectors.standings(event, after_round=1)}
    for ln in lines:
        assert ln.white_points == before[ln.white.pk]
        if ln.black is not None:
            assert ln.black_points == before[ln.black.pk]
        assert ln.note.get("reason")


def test_alphabetical_pairings_list_every_player_and_why_some_are_not_paired(org):
    event = make_event(org, n_players=5)
    entries = list(event.entries.order_by("pairing_number"))
    services.request_bye(entries[0], 1, by=org)
    services.set_absent(entries[1], [1], by=org)
    round1 = services.pair_next_round(event, by=org)
    lines = selectors.round_pairings(round1, order="alpha")
    names = [(ln.player.surname, ln.player.given_name) for ln in lines]
    assert names == sorted(names)
    assert len(lines) == 5
    reasons = {ln.player.pk: ln.reason for ln in lines if ln.board is None}
    assert reasons == {entries[0].player_id: "bye requested", entries[1].player_id: "absent"}
    paired = [ln for ln in lines if ln.board is not None]
    # Three left to pair: one game and a pairing-allocated bye.
    assert sorted(ln.result for ln in paired) == ["", "", "bye"]
    for ln in paired:
        if ln.result == "bye":
            assert ln.colour is None and ln.opponent is None
        else:
            assert ln.colour in {"W", "B"} and ln.opponent is not None


def test_round_robin_crosstable_is_a_symmetric_grid(org):
    event = make_event(org, system="round_robin", n_players=4)
    for _ in range(3):
        play_round(event, org, white_wins)
    event.refresh_from_db()  # the start set its number of rounds
    table = selectors.crosstable(event)
    assert table["kind"] == "grid" and table["rounds"] == 3
    rows = table["rows"]
    for i, row in enumerate(rows):
        assert row["cells"][i] == []
        for j, cell in enumerate(row["cells"]):
            if i == j:
                continue
            (mine,) = cell
            (theirs,) = rows[j]["cells"][i]
            assert {mine["result"], theirs["result"]} == {"2", "0"}
            assert {mine["colour"], theirs["colour"]} == {"W", "B"}
    assert sum(r["points"] for r in rows) == 12  # 6 games x 2 points


def test_swiss_crosstable_is_a_wallchart_round_by_round(org):
    event = make_event(org, n_players=5, rounds=3)
    play_round(event, org, white_wins)
    play_round(event, org)
    table = selectors.crosstable(event)
    assert table["kind"] == "wallchart"
    numbers = {r["player_id"]: r["no"] for r in table["rows"]}
    for row in table["rows"]:
        assert len(row["results"]) == 3 and row["results"][2] is None  # round 3 not paired
        for cell in row["results"][:2]:
            if cell["opponent_id"] is None:
                assert cell["result"] == "bye" and cell["colour"] is None
            else:
                assert cell["opponent_no"] == numbers[cell["opponent_id"]]
                assert cell["colour"] in {"W", "B"}
    byes = [c for r in table["rows"] for c in r["results"][:2] if c and c["result"] == "bye"]
    assert len(byes) == 2


def test_player_card_shows_games_of_published_rounds_of_visible_events(org):
    public = make_event(org, name="Public", n_players=4, published=True)
    hidden = make_event(org, name="Hidden")
    player = public.entries.get(pairing_number=1).player
    services.add_entry(hidden, player, by=org)
    play_round(public, org)
    services.pair_next_round(public, by=org)  # round 2: a draft
    card = selectors.player_card(player)
    assert [e["event"] for e in card["entries"]] == [public]
    assert [g["round"] for g in card["games"]] == [1]
    game = card["games"][0]
    assert game["result"] == "1-1" and game["points"] == 1 and game["opponent"] is not None
    assert {e["event"] for e in selectors.player_card(player, user=org)["entries"]} == {
        public,
        hidden,
    }


def test_audit_log_is_for_arbiters_only(org):
    event = make_event(org, n_players=2)
    assert selectors.audit_log(event, org).first().action == "entry.add"
    with pytest.raises(Forbidden):
        selectors.audit_log(event, make_user("nosy"))
