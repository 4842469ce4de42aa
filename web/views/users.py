"""A user's page: the games the account uploaded, newest upload first (public, as the games
and their uploader are in the API: `GET /api/v1/games/?uploaded_by=NAME`)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from web.views.archive import games_for_listing, paginate

GAMES_PAGE = 20


@require_safe
def user_detail(request: HttpRequest, username: str) -> HttpResponse:
    account = get_object_or_404(get_user_model(), username=username, is_active=True)
    uploads = games_for_listing().filter(uploaded_by=account).order_by("-uploaded_at", "-pk")
    page = paginate(request, uploads, GAMES_PAGE)
    query = urlencode({"uploaded_by": account.get_username()})
    return render(request, "records/user.html", {
        "account": account,
        "page": page,
        "games": page.object_list,
        "upload_count": page.paginator.count,
        "uploads_archive_url": f"{reverse('archive')}?{query}",
        "api_url": f"{reverse('api:game-list')}?{query}",
    })
