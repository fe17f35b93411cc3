"""Event pages: public ones under /events/<slug>/, the arbiter's under /events/<slug>/manage/."""

from django.urls import path

from . import manage_views, organizer_views, views

app_name = "events"
urlpatterns = [
    path("events/", views.event_list, name="list"),
    # The organizer's pages (before the slug patterns: "new" is no event)
    path("events/new/", organizer_views.create_event, name="create"),
    path("events/time-control/", organizer_views.time_control_words, name="time_control_words"),
    path("events/<slug:slug>/manage/settings/", organizer_views.edit_settings, name="settings"),
    path("events/<slug:slug>/manage/arbiters/", organizer_views.arbiters, name="arbiters"),
    path("events/<slug:slug>/manage/players/add/", organizer_views.add_player, name="add_player"),
    path(
        "events/<slug:slug>/manage/players/<int:pairing_number>/edit/",
        organizer_views.edit_player,
        name="edit_player",
    ),
    path(
        "events/<slug:slug>/manage/players/<int:pairing_number>/login/",
        organizer_views.player_login,
        name="player_login",
    ),
    path("events/<slug:slug>/", views.event_detail, name="detail"),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_pairings, name="round"),
    path(
        "events/<slug:slug>/rounds/<int:number>/by-name/",
        views.round_alphabetical,
        name="round_alpha",
    ),
    path("events/<slug:slug>/results/", views.results, name="results"),
    path("events/<slug:slug>/standings/", views.standings, name="standings"),
    path("events/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("events/<slug:slug>/players/<int:number>/", views.player_card, name="player"),
    # Arbiter pages
    path("events/<slug:slug>/manage/", manage_views.manage, name="manage"),
    path("events/<slug:slug>/manage/pair/", manage_views.pair_next_round, name="pair_next"),
    path(
        "events/<slug:slug>/manage/rounds/<int:number>/publish/",
        manage_views.publish_round,
        name="publish_round",
    ),
    path(
        "events/<slug:slug>/manage/rounds/<int:number>/unpair/",
        manage_views.unpair_round,
        name="unpair_round",
    ),
    path(
        "events/<slug:slug>/manage/rounds/<int:number>/schedule/",
        manage_views.schedule_round,
        name="schedule_round",
    ),
    path(
        "events/<slug:slug>/manage/rounds/<int:number>/results/",
        manage_views.enter_results,
        name="enter_results",
    ),
    path(
        "events/<slug:slug>/manage/rounds/<int:number>/pairing/",
        manage_views.edit_pairing,
        name="edit_pairing",
    ),
    path(
        "events/<slug:slug>/manage/players/<int:pairing_number>/withdraw/",
        manage_views.withdraw,
        name="withdraw",
    ),
    path(
        "events/<slug:slug>/manage/players/<int:pairing_number>/absent/",
        manage_views.set_absent,
        name="set_absent",
    ),
    path(
        "events/<slug:slug>/manage/players/<int:pairing_number>/bye/",
        manage_views.request_bye,
        name="request_bye",
    ),
    path("events/<slug:slug>/manage/import/", manage_views.import_players, name="import"),
    # The round's clocks (every board), by event and round number; the desk links to it.
    path(
        "events/<slug:slug>/rounds/<int:number>/arbiter/",
        manage_views.round_clocks,
        name="round_clocks",
    ),
]
