"""The database unreachable: a 503 with `Retry-After` for every request, never a 500.

Any request may be the one that finds the database gone, at any step: loading the session,
looking up an API token, counting a throttle, the view's own queries, saving the session on
the way out. Wherever the error is raised, it ends here:

- a view's (or a template response's) exception, an API view's authentication and throttles
  included: `DatabaseUnavailableMiddleware`;
- anything else, a middleware's included: `server_error`, the project's `handler500`.

The answer uses no database (no session, no user, no template context processors): the API's
JSON error body under /api/, a plain HTML page elsewhere, in the language the request asks
for (its language cookie or Accept-Language). The error's text is logged, never
shown (psycopg's names hosts and ports). Nothing needs restarting when the database is back:
Django drops a connection that failed at the end of its request and opens a new one.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy
from django.views import defaults

from common.errors import error_response

logger = logging.getLogger(__name__)

# How long clients are asked to wait: about what a database restart or fail-over takes.
RETRY_AFTER_SECONDS = 30
MESSAGE = gettext_lazy(
    "The database is temporarily unavailable. Please try again in a little while.")


def is_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc` says the database cannot be reached (connection refused or lost, server
    shutting down, SQLite locked past its timeout), as opposed to a fault of the query."""
    return isinstance(exc, (OperationalError, InterfaceError))


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 in the visitor's language, read from the request itself (the language cookie,
    then Accept-Language), never from the session, which needs the database; chosen here
    because the error may be raised before LocaleMiddleware has run."""
    response: HttpResponse
    with translation.override(translation.get_language_from_request(request)):
        if request.path.startswith("/api/"):
            response = error_response(503, "unavailable", str(MESSAGE),
                                      retry_after=RETRY_AFTER_SECONDS)
        else:
            response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


def _log(request: HttpRequest, exc: BaseException) -> None:
    logger.warning("database unavailable, answered 503: %s %r: %s",
                   request.method, request.path, " ".join(str(exc).split()))


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """Turns a view's database-unavailable error into the 503 (in DEBUG too)."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_unavailable(exception):
            return None
        _log(request, exception)
        return unavailable_response(request)


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """handler500: the 503 when the error being handled is the database's absence (raised
    outside any view: a middleware loading or saving the session, say), Django's 500 page
    otherwise. Django calls it while handling the exception, so `sys.exc_info()` holds it."""
    exc = sys.exc_info()[1]
    if is_unavailable(exc):
        assert exc is not None
        _log(request, exc)
        return unavailable_response(request)
    if request.path.startswith("/api/"):
        return error_response(500, "server_error", "Internal server error.")
    return defaults.server_error(request, template_name)
