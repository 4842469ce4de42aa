"""Cross-origin reads of the public API (django-cors-headers), as Lichess allows them
(docs/api.md, "Caching and cross-origin reads").

- An anonymous `GET`/`HEAD` under /api/ (no `Authorization` header, no session cookie), and
  its preflight, get `Access-Control-Allow-Origin: *`;
- anything else (a write, a request with a token or a session) gets no CORS header;
- origins listed in `API_CORS_TRUSTED_ORIGINS` may use the whole API, with a token, their
  origin echoed back; cookies never cross origins (no `Access-Control-Allow-Credentials`).

django-cors-headers decides per request through its `check_request_enabled` signal
(`CORS_URLS_REGEX` matches nothing, see config/settings.py); `ApiCorsMiddleware` adds the
trusted origins' wider answer.
"""

from __future__ import annotations

from typing import Any

from corsheaders.middleware import (
    ACCESS_CONTROL_ALLOW_HEADERS,
    ACCESS_CONTROL_ALLOW_METHODS,
    ACCESS_CONTROL_ALLOW_ORIGIN,
    CorsMiddleware,
)
from django.conf import settings
from django.http import HttpRequest
from django.utils.cache import patch_vary_headers
from django.http.response import HttpResponseBase

PUBLIC_METHODS = ("GET", "HEAD")
# What a trusted origin's script may send besides the public read's headers.
TRUSTED_METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")
TRUSTED_HEADERS = ("authorization", "content-type")


def _requested_headers(request: HttpRequest) -> set[str]:
    raw = request.headers.get("Access-Control-Request-Headers", "")
    return {name.strip().lower() for name in raw.split(",") if name.strip()}


def _carries_credentials(request: HttpRequest) -> bool:
    return "Authorization" in request.headers or settings.SESSION_COOKIE_NAME in request.COOKIES


def is_public_read(request: HttpRequest) -> bool:
    """An anonymous read of the API, or the preflight of one."""
    if not request.path_info.startswith("/api/") or _carries_credentials(request):
        return False
    if request.method == "OPTIONS":
        method = request.headers.get("Access-Control-Request-Method", "").upper()
        return method in PUBLIC_METHODS and "authorization" not in _requested_headers(request)
    return request.method in PUBLIC_METHODS


def is_trusted(request: HttpRequest) -> bool:
    origin = request.headers.get("Origin")
    return (
        origin is not None
        and request.path_info.startswith("/api/")
        and origin in settings.API_CORS_TRUSTED_ORIGINS
    )


def cors_enabled(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """django-cors-headers' `check_request_enabled` receiver."""
    return is_public_read(request) or is_trusted(request)


class ApiCorsMiddleware(CorsMiddleware):
    """django-cors-headers, plus the trusted origins' whole-API answer (see the module doc)."""

    def add_response_headers(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response = super().add_response_headers(request, response)
        if request.path_info.startswith("/api/"):
            # Every answer of the API may differ by Origin (a trusted origin's is wider, a
            # write or a request with credentials gets no CORS header): a shared cache keys on it.
            patch_vary_headers(response, ("origin",))
        if is_trusted(request) and ACCESS_CONTROL_ALLOW_ORIGIN in response:
            response[ACCESS_CONTROL_ALLOW_ORIGIN] = request.headers["Origin"]
            if request.method == "OPTIONS":
                headers = (*settings.CORS_ALLOW_HEADERS, *TRUSTED_HEADERS)
                response[ACCESS_CONTROL_ALLOW_HEADERS] = ", ".join(headers)
                response[ACCESS_CONTROL_ALLOW_METHODS] = ", ".join(TRUSTED_METHODS)
        return response
