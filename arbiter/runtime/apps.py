from django.apps import AppConfig


class RuntimeConfig(AppConfig):
    name = "arbiter.runtime"
    label = "runtime"
    verbose_name = "Running system"
