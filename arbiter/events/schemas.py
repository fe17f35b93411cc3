"""Request and response shapes of the events API (OpenAPI at /api/openapi.json)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ninja import Schema
from pydantic import Field


class EventIn(Schema):
    name: str
    system: Literal["round_robin", "double_round_robin", "swiss"] = "swiss"
    rounds: int | None = Field(
        None, description="Swiss: number of rounds; round robins: set at start"
    )
    time_control: str = Field("50/7200:25/3600", description="PDN TimeControl tag")
    tiebreaks: list[str] = Field(
        default_factory=list, description="codes, in order (see TIEBREAKS)"
    )
    place: str = ""
    federation: str = ""
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    points_win: int = 2
    points_draw: int = 1
    points_loss: int = 0
    points_bye: int = 2
    points_forfeit_win: int = 2
    flag_policy: Literal["automatic", "claim"] = "automatic"
    late_arrival_minutes: int = Field(60, description="0..60 (FMJD)")
    numbering: Literal["rating", "entry", "lot"] = "rating"
    pairing_seed: str = ""
    status: Literal["draft", "registration"] = "draft"
    published: bool = False


class EventPatch(Schema):
    name: str | None = None
    system: Literal["round_robin", "double_round_robin", "swiss"] | None = None
    rounds: int | None = None
    time_control: str | None = None
    tiebreaks: list[str] | None = None
    place: str | None = None
    federation: str | None = None
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    points_win: int | None = None
    points_draw: int | None = None
    points_loss: int | None = None
    points_bye: int | None = None
    points_forfeit_win: int | None = None
    flag_policy: Literal["automatic", "claim"] | None = None
    late_arrival_minutes: int | None = None
    numbering: Literal["rating", "entry", "lot"] | None = None
    pairing_seed: str | None = None
    status: Literal["draft", "registration", "running", "finished"] | None = None
    published: bool | None = None
    reason: str = ""


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
    numbering: str
    pairing_seed: str
    status: str
    published: bool
    organizer: str | None = None
    rounds_paired: list[RoundBrief] = Field(default_factory=list)


class PlayerIn(Schema):
    surname: str
    given_name: str = ""
    fmjd_id: str = ""
    federation: str = ""
    rating: int | None = None
    title: str = ""
    club: str = ""


class PlayerOut(Schema):
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
    player_id: int


class EntryOut(Schema):
    id: int
    event_id: int
    player: PlayerOut
    pairing_number: int
    status: str
    withdrawn_after_round: int | None
    absent_rounds: list[int]
    requested_byes: list[int]


class ImportIn(Schema):
    csv: str = Field(..., description="CSV text; columns in arbiter/events/player_csv.py / README")


class ArbitersIn(Schema):
    usernames: list[str]


class ReasonIn(Schema):
    reason: str = ""


class AbsenceIn(Schema):
    rounds: list[int]
    reason: str = ""


class ScheduleIn(Schema):
    scheduled_start: dt.datetime | None = Field(
        ..., description="When the round starts, with its time zone; null clears it."
    )
    reason: str = ""


class ByeIn(Schema):
    round: int
    cancel: bool = False
    reason: str = ""


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
    boards: list[tuple[int, int | None]] = Field(
        ..., description="[[white_id, black_id or null], ...] in board order"
    )
    reason: str


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
