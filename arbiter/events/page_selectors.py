"""Reads shaped for the web pages: the sheets pinned on a playing hall's wall.

The general reads (visible events, standings, crosstable, player card) are in selectors.py;
this module adds what only the pages need: visibility of an event and its rounds for one
user, pairings by board and alphabetically with the score each player brings to the board,
the event's information block, and a player's card within one event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from arbiter.errors import NotFound
from arbiter.events.models import Entry, Event, Player, Round
from arbiter.events.permissions import can_view, is_arbiter
from arbiter.games.models import Game

# ---------------------------------------------------------------------------------------
# Scoring (FMJD 7: win 2, draw 1, loss 0; byes and forfeits as the event sets them)


def points_for(event: Event, result: str) -> tuple[int | None, int | None]:
    """Points (white, black) that `result` gives under the event's scoring; None = not played."""
    table = {
        Game.Result.WHITE_WINS: (event.points_win, event.points_loss),
        Game.Result.DRAW: (event.points_draw, event.points_draw),
        Game.Result.BLACK_WINS: (event.points_loss, event.points_win),
        Game.Result.WHITE_FORFEIT_WIN: (event.points_forfeit_win, 0),
        Game.Result.BLACK_FORFEIT_WIN: (0, event.points_forfeit_win),
        Game.Result.DOUBLE_FORFEIT: (0, 0),
        Game.Result.BYE: (event.points_bye, None),
    }
    return table.get(result, (None, None))


# ---------------------------------------------------------------------------------------
# Visibility


def event_for(user, slug: str) -> Event:
    """The event, if `user` may see it (published, or its organizer/arbiters); else NotFound.

    A draft is reported as absent, not as forbidden, so that the public learns nothing of it.
    """
    event = Event.objects.select_related("organizer").filter(slug=slug).first()
    if event is None or not can_view(user, event):
        raise NotFound(f"no event '{slug}'")
    return event


def visible_rounds(user, event: Event) -> list[Round]:
    """Rounds the user may see: published and finished ones; drafts too for arbiters."""
    rounds = event.round_set.order_by("number")
    if not is_arbiter(user, event):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return list(rounds)


def round_for(user, event: Event, number: int) -> Round:
    for rnd in visible_rounds(user, event):
        if rnd.number == number:
            return rnd
    raise NotFound(f"round {number} of '{event}' is not published")


def last_round_with_results(rounds: list[Round]) -> int | None:
    """The highest round number whose games have at least one result, among `rounds`."""
    numbers = [r.number for r in rounds]
    last = (
        Game.objects.filter(round__in=rounds)
        .exclude(result=Game.Result.PENDING)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    return last if last in numbers else None


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


def tiebreak_descriptions() -> dict[str, str]:
    try:
        from arbiter.events.tiebreaks import TIEBREAKS
    except ImportError:  # the pairing branch not merged yet: show the codes
        return {}
    return dict(TIEBREAKS)


def event_info(event: Event) -> EventInfo:
    names = tiebreak_descriptions()
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
        tiebreaks=[(code, names.get(code, code.replace("_", " "))) for code in event.tiebreaks],
        flag_policy=event.get_flag_policy_display(),
    )


def describe_time_control(tag: str) -> str:
    """A PDN TimeControl tag in words, e.g. '7200/50:3600/25' -> '120 min for 50 moves, then
    60 min for 25 moves'. Falls back to the tag itself when it is not of a known shape."""
    parts = []
    for period in tag.split(":"):
        try:
            if "/" in period:
                seconds, moves = period.split("/")
                parts.append(f"{_minutes(seconds)} for {int(moves)} moves")
            elif "+" in period:
                seconds, increment = period.split("+")
                parts.append(f"{_minutes(seconds)} + {int(increment)} s per move")
            else:
                parts.append(f"{_minutes(period)} for the rest of the game")
        except ValueError:
            return tag
    return ", then ".join(parts) if parts else tag


