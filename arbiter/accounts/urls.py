from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("tokens/", views.token_list, name="tokens"),
    path("tokens/<int:token_id>/revoke/", views.revoke, name="revoke"),
]
