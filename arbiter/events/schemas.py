"""Request and response shapes of the events API (OpenAPI at /api/openapi.json)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field

from arbiter.validation import Id, Reason, Text

# Input limits are the columns' (arbiter/events/models.py): longer text is refused, never cut.
Name = Text(200, min_length=1)
#: A CSV of players: 5000 lines (player_csv.MAX_ROWS) of a few hundred characters at most.
MAX_CSV_CHARS = 1_000_000


class EventIn(Schema):
    name: Name
    system: Literal["round_robin", "double_round_robin", "swiss"] = "swiss"
    rounds: int | None = Field(
        None, ge=1, le=99, description="Swiss: number of rounds; round robins: set at start"
    )
    time_control: Text(100) = Field("50/7200:25/3600", description="PDN TimeControl tag")
    tiebreaks: list[Text(20)] = Field(
        default_factory=list, max_length=20, description="codes, in order (see TIEBREAKS)"
    )
    place: Text(200) = ""
    federation: Text(3) = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    points_win: int = Field(2, ge=0, le=100)
    points_draw: int = Field(1, ge=0, le=100)
    points_loss: int = Field(0, ge=0, le=100)
    points_bye: int = Field(2, ge=0, le=100)
    points_forfeit_win: int = Field(2, ge=0, le=100)
    flag_policy: Literal["automatic", "claim"] = "automatic"
    late_arrival_minutes: int = Field(60, ge=0, le=60, description="0..60 (FMJD)")
    tablet_moves_required: bool = Field(True, description="a tablet's press carries the move")
    lag_quota_ms: int = Field(5000, ge=0, le=60_000, description="lag credit per player and game")
    downtime_credit: bool = Field(
        True,
        description="credit the running clocks with time the system was down; false: charge it",
    )
    numbering: Literal["rating", "entry", "lot"] = "rating"
    pairing_seed: Text(50) = ""
    status: Literal["draft", "registration"] = "draft"
    published: bool = False


class EventPatch(Schema):
    name: Name | None = None
    system: Literal["round_robin", "double_round_robin", "swiss"] | None = None
    rounds: int | None = Field(None, ge=1, le=99)
    time_control: Text(100) | None = None
    tiebreaks: list[Text(20)] | None = Field(None, max_length=20)
    place: Text(200) | None = None
    federation: Text(3) | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    points_win: int | None = Field(None, ge=0, le=100)
    points_draw: int | None = Field(None, ge=0, le=100)
    points_loss: int | None = Field(None, ge=0, le=100)
    points_bye: int | None = Field(None, ge=0, le=100)
    points_forfeit_win: int | None = Field(None, ge=0, le=100)
    flag_policy: Literal["automatic", "claim"] | None = None
    late_arrival_minutes: int | None = Field(None, ge=0, le=60)
    tablet_moves_required: bool | None = None
    lag_quota_ms: int | None = Field(None, ge=0, le=60_000)
    downtime_credit: bool | None = None
    numbering: Literal["rating", "entry", "lot"] | None = None
    pairing_seed: Text(50) | None = None
    status: Literal["draft", "registration", "running", "finished"] | None = None
    published: bool | None = None
    reason: Reason = ""


class RoundBrief(Schema):
    id: int
    number: int
    status: str
    scheduled_start: dt.datetime | None = None
    paired_at: dt.datetime | None
    published_at: dt.datetime | None


class EventOut(Schema):
    id: int
    name: str
    slug: str
    place: str
    federation: str
    start_date: dt.date | None
    end_date: dt.date | None
    system: str
    rounds: int
    points_win: int
    points_draw: int
    points_loss: int
    points_bye: int
    points_forfeit_win: int
    tiebreaks: list[str]
    time_control: str
    flag_policy: str
    late_arrival_minutes: int
    tablet_moves_required: bool = True
    lag_quota_ms: int = 5000
    downtime_credit: bool
    numbering: str
    pairing_seed: str
    status: str
    published: bool
    organizer: str | None = None
    rounds_paired: list[RoundBrief] = Field(default_factory=list)


class PlayerIn(Schema):
    surname: Text(100, min_length=1)
    given_name: Text(100) = ""
    fmjd_id: Text(20) = ""
    federation: Text(3) = ""
    rating: int | None = Field(None, ge=0, le=3500)
    title: Text(10) = ""
    club: Text(200) = ""


class FromDicts(BaseModel):
    """An answer's shape that its endpoints fill from dicts: pydantic validates it in its
    own compiled code. ninja's Schema wraps each object in a DjangoGetter and reads every
    field through Python: 5000 imported entries' answer took 0.3 s that way, 0.04 s here."""

    model_config = ConfigDict(from_attributes=True)


