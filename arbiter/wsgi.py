import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
application = get_wsgi_application()

# A WSGI server (runserver, gunicorn) takes moves too: it beats like the ASGI one
# (arbiter/runtime/downtime.py), else its clocks would wait on a heartbeat nobody writes.
from arbiter.runtime.downtime import start_heartbeat  # noqa: E402

start_heartbeat()
