"""The arbiter's pages for importing a PDN file of many games into an event: upload, a
progress bar while the task reads it, then the matches to apply (conflicts only where
ticked). Thin: services/pdn_import.py decides."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from arbiter.errors import DomainError, Forbidden, NotFound
from arbiter.events.models import Event
from arbiter.events.permissions import is_arbiter
from arbiter.games.models import PdnImport

from .services import pdn_import


def _event(request, slug: str) -> Event:
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise Http404(f"event '{slug}' not found")
    if not is_arbiter(request.user, event):
        raise PermissionDenied(f"only an arbiter of '{event}' imports games")
    return event


@require_http_methods(["GET", "POST"])
def upload_page(request, slug: str):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(request, slug)
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            data = upload.read() if upload else request.POST.get("pdn", "").encode()
            job = pdn_import.upload(
                event.pk, data, file_name=upload.name if upload else "pasted", by=request.user
            )
            return redirect("games:pdn_import", event.slug, job.pk)
        except DomainError as exc:
            error = exc.message
    jobs = PdnImport.objects.filter(event=event).defer("text", "report")[:20]
    return render(
        request,
        "games/pdn_upload.html",
        {"event": event, "jobs": jobs, "error": error},
        status=422 if error else 200,
    )


@require_http_methods(["GET", "POST"])
def import_page(request, slug: str, import_id: int):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = _event(request, slug)
    try:
        job = pdn_import.readable_import(import_id, by=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from None
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None
    if job.event_id != event.pk:
        raise Http404("this import belongs to another event")
    error = applied = None
    if request.method == "POST":
        try:
            if request.POST.get("action") == "read":
                job = pdn_import.read_import(job.pk)
            else:
                confirm = [int(x) for x in request.POST.getlist("confirm") if x.isdigit()]
                applied = pdn_import.apply_import(job.pk, by=request.user, confirm=confirm)
                return redirect("games:pdn_import", event.slug, job.pk)
        except DomainError as exc:
            error = exc.message
        job.refresh_from_db()
    return render(
        request,
        "games/pdn_import.html",
        {
            "event": event,
            "job": job,
            "state": pdn_import.import_state(job),
            "error": error,
            "applied": applied,
        },
        status=409 if error else 200,
    )