def _minutes(seconds: str) -> str:
    value = int(seconds)
    return f"{value // 60} min" if value % 60 == 0 else f"{value} s"


# ---------------------------------------------------------------------------------------
# Pairings


@dataclass
class Seat:
    player: Player
    number: int | None  # pairing number in the event
    score: int  # points before this round
    points: int | None = None  # points from this game (None: not played yet)


@dataclass
class BoardRow:
    game: Game
    board: int
    white: Seat
    black: Seat | None  # None: a bye
    result: str
    result_label: str


@dataclass
class AlphaRow:
    player: Player
    number: int | None
    score: int
    board: int
    colour: str  # "white", "black" or "bye"
    opponent: Player | None
    opponent_number: int | None


def entries_by_player(event: Event) -> dict[int, Entry]:
    return {e.player_id: e for e in event.entries.select_related("player")}


def scores_before(event: Event, round_number: int) -> dict[int, int]:
    """Points of every player from the rounds before `round_number` (published ones only)."""
    totals: dict[int, int] = {}
    games = Game.objects.filter(round__event=event, round__number__lt=round_number).exclude(
        round__status=Round.Status.DRAFT
    )
    for white_id, black_id, result in games.values_list("white_id", "black_id", "result"):
        white_points, black_points = points_for(event, result)
        if white_id and white_points is not None:
            totals[white_id] = totals.get(white_id, 0) + white_points
        if black_id and black_points is not None:
            totals[black_id] = totals.get(black_id, 0) + black_points
    return totals


def board_rows(rnd: Round) -> list[BoardRow]:
    """The round's pairings in board order, each side with its score before the round."""
    event = rnd.event
    numbers = {e.player_id: e.pairing_number for e in event.entries.all()}
    before = scores_before(event, rnd.number)
    rows = []
    games = rnd.games.select_related("white", "black").order_by("board")
    for game in games:
        white_points, black_points = points_for(event, game.result)
        white = Seat(
            game.white, numbers.get(game.white_id), before.get(game.white_id, 0), white_points
        )
        black = None
        if game.black is not None:
            black = Seat(
                game.black, numbers.get(game.black_id), before.get(game.black_id, 0), black_points
            )
        rows.append(
            BoardRow(
                game=game,
                board=game.board,
                white=white,
                black=black,
                result=game.result,
                result_label=_result_label(game.result),
            )
        )
    return rows


def _result_label(result: str) -> str:
    return {"": "", "bye": "bye"}.get(result, result)


def alpha_rows(rnd: Round) -> list[AlphaRow]:
    """Every paired player in alphabetical order, with their board, colour and opponent:
    the list a player looks for their name on."""
    rows = []
    for row in board_rows(rnd):
        if row.black is None:
            rows.append(
                AlphaRow(
                    row.white.player,
                    row.white.number,
                    row.white.score,
                    row.board,
                    "bye",
                    None,
                    None,
                )
            )
            continue
        rows.append(
            AlphaRow(
                row.white.player,
                row.white.number,
                row.white.score,
                row.board,
                "white",
                row.black.player,
                row.black.number,
            )
        )
        rows.append(
            AlphaRow(
                row.black.player,
                row.black.number,
                row.black.score,
                row.board,
                "black",
                row.white.player,
                row.white.number,
            )
        )
    rows.sort(key=lambda r: (r.player.surname.casefold(), r.player.given_name.casefold()))
    return rows


def unpaired_entries(rnd: Round) -> list[Entry]:
    """Entries of the event not seated in this round (absent, withdrawn, late)."""
    seated = set(rnd.games.values_list("white_id", flat=True)) | set(
        rnd.games.values_list("black_id", flat=True)
    )
    return [
        e
        for e in rnd.event.entries.select_related("player").order_by(
            "player__surname", "player__given_name"
        )
        if e.player_id not in seated
    ]


# ---------------------------------------------------------------------------------------
# A player's card within one event


@dataclass
class CardGame:
    round: int
    board: int
    colour: str  # "white", "black", "bye"
    opponent: Player | None
    opponent_number: int | None
    result: str  # as written, e.g. "2-0"
    points: int | None  # for this player
    running: int  # points after this round
    game: Game


