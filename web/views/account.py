"""The signed-in user's account page: their API token (create or regenerate, revoke) and their
recent uploads.

The key is shown once, on the page the creation redirects to (it travels in the server-side
session, never in a URL or a cookie); afterwards the page only says that a token exists and
since when. Every change is a POST with the CSRF token. The API does the same at
/api/v1/auth/token/ (GET, POST, DELETE).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from rest_framework.authtoken.models import Token

from records.models import Game, GameSeat
from records.tokens import revoke_token, rotate_token

NEW_TOKEN = "account_new_token"  # session key: the key just created, shown once
RECENT_UPLOADS = 20


@never_cache  # the page may hold a key
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _change_token(request)
    token = Token.objects.filter(user=request.user).first()
    new_key = request.session.pop(NEW_TOKEN, None) if request.method == "GET" else None
    seats = Prefetch("seats", queryset=GameSeat.objects.order_by("seat"))
    uploads = (
        Game.objects.filter(uploaded_by=request.user)
        .only("pk", "ruleset", "players", "result_tag", "date", "uploaded_at")
        .prefetch_related(seats)
        .order_by("-uploaded_at", "-pk")
    )
    return render(request, "account.html", {
        "token": token,
        "new_key": new_key if token is not None and new_key == token.key else None,
        "uploads": uploads[:RECENT_UPLOADS],
        "upload_count": uploads.count(),
    })


def _change_token(request: HttpRequest) -> HttpResponse:
    action = request.POST.get("action")
    if action == "create":
        request.session[NEW_TOKEN] = rotate_token(request.user).key
        messages.success(request, _("A new API token was created. Copy it now: it is shown "
                                    "only once. Any previous token no longer works."))
    elif action == "revoke":
        if revoke_token(request.user):
            messages.success(request, _("Your API token was revoked: it no longer works."))
        else:
            messages.info(request, _("You had no API token."))
    else:
        return HttpResponseBadRequest(_("Unknown action: use the buttons of the account page."))
    return redirect("account")
