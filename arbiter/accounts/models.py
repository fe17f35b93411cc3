"""API tokens for programs (e-board relays, scripts); pages use Django's session login."""

import secrets

from django.conf import settings
from django.db import models


def new_token_key() -> str:
    return secrets.token_urlsafe(32)


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    key = models.CharField(max_length=64, unique=True, default=new_token_key)
    name = models.CharField(max_length=100, blank=True, help_text="What the token is for.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.name or 'token'})"
