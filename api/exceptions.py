"""The one exception handler of the API: every error has the same JSON body,
`{"error": {"status", "code", "message", ...}}` (docs/api.md, "Errors"; the schema's ErrorDoc).

An engine or notation error escaping a view (a stored game whose text the current engine
refuses, see `manage.py revalidate`) is a 422 with the error in `record`. The database's absence
goes on to common.unavailable's 503, as everywhere on the site. Anything else unexpected is
logged with its traceback and answered with a 500 in the same shape, never a traceback page.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404, UnreadablePostError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from rest_framework import exceptions, status, views
from rest_framework.response import Response
from rest_framework.views import set_rollback

from common.errors import error_body
from common.unavailable import is_unavailable
from fourcolor.errors import FcnError
from records.refusal_text import refusal_text

logger = logging.getLogger(__name__)


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


class Conflict(exceptions.APIException):
    """409: a well-formed request the resource's state or the rules refuse (a draft's illegal
    event, with the engine's verdict in `record`)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = gettext_lazy("The request conflicts with the resource's state.")
    default_code = "conflict"

    def __init__(self, message: str, code: str, record: dict[str, Any] | None = None) -> None:
        super().__init__(message, code)
        self.record = record


class Illegal(exceptions.APIException):
    """400 `illegal`: what the request sends, well-formed, is refused by the rules (a draft's
    illegal event, a fifth copy in a deal), with the engine's verdict in `record`. The request
    is at fault, not the resource's state: sent again unchanged, it is refused again."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "illegal"

    def __init__(self, error: FcnError) -> None:
        self.record = record_json(error)
        super().__init__(self.record["message"], self.default_code)


class RecordSyntax(Illegal):
    """400 `syntax`: text that is not well-formed FCN where FCN is asked for, in the engine's
    words."""

    default_code = "syntax"


def record_json(error: FcnError) -> dict[str, Any]:
    """An engine error as a client gets it: where, its code and parameters, and its message
    in the request's language (records.refusal_text)."""
    record = error.as_dict()
    record["message"] = refusal_text(record)
    return record


def _message_of(detail: Any) -> str:
    """The first message of a DRF detail (a string, a list or a dict of them)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = _message_of(value)
            return inner if key == "non_field_errors" else f"{key}: {inner}"
        return ""
    if isinstance(detail, list):
        return _message_of(detail[0]) if detail else ""
    return str(detail)


def _fields_of(detail: Any) -> dict[str, Any]:
    if isinstance(detail, dict):
        return dict(detail)
    return {"non_field_errors": detail if isinstance(detail, list) else [detail]}


def _code_of(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return str(getattr(exc, "default_code", "error"))


# DRF's own messages, said in the request's language (DRF's catalogues lack most of them in
# vi and zh_Hant): used when an exception carries its class's default.
DEFAULT_MESSAGES = {
    exceptions.NotAuthenticated: gettext_lazy("Authentication credentials were not provided."),
    exceptions.AuthenticationFailed: gettext_lazy("Incorrect authentication credentials."),
    exceptions.PermissionDenied: gettext_lazy(
        "You do not have permission to perform this action."),
    exceptions.NotFound: gettext_lazy("Not found."),
    exceptions.NotAcceptable: gettext_lazy("Could not satisfy the request Accept header."),
    exceptions.ParseError: gettext_lazy("Malformed request."),
}


def _said(exc: exceptions.APIException, context: dict[str, Any]) -> str | None:
    """The message of one of DRF's own exceptions in the request's language; None for any
    other message (the API's own are written with gettext where they are raised)."""
    request = context.get("request")
    if isinstance(exc, exceptions.Throttled):
        if exc.wait is None:
            return _("Request was throttled.")
        seconds = math.ceil(exc.wait)
        return ngettext("Request was throttled. Expected available in %(seconds)s second.",
                        "Request was throttled. Expected available in %(seconds)s seconds.",
                        seconds) % {"seconds": seconds}
    detail = str(exc.detail) if isinstance(exc.detail, str) else None
    if isinstance(exc, exceptions.MethodNotAllowed) and request is not None:
        if detail == str(exc.default_detail).format(method=request.method):
            return _('Method "%(method)s" not allowed.') % {"method": request.method}
    if isinstance(exc, exceptions.UnsupportedMediaType) and request is not None:
        media_type = request.content_type
        if detail == str(exc.default_detail).format(media_type=media_type):
            return _('Unsupported media type "%(media_type)s" in request.') % {
                "media_type": media_type}
    default = DEFAULT_MESSAGES.get(type(exc))
    if default is not None and detail == str(exc.default_detail):
        return str(default)
    return None


def _as_drf(exc: Exception) -> Exception:
    """Django's own exceptions as DRF's (the others unchanged)."""
    if isinstance(exc, Http404):
        # get_object_or_404's "No Game matches the given query." is Django's, in English
        # only: the path says what was not found.
        generic = str(exc).endswith(" matches the given query.")
        exc = exceptions.NotFound() if generic else exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, UnreadablePostError):
        exc = exceptions.ParseError(_("The request body could not be read."))
    elif isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
        # Django's own limits (DATA_UPLOAD_MAX_NUMBER_FIELDS/FILES): a 400, as on the web.
        exc = exceptions.ParseError(str(exc))
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError(_("The request could not be read."))
    return exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: the error body for every exception (see the module doc)."""
    if isinstance(exc, FcnError):
        set_rollback()
        record = record_json(exc)
        where = f"{exc.line}:{exc.col}: " if exc.line else ""
        return Response(
            error_body(422, "record_error", where + record["message"], record=record), status=422
        )
    if is_unavailable(exc):
        # Raised anywhere in the view (the token lookup, a throttle's counter, the queries):
        # DRF raises it on, to common.unavailable.DatabaseUnavailableMiddleware.
        return None
    exc = _as_drf(exc)
    if not isinstance(exc, exceptions.APIException):
        view = context.get("view")
        logger.exception("Unexpected error in %s", type(view).__name__ if view else "the API")
        set_rollback()
        return Response(
            error_body(500, "server_error", _("Internal server error.")), status=500
        )

    # DRF's handler: WWW-Authenticate on a 401, Retry-After on a 429, the rollback.
    response = views.exception_handler(exc, context)
    assert response is not None  # an APIException
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        extra["fields"] = _fields_of(exc.detail)
        message = _("Invalid input: %(message)s") % {"message": _message_of(exc.detail)}
    else:
        message = _said(exc, context) or _message_of(exc.detail)
    wait = getattr(exc, "wait", None)
    extra |= {"retry_after": None if wait is None else int(wait),
              "record": getattr(exc, "record", None)}
    response.data = error_body(exc.status_code, _code_of(exc), message, **extra)
    return response
