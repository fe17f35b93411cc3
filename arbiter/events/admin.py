"""Admin for organizers: events with their entries and rounds, players, the audit log.

Organizers who are staff see only the events they organize or arbitrate; superusers see all.
Every save and delete here is written to the audit log (AuditedAdminMixin).
Results and pairings are changed on the arbiter pages (through the services, which log
every correction), so the admin shows games read-only; the audit log is read-only.
"""

import datetime as dt

from django.contrib import admin
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.html import format_html

from arbiter.games.models import Game

from .models import AuditEntry, Entry, Event, Player, Round
from .services.audit import log_record_change


def _plain(value):
    """A form value as JSON for the audit log (objects by their name, dates in ISO)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dt.date | dt.datetime | dt.time):
        return value.isoformat()
    if isinstance(value, list | tuple | set) or hasattr(value, "model"):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def _form_changes(form) -> tuple[dict, dict]:
    """(old, new) values of the fields a form changed."""
    pairs = {
        f: (_plain(form.initial.get(f)), _plain(form.cleaned_data.get(f)))
        for f in form.changed_data
    }
    pairs = {f: (a, b) for f, (a, b) in pairs.items() if a != b}
    return {f: a for f, (a, _) in pairs.items()}, {f: b for f, (_, b) in pairs.items()}


class AuditedAdminMixin:
    """Every save and delete in the admin (and in its inlines) goes to the audit log, as the
    services' changes do: who, when, which fields, old and new values."""

    def save_model(self, request, obj, form, change):
        old, new = _form_changes(form)
        super().save_model(request, obj, form, change)
        if change and not new:
            return
        log_record_change(
            obj, by=request.user, verb="change" if change else "add", old=old or None, new=new
        )

    def delete_model(self, request, obj):
        log_record_change(obj, by=request.user, verb="delete", old={"id": obj.pk})
        super().delete_model(request, obj)

    def save_formset(self, request, form, formset, change):
        edits = []
        for f in formset.forms:
            if f.instance.pk and f.has_changed() and f not in formset.deleted_forms:
                edits.append((f.instance, *_form_changes(f)))
        deleted = [(f.instance, f.instance.pk) for f in formset.deleted_forms if f.instance.pk]
        super().save_formset(request, form, formset, change)
        for obj in formset.new_objects:
            log_record_change(obj, by=request.user, verb="add", new={"id": obj.pk})
        for obj, old, new in edits:
            log_record_change(obj, by=request.user, verb="change", old=old, new=new)
        for obj, pk in deleted:
            log_record_change(obj, by=request.user, verb="delete", old={"id": pk})


def _event_filter(user, prefix: str = "") -> Q:
    """Events the staff user organizes or arbitrates (`prefix` reaches the event)."""
    return Q(**{f"{prefix}organizer": user}) | Q(**{f"{prefix}arbiters": user})


class OwnEventsMixin:
    """Non-superusers see the rows of their own events only."""

    event_path = "event__"

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(_event_filter(request.user, self.event_path)).distinct()


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["pairing_number", "player", "status", "withdrawn_after_round", "absent_rounds"]
    autocomplete_fields = ["player"]
    ordering = ["pairing_number"]


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "scheduled_start", "paired_at", "published_at"]
    readonly_fields = ["paired_at", "published_at"]
    show_change_link = True
    ordering = ["number"]


@admin.register(Event)
class EventAdmin(AuditedAdminMixin, OwnEventsMixin, admin.ModelAdmin):
    event_path = ""
    list_display = [
        "name",
        "place",
        "start_date",
        "system",
        "rounds",
        "status",
        "published",
        "players",
        "organizer",
        "pages",
    ]
    list_filter = ["status", "published", "system", "start_date"]
    search_fields = ["name", "slug", "place"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "start_date"
    ordering = ["-start_date", "name"]
    filter_horizontal = ["arbiters"]
    inlines = [EntryInline, RoundInline]
    fieldsets = [
        (None, {"fields": ["name", "slug", "place", "federation", "start_date", "end_date"]}),
        (
            "Play",
            {
                "fields": [
                    "system",
                    "rounds",
                    "time_control",
                    "flag_policy",
                    "late_arrival_minutes",
                    "tablet_moves_required",
                    "lag_quota_ms",
                    "downtime_credit",
                    "tiebreaks",
                    "numbering",
                    "pairing_seed",
                ]
            },
        ),
        (
            "Scoring (FMJD 7: win 2, draw 1, loss 0)",
            {
                "fields": [
                    "points_win",
                    "points_draw",
                    "points_loss",
                    "points_bye",
                    "points_forfeit_win",
                ]
            },
        ),
        ("People and state", {"fields": ["organizer", "arbiters", "status", "published"]}),
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_players=Count("entries", distinct=True))

    @admin.display(ordering="n_players", description="players")
    def players(self, obj):
        return obj.n_players

    @admin.display(description="pages")
    def pages(self, obj):
        return format_html(
            '<a href="{}">public</a> · <a href="{}">arbiter</a>',
            reverse("events:detail", args=[obj.slug]),
            reverse("events:manage", args=[obj.slug]),
        )


@admin.register(Player)
class PlayerAdmin(AuditedAdminMixin, admin.ModelAdmin):
    list_display = ["surname", "given_name", "title", "federation", "rating", "fmjd_id", "club"]
    list_filter = ["federation", "title"]
    search_fields = ["surname", "given_name", "fmjd_id", "club"]
    ordering = ["surname", "given_name"]
    autocomplete_fields = ["user"]


@admin.register(Entry)
class EntryAdmin(AuditedAdminMixin, OwnEventsMixin, admin.ModelAdmin):
    list_display = [
        "event",
        "pairing_number",
        "player",
        "rating",
        "status",
        "withdrawn_after_round",
    ]
    list_display_links = ["pairing_number", "player"]
    list_filter = ["status", "event"]
    search_fields = ["player__surname", "player__given_name", "player__fmjd_id", "event__name"]
    list_select_related = ["event", "player"]
    autocomplete_fields = ["player"]
    ordering = ["event", "pairing_number"]

    @admin.display(ordering="player__rating")
    def rating(self, obj):
        return obj.player.rating


class GameInline(admin.TabularInline):
    """The boards of a round, read-only: pairings and results change on the arbiter pages."""

    model = Game
    extra = 0
    can_delete = False
    fields = ["board", "white", "black", "result", "termination", "status"]
    readonly_fields = fields
    ordering = ["board"]
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Round)
class RoundAdmin(AuditedAdminMixin, OwnEventsMixin, admin.ModelAdmin):
    list_display = ["event", "number", "status", "scheduled_start", "boards", "published_at"]
    list_display_links = ["number"]
    list_filter = ["status", "event"]
    search_fields = ["event__name"]
    list_select_related = ["event"]
    readonly_fields = ["paired_at", "published_at", "warnings", "stats"]
    ordering = ["event", "number"]
    inlines = [GameInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(n_boards=Count("games"))

    @admin.display(ordering="n_boards")
    def boards(self, obj):
        return obj.n_boards


@admin.register(AuditEntry)
class AuditEntryAdmin(OwnEventsMixin, admin.ModelAdmin):
    """Who changed what, when, from what to what, and why: a record, never edited."""

    list_display = ["at", "event", "user", "action", "target", "old", "new", "reason"]
    list_filter = ["action", "event", ("user", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["target", "reason", "action", "user__username", "event__name"]
    list_select_related = ["event", "user"]
    date_hierarchy = "at"
    ordering = ["-at"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
