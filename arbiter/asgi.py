"""The ASGI application that uvicorn serves.

Every view here is synchronous, so Django runs as a WSGI application inside the ASGI server,
on a fixed pool of threads (arbiter/infra/wsgibridge.py). Django's own ASGI handler runs each sync
request in a new thread with its own executor and hops between the event loop and threads
around sync middleware: about 3.3 ms a request where a thread pool costs 1.5 ms (the bare
locked write of benchmarks/move_entry.py, one request at a time), and a new thread also means
a new database connection per request.
An async endpoint (live boards, later) would be routed here to Django's ASGI handler.
"""

import gc
import os

from django.core.wsgi import get_wsgi_application

from arbiter.infra.wsgibridge import WSGIBridge

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

#: Threads per server process that run requests (env WEB_THREADS).
WEB_THREADS = max(1, int(os.environ.get("WEB_THREADS", "8")))

application = WSGIBridge(get_wsgi_application(), threads=WEB_THREADS)

# Load the URLconf, and with it every view and the API, now rather than on the first request:
# it takes about 0.6 s, during which a worker's first moves would wait.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 - the access imports the URLconf
# On SQLite a thread copies the WAL back into the database, not the requests.
from django.conf import settings  # noqa: E402

from arbiter.infra import sqlite_checkpoint  # noqa: E402

if (_sqlite_file := sqlite_checkpoint.database_file(settings.DATABASES["default"])) is not None:
    sqlite_checkpoint.start(_sqlite_file)

# The heartbeat (arbiter/runtime/downtime.py): once now, crediting the clocks after an outage
# before any move is taken, then every second.
from arbiter.runtime.downtime import start_heartbeat  # noqa: E402

start_heartbeat()
# What is loaded by now (about 135,000 objects) lives as long as the process: keep the cyclic
# garbage collector from scanning it again on every full pass, which stalls all requests.
gc.freeze()
