"""The Celery app: broker from settings (REDIS_URL), tasks discovered in the Django apps."""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

app = Celery("arbiter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def _return_database_connections(sender=None, **_) -> None:
    """Around each task, as around a web request: the connection goes back to its pool, and
    one that failed or is too old is dropped (settings.CELERY_DB_REUSE_MAX: Celery's own
    fixup no longer does this, as it would close the whole pool each time)."""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return  # run in the caller's thread, maybe inside its transaction
    from django.db import close_old_connections

    close_old_connections()
