"""The page of a user's API tokens: issue one (its secret shown on this page once), see
them with their last use, and revoke them (also those for events the user organizes)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from arbiter.errors import DomainError

from . import tokens
from .forms import ThrottledAuthenticationForm
from .models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, required=False, label="What it is for")
    access = forms.ChoiceField(choices=ApiToken.Access.choices, initial=ApiToken.Access.WRITE)
    expires_in_days = forms.IntegerField(
        min_value=1, max_value=tokens.MAX_DAYS, initial=tokens.DEFAULT_DAYS, label="Days valid"
    )


@login_required
@require_http_methods(["GET", "POST"])
def token_list(request):
    secret = None
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            token, secret = tokens.issue(request.user, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, exc.message)
        else:
            form = TokenForm()
            messages.success(request, f"Token '{token.name or token.prefix}' issued.")
    return render(
        request,
        "accounts/tokens.html",
        {"form": form, "secret": secret, "tokens": tokens.manageable_by(request.user)[:200]},
    )


@login_required
@require_POST
def revoke(request, token_id: int):
    try:
        token = tokens.revoke(token_id, by=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Token '{token.name or token.prefix}' revoked.")
    return redirect("accounts:tokens")


class LoginView(auth_views.LoginView):
    """The login page (failed attempts counted, forms.py); a player lands on their own page,
    everyone else where LOGIN_REDIRECT_URL says (unless the login was asked with ?next=)."""

    form_class = ThrottledAuthenticationForm

    def get_default_redirect_url(self):
        from arbiter.events.models import Player

        if Player.objects.filter(user=self.request.user).exists():
            return reverse("games:me")
        return super().get_default_redirect_url()
