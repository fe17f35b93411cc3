from django.urls import path

from . import sheet_views, views

app_name = "games"
urlpatterns = [
    path("games/<int:game_id>/arbiter/", views.board, name="board"),
    path("games/<int:game_id>/clock/", views.player_clock, name="player_clock"),
    path("games/<int:game_id>/board.svg", views.diagram, name="diagram"),
    path("games/<int:game_id>/sheet/", sheet_views.player_sheet, name="player_sheet"),
    path("games/<int:game_id>/sheets/", sheet_views.compare_sheets, name="compare_sheets"),
    path("rounds/<int:round_id>/arbiter/", views.round_board, name="round"),
    path("rounds/<int:round_id>/arbiter/state.json", views.round_state, name="round_state"),
]
