"""The login forms (site and admin), with the limits on failed attempts (throttle.py)."""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError

from arbiter.infra.clientaddr import client_address
from arbiter.messages import Problem
from arbiter.validation import text_problem

from . import throttle


class ThrottledLoginMixin:
    def clean_username(self):
        username = self.cleaned_data.get("username") or ""
        problem = text_problem(username, 150)
        if problem:
            words = Problem("text.field", field="username", problem=problem)
            raise ValidationError(str(words), code="invalid")
        return username

    def clean(self):
        username = self.cleaned_data.get("username")
        address = client_address(self.request)
        refused = throttle.refusal(username, address)
        if refused is not None:
            raise ValidationError(refused.message, code="throttled")
        try:
            cleaned = super().clean()
        except ValidationError as exc:
            if getattr(exc, "code", None) == "invalid_login" and username:
                throttle.record_failure(username, address)
            raise
        if username and self.get_user() is not None:
            throttle.record_success(username)
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass
