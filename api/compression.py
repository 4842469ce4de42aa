"""gzip for the API's public reads, and for nothing else.

Django's GZipMiddleware compresses an answer when the client accepts gzip and the body is 200
bytes or more (a stream, such as the export, chunk by chunk). Compressing an answer that holds
a secret next to text an attacker can choose is what BREACH reads the secret from, so this
compresses only what holds none: GET and HEAD under /api/ whose body is not HTML (the browsable
API's pages carry the CSRF token) and not under /api/v1/auth/ (token names and the key's last
characters). Everything else, the site's pages included, goes out as it is.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

PREFIX = "/api/"
NEVER = ("/api/v1/auth/",)


def may_compress(request: HttpRequest, response: HttpResponseBase) -> bool:
    return (
        request.method in ("GET", "HEAD")
        and request.path.startswith(PREFIX)
        and not request.path.startswith(NEVER)
        and not response.get("Content-Type", "").startswith("text/html")
        and not response.has_header("Set-Cookie")
    )


class ApiGZipMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not may_compress(request, response):
            return response
        return super().process_response(request, response)
