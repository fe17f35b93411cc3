"""Admin for clocks: read the state and its log; changes go through the games services."""

from django.contrib import admin

from clocks.models import Clock, ClockLog


class ClockLogInline(admin.TabularInline):
    model = ClockLog
    extra = 0
    can_delete = False
    fields = ("at", "action", "side", "delta_ms", "reason", "user", "before", "after")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Clock)
class ClockAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "time_control",
        "remaining_white_ms",
        "remaining_black_ms",
        "running",
        "paused",
        "deadline",
        "version",
    )
    list_filter = ("running", "paused", "started")
    readonly_fields = [f.name for f in Clock._meta.fields]
    inlines = [ClockLogInline]


@admin.register(ClockLog)
class ClockLogAdmin(admin.ModelAdmin):
    list_display = ("at", "clock", "action", "side", "delta_ms", "user", "reason")
    list_filter = ("action",)
    search_fields = ("reason",)
    readonly_fields = [f.name for f in ClockLog._meta.fields]

    def has_add_permission(self, request):
        return False
