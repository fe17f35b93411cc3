from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "arbiter.events"
    label = "events"
