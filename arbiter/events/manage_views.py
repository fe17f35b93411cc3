"""Arbiter pages of an event: results, pairing, publishing, withdrawals, player import.

Login required; the role is checked by the services (and, for pages that only show a form,
by the same permission function the services use): a non-arbiter gets 403. Thin: each POST
calls one service (result entry: one per changed board, all or none) and shows what it said.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from arbiter.errors import Conflict, Invalid
from arbiter.events import pairing_edit, services
from arbiter.events import presentation as pages
from arbiter.events.forms import (
    AbsenceForm,
    ByeForm,
    ImportPlayersForm,
    ReasonForm,
    ResultForm,
    ScheduleForm,
    SetBoardForm,
    SwapPlayersForm,
)
from arbiter.events.models import Round
from arbiter.events.permissions import is_arbiter, is_organizer
from arbiter.events.views import EventRefused, domain_errors
from arbiter.games import services as game_services
from arbiter.games.views import round_board
from arbiter.messages import Problem

# What a service may answer about bad input (Forbidden and NotFound become 403/404).
REFUSALS = (Invalid, Conflict)


def arbiter_page(view):
    return login_required(domain_errors(view))


def _event(request, slug):
    event = pages.event_for(request.user, slug)
    if not is_arbiter(request.user, event):
        raise EventRefused(Problem("page.only_arbiters_desk", event=event), event)
    return event


def _round(request, event, number) -> Round:
    return pages.round_for(request.user, event, number)


def _desk_action(request, event, action, *, done: str, refused: str):
    """Call `action()` (one service); show `done`, or `refused: <why>`; back to the desk."""
    try:
        action()
    except REFUSALS as exc:
        messages.error(request, f"{refused}: {exc.message}")
    else:
        messages.success(request, done)
    return redirect("events:manage", event.slug)


def _context(request, event, **extra):
    return {
        "event": event,
        "rounds": pages.visible_rounds(request.user, event),
        "can_manage": True,
        "tab": "manage",
        **extra,
    }


@arbiter_page
def manage(request, slug: str):
    """The arbiter's desk: rounds with their actions, and the players with theirs."""
    event = _event(request, slug)
    context = _context(request, event)
    pages.attach_boards(context["rounds"])
    context["entries"] = list(event.entries.select_related("player").order_by("pairing_number"))
    context["provisional"] = pages.provisional_numbers(event, context["entries"])
    context["is_organizer"] = is_organizer(request.user, event)
    context["next_round"] = len(context["rounds"]) + 1
    return render(request, "events/manage/desk.html", context)


@arbiter_page
def round_clocks(request, slug: str, number: int):
    """The round's arbiter page (every board's clocks) at an address by event and round
    number; the page itself is the games app's."""
    event = _event(request, slug)
    rnd = _round(request, event, number)
    return round_board(request, rnd.pk)


@require_POST
@arbiter_page
def pair_next_round(request, slug: str):
    event = _event(request, slug)
    try:
        rnd = services.pair_next_round(event, by=request.user)
    except REFUSALS as exc:
        messages.error(request, f"Round not paired: {exc.message}")
        return redirect("events:manage", event.slug)
    messages.success(request, f"Round {rnd.number} paired (draft): check it, then publish it.")
    return redirect("events:round", event.slug, rnd.number)


@require_POST
@arbiter_page
def publish_round(request, slug: str, number: int):
    event = _event(request, slug)
    rnd = _round(request, event, number)
    return _desk_action(
        request,
        event,
        lambda: services.publish_round(rnd, by=request.user),
        done=f"Round {number} is published.",
        refused=f"Round {number} not published",
    )


@require_POST
@arbiter_page
def unpair_round(request, slug: str, number: int):
    """Delete the last round's pairing (nothing played yet) so that it can be paired again."""
    event = _event(request, slug)
    rnd = _round(request, event, number)
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"].strip() if form.is_valid() else ""
    return _desk_action(
        request,
        event,
        lambda: services.unpair_round(rnd, by=request.user, reason=reason),
        done=f"Round {number}'s pairing is deleted; pair it again.",
        refused=f"Round {number} kept",
    )


@require_POST
@arbiter_page
def schedule_round(request, slug: str, number: int):
    """Set when a round starts (the server's time zone); an empty field clears it."""
    event = _event(request, slug)
    rnd = _round(request, event, number)
    form = ScheduleForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"Round {number}: {' '.join(form.errors['scheduled_start'])}")
        return redirect("events:manage", event.slug)
    start = form.cleaned_data["scheduled_start"]  # aware: Django applies the current zone
    when = f"{start:%Y-%m-%d %H:%M}" if start else "not set"
    return _desk_action(
        request,
        event,
        lambda: services.schedule_round(rnd, start, by=request.user),
        done=f"Round {number} starts: {when}.",
        refused=f"Round {number}: start not changed",
    )


@arbiter_page
def enter_results(request, slug: str, number: int):
    """Every board of the round in one form; only the boards whose result changes are sent
    to the service, in one transaction: either all of them are saved or none is."""
    event = _event(request, slug)
    rnd = _round(request, event, number)
    games = list(rnd.games.select_related("white", "black").order_by("board"))
    data = request.POST if request.method == "POST" else None
    forms = [ResultForm(data, game=g) for g in games if g.black_id is not None]
    if data is not None:
        saved = _save_results(request, forms)
        if saved is not None:
            if saved:
                boards = ", ".join(str(f.game.board) for f in saved)
                messages.success(request, f"Round {number}: results saved for board(s) {boards}.")
            else:
                messages.info(request, "No result changed.")
            return redirect("events:enter_results", event.slug, number)
        bad = sum(1 for f in forms if f.errors)
        messages.error(request, f"Nothing was saved: {bad} board(s) marked below need a change.")
    by_board = {row.board: row for row in pages.board_lines(rnd)}
    rows = [(form, by_board[form.game.board]) for form in forms]
    byes = [g for g in games if g.black_id is None]
    return render(
        request,
        "events/manage/results.html",
        _context(request, event, round=rnd, rows=rows, byes=byes),
    )