class PlayerOut(FromDicts):
    id: int
    surname: str
    given_name: str
    name: str
    fmjd_id: str
    federation: str
    rating: int | None
    title: str
    club: str


class EntryIn(Schema):
    player_id: Id


class EntryOut(FromDicts):
    id: int
    event_id: int
    player: PlayerOut
    pairing_number: int
    status: str
    withdrawn_after_round: int | None
    absent_rounds: list[int]
    requested_byes: list[int]


class ImportIn(Schema):
    # Only bounded here: a NUL or a lone surrogate is reported with its line by the import.
    csv: str = Field(
        ...,
        max_length=MAX_CSV_CHARS,
        description="CSV text; columns in arbiter/events/player_csv.py / README",
    )


class ArbitersIn(Schema):
    usernames: list[Text(150, min_length=1)] = Field(..., max_length=100)  # User.username


class ReasonIn(Schema):
    reason: Reason = ""


class AbsenceIn(Schema):
    rounds: list[Annotated[int, Field(ge=1, le=99)]] = Field(..., max_length=99)
    reason: Reason = ""


class ScheduleIn(Schema):
    scheduled_start: dt.datetime | None = Field(
        ..., description="When the round starts, with its time zone; null clears it."
    )
    reason: Reason = ""


class ByeIn(Schema):
    round: int = Field(..., ge=1, le=99)
    cancel: bool = False
    reason: Reason = ""


class BoardOut(Schema):
    board: int
    game_id: int
    white: PlayerOut
    black: PlayerOut | None
    white_no: int | None
    black_no: int | None
    white_points: int
    black_points: int | None
    result: str
    note: dict[str, Any]


class NotPairedOut(Schema):
    player: PlayerOut
    reason: str


class AlphaLineOut(Schema):
    player: PlayerOut
    points: int
    board: int | None
    colour: str | None
    opponent: PlayerOut | None
    result: str
    reason: str


class RoundOut(Schema):
    id: int
    event_id: int
    number: int
    status: str
    scheduled_start: dt.datetime | None = None
    paired_at: dt.datetime | None
    published_at: dt.datetime | None
    warnings: list[str]
    stats: dict[str, Any]
    boards: list[BoardOut]
    not_paired: list[NotPairedOut]
    alphabetical: list[AlphaLineOut] | None = None


class PairingIn(Schema):
    boards: list[tuple[Id, Id | None]] = Field(
        ..., max_length=1000, description="[[white_id, black_id or null], ...] in board order"
    )
    reason: Reason


class WarningsOut(Schema):
    warnings: list[str]
    round: RoundOut


class StandingOut(Schema):
    rank: int
    shared_rank: str
    pairing_number: int
    player: PlayerOut
    points: int | float
    games_played: int
    withdrawn: bool
    tiebreaks: dict[str, Any]
    explain: dict[str, list[str]] | None = None


class StandingsOut(Schema):
    event_id: int
    after_round: int | None
    tiebreaks: list[str]
    tiebreak_names: dict[str, str]
    rows: list[StandingOut]


class AuditOut(Schema):
    at: dt.datetime
    user: str | None
    action: str
    target: str
    old: Any = None
    new: Any = None
    reason: str
