"""Admin for organizers: events with their entries and rounds, players, the audit log.

Organizers who are staff see only the events they organize or arbitrate; superusers see all.
Results and pairings are changed on the arbiter pages (through the services, which log
every correction), so the admin shows games read-only; the audit log is read-only.
"""

from django.contrib import admin
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.html import format_html

from arbiter.games.models import Game

from .models import AuditEntry, Entry, Event, Player, Round


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
class EventAdmin(OwnEventsMixin, admin.ModelAdmin):
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
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["surname", "given_name", "title", "federation", "rating", "fmjd_id", "club"]
    list_filter = ["federation", "title"]
    search_fields = ["surname", "given_name", "fmjd_id", "club"]
    ordering = ["surname", "given_name"]
    autocomplete_fields = ["user"]


@admin.register(Entry)
class EntryAdmin(OwnEventsMixin, admin.ModelAdmin):
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
class RoundAdmin(OwnEventsMixin, admin.ModelAdmin):
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
