from django.contrib import admin

from .forms import ThrottledAdminAuthenticationForm
from .models import ApiToken

# The admin's login counts failed attempts like the site's (accounts/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["user", "name", "prefix", "event", "game", "access", "expires_at"]
    list_display += ["last_used_at", "revoked_at"]
    search_fields = ["user__username", "name", "prefix"]
    readonly_fields = ["key_hash", "prefix", "created_at", "last_used_at", "created_by"]
    raw_id_fields = ["event", "game"]
