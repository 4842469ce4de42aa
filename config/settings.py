"""Django settings for the fourcolor archive service.

Everything that differs between a laptop and a production host is read from environment
variables (see README.md, "Configuration"). The defaults give a working development setup on
SQLite under var/ (DATA_DIR); a production start with DEBUG off refuses to run without a
SECRET_KEY and ALLOWED_HOSTS instead of falling back to something unsafe.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from common.rates import DEFAULT_RATES
from fourcolor import analysis as _analysis

from config.email import account_settings, email_settings
from config.env import env_bool, env_int, env_list, env_rates, env_str, refuse_retired
from config.logging import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent

# --- Core -----------------------------------------------------------------------------------

refuse_retired()

# Run-time state (the SQLite file, the collected static files): never in git, never inside the
# installed package. DATA_DIR names it; a source checkout (pyproject.toml beside the apps)
# defaults to its var/, an installed package has no place of its own to write to.
_data_dir = env_str("DATA_DIR")
if _data_dir is None and not (BASE_DIR / "pyproject.toml").is_file():
    raise ImproperlyConfigured(
        "DATA_DIR must be set when the site runs from an installed package: the folder for "
        "its run-time files (the collected static files, a SQLite database)."
    )
DATA_DIR = Path(_data_dir).resolve() if _data_dir else BASE_DIR / "var"
DATA_DIR.mkdir(parents=True, exist_ok=True)
DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(for example: export SECRET_KEY=\"$(python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))')\")."
        )
    SECRET_KEY = "django-insecure-fourcolor-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set (comma-separated host names) when DEBUG is off."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Proxies that append the client's address to X-Forwarded-For; 0: the header is ignored
# (common/proxies.py; docs/deploy.md).
NUM_PROXIES = env_int("NUM_PROXIES", 0, minimum=0, maximum=10)

# Cross-origin use of the API (django-cors-headers, rules in api/cors.py): anonymous reads
# from anywhere, the whole API with a token only from API_CORS_TRUSTED_ORIGINS.
CORS_URLS_REGEX = r"(?!)"  # matches nothing: api.cors decides per request
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")
CORS_ALLOW_HEADERS = ("accept", "accept-language", "content-language", "if-none-match",
                      "if-modified-since")
CORS_EXPOSE_HEADERS = ("etag", "last-modified", "link", "location", "retry-after",
                       "content-disposition", "ratelimit-limit", "ratelimit-remaining",
                       "ratelimit-reset", "ratelimit-policy")
API_CORS_TRUSTED_ORIGINS = env_list("API_CORS_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "corsheaders",
    "axes",
    "allauth",
    "allauth.account",
    "records",
    "ratings",
    "api",
    "jobs",
    "drafts",
    "web",
]

MIDDLEWARE = [
    "config.middleware.RequestLogMiddleware",  # first: a log line for every request
    "config.middleware.QueryStringLimitMiddleware",
    "config.middleware.RequestBodyMiddleware",  # before anything reads the body
    "api.compression.ApiGZipMiddleware",  # after everything that changes a response body
    "common.unavailable.DatabaseUnavailableMiddleware",
    "api.cors.ApiCorsMiddleware",  # before anything that answers by itself
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # after sessions, before CommonMiddleware
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out sign-in, whatever the view did
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.accounts.context.email_available",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

_DEFAULT_DATABASE_URL = f"sqlite:///{DATA_DIR / 'fourcolor.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL") or _DEFAULT_DATABASE_URL
try:
    _database = dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
        conn_health_checks=True,
    )
except ValueError as exc:  # unknown scheme, unparsable URL
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not usable: {exc}") from exc

if _database["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts and wait up to 20 s for each other.
    _database.setdefault("OPTIONS", {}).update({
        "transaction_mode": "IMMEDIATE", "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    })
DATABASES = {"default": _database}

# The cache holds the rate-limit counters every worker must share (common/cache.py): Redis
# with REDIS_URL, otherwise the database's `fourcolor_cache` table (made by `migrate`), with
# room for every client of the last hour (culling drops live counters too).
REDIS_URL = env_str("REDIS_URL") or ""
CACHES = {"default": (
    {"BACKEND": "common.cache.RedisCache", "LOCATION": REDIS_URL} if REDIS_URL else
    {"BACKEND": "common.cache.DatabaseCache", "LOCATION": "fourcolor_cache",
     "OPTIONS": {"MAX_ENTRIES": 200_000, "CULL_FREQUENCY": 4}}
)}

# --- Authentication -------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in lockout (django-axes, config/signin.py; docs/deploy.md): SIGN_IN_FAILURE_LIMIT
# failures for one account or from one address lock it for SIGN_IN_LOCKOUT_MINUTES (a 429).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out attempt first
    # The exact username first (old accounts that differ only in case), then allauth's.
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AXES_FAILURE_LIMIT = env_int("SIGN_IN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("SIGN_IN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_CLIENT_IP_CALLABLE = "common.proxies.client_address"
AXES_USERNAME_CALLABLE = "config.signin.username_of"
AXES_LOCKOUT_CALLABLE = "config.signin.locked_out"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# E-mail from EMAIL_URL (config/email.py); without it the console in development, no mail in
# production (EMAIL_AVAILABLE false).
_email = email_settings(DEBUG)
globals().update(_email)
EMAIL_AVAILABLE: bool = _email["EMAIL_AVAILABLE"]
EMAIL_SUBJECT_PREFIX = "[fourcolor] "

# Accounts under /accounts/ (django-allauth, web/accounts/; docs/deploy.md, "E-mail").
ACCOUNT_ADAPTER = "web.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "web.accounts.forms.LoginForm",
    "signup": "web.accounts.forms.SignupForm",
    "reset_password": "web.accounts.forms.ResetPasswordForm",
    "reset_password_from_key": "web.accounts.forms.ResetPasswordKeyForm",
    "change_password": "web.accounts.forms.ChangePasswordForm",
    "add_email": "web.accounts.forms.AddEmailForm",
    "reauthenticate": "web.accounts.forms.ReauthenticateForm",
    "set_password": "web.accounts.forms.SetPasswordForm",
}
globals().update(account_settings(EMAIL_AVAILABLE))
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = EMAIL_SUBJECT_PREFIX
# Failed sign-ins are counted by django-axes alone (one lockout, one message).
ACCOUNT_RATE_LIMITS = {"login_failed": None}
ACCOUNT_USERNAME_MIN_LENGTH = 2

# --- Internationalisation -------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hant", _("Traditional Chinese")),
    ("vi", _("Vietnamese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)  # else WhiteNoise warns on every start
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed copies (`collectstatic`) with DEBUG off; the sources in development.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Source maps (14 MB of Swagger UI's and Redoc's) are for developers' tools: not compressed,
# which halves collectstatic's time (50 to 21 s of CPU).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

# --- REST API -------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "api.authentication.ApiTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's own, but deeply nested JSON is a 400 rather than a RecursionError (api.parsers).
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JsonParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # A burst rate and a sustained one each, API_THROTTLE_ANON ... (common/rates.py).
    "DEFAULT_THROTTLE_RATES": {
        scope: env_rates(f"API_THROTTLE_{scope.upper()}", rate)
        for scope, rate in DEFAULT_RATES.items() if scope != "check"
    },
    # Engine and notation errors, and every other error, in the one documented body.
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
}
# Largest upload the web form and the API accept, in bytes.
UPLOAD_MAX_BYTES = env_int("UPLOAD_MAX_BYTES", 20 * 1024 * 1024, minimum=1)
API_UPLOAD_MAX_BYTES = env_int("API_UPLOAD_MAX_BYTES", 32 * 1024 * 1024, minimum=1)
# What a form or JSON body may hold beyond the records the limits above count (boundaries,
# part headers, quoting): a file of exactly the limit is taken as multipart.
UPLOAD_FRAMING_BYTES = 64 * 1024
# Records one upload (web, API or its background job) may hold: the records after them are
# refused with one message and not read. `manage.py import_games` has no such limit.
UPLOAD_MAX_RECORDS = env_int("UPLOAD_MAX_RECORDS", 20_000, minimum=1)
# Games one API export request may stream: more is a 400 that says to narrow the filters.
API_EXPORT_MAX_GAMES = env_int("API_EXPORT_MAX_GAMES", 10_000, minimum=1)
# The query string of any address, in bytes; longer is a 414 (config.middleware).
QUERY_STRING_MAX_BYTES = 4096
# Rated rounds a late (older) game may replay at import; beyond it `recompute_stats --pending`.
RATINGS_REPLAY_LIMIT = 10_000

SPECTACULAR_SETTINGS = {
    "TITLE": "fourcolor archive API",
    "DESCRIPTION": "Game records of Four Color Cards (四色牌, tứ sắc), validated by the engine.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {"JobStatusEnum": "jobs.models.Job.Status",
                            "CardEnum": "drafts.play.CARD_TOKENS"},
}

# --- Background jobs (docs/deploy.md, "Background jobs") -----------------------------------
# Without CELERY_BROKER_URL the database worker runs them (`manage.py run_jobs`, started by
# gunicorn and `make run`); with it, `celery -A config worker -B`.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL") or ""
# Without a broker only `task.apply()` (tests) runs a task, in-process; a failure marks the Job.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_IGNORE_RESULT = True  # progress and results live in the Job row
# A message is acknowledged once its job finished: a killed worker's job is delivered again
# (after the visibility timeout), and no message waits behind a long job unseen.
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=1),
    "unacked_restore_interval": env_int("CELERY_RESTORE_INTERVAL", 10, minimum=1),
    "unacked_restore_throttle": 1,
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Seconds between two looks for stored games the statistics do not count yet.
STATS_CHECK_SECONDS = env_int("STATS_CHECK_SECONDS", 60, minimum=1)
# A runner that has not refreshed its lease for this long is presumed dead; its job is taken over
# (refreshed every sixth of it by a thread of the runner's). 45 s plus beat's 15 s check: a job
# whose worker died on another machine resumes within a minute.
JOB_LEASE_SECONDS = env_int("JOB_LEASE_SECONDS", 45, minimum=1)
# Celery beat's two checks (the database worker does both in its own loop).
CELERY_BEAT_SCHEDULE = {
    "statistics-catch-up": {"task": "jobs.catch_up_stats",
                            "schedule": float(STATS_CHECK_SECONDS)},
    "jobs-take-over": {"task": "jobs.take_over", "schedule": 15.0},
}
# A job of at least 2 x JOB_PART_MIN_SIZE records is split into at most JOB_PARTS parts.
JOB_PARTS = env_int("JOB_PARTS", 8, minimum=1)
JOB_PART_MIN_SIZE = env_int("JOB_PART_MIN_SIZE", 1000, minimum=1)
# Database workers gunicorn starts beside its web workers (0: none; ignored with a broker).
JOB_WORKERS = env_int("JOB_WORKERS", 2, minimum=0)
# Uploads of at least this many bytes run on a worker; smaller ones in the request.
BACKGROUND_IMPORT_MIN_BYTES = env_int("BACKGROUND_IMPORT_MIN_BYTES", 256 * 1024, minimum=1)

# --- Analysis (docs/analysis.md) ------------------------------------------------------------
# Samples per option when a request names none, and the most a request may ask for.
ANALYSIS_SAMPLES = env_int("ANALYSIS_SAMPLES", _analysis.DEFAULT_SAMPLES, minimum=1)
ANALYSIS_MAX_SAMPLES = env_int("ANALYSIS_MAX_SAMPLES", max(ANALYSIS_SAMPLES, 1000), minimum=1)
if ANALYSIS_MAX_SAMPLES < ANALYSIS_SAMPLES:
    raise ImproperlyConfigured(
        f"ANALYSIS_MAX_SAMPLES={ANALYSIS_MAX_SAMPLES} is below ANALYSIS_SAMPLES={ANALYSIS_SAMPLES}."
    )
# Queue an analysis of every newly stored game (each costs seconds of work).
ANALYSIS_ON_UPLOAD = env_bool("ANALYSIS_ON_UPLOAD", False)
# Analyses one user may request per hour (API and web), on top of the API's own throttles.
ANALYSIS_REQUESTS_PER_HOUR = env_int("ANALYSIS_REQUESTS_PER_HOUR", 30, minimum=1)

# --- Security: HTTPS, cookies, Content-Security-Policy ---------------------------------------

# A production start is HTTPS-only; HTTPS=false serves plain HTTP (e.g. a test on loopback).
HTTPS = env_bool("HTTPS", not DEBUG)
# The links in account mail (confirmation, password reset).
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if HTTPS else "http"
SECURE_SSL_REDIRECT = HTTPS
# Load balancers probe /healthz over plain HTTP on the private network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = False  # a commitment for the whole domain, slow to undo: by hand
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients).
if env_bool("BEHIND_HTTPS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# `check --deploy` warns (W021) while preload is off, deliberately.
SILENCED_SYSTEM_CHECKS = ["security.W021"] if HTTPS else []

# Only the project's own files, no inline script or style, no CDN (data: images for Swagger
# UI's icons, blob: workers for Redoc's search; api.views.base.BROWSABLE_API_CSP relaxes styles).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = (env_str("LOG_LEVEL") or "INFO").upper()
if not isinstance(logging.getLevelName(LOG_LEVEL), int):
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not a logging level name.")

# "json": one JSON object per line, for log collectors; "plain" for people (config/logging.py).
LOG_FORMAT = (env_str("LOG_FORMAT") or ("plain" if DEBUG else "json")).lower()
LOGGING = logging_config(LOG_LEVEL, LOG_FORMAT)
