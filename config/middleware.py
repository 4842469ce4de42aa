"""Project-wide middleware."""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

from config.logging import REQUEST_ID

logger = logging.getLogger("fourcolor.request")

REQUEST_ID_HEADER = "X-Request-ID"
# An id from the proxy in front is kept (it ties our lines to the proxy's) when it is short
# and plain; anything else is replaced, so that no client can forge lines into the log.
_GOOD_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def _request_id(request: HttpRequest) -> str:
    incoming = request.headers.get(REQUEST_ID_HEADER, "")
    return incoming if _GOOD_ID.fullmatch(incoming) else uuid.uuid4().hex


class RequestLogMiddleware:
    """One log line per request (method, path, status, duration) under a request id.

    The id is the proxy's X-Request-ID when it sent a usable one, a new one otherwise; it is
    returned in the response's X-Request-ID header and stamped on every log record made while
    the request is served. The duration runs until the response object is ready, so for a
    streamed export it leaves out the streaming.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = _request_id(request)
        # Cleared at request_finished, not on the way out of here: Django logs a 4xx/5xx
        # ("django.request") after the middleware has returned, and that line needs the id too.
        REQUEST_ID.set(request_id)
        started = time.perf_counter()
        # Django turns a view's exception into a 500 response before it comes back here.
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        response[REQUEST_ID_HEADER] = request_id
        logger.info(
            # %r: a path may hold a decoded newline, which must not start a forged line.
            "%s %r %s %.1fms", request.method, request.path, response.status_code, duration_ms,
            extra={"method": request.method, "path": request.path,
                   "status": response.status_code, "duration_ms": duration_ms},
        )
        return response


def _forget_request_id(**_kwargs: object) -> None:
    REQUEST_ID.set(None)


request_finished.connect(_forget_request_id, dispatch_uid="config.middleware.forget_request_id")


class QueryStringLimitMiddleware:
    """Refuses an address whose query string is over QUERY_STRING_MAX_BYTES with a 414 that
    says so: JSON in the API's error shape under /api/, plain text elsewhere. No filter needs
    that much, and nothing after this parses it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        size = len(request.META.get("QUERY_STRING", ""))
        limit: int = settings.QUERY_STRING_MAX_BYTES
        if size <= limit:
            return self.get_response(request)
        message = f"The query string has {size} bytes; at most {limit} are accepted."
        if request.path.startswith("/api/"):
            body = {"error": {"status": 414, "code": "uri_too_long", "message": message}}
            return JsonResponse(body, status=414)
        return HttpResponse(message, status=414, content_type="text/plain; charset=utf-8")
