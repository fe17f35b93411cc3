"""A new login made by an organizer for someone of their event (a new arbiter, a player):
checked against the columns' limits and the site's password rules, not yet saved."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from arbiter.errors import Invalid
from arbiter.validation import check_text


def new_login(*, username: str, password: str, email: str = "", full_name: str = ""):
    """An unsaved user with `password` set; Invalid names the field and why. Whether the
    username is free is the caller's to say (each says what to do instead)."""
    User = get_user_model()
    # The columns' limits (User), refused when too long or holding a NUL, never cut.
    username = check_text("username", username or "", 150).strip()
    if not username:
        raise Invalid("login.username_required", details={"field": "username"})
    try:
        User.username_validator(username)
    except ValidationError as exc:
        raise Invalid(
            "login.bad_username", problems=list(exc.messages), details={"field": "username"}
        ) from None
    given, _, surname = check_text("full_name", full_name or "", 301).strip().partition(" ")
    check_text("full_name", given, 150)
    check_text("full_name", surname, 150)
    email = check_text("email", email or "", 254).strip()
    check_text("password", password or "", 4096)
    user = User(username=username, email=email, first_name=given, last_name=surname)
    try:
        validate_password(password, user)
    except ValidationError as exc:
        raise Invalid(
            "login.bad_password", problems=list(exc.messages), details={"field": "password"}
        ) from None
    user.set_password(password)
    return user


def username_taken(username: str) -> bool:
    return get_user_model().objects.filter(username__iexact=(username or "").strip()).exists()