@dataclass
class PlayerCard:
    entry: Entry
    games: list[CardGame] = field(default_factory=list)

    @property
    def points(self) -> int:
        return self.games[-1].running if self.games else 0


def entry_for(event: Event, number: int) -> Entry:
    entry = event.entries.select_related("player").filter(pairing_number=number).first()
    if entry is None:
        raise NotFound(f"no player number {number} in '{event}'")
    return entry


def event_player_card(user, event: Event, entry: Entry) -> PlayerCard:
    rounds = visible_rounds(user, event)
    numbers = {e.player_id: e.pairing_number for e in event.entries.all()}
    games = (
        Game.objects.filter(round__in=rounds)
        .filter(Q(white_id=entry.player_id) | Q(black_id=entry.player_id))
        .select_related("white", "black", "round")
        .order_by("round__number")
    )
    card = PlayerCard(entry=entry)
    running = 0
    for game in games:
        white_points, black_points = points_for(event, game.result)
        if game.black_id is None:
            colour, opponent, points = "bye", None, white_points
        elif game.white_id == entry.player_id:
            colour, opponent, points = "white", game.black, white_points
        else:
            colour, opponent, points = "black", game.white, black_points
        running += points or 0
        card.games.append(
            CardGame(
                round=game.round.number,
                board=game.board,
                colour=colour,
                opponent=opponent,
                opponent_number=numbers.get(opponent.pk) if opponent else None,
                result=game.result,
                points=points,
                running=running,
                game=game,
            )
        )
    return card


# ---------------------------------------------------------------------------------------
# Crosstables


@dataclass
class WallCell:
    round: int
    opponent_number: int | None  # None: bye or not paired
    colour: str  # "w", "b" or "" (bye, absent)
    mark: str  # points scored, "+" / "-" for forfeits, "" not played yet


@dataclass
class WallRow:
    entry: Entry
    points: int
    rank: str
    cells: list[WallCell]


@dataclass
class GridRow:
    entry: Entry
    points: int
    rank: str
    cells: list[list[str]]  # one list per opponent column: the marks, one per cycle


def _mark(event: Event, result: str, side: str) -> str:
    if result in ("", None):
        return ""
    if result == Game.Result.BYE:
        return "bye"
    if result in (Game.Result.WHITE_FORFEIT_WIN, Game.Result.BLACK_FORFEIT_WIN):
        won = (result == Game.Result.WHITE_FORFEIT_WIN) == (side == "white")
        return "+" if won else "-"
    if result == Game.Result.DOUBLE_FORFEIT:
        return "-"
    white_points, black_points = points_for(event, result)
    return str(white_points if side == "white" else black_points)


def _games_of(user, event: Event):
    rounds = visible_rounds(user, event)
    return list(
        Game.objects.filter(round__in=rounds)
        .select_related("round")
        .order_by("round__number", "board")
    ), [r.number for r in rounds]


def wallchart(user, event: Event, ranks: dict[int, str], points: dict[int, int]) -> list[WallRow]:
    """Swiss wallchart: per player (starting number order), per round the opponent's number,
    the colour and the points scored (the layout of FMJD/FIDE tournament reports)."""
    entries = list(event.entries.select_related("player").order_by("pairing_number"))
    numbers = {e.player_id: e.pairing_number for e in entries}
    games, round_numbers = _games_of(user, event)
    cells: dict[tuple[int, int], WallCell] = {}
    for game in games:
        n = game.round.number
        if game.white_id:
            cells[(game.white_id, n)] = WallCell(
                n,
                numbers.get(game.black_id),
                "w" if game.black_id else "",
                _mark(event, game.result, "white"),
            )
        if game.black_id:
            cells[(game.black_id, n)] = WallCell(
                n, numbers.get(game.white_id), "b", _mark(event, game.result, "black")
            )
    return [
        WallRow(
            entry=e,
            points=points.get(e.player_id, 0),
            rank=ranks.get(e.player_id, ""),
            cells=[cells.get((e.player_id, n), WallCell(n, None, "", "")) for n in round_numbers],
        )
        for e in entries
    ]


