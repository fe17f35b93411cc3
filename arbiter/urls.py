from django.contrib import admin
from django.urls import include, path

from arbiter.accounts.views import LoginView
from arbiter.api import api

urlpatterns = [
    path("admin/", admin.site.urls),
    # The login page counts failed attempts (accounts/throttle.py) and takes a player to their
    # own page; Django's other auth views.
    path(
        "accounts/login/",
        LoginView.as_view(),
        name="login",
    ),
    path("accounts/", include("arbiter.accounts.urls")),  # the API tokens page
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", api.urls),
    path("", include("arbiter.events.urls")),
    path("", include("arbiter.games.urls")),
    path("", include("arbiter.web.urls")),
]

# Under /api/ the answers keep the API's error form; elsewhere the site's pages, saying
# what was refused or not found and why (arbiter/infra/errorpages.py -> arbiter/web/views.py).
handler400 = "arbiter.infra.errorpages.bad_request"
handler403 = "arbiter.infra.errorpages.forbidden"
handler404 = "arbiter.infra.errorpages.not_found"
# The database down: 503 in the API's error form, or a plain page (arbiter/infra/unavailable.py).
handler500 = "arbiter.infra.unavailable.server_error"
