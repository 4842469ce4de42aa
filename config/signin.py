"""Sign-in lockout (django-axes): how an attempt is named and how a lockout is answered.

Failed sign-ins are counted per account and per address (config/settings.py, "Sign-in
lockout"), at every door that calls `django.contrib.auth.authenticate` with the request: the
site's /accounts/login/, the admin's /admin/login/, the API's POST /api/v1/auth/token/, and
any account library's login view. Past the limit, every attempt (even with the right
password) is answered 429 with `Retry-After` until the cool-off has passed since the last one.
"""

from __future__ import annotations

import math
from typing import Any

from allauth.account import views as account_views
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import error_response

# The fields a login form may name the account by: Django's and DRF's `username`, an account
# library's `login` (django-allauth) or `email`.
ACCOUNT_FIELDS = ("username", "login", "email")


def username_of(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account an attempt is for, from the credentials given to `authenticate` or the
    posted form, compared without case and surrounding blanks: "Ann " and "ann" are one
    account's attempts, so varying the case does not buy more guesses."""
    sources: list[Any] = [credentials or {}, getattr(request, "POST", {})]
    for source in sources:
        for field in ACCOUNT_FIELDS:
            value = source.get(field)
            if isinstance(value, str) and value.strip():
                return _account_name(value.strip())
    return None


def _account_name(given: str) -> str:
    """The username an attempt is counted under: an e-mail address that one account uses
    stands for that account's username, so guesses by address and by name add up."""
    if "@" in given:
        names = list(get_user_model().objects.filter(email__iexact=given)
                     .values_list("username", flat=True)[:2])
        if len(names) == 1:
            return str(names[0]).casefold()
    return given.casefold()


def cool_off_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_message() -> str:
    minutes = math.ceil(cool_off_seconds() / 60)
    return ngettext(
        "Too many failed sign-ins for this account or from this address. Signing in is "
        "locked for %(minutes)d minute; try again after that.",
        "Too many failed sign-ins for this account or from this address. Signing in is "
        "locked for %(minutes)d minutes; try again after that.",
        minutes,
    ) % {"minutes": minutes}


def locked_out(
    request: HttpRequest, original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: 429 with `Retry-After`; the API's error body under /api/, the
    sign-in page with the message elsewhere."""
    wait = cool_off_seconds()
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = error_response(429, "locked_out", lockout_message(), retry_after=wait)
    else:
        response = TemplateResponse(
            request, "registration/locked_out.html",
            {"message": lockout_message(), "title": _("Signing in is locked")}, status=429,
        )
        response.render()
    response["Retry-After"] = str(wait)
    return response


def login(request: HttpRequest) -> HttpResponse:
    """The site's sign-in page (django-allauth's), warning when the next failed try locks
    signing in: a refused form is re-rendered with `last_try` set."""
    response = account_views.login(request)
    if (
        request.method == "POST" and isinstance(response, TemplateResponse)
        and not response.is_rendered and response.status_code == 200
        and response.context_data is not None
    ):
        failures = AxesProxyHandler.get_failures(request)
        response.context_data["last_try"] = failures == settings.AXES_FAILURE_LIMIT - 1
    return response
