"""The signed-in user's account page: their API tokens (make a named one, read-only or not;
revoke any) and their recent uploads.

A new key is shown once, on the page the creation redirects to (it travels in the server-side
session, never in a URL or a cookie); afterwards the page shows only each token's name, scope,
date and last four characters. Every change is a POST with the CSRF token. The API does the
same at /api/v1/auth/tokens/.
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

from records.models import Game, GameSeat
from records.tokens import MAX_NAME, ApiToken, Scope, TooManyTokens, create_token, revoke_token

NEW_TOKEN = "account_new_token"  # session key: the key just created, shown once
RECENT_UPLOADS = 20


@never_cache  # the page may hold a key
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        return _change_token(request)
    tokens = list(ApiToken.objects.filter(user=request.user))
    new_key = request.session.pop(NEW_TOKEN, None) if request.method == "GET" else None
    seats = Prefetch("seats", queryset=GameSeat.objects.order_by("seat"))
    uploads = (
        Game.objects.filter(uploaded_by=request.user)
        .only("pk", "ruleset", "players", "result_tag", "date", "uploaded_at")
        .prefetch_related(seats)
        .order_by("-uploaded_at", "-pk")
    )
    return render(request, "account.html", {
        "tokens": tokens,
        "new_key": new_key,
        "scopes": Scope.choices,
        "max_name": MAX_NAME,
        "uploads": uploads[:RECENT_UPLOADS],
        "upload_count": uploads.count(),
    })


def _change_token(request: HttpRequest) -> HttpResponse:
    action = request.POST.get("action")
    if action == "create":
        name = request.POST.get("name", "").strip() or "script"
        scope = request.POST.get("scope", Scope.WRITE)
        if scope not in Scope.values or len(name) > MAX_NAME or not name.isprintable():
            return HttpResponseBadRequest(_("Give the token a name of one line and a scope."))
        try:
            request.session[NEW_TOKEN] = create_token(request.user, name, scope)[1]
        except TooManyTokens:
            messages.error(request, _("You have the most tokens one may have: revoke one "
                                      "first."))
        else:
            messages.success(request, _("A new API token was created. Copy it now: it is "
                                        "shown only once."))
    elif action == "revoke" and request.POST.get("token", "").isdigit():
        if revoke_token(request.user, int(request.POST["token"])):
            messages.success(request, _("The token was revoked: it no longer works."))
        else:
            messages.info(request, _("You had no such token."))
    else:
        return HttpResponseBadRequest(_("Unknown action: use the buttons of the account page."))
    return redirect("account")
