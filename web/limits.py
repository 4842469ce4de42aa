"""The site's one rate limiter (common.rates) on the pages' forms: a POST over its scope's
rates is answered 429, with Retry-After, by a page in the visitor's language; reading the form
is never limited."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from common.rates import RateLimited, client_key, limit


def rate_limited(scope: str) -> Callable[[Callable[..., HttpResponse]],
                                        Callable[..., HttpResponse]]:
    """A view whose POSTs count in `scope` (per user, or per address without an account)."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method == "POST":
                try:
                    limit(scope, client_key(scope, request))
                except RateLimited as exc:
                    return too_many(request, exc)
            return view(request, *args, **kwargs)

        return limited

    return decorate


def too_many(request: HttpRequest, exc: RateLimited) -> HttpResponse:
    response = render(request, "429.html", {"retry_after": exc.retry_after}, status=429)
    if exc.retry_after is not None:
        response["Retry-After"] = str(exc.retry_after)
    return response
