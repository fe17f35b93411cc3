"""The Django project package: settings, urls, asgi and the Celery app, plus the
tournament domain as sub-apps (events, games, web)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
