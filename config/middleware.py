"""Project-wide middleware."""

from __future__ import annotations

import logging
import re
import tempfile
import time
import uuid
import zlib
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy

from common.errors import error_response
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


class QueryStringLimitMiddleware(MiddlewareMixin):
    """Refuses an address whose query string is over QUERY_STRING_MAX_BYTES with a 414 that
    says so: JSON in the API's error shape under /api/, plain text elsewhere. No filter needs
    that much, and nothing after this parses it."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        size = len(request.META.get("QUERY_STRING", ""))
        limit: int = settings.QUERY_STRING_MAX_BYTES
        if size <= limit:
            return None
        return _refusal(request, 414, "uri_too_long", gettext_lazy(
            "The query string has %(size)s bytes; at most %(limit)s are accepted."),
            size=size, limit=limit)


class RequestBodyMiddleware(MiddlewareMixin):
    """Reads a body Django cannot size by itself: chunked (`Transfer-Encoding: chunked`, no
    `Content-Length`: Django would see it empty) or compressed (`Content-Encoding: gzip`).

    When the server marks the input as ending by itself (`wsgi.input_terminated`, as gunicorn
    does) the body is spooled to a temporary file (memory up to 1 MiB); a gzip body is spooled
    decoded. Either way at most the largest upload any door takes (with room for a form's
    framing): a longer one, or a small gzip body that would expand past it, is a 413 before
    anything of it is used. Then the request carries its real length and no encoding, and every
    size check and parser works as for any body. A body gzip cannot decode is a 400; another
    encoding a 415.
    """

    SPOOL_MEMORY = 1024 * 1024
    CHUNK = 64 * 1024
    GZIP = ("gzip", "x-gzip")

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        meta = request.META
        encoding = str(meta.get("HTTP_CONTENT_ENCODING", "")).strip().lower()
        if encoding not in ("", "identity", *self.GZIP):
            return _refusal(request, 415, "unsupported_media_type", gettext_lazy(
                "Content-Encoding “%(encoding)s” is not supported: send the body as it is or "
                "with gzip."), encoding=encoding)
        chunked = "chunked" in str(meta.get("HTTP_TRANSFER_ENCODING", "")).lower()
        if chunked and not meta.get("CONTENT_LENGTH") and meta.get("wsgi.input_terminated"):
            source = meta["wsgi.input"]
        elif encoding in self.GZIP:
            source = request._stream  # type: ignore[attr-defined]  # Content-Length bytes
        else:
            return None
        return self._spool(request, source, gzip=encoding in self.GZIP)

    def _spool(self, request: HttpRequest, source: Any, gzip: bool) -> HttpResponse | None:
        limit = max(settings.UPLOAD_MAX_BYTES, settings.API_UPLOAD_MAX_BYTES,
                    settings.DATA_UPLOAD_MAX_MEMORY_SIZE) + settings.UPLOAD_FRAMING_BYTES
        spool = tempfile.SpooledTemporaryFile(max_size=self.SPOOL_MEMORY)
        size = 0
        try:
            for piece in (_decoded(source, self.CHUNK, limit + 1) if gzip
                          else iter(partial(source.read, self.CHUNK), b"")):
                size += len(piece)
                if size > limit:
                    spool.close()
                    return _refusal(request, 413, "too_large", gettext_lazy(
                        "The body is larger than %(limit)s bytes, the most any upload takes."),
                        limit=limit)
                spool.write(piece)
        except (OSError, EOFError, zlib.error) as exc:
            spool.close()
            return _refusal(request, 400, "parse_error",
                            gettext_lazy("The body is not valid gzip: %(reason)s."), reason=exc)
        spool.seek(0)
        request.META["CONTENT_LENGTH"] = str(size)
        request.META.pop("HTTP_CONTENT_ENCODING", None)
        request._stream = LimitedStream(spool, size)  # type: ignore[attr-defined]
        request._spooled_body = spool  # type: ignore[attr-defined]  # closed with the request
        return None


def _decoded(source: Any, chunk: int, most: int) -> Iterator[bytes]:
    """The gzip body's decoded bytes (members one after another), never more than `most`
    at once whatever one compressed chunk expands to."""
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    open_member = False
    for piece in iter(partial(source.read, chunk), b""):
        while piece:
            open_member = True
            yield decoder.decompress(piece, most)
            piece = decoder.unconsumed_tail
            if decoder.eof:  # the next member, if any, starts in what is left
                piece = decoder.unused_data + piece
                decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
                open_member = False
    if open_member:
        raise EOFError("it ends in the middle of its data")


def _refusal(request: HttpRequest, status: int, code: str, said: Any,
             **params: Any) -> HttpResponse:
    """An answer before any view: the API's error body under /api/, plain text elsewhere, in
    the visitor's language (read from the request: LocaleMiddleware has not run yet)."""
    with translation.override(translation.get_language_from_request(request)):
        message = str(said) % params
    if request.path.startswith("/api/"):
        return error_response(status, code, message)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
