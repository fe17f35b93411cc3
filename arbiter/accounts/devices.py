"""Binding a board's tablet: the arbiter asks for a one-time code for a board (the round's
arbiter page); the tablet opens the link that carries the long code, or has the short code
typed in at /tablet/, and gets a device token (tokens.issue_device) for the board's game, or
for the board round after round.

Both codes are stored as their SHA-256 only, live BINDING_MINUTES, are used once (a
conditional update: two tablets racing for one code cannot both win), and wrong codes count
as failed logins of the address they come from (throttle.py), so that short codes cannot be
tried by the thousand.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from arbiter.errors import Invalid, TooManyAttempts, Unauthorized

from . import throttle, tokens
from .models import ApiToken, DeviceCode

BINDING_MINUTES = 10
#: The short code: 8 letters and digits a person reads without doubt (no 0/O, 1/I/L), in two
#: groups of four ("K7MQ-2XPA"): 31**8 (8.5e11) codes against 20 tries per address in 15 min.
SHORT_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
SHORT_LENGTH = 8
#: Attempts at a code are counted under this account name (with the address, throttle.py).
THROTTLE_NAME = "#tablet-code"


@dataclass(frozen=True)
class Binding:
    """A new binding's codes (shown once to the arbiter) and when they expire."""

    code: DeviceCode
    short: str
    link: str

    @property
    def short_display(self) -> str:
        return f"{self.short[:4]}-{self.short[4:]}"


def normalize_short(text: str) -> str:
    """A short code as typed: case, spaces and dashes do not matter."""
    return "".join(ch for ch in str(text or "").upper() if ch.isalnum())


def new_binding(game, *, by, follow_board: bool = False) -> Binding:
    """One-time codes for binding a tablet to `game`'s board (arbiters of the event only;
    the token is issued, and the right checked again, when the code is used)."""
    from arbiter.events import permissions

    permissions.require_arbiter(by, game.round.event)
    short = "".join(secrets.choice(SHORT_ALPHABET) for _ in range(SHORT_LENGTH))
    link = secrets.token_urlsafe(24)
    now = timezone.now()
    # Codes that expired are of no use: the table keeps only the last day's.
    DeviceCode.objects.filter(expires_at__lt=now - timedelta(days=1)).delete()
    code = DeviceCode.objects.create(
        game=game,
        follow_board=follow_board,
        short_hash=tokens.hash_secret(short),
        link_hash=tokens.hash_secret(link),
        created_by=by,
        expires_at=now + timedelta(minutes=BINDING_MINUTES),
    )
    return Binding(code, short, link)


def redeem(text: str, *, address: str) -> tuple[ApiToken, str]:
    """The device token for a one-time code (short or long) and its secret. 429 while the
    address is over its limit of wrong attempts; 401 for a wrong, used or expired code."""
    refused = throttle.refusal(THROTTLE_NAME, address, per_account=False)
    if refused is not None:
        problem = refused.problem
        raise TooManyAttempts(
            problem.code, **problem.params, details={"retry_after": refused.seconds}
        )
    if not isinstance(text, str) or not 1 <= len(text.strip()) <= 100:
        raise Invalid("tablet.bad_code", details={"field": "code"})
    text = text.strip()
    now = timezone.now()
    hashes = {tokens.hash_secret(text), tokens.hash_secret(normalize_short(text))}
    related = DeviceCode.objects.select_related("game__round__event", "created_by")
    code = (
        related.filter(link_hash__in=hashes).first()
        or related.filter(short_hash__in=hashes).first()
    )
    if code is None or code.used_at is not None or code.expires_at <= now:
        throttle.record_failure(THROTTLE_NAME, address, now=now)  # counted, then refused
        if code is None:
            raise Unauthorized("tablet.code_unknown")
        if code.used_at is not None:
            raise Unauthorized("tablet.code_used")
        raise Unauthorized("tablet.code_expired", minutes=BINDING_MINUTES)
    with transaction.atomic():
        # Used once: of two tablets with the same code, only the first update counts.
        if not DeviceCode.objects.filter(pk=code.pk, used_at__isnull=True).update(used_at=now):
            raise Unauthorized("tablet.code_used")
        token, secret = tokens.issue_device(
            code.game, by=code.created_by, follow_board=code.follow_board
        )
        DeviceCode.objects.filter(pk=code.pk).update(token=token)
    return token, secret


def current_game_id(scope: tokens.Scope) -> int | None:
    """The game a tablet should show: its game, or for a tablet that follows its board, the
    board's game of the latest published round (a game still to play first)."""
    from arbiter.events.models import Round
    from arbiter.games.models import Game

    if scope.board is None or scope.event_id is None:
        return scope.game_id
    games = Game.objects.filter(round__event_id=scope.event_id, board=scope.board).exclude(
        round__status=Round.Status.DRAFT
    )
    latest = games.order_by("-round__number").values_list("pk", flat=True).first()
    return latest or scope.game_id
