"""API tokens: issued with a secret shown once, stored as its SHA-256, scoped (to an event,
a game or a board's device, read or write), expiring, revoked by their owner or the
organizer of the event they are for; resolved on every request by one indexed lookup.

A secret is `dra_` and 43 random URL-safe characters (256 bits): a hash without salt or
stretching is enough for a secret that cannot be guessed, and keeps the lookup to one index
probe on every move.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from arbiter import messages
from arbiter.errors import Forbidden, Invalid, NotFound
from arbiter.infra import sqlrows

from .models import ApiToken

PREFIX = "dra_"
#: A token's life when none is asked for, and the longest one may ask for.
DEFAULT_DAYS = 30
MAX_DAYS = 366
#: last_used_at is written at most this often per token (not on every move).
LAST_USE_PRECISION = timedelta(minutes=1)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def issue(
    user,
    *,
    by=None,
    name: str = "",
    event=None,
    game=None,
    access: str = ApiToken.Access.WRITE,
    expires_in_days: int | None = DEFAULT_DAYS,
) -> tuple[ApiToken, str]:
    """A new token of `user` and its secret, which is not stored and cannot be shown again.

    `by` (default `user`) issues it: for themselves, or, as the organizer or an arbiter of
    the event, a device token for one of its games (`user` is then the issuer: the device acts
    with their rights, on that game only). Scoped tokens are checked here (who may scope
    to what); events.permissions decide again on every request what the user may do.
    """
    from arbiter.events import permissions

    by = by or user
    if game is not None:
        event = game.round.event
        if not (permissions.is_arbiter(by, event) or permissions.player_side(by, game)):
            raise Forbidden("token.scope_game_refused", event=event, game_id=game.pk)
    elif event is not None and not permissions.is_arbiter(by, event):
        raise Forbidden("token.scope_event_refused", event=event)
    if access not in ApiToken.Access.values:
        raise Invalid("token.bad_access", access=access, details={"field": "access"})
    if expires_in_days is not None and not 1 <= expires_in_days <= MAX_DAYS:
        raise Invalid(
            "token.bad_expiry",
            days=expires_in_days,
            max=MAX_DAYS,
            details={"field": "expires_in_days"},
        )
    return _create(
        user, by=by, name=name, event=event, game=game, access=access, days=expires_in_days
    )


def _create(user, *, by, name, event, game, access, days, device=False, board=None):
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        created_by=by,
        key_hash=hash_secret(secret),
        prefix=secret[: len(PREFIX) + 6],
        name=name,
        event=event,
        game=game,
        access=access,
        device=device,
        board=board,
        expires_at=(timezone.now() + timedelta(days=days) if days else None),
    )
    return token, secret


#: A board's tablet is bound for a day or two (its game), or for the event (its board).
DEVICE_GAME_DAYS = 2
DEVICE_BOARD_DAYS = 30


def issue_device(game, *, by, follow_board: bool = False) -> tuple[ApiToken, str]:
    """A board's tablet token (accounts/devices.py binds it with a one-time code): its own
    login, with no role anywhere, acting for the players of `game` (and, with `follow_board`,
    of the next games of that board, round after round). Only an arbiter of the event binds
    a tablet; the token is listed and revoked with the others."""
    from arbiter.events import permissions

    event = game.round.event
    permissions.require_arbiter(by, event)
    user = get_user_model().objects.create(
        username=f"tablet-{event.pk}-b{game.board}-{secrets.token_hex(4)}",
        first_name=f"Board {game.board}",
        last_name="tablet",
    )
    user.set_unusable_password()
    user.save(update_fields=["password"])
    return _create(
        user,
        by=by,
        name=f"tablet, board {game.board}" + (" (follows the board)" if follow_board else ""),
        event=event if follow_board else None,
        game=game,
        access=ApiToken.Access.WRITE,
        days=DEVICE_BOARD_DAYS if follow_board else DEVICE_GAME_DAYS,
        device=True,
        board=game.board if follow_board else None,
    )


def manageable_by(user) -> QuerySet[ApiToken]:
    """Tokens `user` may list and revoke: their own, those for events they organize, and the
    tablets of the boards of events they arbitrate."""
    qs = ApiToken.objects.select_related("user", "created_by").order_by("-created_at", "-pk")
    if getattr(user, "is_superuser", False):
        return qs
    return qs.filter(
        Q(user=user)
        | Q(event__organizer=user)
        | Q(game__round__event__organizer=user)
        | Q(device=True, created_by=user)
        | Q(device=True, game__round__event__arbiters=user)
    ).distinct()


def revoke(token_id: int, *, by) -> ApiToken:
    token = manageable_by(by).filter(pk=token_id).first()
    if token is None:
        raise NotFound("token.not_found", token_id=token_id)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.revoked_by = by
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token


# --- the hot path: one indexed lookup per request ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Scope:
    token_id: int
    event_id: int | None
    game_id: int | None
    access: str
    device: bool = False
    board: int | None = None  # a tablet that follows its board (with event_id)

    @property
    def unscoped(self) -> bool:
        return self.event_id is None and self.game_id is None and self.access == "write"


class TokenRefused(Exception):
    """Why a token sent with a request is not accepted: a code and its params (401)."""

    def __init__(self, code: str, /, **params):
        if code not in messages.MESSAGES:
            raise LookupError(f"code {code!r} has no words in arbiter/messages.py")
        super().__init__(code)
        self.code = code
        self.params = params

    @property
    def message(self) -> str:
        return messages.render(self.code, self.params)


_SCOPE_COLUMNS = (
    "id",
    "event_id",
    "game_id",
    "access",
    "expires_at",
    "revoked_at",
    "last_used_at",
    "device",
    "board",
)


@cache
def _token_sql() -> str:
    # One plain statement: every move is authenticated, and the ORM's select_related query
    # cost ~0.5 ms to build against ~0.03 ms for this (benchmarks/move_entry.py).
    user_model = get_user_model()
    quote = connection.ops.quote_name
    scope = ", ".join(f"t.{quote(c)}" for c in _SCOPE_COLUMNS)
    return (
        f"SELECT {sqlrows.columns(user_model, 'u')}, {scope} "
        f"FROM {quote(user_model._meta.db_table)} u "
        f"JOIN {quote(ApiToken._meta.db_table)} t ON t.user_id = u.id "
        "WHERE t.key_hash = %s AND u.is_active"
    )


def resolve(secret: str, *, now: datetime | None = None):
    """(user, Scope) of the token whose secret is `secret`; TokenRefused saying why not."""
    if not secret or len(secret) > 200:
        raise TokenRefused("token.invalid")
    with sqlrows.cursor() as cursor:
        cursor.execute(_token_sql(), [hash_secret(secret)])
        row = cursor.fetchone()
    if row is None:
        raise TokenRefused("token.invalid")
    user_values, scope_values = (
        row[: -len(_SCOPE_COLUMNS)],
        row[-len(_SCOPE_COLUMNS) :],
    )
    (token_id, event_id, game_id, access, expires_at, revoked_at, last_used, device, board) = (
        scope_values
    )
    now = now or timezone.now()
    if revoked_at is not None:
        raise TokenRefused("token.revoked")
    expires_at, last_used = _aware(expires_at), _aware(last_used)
    if expires_at is not None and expires_at <= now:
        raise TokenRefused("token.expired", expires_at=expires_at.isoformat())
    if last_used is None or now - last_used >= LAST_USE_PRECISION:
        ApiToken.objects.filter(pk=token_id).update(last_used_at=now)
    user = sqlrows.instance(get_user_model(), user_values)
    return user, Scope(token_id, event_id, game_id, access, bool(device), board)


def _aware(value):
    """A datetime read by plain SQL (SQLite gives text or naive values) as aware UTC."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if timezone.is_aware(value) else value.replace(tzinfo=UTC)


WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def check_scope(scope: Scope, method: str, path_ids: dict) -> None:
    """Forbidden unless a token of `scope` may make this request (`path_ids`: the ids in the
    URL, e.g. {"game_id": 12}). Unscoped write tokens may do all their owner may; a scoped
    token acts only on its event or game (reads of nothing in particular, such as the list
    of events, stay open to it as to anyone)."""
    write = method in WRITE_METHODS
    if scope.access == "read" and write:
        raise Forbidden("token.read_only")
    if scope.game_id is not None:
        # A board's device: a string of int compares, no query (it is on every move).
        if path_ids.get("game_id") == scope.game_id:
            return
        if scope.board is not None and _board_game(scope, path_ids.get("game_id")):
            return  # a tablet that follows its board: the board's game of another round
        if write or path_ids:
            raise Forbidden("token.game_only", game_id=scope.game_id)
        return
    if scope.event_id is not None:
        if not path_ids:
            if write:
                raise Forbidden("token.event_only", event_id=scope.event_id)
            return
        if _event_of(path_ids) != scope.event_id:
            raise Forbidden("token.event_only", event_id=scope.event_id)


def _board_game(scope: Scope, game_id) -> bool:
    """Whether `game_id` is a game at the board `scope` follows (one small query)."""
    from arbiter.games.models import Game

    if not isinstance(game_id, int) or not 0 < game_id < 2**63:
        return False
    return Game.objects.filter(
        pk=game_id, board=scope.board, round__event_id=scope.event_id
    ).exists()


def _event_of(path_ids: dict) -> int | None:
    """The event a request's path is about, or None (one small query for a game, round or
    entry; none for an event)."""
    from arbiter.events.models import Entry, Round
    from arbiter.games.models import Game

    if "event_id" in path_ids:
        return path_ids["event_id"]
    for key, model, field in (
        ("game_id", Game, "round__event_id"),
        ("round_id", Round, "event_id"),
        ("entry_id", Entry, "event_id"),
    ):
        if key in path_ids:
            value = path_ids[key]
            if not isinstance(value, int) or not 0 < value < 2**63:
                return -1
            return model.objects.filter(pk=value).values_list(field, flat=True).first() or -1
    return None
