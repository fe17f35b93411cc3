"""Users and API tokens for tests: the one way every test app makes them."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from arbiter.accounts import tokens

_seq = itertools.count(1)


def make_user(
    name: str | None = None, *, organizer: bool = False, password: str | None = None, **fields
):
    """A user without a usable password unless `password` is given (tests log in with
    force_login or a token; the login tests type one); `organizer` may create events."""
    User = get_user_model()
    user = User.objects.create_user(
        username=name or f"user{next(_seq)}", password=password, **fields
    )
    if organizer:
        user.user_permissions.add(
            Permission.objects.get(codename="add_event", content_type__app_label="events")
        )
        user = User.objects.get(pk=user.pk)  # a fresh permission cache
    return user


def make_token(user, **scope) -> str:
    """The secret of a new API token of `user` (stored hashed; `scope`: tokens.issue's
    event, game, access, expires_in_days)."""
    return tokens.issue(user, name="test", **scope)[1]


def bearer(user) -> dict:
    """The request header of a new token of `user`, for the test client."""
    return {"HTTP_AUTHORIZATION": f"Bearer {make_token(user)}"}
