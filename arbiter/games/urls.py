from django.urls import path

from . import import_views, pdn_views, player_views, public_views, sheet_views, views

app_name = "games"
urlpatterns = [
    path("me/", player_views.me, name="me"),
    path("me/games/<int:game_id>/confirm/", player_views.confirm, name="me_confirm"),
    path("games/<int:game_id>/arbiter/", views.board, name="board"),
    path("games/<int:game_id>/clock/", views.player_clock, name="player_clock"),
    path("games/<int:game_id>/board.svg", views.diagram, name="diagram"),
    path("tablet/", views.tablet, name="tablet"),
    path("games/<int:game_id>/sheet/", sheet_views.player_sheet, name="player_sheet"),
    path("games/<int:game_id>/sheets/", sheet_views.compare_sheets, name="compare_sheets"),
    path("events/<slug:slug>/games.pdn", pdn_views.event_pdn, name="event_pdn"),
    path("events/<slug:slug>/rounds/<int:number>/games.pdn", pdn_views.round_pdn, name="round_pdn"),
    path(
        "events/<slug:slug>/rounds/<int:number>/boards/<int:board>.pdn",
        pdn_views.game_pdn,
        name="game_pdn",
    ),
    path(
        "events/<slug:slug>/rounds/<int:number>/boards/<int:board>/",
        public_views.game_page,
        name="game_page",
    ),
    path("events/<slug:slug>/manage/pdn/", import_views.upload_page, name="pdn_upload"),
    path(
        "events/<slug:slug>/manage/pdn/<int:import_id>/",
        import_views.import_page,
        name="pdn_import",
    ),
    path("rounds/<int:round_id>/arbiter/", views.round_board, name="round"),
    path("rounds/<int:round_id>/arbiter/state.json", views.round_state, name="round_state"),
]