def _save_results(request, forms) -> list | None:
    """Save every changed board, all or none; None when any board is refused.

    Every board is judged in one pass, so that all the errors show at once: the forms'
    own checks for each board, and the service's for each board whose form is good (each
    in a savepoint, the whole rolled back when anything was refused).
    """
    valid = [form.is_valid() for form in forms]  # a list, not all(): every form is checked
    changed = [f for f, ok in zip(forms, valid, strict=True) if ok and f.changes_result()]
    refused = not all(valid)
    with transaction.atomic():
        for form in changed:
            try:
                with transaction.atomic():
                    game_services.set_result(
                        form.game,
                        form.cleaned_data["result"],
                        by=request.user,
                        reason=form.cleaned_data["reason"].strip(),
                        termination=form.cleaned_data["termination"],
                    )
            except REFUSALS as exc:
                form.add_error(None, exc.message)
                refused = True
        if refused:
            transaction.set_rollback(True)
            return None
    return changed


@arbiter_page
def edit_pairing(request, slug: str, number: int):
    """Swap two players or set a board by hand; the service says which rules the new
    pairing breaks, and those warnings are shown."""
    event = _event(request, slug)
    rnd = _round(request, event, number)
    boards, seated, players = pages.pairing_choices(rnd)
    swap = SwapPlayersForm(players=seated, prefix="swap")
    setb = SetBoardForm(players=players, boards=len(boards), prefix="set")
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "swap":
            swap = SwapPlayersForm(request.POST, players=seated, prefix="swap")
            form = swap
        else:
            setb = SetBoardForm(request.POST, players=players, boards=len(boards), prefix="set")
            form = setb
        if form.is_valid():
            data = form.cleaned_data
            try:
                if form is swap:
                    new = pairing_edit.swap_players(boards, data["first"], data["second"])
                else:
                    new = pairing_edit.set_board(
                        boards, data["board"], data["white"], data["black"]
                    )
            except ValueError as exc:
                form.add_error(None, str(exc))
            else:
                try:
                    warnings = services.set_pairing(
                        rnd, new, by=request.user, reason=data["reason"].strip()
                    )
                except REFUSALS as exc:
                    form.add_error(None, exc.message)
                else:
                    messages.success(request, f"Round {number}: pairing changed.")
                    for warning in warnings:
                        messages.warning(request, warning)
                    return redirect("events:edit_pairing", event.slug, number)
    context = _context(
        request, event, round=rnd, board_rows=pages.board_lines(rnd), swap=swap, setb=setb
    )
    return render(request, "events/manage/pairing.html", context)


@require_POST
@arbiter_page
def withdraw(request, slug: str, pairing_number: int):
    event = _event(request, slug)
    entry = pages.entry_for(event, pairing_number)
    form = ReasonForm(request.POST)
    if not form.is_valid():
        return redirect("events:manage", event.slug)
    reason = form.cleaned_data["reason"]
    return _desk_action(
        request,
        event,
        lambda: services.withdraw_entry(entry, by=request.user, reason=reason),
        done=f"{entry.player} is withdrawn.",
        refused=f"{entry.player} not withdrawn",
    )


@require_POST
@arbiter_page
def set_absent(request, slug: str, pairing_number: int):
    event = _event(request, slug)
    entry = pages.entry_for(event, pairing_number)
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"{entry.player}: {' '.join(form.errors['rounds'])}")
        return redirect("events:manage", event.slug)
    rounds = form.cleaned_data["rounds"]
    listed = ", ".join(str(n) for n in rounds)
    return _desk_action(
        request,
        event,
        lambda: services.set_absent(entry, rounds, by=request.user),
        done=f"{entry.player} is announced absent in round(s) {listed}.",
        refused=f"{entry.player}: absence not recorded",
    )


@require_POST
@arbiter_page
def request_bye(request, slug: str, pairing_number: int):
    """Record (or take back) a bye a player asked for in a Swiss round not paired yet."""
    event = _event(request, slug)
    entry = pages.entry_for(event, pairing_number)
    form = ByeForm(request.POST)
    if not form.is_valid():
        messages.error(request, f"{entry.player}: give the round of the bye")
        return redirect("events:manage", event.slug)
    number, cancel = form.cleaned_data["round"], form.cleaned_data["cancel"]
    state = "no longer has a requested bye" if cancel else "has a requested bye"
    return _desk_action(
        request,
        event,
        lambda: services.request_bye(entry, number, by=request.user, cancel=cancel),
        done=f"{entry.player} {state} in round {number}.",
        refused=f"{entry.player}: bye not recorded",
    )


@arbiter_page
def import_players(request, slug: str):
    """Paste or upload a CSV of players; all lines are imported, or none and every bad line
    is listed with its number and reason."""
    event = _event(request, slug)
    form = ImportPlayersForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            entries = services.import_players_csv(event, form.cleaned_data["csv"], by=request.user)
        except Invalid as exc:
            errors = exc.details.get("errors") or [{"line": None, "reason": exc.message}]
        else:
            messages.success(request, f"{len(entries)} player(s) imported.")
            return redirect("events:manage", event.slug)
    context = _context(request, event, form=form, errors=errors)
    return render(request, "events/manage/import.html", context)
