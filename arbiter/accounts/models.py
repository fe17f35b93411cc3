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
