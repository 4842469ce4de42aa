"""Views that belong to the project rather than to one app."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from config.unavailable import RETRY_AFTER_SECONDS

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database check for load balancers and monitoring.

    200 when a trivial query round-trips to the database, 503 otherwise. The error's class name
    is reported, not its text, which may contain connection details.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
        if row is None or row[0] != 1:
            raise DatabaseError(f"SELECT 1 returned {row!r}")
    except DatabaseError as exc:
        logger.exception("Health check: database unavailable")
        response = JsonResponse(
            {"status": "error", "database": {"ok": False, "error": type(exc).__name__}},
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"status": "ok", "database": {"ok": True, "vendor": connection.vendor}})
