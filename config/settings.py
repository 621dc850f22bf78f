"""Settings, all from environment variables.

With none set, the product runs embedded: SQLite, a filesystem broker under ``DATA_DIR``, the
offline models. Production sets ``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``,
``ALLOWED_HOSTS``, ``CHAT_MODELS`` and ``MEMORY_MODEL``.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from corsheaders.defaults import default_headers as default_cors_headers

from config import keys
from config.offline import use_offline_environment
from core.rates import parse_rate

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

use_offline_environment()

DATA_DIR = Path(env.str("DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
PRODUCTION = env.bool("PRODUCTION", default="DATABASE_URL" in os.environ)
TESTING = env.bool("TESTING", default=False)

# Off unless asked for: `make run` is the product, with its own error pages.
DEBUG = env.bool("DEBUG", default=False)
# Embedded: a key of the data folder's own, made on its first start (config/keys.py).
SECRET_KEY = env.str("SECRET_KEY", default="") or (
    "" if PRODUCTION else keys.embedded_secret_key(DATA_DIR)
)
if not SECRET_KEY:
    raise environ.ImproperlyConfigured("SECRET_KEY must be set in production.")
# Old keys still checked (Django's rotation). Tombstones are matched with these too, so keep a
# rotated key here for as long as forgotten lines must stay forgotten (memory/tombstones.py).
SECRET_KEY_FALLBACKS = env.list("SECRET_KEY_FALLBACKS", default=[])
TOMBSTONE_KEY_FALLBACKS = [
    *SECRET_KEY_FALLBACKS,
    *([] if PRODUCTION else [keys.LEGACY_EMBEDDED_KEY]),
]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else ["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "corsheaders",
    "accounts",
    "chat",
    "memory",
]

MIDDLEWARE = [
    "core.middleware.RequestIdMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "core.middleware.JsonGZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.security.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "core.error_pages.OutageMiddleware",
    "accounts.middleware.PersonMiddleware",
]

# Every response (config/security.py). Scripts and styles only from our /static/ files:
# no inline script, style attribute or event handler in the templates.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "font-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
# Django's CSRF failure page has inline styles; ours obeys the policy.
CSRF_FAILURE_VIEW = "core.error_pages.csrf_failure"

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

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
                "config.context_processors.product",
                "chat.context_processors.sidebar",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'whizi.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with every call bounded on our side too.
    DATABASES["default"]["ENGINE"] = "config.db.postgresql"
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # Persistent connections (a connect costs a fifth of a chat request), one per web thread or
    # pool process. Fork-safe: config/gunicorn.py and Celery's fixup close the parent's.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    # A bounded connect; keepalives break a dead connection in seconds, not minutes.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options.setdefault("connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=3))
    _options.setdefault("tcp_user_timeout", env.int("DATABASE_TCP_USER_TIMEOUT_MS", default=10_000))
    _options.setdefault("keepalives_idle", 10)
    _options.setdefault("keepalives_interval", 5)
    _options.setdefault("keepalives_count", 3)
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=0))
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Web and worker share one SQLite file: WAL and a busy timeout keep writes from failing reads.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
    }
# Statement and lock-wait bounds in ms (0: none) by process kind (config/database.py): a
# stalled request answers 503 in seconds; workers wait longer; migrations are never cut.
DATABASE_REQUEST_STATEMENT_TIMEOUT_MS = env.int(
    "DATABASE_REQUEST_STATEMENT_TIMEOUT_MS", default=5000
)
DATABASE_REQUEST_LOCK_TIMEOUT_MS = env.int("DATABASE_REQUEST_LOCK_TIMEOUT_MS", default=2000)
DATABASE_WORKER_STATEMENT_TIMEOUT_MS = env.int(
    "DATABASE_WORKER_STATEMENT_TIMEOUT_MS", default=60_000
)
DATABASE_WORKER_LOCK_TIMEOUT_MS = env.int("DATABASE_WORKER_LOCK_TIMEOUT_MS", default=10_000)
# /healthz: a fresh connection within this many seconds, one statement within a second.
HEALTHZ_DATABASE_TIMEOUT = env.int("HEALTHZ_DATABASE_TIMEOUT", default=2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.validators.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A reset link (SPEC §10) works once, for this many seconds.
PASSWORD_RESET_TIMEOUT = env.int("PASSWORD_RESET_TIMEOUT", default=2 * 60 * 60)
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "chat:home"
LOGOUT_REDIRECT_URL = "chat:home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("it", "Italiano"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language cookie, guarded like the session's: no script reads it; Secure in production.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Embedded (no collectstatic), WhiteNoise serves the apps' static files.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 30)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

# --- Cache: rate-limit counts and the worker's heartbeat ----------------------------------------
# Shared by all processes (LocMemCache would give each its own counts): Redis, or a file cache.
if env.str("REDIS_URL", default=""):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env.str("REDIS_URL"),
            "KEY_PREFIX": "whizi",
            # A stalled Redis costs a bounded moment; the throttles then let requests through.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }

# --- Rate limits (SPEC §10) ---------------------------------------------------------------------
THROTTLE_ENABLED = env.bool("THROTTLE_ENABLED", default=True)


def _rate(name: str, default: str) -> str:
    rate = env.str(name, default=default)
    try:
        parse_rate(rate)
    except ValueError as exc:
        raise environ.ImproperlyConfigured(f"{name}: {exc}") from None
    return rate


THROTTLE_RATES = {
    "login": _rate("THROTTLE_LOGIN", "10/min"),  # per client address
    "login_email": _rate("THROTTLE_LOGIN_EMAIL", "20/hour"),  # per e-mail tried
    "signup": _rate("THROTTLE_SIGNUP", "20/hour"),
    "signup_email": _rate("THROTTLE_SIGNUP_EMAIL", "5/hour"),
    "guest": _rate("THROTTLE_GUEST", "30/hour"),  # guests created per client address
    "message": _rate("THROTTLE_MESSAGE", "20/min"),  # chat messages per person
    "voice": _rate("THROTTLE_VOICE", "30/hour"),  # voice sessions started per person
    "resume": _rate("THROTTLE_RESUME", "60/min"),  # replies read again (resumes, retries)
    "memory_import": _rate("THROTTLE_MEMORY_IMPORT", "20/hour"),  # pastes, previews too
    # password-reset mails, per client address and per e-mail
    "password_check": _rate("THROTTLE_PASSWORD_CHECK", "20/hour"),  # own password, per person
    "password_reset": _rate("THROTTLE_PASSWORD_RESET", "10/hour"),
    "password_reset_email": _rate("THROTTLE_PASSWORD_RESET_EMAIL", "3/hour"),
}

# --- Request limits: checked before a body is parsed --------------------------------------------
# Django's limit on a request body; the API's JSON parser applies it too.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_BODY_BYTES", default=2_621_440)
# Our JSON is three levels deep; deeper nesting is refused before json.loads recurses.
JSON_MAX_DEPTH = env.int("JSON_MAX_DEPTH", default=32)

# --- API tokens (django-rest-knox): hashed, one per device, expiring ---------------------------
# Only a SHA-512 digest is stored. A token lasts TTL days past its last use (written hourly at
# most), never over MAX days; a guest's ends with the guest.
API_TOKEN_TTL_DAYS = env.int("API_TOKEN_TTL_DAYS", default=30)
API_TOKEN_MAX_DAYS = env.int("API_TOKEN_MAX_DAYS", default=365)
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=API_TOKEN_TTL_DAYS),
    "AUTO_REFRESH": True,
    "AUTO_REFRESH_MAX_TTL": timedelta(days=API_TOKEN_MAX_DAYS),
    "MIN_REFRESH_INTERVAL": 3600,
    "AUTH_HEADER_PREFIX": "Token",
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.api.authentication.TokenAuthenticationWithActivity",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["core.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "core.schema.AutoSchema",
    # No `?format=`: a client asks for a stream with `Accept: text/event-stream`, as documented.
    "URL_FORMAT_OVERRIDE": None,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    "UNAUTHENTICATED_USER": None,
    # X-Forwarded-For hops to trust. 0: else a direct client picks the address its rate
    # limits count. Set 1 behind a TLS proxy.
    "NUM_PROXIES": env.int("NUM_PROXIES", default=0),
}
# --- CORS: off unless listed (django-cors-headers) ---------------------------------------------
# Web apps on other origins that may call the API, e.g. "https://app.example.com"; none by default.
CORS_ALLOWED_ORIGINS = env.list("CORS_ALLOWED_ORIGINS", default=[])
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_HEADERS = (
    *default_cors_headers,
    "idempotency-key",
    "if-match",
    "last-event-id",
    "x-request-id",
)
CORS_EXPOSE_HEADERS = [
    "ETag",
    "Retry-After",
    "X-Request-Id",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Idempotent-Replayed",
]

SPECTACULAR_SETTINGS = {
    "TITLE": "Whizi mobile API",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # 3.1: a null is "type: null", which strict validators and generators read as written.
    "OAS_VERSION": "3.1.0",
}

# --- Mail: password-reset links --------------------------------------------------------------
# Embedded, the worker prints mail; production sends it by SMTP (EMAIL_*).
EMAIL_BACKEND = env.str(
    "EMAIL_BACKEND",
    default="django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env.bool("EMAIL_USE_SSL", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Whizi <noreply@localhost>")
# Where mail links point (a worker has no request): first ALLOWED_HOSTS over HTTPS, or here.
_first_host = next((h for h in ALLOWED_HOSTS if h.strip(".*")), "localhost")
SITE_URL = env.str(
    "SITE_URL",
    default=f"https://{_first_host.lstrip('.')}"
    if PRODUCTION
    else f"http://127.0.0.1:{env.int('PORT', default=8000)}",
).rstrip("/")

# --- Celery -------------------------------------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
        # A stalled Redis costs a reply a bounded moment; the pass stays owed and is swept.
        "socket_connect_timeout": 0.5,
        "socket_timeout": 0.5,
        "max_retries": 0,
        "retry_on_timeout": False,
        "visibility_timeout": 600,
    }
else:
    CELERY_BROKER_URL = "filesystem://"
    # kombu's filesystem transport, atomic message files (see config/broker.py).
    CELERY_BROKER_TRANSPORT = "config.broker:FilesystemTransport"
    # One embedded worker: no remote control, so no broadcast files racing.
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
    _broker_dir = DATA_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
    }
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {"memory.*": {"queue": "memory"}}
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
# How often beat's sweeper sends owed passes no queued task will run (memory/queueing.py).
MEMORY_SWEEP_SECONDS = env.float("MEMORY_SWEEP_SECONDS", default=30.0)
# What people erased, kept apart from the database and its backups (core/erasures.py): put it
# on storage that outlives the database. Embedded `make run` snapshots its SQLite database
# daily and weekly under DATA_DIR/backups (manage.py backup_database).
ERASURE_JOURNAL = env.str("ERASURE_JOURNAL", default=str(DATA_DIR / "erasures.jsonl"))
BACKUP_DIR = Path(env.str("BACKUP_DIR", default=str(DATA_DIR / "backups")))
BACKUP_KEEP_DAILY = env.int("BACKUP_KEEP_DAILY", default=7)
BACKUP_KEEP_WEEKLY = env.int("BACKUP_KEEP_WEEKLY", default=4)
# Entries older than this go (hourly): keep it longer than your oldest backup is kept.
ERASURE_JOURNAL_KEEP_DAYS = env.int("ERASURE_JOURNAL_KEEP_DAYS", default=42)

CELERY_BEAT_SCHEDULE = {
    "memory-sweep-owed-passes": {
        "task": "memory.sweep_owed_passes",
        "schedule": MEMORY_SWEEP_SECONDS,
    },
    "accounts-housekeeping": {"task": "accounts.housekeeping", "schedule": 3600.0},
    # Only an embedded (SQLite) database: production backs up with PostgreSQL's own tools.
    "accounts-backup-database": {"task": "accounts.backup_database", "schedule": 3600.0},
    "chat-delete-expired-temporary-chats": {
        "task": "chat.delete_expired_temporary_chats",
        "schedule": 900.0,
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
# A live worker refreshes its heartbeat this often; /healthz says "down" after three misses.
WORKER_HEARTBEAT_SECONDS = env.int("WORKER_HEARTBEAT_SECONDS", default=10)
# Set by `make run` (config/launcher.py) so "ready" means its server; named TOKEN so
# Django's error reports mask it.
RUN_TOKEN = env.str("WHIZI_RUN_TOKEN", default="")

# --- Models -------------------------------------------------------------------------------------
# litellm model strings; "offline/..." are the built-in models.
CHAT_MODELS = env.list("CHAT_MODELS", default=["offline/whizi-chat"])
CHAT_MODEL_LABELS = env.dict("CHAT_MODEL_LABELS", default={})
DEFAULT_CHAT_MODEL = env.str("DEFAULT_CHAT_MODEL", default=CHAT_MODELS[0])
MEMORY_MODEL = env.str("MEMORY_MODEL", default="offline/whizi-memory")
# An OpenAI-compatible server for memory alone, with its own key: a self-hosted memory model
# never receives the chat's key.
MEMORY_MODEL_API_BASE = env.str("MEMORY_MODEL_API_BASE", default="")
MEMORY_MODEL_API_KEY = env.str("MEMORY_MODEL_API_KEY", default="")
CHAT_MODEL_TIMEOUT = env.float("CHAT_MODEL_TIMEOUT", default=60.0)
# How often a streaming reply checks for Stop (``chat.stops``): prompt, yet few cache reads.
CHAT_STOP_CHECK_SECONDS = env.float("CHAT_STOP_CHECK_SECONDS", default=0.2)
# A streamed reply sends an SSE comment after this much model silence (proxies close idle streams).
CHAT_KEEP_ALIVE_SECONDS = env.float("CHAT_KEEP_ALIVE_SECONDS", default=15.0)
MEMORY_MODEL_TIMEOUT = env.float("MEMORY_MODEL_TIMEOUT", default=60.0)
# How a memory call asks for its answer's shape: ``auto`` (the edits schema where the provider
# or a self-hosted server honours it, else JSON mode), ``json_schema``, ``json_object``, ``none``.
MEMORY_MODEL_RESPONSE_FORMAT = env.str("MEMORY_MODEL_RESPONSE_FORMAT", default="auto")
if MEMORY_MODEL_RESPONSE_FORMAT not in ("auto", "json_schema", "json_object", "none"):
    raise environ.ImproperlyConfigured(
        "MEMORY_MODEL_RESPONSE_FORMAT: one of auto, json_schema, json_object, none"
    )
CHAT_SYSTEM_PROMPT = env.str(
    "CHAT_SYSTEM_PROMPT",
    default="You are {assistant}, a helpful assistant. Answer clearly and concisely.",
)
ASSISTANT_NAME = env.str("ASSISTANT_NAME", default="Whizi")
MESSAGE_MAX_CHARS = env.int("MESSAGE_MAX_CHARS", default=20_000)
# A chat request's input budget: litellm's window for the model less a margin, capped at
# MAX; DEFAULT for a model litellm does not know.
CHAT_INPUT_TOKENS_DEFAULT = env.int("CHAT_INPUT_TOKENS_DEFAULT", default=16_000)
CHAT_INPUT_TOKENS_MAX = env.int("CHAT_INPUT_TOKENS_MAX", default=128_000)
# The history one chat request carries, whatever the model's window: the cost of a reply stops
# growing with the conversation, and memory carries what the older turns said.
CHAT_HISTORY_TOKENS = env.int("CHAT_HISTORY_TOKENS", default=24_000)

# --- Memory (SPEC §2) ---------------------------------------------------------------------------
MEMORY_TOKEN_LIMIT = env.int("MEMORY_TOKEN_LIMIT", default=2_000)
MEMORY_TARGET_TOKENS = env.int("MEMORY_TARGET_TOKENS", default=1_500)
# The shape a rewrite aims for, stated in the prompt beside the token target.
MEMORY_TARGET_LINES = env.int("MEMORY_TARGET_LINES", default=50)
MEMORY_TARGET_LINE_CHARS = env.int("MEMORY_TARGET_LINE_CHARS", default=55)
MEMORY_TURNS_PER_PASS = env.int("MEMORY_TURNS_PER_PASS", default=6)
MEMORY_TRANSCRIPT_TOKEN_LIMIT = env.int("MEMORY_TRANSCRIPT_TOKEN_LIMIT", default=20_000)
MEMORY_CALL_TOKEN_LIMIT = env.int("MEMORY_CALL_TOKEN_LIMIT", default=50_000)
MEMORY_READ_TIMEOUT_MS = env.int("MEMORY_READ_TIMEOUT_MS", default=200)
# How long a reply waits for the memory row's lock; past it the sweeper owes the pass later.
MEMORY_TRIGGER_LOCK_TIMEOUT_MS = env.int("MEMORY_TRIGGER_LOCK_TIMEOUT_MS", default=500)
# A running pass's lease, renewed every third of it: a dead worker's pass is resent after
# this; a live pass never runs twice.
MEMORY_PASS_LEASE_SECONDS = env.int("MEMORY_PASS_LEASE_SECONDS", default=60)
MEMORY_CAS_ATTEMPTS = env.int("MEMORY_CAS_ATTEMPTS", default=3)
# A pass failing on the model is never given up: it waits this long, doubling up to the cap.
MEMORY_PASS_BACKOFF_SECONDS = env.int("MEMORY_PASS_BACKOFF_SECONDS", default=30)
MEMORY_PASS_BACKOFF_MAX_SECONDS = env.int("MEMORY_PASS_BACKOFF_MAX_SECONDS", default=300)
# Versions kept for undo and restore: the newest this many, or younger than this many days.
MEMORY_HISTORY_KEEP_VERSIONS = env.int("MEMORY_HISTORY_KEEP_VERSIONS", default=50)
MEMORY_HISTORY_KEEP_DAYS = env.int("MEMORY_HISTORY_KEEP_DAYS", default=90)
# How often an open Settings page asks whether a pass changed the list (0: only on coming back
# to the tab). An unchanged list costs one indexed read and a 204.
MEMORY_SECTION_REFRESH_SECONDS = env.float("MEMORY_SECTION_REFRESH_SECONDS", default=10.0)
# A queued pass not run after this long is resent; matches ``visibility_timeout`` above, as
# sooner would duplicate a pass waiting in a backlog.
MEMORY_PASS_RESEND_AFTER_SECONDS = env.int("MEMORY_PASS_RESEND_AFTER_SECONDS", default=600)
# A pass that crashed through all retries is retried after this long; after this many in a
# row its work is given up as read.
MEMORY_DROPPED_PASS_RETRY_SECONDS = env.int("MEMORY_DROPPED_PASS_RETRY_SECONDS", default=3600)
MEMORY_PASS_DROPS_BEFORE_SKIP = env.int("MEMORY_PASS_DROPS_BEFORE_SKIP", default=3)
GUEST_IDLE_DAYS = env.int("GUEST_IDLE_DAYS", default=30)
# A temporary chat is deleted this long after its last message (checked every 15 minutes).
TEMPORARY_CHAT_TTL_HOURS = env.float("TEMPORARY_CHAT_TTL_HOURS", default=24.0)

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"}
    },
    "filters": {
        "drop_all": {"()": "core.logs.DropAll"},
        "request_id": {"()": "core.middleware.RequestIdFilter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    # litellm logs request bodies (message text, memory lines): shut whatever LOG_LEVEL says.
    "loggers": {
        **{
            name: {"level": "CRITICAL", "handlers": [], "propagate": False, "filters": ["drop_all"]}
            for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")
        },
        "httpx": {"level": "WARNING"},
    },
}
