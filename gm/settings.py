"""Settings for Tabula, read from the environment (and a local `.env` file).

One module, with production switches driven by ``DEBUG``: when ``DEBUG`` is off
the security settings default to what ``manage.py check --deploy`` expects, and
``SECRET_KEY`` must be given. A malformed value stops the start with a message
that names the variable.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
if env.str("DJANGO_READ_DOT_ENV_FILE", default="true").lower() != "false":
    environ.Env.read_env(BASE_DIR / ".env")  # os.environ wins over the file


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _read(name: str, cast: type, default: object) -> object:
    """Read one variable; a value that cannot be cast stops the start and names it."""
    if cast is bool:
        raw = env.str(name, default="").strip().lower()
        if name not in env.ENVIRON:
            return default
        if raw not in _TRUE | _FALSE:
            raise ImproperlyConfigured(
                f"Environment variable {name} is invalid: {raw!r} is not a boolean "
                "(use true or false)"
            )
        return raw in _TRUE
    try:
        return env.get_value(name, cast=cast, default=default)
    except (ValueError, TypeError) as exc:
        raise ImproperlyConfigured(f"Environment variable {name} is invalid: {exc}") from exc


DEBUG: bool = _read("DEBUG", bool, False)

SECRET_KEY: str = _read("SECRET_KEY", str, "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Environment variable SECRET_KEY is required when DEBUG is off "
            "(set DEBUG=true for local development)."
        )
    SECRET_KEY = "insecure-local-development-key-only-used-when-DEBUG-is-on"

ALLOWED_HOSTS: list[str] = _read(
    "ALLOWED_HOSTS", list, ["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS: list[str] = _read("CSRF_TRUSTED_ORIGINS", list, [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "gm",
    "games",
    "desks",
    "lab",
]

MIDDLEWARE = [
    "gm.middleware.RequestStartMiddleware",  # first: the time a submission reached the site
    "django.middleware.security.SecurityMiddleware",
    "gm.middleware.RequestCharsetMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "gm.middleware.LanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "gm.urls"
WSGI_APPLICATION = "gm.wsgi.application"
ASGI_APPLICATION = "gm.asgi.application"

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
                "django.template.context_processors.i18n",
            ],
        },
    },
]

# Database: PostgreSQL in production, a SQLite file in the project by default.
DEFAULT_SQLITE_URL = f"sqlite:///{VAR_DIR / 'tabula.sqlite3'}"
try:
    DATABASES = {"default": env.db_url("DATABASE_URL", default=DEFAULT_SQLITE_URL)}
except (ValueError, KeyError, ImproperlyConfigured) as exc:
    raise ImproperlyConfigured(f"Environment variable DATABASE_URL is invalid: {exc}") from exc
_engine = DATABASES["default"]["ENGINE"]
if _engine not in {"django.db.backends.postgresql", "django.db.backends.sqlite3"}:
    raise ImproperlyConfigured(
        f"Environment variable DATABASE_URL is invalid: engine {_engine!r} is not supported "
        "(use postgres:// or sqlite:///)"
    )
DATABASES["default"]["CONN_MAX_AGE"] = _read("CONN_MAX_AGE", int, 0)
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    VAR_DIR.mkdir(exist_ok=True)
    # WAL + a busy timeout let the web server and the worker share the file.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
    # A file, not memory, so that a Celery worker process sees the test database too.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-tabula.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: the Celery broker and result backend.
REDIS_URL: str = _read("REDIS_URL", str, "redis://127.0.0.1:6379/0")
if not REDIS_URL.startswith(("redis://", "rediss://", "redis+socket://", "unix://")):
    raise ImproperlyConfigured(
        f"Environment variable REDIS_URL is invalid: {REDIS_URL!r} is not a redis:// URL"
    )
CELERY_BROKER_URL: str = _read("CELERY_BROKER_URL", str, REDIS_URL)
CELERY_RESULT_BACKEND: str = _read("CELERY_RESULT_BACKEND", str, REDIS_URL)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_TIME_LIMIT = 120
CELERY_TASK_SOFT_TIME_LIMIT = 100
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 3600
# Deadlines (README, "Deadlines"): the one clock. Beat queues one tick task every
# TABULA_TICK_SECONDS; it closes each phase whose deadline is TABULA_CLOSE_GRACE_SECONDS
# past (a submission counts by when it reached the site: the grace lets one still on its
# way reach the database) and records a heartbeat; /healthz turns 503 when the last tick
# is older than TABULA_CLOCK_STALE_SECONDS (a dead beat or a stuck worker). A tick that
# waited longer than a few periods is dropped (the next one does its work).
TABULA_TICK_SECONDS: float = _read("TABULA_TICK_SECONDS", float, 1.0)
TABULA_CLOSE_GRACE_SECONDS: float = _read("TABULA_CLOSE_GRACE_SECONDS", float, 2.0)
# Followed threads (issue 32): the site reads a game's forum thread by itself. A read a
# minute per thread, one every TABULA_FOLLOW_RUSH_SECONDS (never under 10) in the last 10
# minutes before a deadline; the final read TABULA_FOLLOW_GRACE_SECONDS after it (the
# forum's own clock may run a little late). Only public addresses are fetched: the one
# exception, TABULA_FOLLOW_ALLOW_PRIVATE (a list of host:port), is for the test forum on
# loopback, never in production (a GM-given address is an SSRF surface).
TABULA_FOLLOW_EVERY_SECONDS: float = _read("TABULA_FOLLOW_EVERY_SECONDS", float, 60.0)
TABULA_FOLLOW_RUSH_SECONDS: float = max(10.0, _read("TABULA_FOLLOW_RUSH_SECONDS", float, 20.0))
TABULA_FOLLOW_GRACE_SECONDS: float = _read("TABULA_FOLLOW_GRACE_SECONDS", float, 15.0)
TABULA_FOLLOW_TIMEOUT_SECONDS: float = _read("TABULA_FOLLOW_TIMEOUT_SECONDS", float, 15.0)
TABULA_FOLLOW_MAX_BYTES: int = _read("TABULA_FOLLOW_MAX_BYTES", int, 3_000_000)
TABULA_FOLLOW_ALLOW_PRIVATE: list[str] = _read("TABULA_FOLLOW_ALLOW_PRIVATE", list, [])  # host:port
TABULA_FOLLOW_USER_AGENT: str = _read(
    "TABULA_FOLLOW_USER_AGENT", str, "Tabula/1.0 (game master's desk; reads one game thread)"
)
TABULA_CLOCK_STALE_SECONDS: float = _read(
    "TABULA_CLOCK_STALE_SECONDS", float, max(10.0, 5 * TABULA_TICK_SECONDS)
)
# How long /healthz waits for Redis, per connection and per reply.
TABULA_HEALTH_TIMEOUT_SECONDS: float = _read("TABULA_HEALTH_TIMEOUT_SECONDS", float, 0.3)
# Every other Redis call (publishing a task, reading or storing a result) waits at most
# TABULA_REDIS_TIMEOUT_SECONDS per connection and per reply: a frozen Redis costs a request
# that long, never a worker for good (issue 27 §6). Above kombu's 1 s wait for a message.
TABULA_REDIS_TIMEOUT_SECONDS: float = _read("TABULA_REDIS_TIMEOUT_SECONDS", float, 2.0)
if TABULA_REDIS_TIMEOUT_SECONDS <= 1:
    raise ImproperlyConfigured(
        "Environment variable TABULA_REDIS_TIMEOUT_SECONDS is invalid: it must exceed 1 s "
        "(a worker waits 1 s at a time for a message)"
    )
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 600,  # > the task time limit
    "socket_timeout": TABULA_REDIS_TIMEOUT_SECONDS,
    "socket_connect_timeout": TABULA_REDIS_TIMEOUT_SECONDS,
}
CELERY_BROKER_CONNECTION_TIMEOUT = TABULA_REDIS_TIMEOUT_SECONDS
CELERY_REDIS_SOCKET_TIMEOUT = TABULA_REDIS_TIMEOUT_SECONDS
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = TABULA_REDIS_TIMEOUT_SECONDS
# The balance lab's tasks have their own queue, consumed by their own worker
# (docker-compose.yml's lab-worker): the deadline tick never waits behind a study's chunks.
TABULA_LAB_QUEUE: str = _read("TABULA_LAB_QUEUE", str, "lab")
CELERY_TASK_ROUTES = ("gm.celery.route_task",)  # reads TABULA_LAB_QUEUE when it routes
# A GM's studies queued or running at once, and the games of one study (issue 27 §6).
TABULA_LAB_STUDIES_PER_GM: int = _read("TABULA_LAB_STUDIES_PER_GM", int, 3)
TABULA_LAB_MAX_GAMES: int = _read("TABULA_LAB_MAX_GAMES", int, 200_000)
# A study queued or running with nothing stored for this long while the lab's queue is
# empty has lost its tasks: above the broker's visibility timeout plus a task's time limit
# (a chunk held by a killed worker comes back after them).
TABULA_LAB_STALL_SECONDS: float = _read("TABULA_LAB_STALL_SECONDS", float, 900.0)
if (
    CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] + CELERY_TASK_TIME_LIMIT
) >= TABULA_LAB_STALL_SECONDS:
    raise ImproperlyConfigured(
        "Environment variable TABULA_LAB_STALL_SECONDS is invalid: it must exceed the "
        "broker's visibility timeout plus the task time limit (720 s)"
    )
if TABULA_LAB_STUDIES_PER_GM < 1 or TABULA_LAB_MAX_GAMES < 1:
    raise ImproperlyConfigured(
        "Environment variables TABULA_LAB_STUDIES_PER_GM and TABULA_LAB_MAX_GAMES are "
        "invalid: each must be at least 1"
    )
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "deadlines": {
        "task": "games.deadlines_tick",
        "schedule": TABULA_TICK_SECONDS,
        "options": {"expires": max(5.0, 3 * TABULA_TICK_SECONDS)},  # stale ticks are dropped
    },
    # on the lab's queue: fails the studies whose tasks Redis lost (lab/services.py)
    "lab-sweep": {"task": "lab.balance_sweep", "schedule": 60.0, "options": {"expires": 60.0}},
}
# A submission counts by when it reached the site: the proxy's request-start header when
# one is named here (only behind a proxy that always writes it), else the first middleware.
TABULA_REQUEST_START_HEADER: str = _read("TABULA_REQUEST_START_HEADER", str, "")
# The oldest a proxy's request-start stamp may be (an older one is replaced by the arrival).
TABULA_SUBMISSION_WAIT_SECONDS: float = _read("TABULA_SUBMISSION_WAIT_SECONDS", float, 60.0)
CELERY_TASK_DEFAULT_QUEUE: str = _read("TABULA_QUEUE", str, "celery")
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# The cache (rate limits) lives in the same Redis; Django names its Unix sockets unix://.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL.replace("redis+socket://", "unix://", 1),
        "KEY_PREFIX": _read("CACHE_KEY_PREFIX", str, "tabula"),
        "TIMEOUT": 3600,
        # an outage costs a request half a second at most (the rate limits fail open)
        "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
    }
}
# Sessions live in the database only: a Redis outage must not log anyone out or turn the
# pages with a session into errors (issue 9, #8).
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# How many proxies of ours (the HTTPS proxy) stand in front of gunicorn: the client's
# address is the one the outermost of them saw (games.views.net.client_ip). 0: no proxy.
TRUSTED_PROXY_COUNT: int = _read("TRUSTED_PROXY_COUNT", int, 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("Environment variable TRUSTED_PROXY_COUNT is invalid: below 0")
# A player's submissions (votes, actions, wills) per player: past it, a clear message.
TABULA_SUBMIT_RATE: str = _read("TABULA_SUBMIT_RATE", str, "10/m")
if not re.fullmatch(r"\d+/\d*[smhd]", TABULA_SUBMIT_RATE):
    raise ImproperlyConfigured(
        f"Environment variable TABULA_SUBMIT_RATE is invalid: {TABULA_SUBMIT_RATE!r} "
        "(use a count per period, like 10/m)"
    )
# How many times a player may change his vote in one phase (a rule of the house: the GM's
# phase page works the board and the preview out from every vote of the phase).
TABULA_VOTE_CHANGES_MAX: int = _read("TABULA_VOTE_CHANGES_MAX", int, 30)
if TABULA_VOTE_CHANGES_MAX < 1:
    raise ImproperlyConfigured("Environment variable TABULA_VOTE_CHANGES_MAX is invalid: below 1")

# GM login: django-axes counts failed logins in the database (no Redis involved, so a
# Redis outage neither blocks nor opens anything) and locks the client out for a while.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT: int = _read("AXES_FAILURE_LIMIT", int, 10)
AXES_COOLOFF_TIME = dt.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "games.views.net.client_ip"
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
AXES_SENSITIVE_PARAMETERS = ["password"]
AXES_VERBOSE = False

# Content-Security-Policy (django-csp 4): scripts, styles and requests from this site
# only; no inline script or style anywhere (htmx is configured by a meta tag).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    }
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "dashboard"
LOGOUT_REDIRECT_URL = "login"

# Internationalisation: Italian first, English available.
LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italiano")), ("en", _("English"))]
# The site's catalogue first, then each engine package's own (roles/ is no Django app).
LOCALE_PATHS = [BASE_DIR / "locale", *sorted((BASE_DIR / "roles").glob("*/locale"))]
USE_I18N = True
USE_TZ = True
TIME_ZONE: str = _read("TIME_ZONE", str, "Europe/Rome")
try:
    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
    raise ImproperlyConfigured(
        f"Environment variable TIME_ZONE is invalid: {TIME_ZONE!r} is not a known time zone"
    ) from exc

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = _read("STATIC_ROOT", str, str(BASE_DIR / "staticfiles"))
if DEBUG:
    Path(STATIC_ROOT).mkdir(exist_ok=True)  # whitenoise looks there even in development
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Production switches: on by default whenever DEBUG is off.
SECURE_SSL_REDIRECT: bool = _read("SECURE_SSL_REDIRECT", bool, not DEBUG)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS: int = _read("SECURE_HSTS_SECONDS", int, 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SESSION_COOKIE_SECURE: bool = _read("SESSION_COOKIE_SECURE", bool, not DEBUG)
CSRF_COOKIE_SECURE: bool = _read("CSRF_COOKIE_SECURE", bool, not DEBUG)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A player's link never reaches a log: "/p/<token>/" is written "/p/…/" (issue 9, #4).
    "filters": {"redact_links": {"()": "gm.logs.RedactPlayerLinks"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_links"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["redact_links"],
        },
    },
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    # Django's own loggers write through the handlers above (its default ones would not
    # redact; configured here, they replace them).
    "loggers": {
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": _read("LOG_LEVEL", str, "INFO")},
}
