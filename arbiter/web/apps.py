from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "arbiter.web"
    label = "web"
