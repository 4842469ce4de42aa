"""Project-wide middleware."""

from __future__ import annotations

import logging
import re
import tempfile
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
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


class ChunkedBodyMiddleware:
    """Reads a chunked request body (`Transfer-Encoding: chunked`, no `Content-Length`).

    Django reads exactly `Content-Length` bytes of a body, so without one it sees an empty
    body: a chunked upload was answered "Send FCN text...". When the server marks the input
    as ending by itself (`wsgi.input_terminated`, as gunicorn does) the body is spooled to a
    temporary file (memory up to 1 MiB), at most the largest upload any door takes; then the
    request carries its real length, and every size check and parser works as for any body.
    A longer body is a 413 before anything of it is used.
    """

    SPOOL_MEMORY = 1024 * 1024
    CHUNK = 64 * 1024

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        meta = request.META
        chunked = "chunked" in str(meta.get("HTTP_TRANSFER_ENCODING", "")).lower()
        if chunked and not meta.get("CONTENT_LENGTH") and meta.get("wsgi.input_terminated"):
            too_large = self._spool(request)
            if too_large is not None:
                return too_large
        return self.get_response(request)

    def _spool(self, request: HttpRequest) -> HttpResponse | None:
        limit = max(settings.UPLOAD_MAX_BYTES, settings.API_UPLOAD_MAX_BYTES,
                    settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        source = request.META["wsgi.input"]
        spool = tempfile.SpooledTemporaryFile(max_size=self.SPOOL_MEMORY)
        size = 0
        while chunk := source.read(self.CHUNK):
            size += len(chunk)
            if size > limit:
                spool.close()
                message = f"The body is larger than {limit} bytes, the most any upload takes."
                if request.path.startswith("/api/"):
                    body = {"error": {"status": 413, "code": "too_large", "message": message}}
                    return JsonResponse(body, status=413)
                return HttpResponse(message, status=413,
                                    content_type="text/plain; charset=utf-8")
            spool.write(chunk)
        spool.seek(0)
        request.META["CONTENT_LENGTH"] = str(size)
        request._stream = LimitedStream(spool, size)  # type: ignore[attr-defined]
        request._spooled_body = spool  # type: ignore[attr-defined]  # closed with the request
        return None
