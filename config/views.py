"""Views that belong to the project rather than to one app."""

from __future__ import annotations

import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from common.errors import error_response
from common.unavailable import RETRY_AFTER_SECONDS
from jobs.health import degraded, queue_health, statistics_health

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database check for load balancers and monitoring.

    200 when a trivial query round-trips to the database, 503 otherwise. The error's class name
    is reported, not its text, which may contain connection details. Status "degraded" (still
    200, with the reasons) when games wait to be counted too long or a job stopped making
    progress (jobs/health.py). With `?detail=1`, also the job queue and the statistics' state
    (games not counted yet, the last count that failed).
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        reasons = degraded()
    except DatabaseError as exc:
        logger.exception("Health check: database unavailable")
        response = JsonResponse(
            {"status": "error", "database": {"ok": False, "error": type(exc).__name__}},
            status=503,
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    body: dict[str, object] = {"status": "ok",
                               "database": {"ok": True, "vendor": connection.vendor}}
    # Still 200: the site answers; the background work is behind (jobs/health.py says why).
    if reasons:
        body |= {"status": "degraded", "reasons": reasons}
    if request.GET.get("detail"):
        # The background work: a count that failed shows here.
        body |= {"jobs": queue_health(), "statistics": statistics_health()}
    return JsonResponse(body)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: under /api/ the API's JSON error body (a Host header the site does not
    serve, a malformed request Django refuses before any view), elsewhere Django's page."""
    if request.path.startswith("/api/"):
        message = "Bad request: a Host header this site does not serve, or a malformed request."
        return error_response(400, "bad_request", message)
    return defaults.bad_request(request, exception)
