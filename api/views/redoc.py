"""Redoc's bundle (drf-spectacular-sidecar) as the API's documentation page loads it, without
the one address it would fetch from elsewhere: Redocly's logo in its side menu, which the
bundle hard-codes (no option turns it off). Served with that address emptied, the image fails
at once without a request, and Redoc then leaves it out; the page loads nothing external."""

from __future__ import annotations

import functools

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
LOGO = b'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"'


@functools.cache
def bundle() -> bytes:
    path = finders.find(BUNDLE)
    if not path:
        raise FileNotFoundError(BUNDLE)
    with open(path, "rb") as f:
        return f.read().replace(LOGO, b'src:""')


@require_safe
@cache_control(public=True, max_age=86400)
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    return HttpResponse(bundle(), content_type="text/javascript; charset=utf-8")