def round_robin_grid(
    user, event: Event, ranks: dict[int, str], points: dict[int, int]
) -> list[GridRow]:
    """Round robin crosstable: row player's points against each column player, one mark per
    cycle (two in a double round robin); the diagonal is empty."""
    entries = list(event.entries.select_related("player").order_by("pairing_number"))
    index = {e.player_id: i for i, e in enumerate(entries)}
    marks: dict[tuple[int, int], list[str]] = {}
    games, _ = _games_of(user, event)
    for game in games:
        if not (game.white_id and game.black_id):
            continue
        w, b = index.get(game.white_id), index.get(game.black_id)
        if w is None or b is None:
            continue
        marks.setdefault((w, b), []).append(_mark(event, game.result, "white"))
        marks.setdefault((b, w), []).append(_mark(event, game.result, "black"))
    return [
        GridRow(
            entry=e,
            points=points.get(e.player_id, 0),
            rank=ranks.get(e.player_id, ""),
            cells=[marks.get((i, j), []) if i != j else ["×"] for j in range(len(entries))],
        )
        for i, e in enumerate(entries)
    ]


# ---------------------------------------------------------------------------------------
# Standings (TEMPORARY: points only, until selectors.standings is merged)


@dataclass
class _Row:
    rank: int
    shared_rank: str
    player_id: int
    points: int
    games_played: int
    values: dict
    explain: dict
    player: Player | None = None


def standings_rows(event: Event, after_round: int | None = None) -> list:
    entries = entries_by_player(event)
    limit = (after_round or 10_000) + 1
    totals = scores_before(event, limit)
    played: dict[int, int] = {}
    for w, b, r in (
        Game.objects.filter(round__event=event, round__number__lt=limit)
        .exclude(result="")
        .values_list("white_id", "black_id", "result")
    ):
        for pid in (w, b):
            if pid:
                played[pid] = played.get(pid, 0) + 1
    order = sorted(entries, key=lambda pid: -totals.get(pid, 0))
    rows = []
    for i, pid in enumerate(order, start=1):
        rows.append(
            _Row(
                i, str(i), pid, totals.get(pid, 0), played.get(pid, 0), {}, {}, entries[pid].player
            )
        )
    return rows


def visible_events_for(user):
    """TEMPORARY until selectors.visible_events is merged."""
    from arbiter.events.permissions import _authenticated

    events = Event.objects.order_by("-start_date", "name")
    if not _authenticated(user):
        return events.filter(published=True)
    if user.is_superuser:
        return events
    return events.filter(Q(published=True) | Q(organizer=user) | Q(arbiters=user)).distinct()


@dataclass
class TiebreakCell:
    code: str
    text: str
    value: str
    explain: list[str]


@dataclass
class StandingLine:
    row: object  # the StandingRow
    entry: Entry
    player: Player
    tiebreak_cells: list[TiebreakCell]

    def __getattr__(self, name):  # rank, shared_rank, points, games_played ... of the row
        return getattr(self.row, name)


def format_value(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")
    return str(value)


def standing_lines(event: Event, after_round: int | None) -> list[StandingLine]:
    """Standings rows with each player's entry, and one cell per tie-break in the event's order
    holding the value and the lines that explain it."""
    entries = entries_by_player(event)
    names = tiebreak_descriptions()
    lines = []
    for row in standings_rows(event, after_round=after_round):
        entry = entries[row.player_id]
        cells = [
            TiebreakCell(
                code=code,
                text=names.get(code, code.replace("_", " ")),
                value=format_value(row.values.get(code)),
                explain=list(row.explain.get(code, [])),
            )
            for code in event.tiebreaks
        ]
        lines.append(StandingLine(row=row, entry=entry, player=entry.player, tiebreak_cells=cells))
    return lines
