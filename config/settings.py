"""Django settings for the fourcolor archive service.

Everything that differs between a laptop and a production host is read from environment
variables (see README.md, "Configuration"). The defaults give a working development setup on
SQLite under var/; a production start with DEBUG off refuses to run without a SECRET_KEY and
ALLOWED_HOSTS instead of falling back to something unsafe.
"""

from __future__ import annotations

import logging
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
# Run-time state (SQLite file, collected static files, screenshots) lives here, never in git.
VAR_DIR = BASE_DIR / "var"
VAR_DIR.mkdir(exist_ok=True)

# --- Core -----------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-fourcolor-development-key-never-use-in-production"
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off "
            "(for example: export SECRET_KEY=\"$(python -c 'import secrets; "
            "print(secrets.token_urlsafe(50))')\")."
        )
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must be set (comma-separated host names) when DEBUG is off."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "records",
    "ratings",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files straight from the WSGI app: no separate web server or CDN needed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the chosen language), before CommonMiddleware (URL handling).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------

_DEFAULT_DATABASE_URL = f"sqlite:///{VAR_DIR / 'fourcolor.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL", _DEFAULT_DATABASE_URL)
try:
    _database = dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
        conn_health_checks=True,
    )
except ValueError as exc:  # unknown scheme, unparsable URL
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not usable: {exc}") from exc

if _database["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts (no upgrade deadlocks between two
    # uploads) and wait for each other instead of failing at once with "database is locked".
    _database.setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("SQLITE_TIMEOUT", 20, minimum=0),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DATABASES = {"default": _database}

# Per-process memory by default (the embedded setup needs nothing else); with REDIS_URL the
# cache, and so the API throttle counters and cached replays, are shared by every worker.
REDIS_URL = env_str("REDIS_URL") or ""
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
}

# --- Authentication -------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# --- Internationalisation -------------------------------------------------------------------

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("zh-hant", _("Traditional Chinese")),
    ("vi", _("Vietnamese")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

# --- Static files ---------------------------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# WhiteNoise warns about a missing STATIC_ROOT on every start until collectstatic has run.
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # With DEBUG off, serve hashed, compressed copies made by `manage.py collectstatic`; in
    # development (and under pytest, which imports settings with the DEBUG default) serve the
    # source files so that nothing needs collecting first.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# --- REST API -------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": env_int("API_PAGE_SIZE", 50, minimum=1, maximum=1000),
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_THROTTLE_ANON", "1000/hour"),
        "user": env_str("API_THROTTLE_USER", "10000/hour"),
        "upload": env_str("API_THROTTLE_UPLOAD", "120/hour"),
        "export": env_str("API_THROTTLE_EXPORT", "60/hour"),
    },
    # Engine and notation errors, and every other error, in the one documented body.
    "EXCEPTION_HANDLER": "api.exceptions.exception_handler",
}
# Largest upload the web form and the API accept, in bytes.
UPLOAD_MAX_BYTES = env_int("UPLOAD_MAX_BYTES", 20 * 1024 * 1024, minimum=1)
API_UPLOAD_MAX_BYTES = env_int("API_UPLOAD_MAX_BYTES", 32 * 1024 * 1024, minimum=1)
# Rated rounds a late (older) game may replay at import; beyond it `recompute_stats --pending`.
RATINGS_REPLAY_LIMIT = env_int("RATINGS_REPLAY_LIMIT", 10_000, minimum=0)

SPECTACULAR_SETTINGS = {
    "TITLE": "fourcolor archive API",
    "DESCRIPTION": "Game records of Four Color Cards (四色牌, tứ sắc), validated by the engine.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and Redoc come from drf-spectacular-sidecar, served as our own static files.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Security behind a proxy ----------------------------------------------------------------

if env_bool("BEHIND_HTTPS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# --- Logging --------------------------------------------------------------------------------

LOG_LEVEL = (env_str("LOG_LEVEL", "INFO")).upper()
if not isinstance(logging.getLevelName(LOG_LEVEL), int):
    raise ImproperlyConfigured(f"LOG_LEVEL={LOG_LEVEL!r} is not a logging level name.")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
