"""The one error body of every answer that is not a page (the API, and the JSON answers of the
middleware, the sign-in lockout and the database's absence under /api/):
`{"error": {"status", "code", "message", ...}}`."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse


def error_body(status_code: int, code: str, message: str, **extra: Any) -> dict[str, Any]:
    """The documented error body; `extra` adds `fields`, `record` or `retry_after`."""
    error: dict[str, Any] = {"status": status_code, "code": code, "message": message}
    error.update({key: value for key, value in extra.items() if value is not None})
    return {"error": error}


def error_response(status_code: int, code: str, message: str, **extra: Any) -> JsonResponse:
    return JsonResponse(error_body(status_code, code, message, **extra), status=status_code)
