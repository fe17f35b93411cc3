from django.apps import AppConfig


class ClocksConfig(AppConfig):
    name = "clocks"
