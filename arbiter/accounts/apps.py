from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "arbiter.accounts"
    label = "accounts"
