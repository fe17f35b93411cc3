"""The organizer's pages: create an event and change its settings, name its arbiters; and
the arbiters' player pages (add, correct, withdraw one player).

Thin, like the desk: each POST calls one service; bad values come back with the service's
own messages (the API's), every field's at once (services.check_settings).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render

from arbiter.errors import Conflict, Forbidden, Invalid
from arbiter.events import permissions, services
from arbiter.events import presentation as pages
from arbiter.events.forms import (
    ArbitersForm,
    EventSettingsForm,
    InviteArbiterForm,
    PlayerForm,
    PlayerLoginForm,
)
from arbiter.events.models import Event
from arbiter.events.services.players import PLAYER_FIELDS
from arbiter.events.validation import validate_time_control
from arbiter.events.views import EventRefused, domain_errors
from arbiter.messages import Problem

REFUSALS = (Invalid, Conflict)


def page(view):
    return login_required(domain_errors(view))


def _organized(request, slug: str) -> Event:
    event = pages.event_for(request.user, slug)
    if not permissions.is_organizer(request.user, event):
        raise EventRefused(Problem("page.only_organizer_settings", event=event), event)
    return event


def _arbitrated(request, slug: str) -> Event:
    event = pages.event_for(request.user, slug)
    if not permissions.is_arbiter(request.user, event):
        raise EventRefused(Problem("page.only_arbiters", event=event), event)
    return event


def _context(request, event, **extra) -> dict:
    return {
        "event": event,
        "rounds": pages.visible_rounds(request.user, event),
        "can_manage": True,
        "tab": "manage",
        **extra,
    }


def _field_errors(form, errors: dict[str, str]) -> None:
    """Put the service's messages on the form's fields (the tie-breaks' on the form)."""
    for field, message in errors.items():
        target = field if field in form.fields and field != "tiebreaks" else None
        if field == "time_control" and form.cleaned_data.get("preset"):
            target = "preset"
        form.add_error(target, message)


def _in_words(form, locked: dict) -> list[tuple[str, list[str]]]:
    """[(reason, [the settings' labels])]: what is fixed now, grouped by why."""
    labels = {"tiebreaks": "tie-breaks", "time_control": "time control"}
    by_reason: dict[str, list[str]] = {}
    for name, why in sorted(locked.items()):
        field = form.fields.get(name)
        label = labels.get(name) or (field.label if field and field.label else name)
        by_reason.setdefault(str(why), []).append(str(label).lower())
    return sorted(by_reason.items())


@page
def create_event(request):
    """A new event, owned by the organizer who creates it."""
    if not permissions.can_create_events(request.user):
        raise Forbidden("event.only_organizers_create_ask")
    initial = EventSettingsForm.initial_for(Event(time_control="50/7200:25/3600"))
    form = EventSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        errors = services.check_settings(settings)
        if not errors:
            try:
                event = services.create_event(by=request.user, **settings)
            except REFUSALS as exc:
                errors = {exc.details.get("field", "__all__"): exc.message}
            else:
                messages.success(
                    request, f"'{event.name}' is created: name its arbiters, then enter players."
                )
                return redirect("events:manage", event.slug)
        _field_errors(form, errors)
    return render(request, "events/manage/settings.html", {"form": form, "creating": True})


@page
def edit_settings(request, slug: str):
    """Change an event's settings; those fixed by a paired or published round are shown
    with the reason and cannot be sent."""
    event = _organized(request, slug)
    locked = services.locked_settings(event)
    form = EventSettingsForm(
        request.POST or None, initial=EventSettingsForm.initial_for(event), locked=locked
    )
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        errors = services.check_settings(settings, event=event)
        if not errors:
            try:
                services.update_event(event, by=request.user, **settings)
            except REFUSALS as exc:
                errors = {exc.details.get("field", "__all__"): exc.message}
            else:
                messages.success(request, "Settings saved.")
                return redirect("events:settings", event.slug)
        _field_errors(form, errors)
    context = _context(request, event, form=form, locked=_in_words(form, locked))
    return render(request, "events/manage/settings.html", context)


def time_control_words(request):
    """A PDN TimeControl tag in words, for the settings form as the tag is typed."""
    tag = request.GET.get("tag", "")
    try:
        canonical = validate_time_control(tag)
    except Invalid as exc:
        return JsonResponse(exc.as_dict(), status=422)
    return JsonResponse({"tag": canonical, "words": pages.describe_time_control(canonical)})


@page
def arbiters(request, slug: str):
    """Name the chief arbiter and the deputies from the users; or create a new arbiter's login."""
    event = _organized(request, slug)
    users = get_user_model().objects.filter(is_active=True).order_by("username")
    chosen = ArbitersForm(
        users=users,
        prefix="pick",
        initial={"chief": event.chief_arbiter, "deputies": list(event.arbiters.all())},
    )
    invite = InviteArbiterForm(prefix="new")
    if request.method == "POST" and request.POST.get("action") == "invite":
        invite = InviteArbiterForm(request.POST, prefix="new")
        if invite.is_valid():
            try:
                services.invite_arbiter(event, by=request.user, **invite.cleaned_data)
            except REFUSALS as exc:
                field = exc.details.get("field")
                invite.add_error(field if field in invite.fields else None, exc.message)
            else:
                name = invite.cleaned_data["username"]
                messages.success(request, f"Login '{name}' created; {name} is a deputy arbiter.")
                return redirect("events:arbiters", event.slug)
    elif request.method == "POST":
        chosen = ArbitersForm(request.POST, users=users, prefix="pick")
        if chosen.is_valid():
            chief = chosen.cleaned_data["chief"]
            deputies = list(chosen.cleaned_data["deputies"])
            services.set_arbiters(event, deputies, by=request.user, chief=chief)
            messages.success(request, "Arbiters saved.")
            return redirect("events:arbiters", event.slug)
    context = _context(
        request,
        event,
        chosen=chosen,
        invite=invite,
        deputies=[a for a in event.arbiters.order_by("username") if a.pk != event.chief_arbiter_id],
    )
    return render(request, "events/manage/arbiters.html", context)


@page
def add_player(request, slug: str):
    """Enter one player (a late entry, or instead of a CSV file)."""
    event = _arbitrated(request, slug)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = services.enter_player(event, by=request.user, **form.cleaned_data)
        except REFUSALS as exc:
            _player_error(form, exc)
        else:
            messages.success(request, f"{entry.player} is entered (number {entry.pairing_number}).")
            return redirect("events:manage", event.slug)
    context = _context(request, event, form=form, adding=True)
    return render(request, "events/manage/player.html", context)


@page
def edit_player(request, slug: str, pairing_number: int):
    """Correct one entered player's details (a rating typo, a misspelt name)."""
    event = _arbitrated(request, slug)
    entry = pages.entry_for(event, pairing_number)
    initial = {f: getattr(entry.player, f) for f in PLAYER_FIELDS}
    initial["rating"] = "" if entry.player.rating is None else entry.player.rating
    form = PlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.correct_player(entry, by=request.user, **form.cleaned_data)
        except REFUSALS as exc:
            _player_error(form, exc)
        else:
            messages.success(request, f"{entry.player}: details saved.")
            return redirect("events:manage", event.slug)
    context = _context(
        request,
        event,
        form=form,
        entry=entry,
        adding=False,
        login_form=_login_form(request, event, entry),
    )
    return render(request, "events/manage/player.html", context)


def _login_form(request, event, entry, form=None):
    """The form giving the player a login: the event's organizer's, for a player without one."""
    if entry.player.user_id is not None or not permissions.is_organizer(request.user, event):
        return None
    return form or PlayerLoginForm(prefix="login")


@page
def player_login(request, slug: str, pairing_number: int):
    """The organizer gives an entered player a login (POST from the player's page)."""
    event = _organized(request, slug)
    entry = pages.entry_for(event, pairing_number)
    form = PlayerLoginForm(request.POST or None, prefix="login")
    if request.method == "POST" and form.is_valid():
        try:
            user = services.create_player_login(entry, by=request.user, **form.cleaned_data)
        except REFUSALS as exc:
            _player_error(form, exc)
        else:
            messages.success(
                request, f"Login '{user.username}' created for {entry.player}: they log in with it."
            )
            return redirect("events:edit_player", event.slug, entry.pairing_number)
    initial = {f: getattr(entry.player, f) for f in PLAYER_FIELDS}
    context = _context(
        request,
        event,
        form=PlayerForm(initial=initial),
        entry=entry,
        adding=False,
        login_form=_login_form(request, event, entry, form),
    )
    return render(request, "events/manage/player.html", context, status=422 if form.errors else 200)


def _player_error(form, exc) -> None:
    field = exc.details.get("field")
    form.add_error(field if field in form.fields else None, exc.message)
