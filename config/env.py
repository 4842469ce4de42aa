"""Typed readers for settings that come from environment variables.

Every helper fails loudly with ImproperlyConfigured when a variable is set to something it
cannot interpret: a typo such as DEBUG=flase must stop the process at start-up instead of being
silently read as some default.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def env_str(name: str, environ: Mapping[str, str] | None = None) -> str | None:
    """A string variable with surrounding blanks removed; None when unset or blank."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None or not value.strip():
        return None
    return value.strip()


def env_bool(name: str, default: bool = False, *, environ: Mapping[str, str] | None = None) -> bool:
    """A boolean variable: 1/true/yes/on or 0/false/no/off, case-insensitive."""
    value = env_str(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"The environment variable {name}={value!r} is not a boolean; "
        f"use one of {sorted(_TRUE)} or {sorted(_FALSE)}."
    )


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """An integer variable, optionally bounded (inclusive)."""
    value = env_str(name, environ)
    if value is None:
        return default
    try:
        number = int(value, 10)
    except ValueError:
        raise ImproperlyConfigured(
            f"The environment variable {name}={value!r} is not an integer."
        ) from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(
            f"The environment variable {name}={number} is below the minimum {minimum}."
        )
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(
            f"The environment variable {name}={number} is above the maximum {maximum}."
        )
    return number


_RATE = re.compile(r"[0-9]+/(s|sec|second|m|min|minute|h|hour|d|day)")


def env_rates(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """Request rates, one or more separated by commas: `20/minute,120/hour` (a burst and a
    sustained rate). Each is a count and a period: s, sec, second, m, min, minute, h, hour,
    d or day."""
    parts = env_list(name, default.split(","), environ=environ)
    if not all(_RATE.fullmatch(part) for part in parts):
        raise ImproperlyConfigured(
            f"The environment variable {name}={env_str(name, environ)!r} is not a list of rates "
            "such as '20/minute,120/hour' (periods: second, minute, hour, day)."
        )
    return ",".join(parts)


def env_list(
    name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blanks around items are dropped, empty items are refused."""
    value = env_str(name, environ)
    if value is None:
        return list(default or [])
    items = [item.strip() for item in value.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"The environment variable {name}={value!r} has an empty item in its "
            "comma-separated list."
        )
    return items


# Variables the settings no longer read, and what does their work now: set, they stop the start
# (a value an operator set must not be silently ignored).
RETIRED = {
    **dict.fromkeys(("EMAIL_HOST", "EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD",
                     "EMAIL_USE_TLS", "EMAIL_USE_SSL", "EMAIL_TIMEOUT"), "EMAIL_URL"),
    **dict.fromkeys(("SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
                     "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_COOKIES"),
                    "HTTPS"),
    "GUNICORN_*": "gunicorn's own options (command line, or GUNICORN_CMD_ARGS)",
    "JOB_POLL_SECONDS": "manage.py run_jobs --poll",
}
FIXED = ("SQLITE_TIMEOUT", "API_PAGE_SIZE", "DATA_UPLOAD_MAX_MEMORY_SIZE",
         "DATA_UPLOAD_MAX_NUMBER_FIELDS", "QUERY_STRING_MAX_BYTES", "RATINGS_REPLAY_LIMIT",
         "COLLECT_AFTER_RESPONSE")


def refuse_retired(environ: Mapping[str, str] | None = None) -> None:
    """ImproperlyConfigured when a variable the settings no longer read is set."""
    names = [name for name in (os.environ if environ is None else environ)
             if env_str(name, environ) is not None]
    for name in names:
        if name in RETIRED or (name.startswith("GUNICORN_") and name != "GUNICORN_CMD_ARGS"):
            instead = RETIRED.get(name, RETIRED["GUNICORN_*"])
            raise ImproperlyConfigured(
                f"The environment variable {name} is no longer read: use {instead}.")
        if name in FIXED:
            raise ImproperlyConfigured(
                f"The environment variable {name} is no longer read: the setting is fixed "
                "(config/settings.py, or Django's default).")
