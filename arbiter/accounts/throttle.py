"""Limits on password attempts, per account and per address (the HTML login, the admin's
and the API's token issuing): a guessed password must not be tried without end.

Failures are rows in the database (LoginFailure), so that every web process counts the
same ones. While an account or an address is over its limit, even the right password is
refused, with the wait in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from arbiter.messages import Problem

from .models import LoginFailure

WINDOW = timedelta(minutes=15)
#: Failures within WINDOW after which an account refuses every login until the oldest ages out.
PER_ACCOUNT = 5
#: The same for one address (many accounts tried from one place).
PER_ADDRESS = 20


@dataclass(frozen=True)
class Refusal:
    seconds: int  # until a login may be tried again
    reason: str  # "account" or "address"

    @property
    def problem(self) -> Problem:
        """The refusal as a code and its params (the wait in minutes and seconds)."""
        minutes, seconds = divmod(self.seconds, 60)
        wait = (
            Problem("login.wait_minutes", minutes=minutes, seconds=seconds)
            if minutes
            else Problem("login.wait_seconds", seconds=seconds)
        )
        window = WINDOW.seconds // 60
        if self.reason == "account":
            return Problem("login.throttled_account", limit=PER_ACCOUNT, minutes=window, wait=wait)
        return Problem("login.throttled_address", limit=PER_ADDRESS, minutes=window, wait=wait)

    @property
    def message(self) -> str:
        return str(self.problem)


def _key(username) -> str:
    return str(username or "").strip().lower()[:150]


def refusal(username, address: str, *, now=None, per_account: bool = True) -> Refusal | None:
    """Why a login for `username` from `address` is refused now, or None. `per_account`
    False: only the address's limit (a tablet's one-time code, devices.py, where an account
    limit would let anyone lock every tablet out)."""
    now = now or timezone.now()
    since = now - WINDOW
    for reason, field, value, limit in (
        ("account", "username", _key(username) if per_account else "", PER_ACCOUNT),
        ("address", "address", address, PER_ADDRESS),
    ):
        if not value:
            continue
        recent = LoginFailure.objects.filter(**{field: value, "at__gt": since}).order_by("-at")
        times = list(recent.values_list("at", flat=True)[:limit])
        if len(times) >= limit:
            # Open again when the oldest of the last `limit` failures leaves the window.
            seconds = int((times[-1] + WINDOW - now).total_seconds()) + 1
            return Refusal(max(1, seconds), reason)
    return None


def record_failure(username, address: str, *, now=None) -> None:
    now = now or timezone.now()
    LoginFailure.objects.create(username=_key(username), address=address, at=now)
    # Keep the table small: what left the window no longer counts.
    LoginFailure.objects.filter(at__lt=now - WINDOW * 2).delete()


def record_success(username) -> None:
    """A right password (not refused) clears the account's count."""
    LoginFailure.objects.filter(username=_key(username)).delete()
