"""Admin for games: a read-only view of boards and results.

Results, forfeits and pairings change on the arbiter pages, through the services that check
the role and log every correction with its reason; the admin only shows and finds games.
"""

from django.contrib import admin
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html

from .models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "event",
        "round_number",
        "board",
        "white",
        "result",
        "black",
        "termination",
        "status",
        "ply",
    ]
    list_display_links = ["board"]
    list_filter = ["status", "result", "termination", "round__event"]
    search_fields = [
        "white__surname",
        "white__given_name",
        "black__surname",
        "black__given_name",
        "round__event__name",
    ]
    list_select_related = ["round__event", "white", "black"]
    ordering = ["round__event", "round__number", "board"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "round",
                    "board",
                    "white",
                    "black",
                    "result",
                    "termination",
                    "status",
                    "result_entry",
                ]
            },
        ),
        (
            "Position",
            {"fields": ["start_fen", "fen", "ply", "rules_state"], "classes": ["collapse"]},
        ),
        (
            "Times",
            {
                "fields": [
                    "white_arrived_at",
                    "black_arrived_at",
                    "started_at",
                    "finished_at",
                    "updated_at",
                ]
            },
        ),
        ("Pairing", {"fields": ["pairing_note"], "classes": ["collapse"]}),
    ]

    def get_queryset(self, request):
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        event = "round__event__"
        return qs.filter(
            Q(**{f"{event}organizer": request.user}) | Q(**{f"{event}arbiters": request.user})
        ).distinct()

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields] + ["result_entry"]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(ordering="round__event__name")
    def event(self, obj):
        return obj.round.event

    @admin.display(ordering="round__number", description="round")
    def round_number(self, obj):
        return obj.round.number

    @admin.display(description="change the result")
    def result_entry(self, obj):
        url = reverse("events:enter_results", args=[obj.round.event.slug, obj.round.number])
        return format_html(
            '<a href="{}">on the arbiter page of round {}</a>', url, obj.round.number
        )
