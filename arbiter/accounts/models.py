"""API tokens for programs (e-board relays, scripts, a board's tablet) and the record of
failed logins; pages use Django's session login.

A token's secret is shown once, when it is issued (accounts/tokens.py); only its SHA-256 is
stored, so a copy of the database gives no one a working token.
"""

import secrets

from django.conf import settings
from django.db import models


def new_token_key() -> str:
    """A new secret (also named by migration 0001, which made plain keys)."""
    return secrets.token_urlsafe(32)


class ApiToken(models.Model):
    class Access(models.TextChoices):
        READ = "read", "Read only"
        WRITE = "write", "Read and write"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the secret.")
    prefix = models.CharField(max_length=12, blank=True, help_text="The secret's first letters.")
    name = models.CharField(max_length=100, blank=True, help_text="What the token is for.")
    # Scope: none (all the owner may do), one event, or one game (a board's tablet).
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    access = models.CharField(max_length=5, choices=Access.choices, default=Access.WRITE)
    # A board's tablet (accounts/devices.py): its user is a login of its own that acts for
    # the players at the board, never with the rights of the arbiter who bound it. With
    # `board` (and `event`), it follows that board from game to game, round after round.
    device = models.BooleanField(default=False)
    board = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.user} ({self.name or 'token'} {self.prefix}…)"


class DeviceCode(models.Model):
    """A one-time code that binds a tablet to a board: a short one to type and a long one in
    a link, both stored as their SHA-256, short-lived, used once (accounts/devices.py)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    follow_board = models.BooleanField(default=False)
    short_hash = models.CharField(max_length=64, unique=True)
    link_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)
    token = models.ForeignKey(ApiToken, null=True, blank=True, on_delete=models.SET_NULL)

    def __str__(self) -> str:
        return f"tablet code for game {self.game_id}"


class LoginFailure(models.Model):
    """One failed password login (accounts/throttle.py counts them per account and address)."""

    username = models.CharField(max_length=150)
    address = models.CharField(max_length=45)
    at = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["username", "at"], name="accounts_lo_usernam_idx"),
            models.Index(fields=["address", "at"], name="accounts_lo_address_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.username} from {self.address}"
