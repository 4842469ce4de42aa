"""Logging set-up: plain lines for people, one JSON object per line for log collectors.

`logging_config()` builds the dictConfig for settings.LOGGING and for gunicorn's own loggers
(config/gunicorn.conf.py), so that the application's lines and the server's share one format.
Every record made while a request is served carries that request's id (`request_id`), set by
`config.middleware.RequestLogMiddleware` through a context variable, which follows the request
into whatever the view calls.

ERROR is for the operator's alerts, so nothing a visitor sends may reach it (`ClientErrors`):
Django logs a refused request's SuspiciousOperation (an over-large paste, too many fields, an
unknown host) at ERROR with its traceback, and every 503 at ERROR; here they are WARNING,
without the traceback. A 500, the server's own fault, stays ERROR. An outage is alerted on
by /healthz, not by the 503s each visitor gets meanwhile.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any

from django.core.exceptions import SuspiciousOperation
from pythonjsonlogger.core import RESERVED_ATTRS

FORMATS = ("plain", "json")

# The id of the request this thread (or task) is serving; None outside a request.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)


class RequestIdFilter(logging.Filter):
    """Stamps each record with the current request's id (unless the caller gave one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class ClientErrors(logging.Filter):
    """Lowers a record about a client's request (a 4xx, a 503) from ERROR to WARNING and drops
    its traceback. On Django's request and security loggers only: a filter of a logger sees
    the records made on it, not its children's, hence each security logger by name."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if record.levelno >= logging.ERROR and isinstance(status, int) and (
                status < 500 or status == 503):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def _security_loggers() -> list[str]:
    """The loggers Django reports a SuspiciousOperation on: `django.security.<its class>`."""
    # The apps' own kinds (a session key, an admin look-up), defined outside django.core.
    import django.contrib.admin.exceptions  # noqa: F401
    import django.contrib.sessions.exceptions  # noqa: F401

    found, todo = set(), [SuspiciousOperation]
    while todo:
        kind = todo.pop()
        found.add(f"django.security.{kind.__name__}")
        todo += kind.__subclasses__()
    return sorted(found)


def _json_formatter() -> dict[str, Any]:
    return {
        "()": "pythonjsonlogger.json.JsonFormatter",
        "fmt": "%(levelname)s %(name)s %(message)s %(request_id)s",
        "rename_fields": {"levelname": "level", "name": "logger"},
        # ISO 8601 in UTC, under "time".
        "timestamp": "time",
        # Django passes the HttpRequest itself as `request` (django.request, django.server):
        # its repr says nothing the request log line does not, so it is left out.
        "reserved_attrs": [*RESERVED_ATTRS, "request"],
        "json_ensure_ascii": False,
    }


def logging_config(level: str, fmt: str) -> dict[str, Any]:
    """The dictConfig for `level` (a logging level name) in format `fmt` ("plain" or "json")."""
    if fmt not in FORMATS:
        raise ValueError(f"LOG_FORMAT={fmt!r} is not one of {', '.join(FORMATS)}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logging.RequestIdFilter"},
                    "client_errors": {"()": "config.logging.ClientErrors"}},
        "formatters": {
            "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
            "json": _json_formatter(),
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": fmt,
                "filters": ["request_id"],
            },
        },
        "root": {"handlers": ["console"], "level": level},
        # Django's and gunicorn's loggers come with handlers of their own (Django's print in
        # DEBUG, runserver's lines, gunicorn's stderr): without them, their records reach the
        # root's handler only, in the one format. Gunicorn's entries only matter when
        # gunicorn.conf.py passes this configuration.
        "loggers": {
            "django": {"handlers": [], "propagate": True, "level": level},
            **{name: {"filters": ["client_errors"]}
               for name in ["django.request", *_security_loggers()]},
            "django.server": {"handlers": [], "propagate": True, "level": level},
            "gunicorn.error": {"handlers": [], "propagate": True},
            "gunicorn.access": {"handlers": [], "propagate": True},
        },
    }
