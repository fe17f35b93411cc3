from django.contrib import admin

from arbiter.runtime.models import SystemEvent


@admin.register(SystemEvent)
class SystemEventAdmin(admin.ModelAdmin):
    list_display = ["at", "kind", "process", "message"]
    list_filter = ["kind", "process"]
    readonly_fields = ["at", "kind", "process", "message"]
