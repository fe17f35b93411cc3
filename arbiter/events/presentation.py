"""Reads shaped for the web pages: the sheets pinned on a playing hall's wall.

The reads themselves are in selectors/ (visible events and rounds, pairings, standings,
crosstable, player card); this module only adds what the pages need on top: an event found
by its slug for one user, the information block in words, the tie-break cells with their
explanations, the wallchart in starting-number order, and a player's card within one event
with the running score.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Min, Q

from arbiter.errors import NotFound
from arbiter.events import selectors
from arbiter.events.models import Entry, Event, Round
from arbiter.events.permissions import can_view
from arbiter.games.models import Game
from clocks.timecontrol import TimeControl, TimeControlError


def player_name(player) -> str:
    """'Surname Given' as hall sheets print it (titles are shown apart)."""
    if player is None:
        return ""
    return f"{player.surname} {player.given_name}".strip()


# ---------------------------------------------------------------------------------------
# Visibility


def event_for(user, slug: str) -> Event:
    """The event, if `user` may see it (published, or its organizer/arbiters); else NotFound.

    A draft is reported as absent, not as forbidden, so that the public learns nothing of it.
    """
    event = Event.objects.select_related("organizer").filter(slug=slug).first()
    if event is None or not can_view(user, event):
        raise NotFound("event.no_such_slug", slug=slug)
    return event


def visible_rounds(user, event: Event) -> list[Round]:
    """The rounds `user` may see, each with `started` (its clocks' first start, else its
    scheduled start), `in_play` (a game of it is running) and `state_label` in words."""
    rounds = list(selectors.visible_rounds(event, user))
    games = (
        Game.objects.filter(round__in=rounds)
        .values("round_id")
        .annotate(
            first=Min("started_at"),
            running=Count("pk", filter=Q(status=Game.Status.RUNNING)),
        )
    )
    by_round = {g["round_id"]: g for g in games}
    for rnd in rounds:
        seen = by_round.get(rnd.pk, {})
        rnd.started = seen.get("first") or rnd.scheduled_start
        rnd.in_play = rnd.status == Round.Status.PUBLISHED and bool(seen.get("running"))
        rnd.state_label = "In play" if rnd.in_play else rnd.get_status_display()
    return rounds


def round_for(user, event: Event, number: int) -> Round:
    for rnd in visible_rounds(user, event):
        if rnd.number == number:
            return rnd
    raise NotFound("round.not_published_in_event", number=number, event=event)


def attach_boards(rounds: list[Round]) -> None:
    """Give each round `boards`: its games' (board, game id), for the desk's links to boards."""
    boards: dict[int, list[tuple[int, int]]] = {r.pk: [] for r in rounds}
    rows = Game.objects.filter(round__in=rounds).exclude(black=None).order_by("board")
    for round_id, board, game_id in rows.values_list("round_id", "board", "pk"):
        boards[round_id].append((board, game_id))
    for rnd in rounds:
        rnd.boards = boards[rnd.pk]


NUMBERING_RULES = {
    Event.Numbering.RATING: "When round 1 is paired the players are numbered by rating, "
    "highest first (unrated last), then by name; “Will be” shows the number each "
    "would get now.",
    Event.Numbering.ENTRY: "When round 1 is paired the players keep the order of entry; "
    "numbers close up after a withdrawal.",
    Event.Numbering.LOT: "When round 1 is paired the numbers are drawn by lot from the "
    "event's drawn lot (its seed).",
}


def provisional_numbers(event: Event, entries: list[Entry]) -> str | None:
    """Before round 1 is paired, the rule that will fix the pairing numbers (and each
    entry's `expected_number` under it); None once the numbers are fixed."""
    from arbiter.events.services.events import numbering_order

    if event.round_set.exists():
        return None
    if event.numbering != Event.Numbering.LOT:
        for number, entry in enumerate(numbering_order(event, entries), start=1):
            entry.expected_number = number
    return NUMBERING_RULES[event.numbering]


def last_round_with_results(rounds: list[Round]) -> int | None:
    """The highest round number, among `rounds`, with at least one result entered."""
    return (
        Game.objects.filter(round__in=rounds)
        .exclude(result=Game.Result.PENDING)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )


def rounds_with_results(rounds: list[Round]) -> list[Round]:
    last = last_round_with_results(rounds)
    return [r for r in rounds if last is not None and r.number <= last]


def entry_for(event: Event, number: int) -> Entry:
    entry = event.entries.select_related("player").filter(pairing_number=number).first()
    if entry is None:
        raise NotFound("entry.no_such_number", number=number, event=event)
    return entry


# ---------------------------------------------------------------------------------------
# Event information


@dataclass
class EventInfo:
    system: str
    rounds: int
    time_control: str
    scoring: list[tuple[str, int]]
    tiebreaks: list[tuple[str, str]]  # (code, description), in order
    flag_policy: str

    @property
    def tiebreak_headers(self) -> list[tuple[str, str, str]]:
        """(code, short column label, description) for the standings' columns."""
        return [(code, short_label(code), text) for code, text in self.tiebreaks]


# Column labels short enough for a standings table; the description goes in a tooltip and
# in the footnote.
SHORT_LABELS = {
    "solkoff": "Solkoff",
    "solkoff_cut1": "Solkoff −1",
    "solkoff_median": "Median",
    "sonneborn_berger": "S-B",
    "wins": "Wins",
    "direct_encounter": "Direct",
    "higher_ranked": "v. higher",
    "avg_rating_opponents": "Opp. rating",
    "performance": "Perf.",
    "progressive": "Progr.",
}


def short_label(code: str) -> str:
    return SHORT_LABELS.get(code, code.replace("_", " "))


def event_info(event: Event) -> EventInfo:
    return EventInfo(
        system=event.get_system_display(),
        rounds=event.rounds,
        time_control=describe_time_control(event.time_control),
        scoring=[
            ("Win", event.points_win),
            ("Draw", event.points_draw),
            ("Loss", event.points_loss),
            ("Bye", event.points_bye),
            ("Win by forfeit", event.points_forfeit_win),
        ],
        tiebreaks=selectors.tiebreak_columns(event),
        flag_policy=event.get_flag_policy_display(),
    )


def describe_time_control(tag: str) -> str:
    """A PDN TimeControl tag in words, e.g. '50/7200:25/3600' -> '120 min for 50 moves, then
    60 min per 25 moves'. Falls back to the tag itself when the clocks cannot read it."""
    try:
        return TimeControl.parse(tag).describe()
    except TimeControlError:
        return tag


# ---------------------------------------------------------------------------------------
# Pairings


def board_lines(rnd: Round) -> list[selectors.BoardLine]:
    return selectors.round_pairings(rnd, order="board")


@dataclass
class NameLine:
    """A line of the by-name list: the selector's PlayerLine and the opponent's number."""

    line: selectors.PlayerLine
    opponent_number: int | None


def player_lines(rnd: Round) -> list[NameLine]:
    """Every player of the event by name; those not paired carry the reason."""
    numbers = dict(rnd.event.entries.values_list("player_id", "pairing_number"))
    return [
        NameLine(line, numbers.get(line.opponent.pk) if line.opponent else None)
        for line in selectors.round_pairings(rnd, order="alpha")
    ]


def not_paired(rnd: Round) -> list[selectors.PlayerLine]:
    return [line for line in selectors.round_pairings(rnd, order="alpha") if line.board is None]


def pairing_choices(rnd: Round):
    """For the hand-edit forms: the boards as [(white_id, black_id | None)], the seated
    players as [(player, label)] in board order, and those plus the event's players not
    paired in this round."""
    games = list(rnd.games.select_related("white", "black").order_by("board"))
    boards = [(g.white_id, g.black_id) for g in games]
    seated = [
        (player, f"{player_name(player)} (board {g.board})")
        for g in games
        for player in (g.white, g.black)
        if player is not None
    ]
    seated_ids = {p.pk for p, _ in seated}
    others = [
        (e.player, f"{player_name(e.player)} (not paired)")
        for e in rnd.event.entries.select_related("player").order_by("pairing_number")
        if e.player_id not in seated_ids
    ]
    return boards, seated, seated + others


# ---------------------------------------------------------------------------------------
# Standings


@dataclass
class TiebreakCell:
    code: str
    text: str
    value: str
    explain: list[str]


@dataclass
class StandingRow:
    line: selectors.StandingLine
    tiebreak_cells: list[TiebreakCell]


def format_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")
    return str(value)


def standing_rows(event: Event, after_round: int | None) -> list[StandingRow]:
    """The standings after `after_round`, with one cell per tie-break in the event's order
    holding the value and the lines that explain how it was computed."""
    columns = selectors.tiebreak_columns(event)
    return [
        StandingRow(
            line=line,
            tiebreak_cells=[
                TiebreakCell(
                    code=code,
                    text=text,
                    value=format_value(line.values.get(code)),
                    explain=list(line.explain.get(code, [])),
                )
                for code, text in columns
            ],
        )
        for line in selectors.standings(event, after_round=after_round)
    ]


# ---------------------------------------------------------------------------------------
# Crosstable


def crosstable(event: Event) -> dict:
    """selectors.crosstable, with a wallchart's rows in starting-number order (the chart on
    the wall, where opponents are found by their number); a grid stays in ranking order.
    Each row gets its `player` (for names written as on the other pages)."""
    table = selectors.crosstable(event)
    players = {e.player_id: e.player for e in event.entries.select_related("player")}
    for row in table["rows"]:
        row["player"] = players.get(row["player_id"])
    if table["kind"] == "wallchart":
        table["rows"] = sorted(table["rows"], key=lambda row: row["no"])
    return table


# ---------------------------------------------------------------------------------------
# A player's card within one event


@dataclass
class CardGame:
    round: int
    board: int
    colour: str | None  # "W", "B"; None for a bye
    opponent: object | None
    opponent_number: int | None
    result: str
    points: int | None
    running: int


@dataclass
class PlayerCard:
    entry: Entry
    points: int
    shared_rank: str
    games: list[CardGame]
    other_events: list[dict]


def event_player_card(user, event: Event, entry: Entry) -> PlayerCard:
    """The player's games in this event (published rounds) with the running score, their
    place, and the other events they play in that the reader may see."""
    card = selectors.player_card(entry.player, user=user)
    numbers = dict(event.entries.values_list("player_id", "pairing_number"))
    games, running = [], 0
    for g in card["games"]:
        if g["event"].pk != event.pk:
            continue
        running += g["points"] or 0
        opponent = g["opponent"]
        games.append(
            CardGame(
                round=g["round"],
                board=g["board"],
                colour=g["colour"],
                opponent=opponent,
                opponent_number=numbers.get(opponent.pk) if opponent else None,
                result=g["result"],
                points=g["points"],
                running=running,
            )
        )
    here = next((e for e in card["entries"] if e["event"].pk == event.pk), None)
    return PlayerCard(
        entry=entry,
        points=here["points"] if here else running,
        shared_rank=here["shared_rank"] if here else "",
        games=games,
        other_events=[e for e in card["entries"] if e["event"].pk != event.pk],
    )
