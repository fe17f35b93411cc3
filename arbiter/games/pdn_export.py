"""The official record of games as PDN 3.0 (reads: selectors of games, written by
rules.pdn's writer).

Tags: the seven-tag roster (Event, Site, Date, Round, White, Black, Result in the draughts
form 2-0 1-1 0-2), GameType 20, Board, WhiteFmjdId, BlackFmjdId, WhiteRating, BlackRating,
TimeControl and Termination; a `%clock` comment after each move where the clock was used
(both clocks after the move, the upper case letter for the clock that then runs); a position
set within the game after an irregularity (FMJD 5.4) as a PDN 3.0 setup with its article.

Who reads what: the games of published rounds of published events, for everyone; an
arbiter of the event also those of rounds not yet published.
"""

from __future__ import annotations

from collections.abc import Iterable

from arbiter.errors import NotFound
from arbiter.events.models import Event, Round
from arbiter.events.permissions import can_view, can_view_round, sees_drafts
from arbiter.games.models import Game, Move
from rules import Game as RulesGame
from rules.pdn import ClockReading, PdnGame, write_game

#: Results the PDN Result tag cannot say: a forfeit scores as a win, written with its
#: Termination tag (a game not played has no moves).
_PDN_RESULT = {
    Game.Result.WHITE_WINS: "2-0",
    Game.Result.DRAW: "1-1",
    Game.Result.BLACK_WINS: "0-2",
    Game.Result.WHITE_FORFEIT_WIN: "2-0",
    Game.Result.BLACK_FORFEIT_WIN: "0-2",
    Game.Result.DOUBLE_FORFEIT: "0-0",
}


def player_name(player) -> str:
    if player is None:
        return "?"
    return f"{player.surname}, {player.given_name}" if player.given_name else player.surname


def _date(game: Game) -> str:
    when = game.round.scheduled_start or game.started_at
    day = when.date() if when else game.round.event.start_date
    return day.strftime("%Y.%m.%d") if day else "????.??.??"


def game_tags(game: Game) -> dict[str, str]:
    event = game.round.event
    tags = {
        "Event": event.name,
        "Site": event.place or "?",
        "Date": _date(game),
        "Round": str(game.round.number),
        "White": player_name(game.white),
        "Black": player_name(game.black),
        "Result": _PDN_RESULT.get(game.result, "*"),
        "GameType": "20",
        "Board": str(game.board),
    }
    for side, player in (("White", game.white), ("Black", game.black)):
        if player is not None and player.fmjd_id:
            tags[f"{side}FmjdId"] = player.fmjd_id
        if player is not None and player.rating:
            tags[f"{side}Rating"] = str(player.rating)
    if event.time_control:
        tags["TimeControl"] = event.time_control
    if game.termination:
        tags["Termination"] = game.termination
    return tags


def _clock(row: dict | None, ply: int, white_starts: bool) -> ClockReading | None:
    if row is None or (row["white_ms"] is None and row["black_ms"] is None):
        return None
    white_moved = (ply % 2 == 1) == white_starts
    return ClockReading(
        white_ms=row["white_ms"],
        black_ms=row["black_ms"],
        running="black" if white_moved else "white",
    )


def game_record(game: Game, rows: list[dict] | None = None) -> PdnGame:
    """The game as a `PdnGame` ready for the writer (tags, moves, setups, clock readings)."""
    if rows is None:
        rows = list(
            Move.objects.filter(game=game)
            .order_by("ply")
            .values("ply", "notation", "white_ms", "black_ms")
        )
    if game.rules_state:
        entries = RulesGame.from_state(game.rules_state).moves
    else:
        engine = RulesGame(game.start_fen)
        for r in rows:
            engine.push(r["notation"])
        entries = engine.moves
    by_ply = {r["ply"]: r for r in rows}
    white_starts = game.start_fen.strip().upper().startswith("W")
    clocks = [_clock(by_ply.get(i), i, white_starts) for i in range(1, len(entries) + 1)]
    return PdnGame.from_moves(
        entries, start_fen=game.start_fen, tags=game_tags(game), clocks=clocks
    )


def _games(query) -> Iterable[Game]:
    return query.exclude(black__isnull=True).select_related("round__event", "white", "black")


def write_pdn(games: Iterable[Game]) -> str:
    """Canonical PDN of the games, in order (byes, which have no game, left out)."""
    games = list(games)
    rows: dict[int, list[dict]] = {g.pk: [] for g in games}
    for r in (
        Move.objects.filter(game_id__in=rows)
        .order_by("game_id", "ply")
        .values("game_id", "ply", "notation", "white_ms", "black_ms")
    ):
        rows[r["game_id"]].append(r)
    return "\n".join(write_game(game_record(g, rows[g.pk])) for g in games)


def game_pdn(game_id: int, *, by) -> tuple[str, str]:
    """(file name, PDN) of one game. NotFound for a game its reader may not see."""
    game = _games(Game.objects.filter(pk=game_id)).first()
    if game is None or not can_view_round(by, game.round):
        raise NotFound("pdn.game_not_found", game_id=game_id)
    return f"{game.round.event.slug}-r{game.round.number}-b{game.board}.pdn", write_pdn([game])


def board_game(slug: str, number: int, board: int, *, by) -> Game:
    game = (
        _games(Game.objects.filter(round__event__slug=slug, round__number=number, board=board))
        .select_related("clock")
        .first()
    )
    if game is None or not can_view_round(by, game.round):
        raise NotFound("pdn.board_not_found", number=number, board=board, slug=slug)
    return game


def round_pdn(round_id: int, *, by) -> tuple[str, str]:
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None or not can_view_round(by, round_):
        raise NotFound("pdn.round_not_found", round_id=round_id)
    games = _games(round_.games.order_by("board"))
    return f"{round_.event.slug}-r{round_.number}.pdn", write_pdn(games)


def round_pdn_by_number(slug: str, number: int, *, by) -> tuple[str, str]:
    round_ = Round.objects.filter(event__slug=slug, number=number).first()
    if round_ is None:
        raise NotFound("pdn.round_number_not_found", number=number, slug=slug)
    return round_pdn(round_.pk, by=by)


def event_pdn(event: Event | int | str, *, by) -> tuple[str, str]:
    """Every game of the event's rounds its reader may see, round by round, board by board."""
    given = event
    if not isinstance(event, Event):
        key = {"pk": event} if isinstance(event, int) else {"slug": event}
        event = Event.objects.filter(**key).first()
    if event is None or not can_view(by, event):
        raise NotFound("pdn.event_not_found", event=given)
    rounds = Round.objects.filter(event=event)
    if not sees_drafts(by, event):  # permissions.can_view_round, for every round at once
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    games = _games(Game.objects.filter(round__in=rounds).order_by("round__number", "board"))
    return f"{event.slug}.pdn", write_pdn(games)
