"""Users and API tokens for tests: the one way every test app makes them."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from arbiter.accounts.models import ApiToken

_seq = itertools.count(1)


def make_user(name: str | None = None, *, organizer: bool = False, **fields):
    """A user without a usable password (hashing one costs ~0.3 s; tests log in with
    force_login or a token); `organizer` may create events."""
    User = get_user_model()
    user = User.objects.create_user(username=name or f"user{next(_seq)}", password=None, **fields)
    if organizer:
        user.user_permissions.add(
            Permission.objects.get(codename="add_event", content_type__app_label="events")
        )
        user = User.objects.get(pk=user.pk)  # a fresh permission cache
    return user


def make_token(user) -> str:
    return ApiToken.objects.create(user=user, name="test").key


def bearer(user) -> dict:
    """The request header of a new token of `user`, for the test client."""
    return {"HTTP_AUTHORIZATION": f"Bearer {make_token(user)}"}
