from django.contrib import admin
from django.urls import include, path

from arbiter.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", api.urls),
    path("", include("arbiter.events.urls")),
    path("", include("arbiter.games.urls")),
    path("", include("arbiter.web.urls")),
]

# Errors in the site's layout, saying what was refused or not found and why.
handler403 = "arbiter.web.views.forbidden"
handler404 = "arbiter.web.views.not_found"
