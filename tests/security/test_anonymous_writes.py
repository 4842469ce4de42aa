"""Nobody writes without signing in: every unsafe method on every API operation, and a POST to
every web route, answered for an anonymous client with a refusal, nothing stored or deleted."""

from __future__ import annotations

import pytest
from django.test import Client
from records.tokens import ApiToken as Token
from rest_framework.test import APIClient

from records.models import Game
from tests.security.urls import api_operations, fill, web_routes
from tests.web.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

# Routes meant for anonymous visitors: signing up and in, choosing a language, asking for a
# password reset (allauth's, and Django's old address that redirects to it), and checking FCN
# on the check page, which stores nothing (the test still finds no game stored after it).
# Everything else must refuse an anonymous POST.
ANONYMOUS_BY_DESIGN = {
    "accounts/login/", "accounts/logout/", "accounts/signup/", "i18n/setlang/",
    "accounts/password/reset/", "accounts/password_reset/", "check/",
}
# The API's: exchanging a password for a token (it checks the password itself: a body without
# one is a 400 naming the missing fields, and no token is made).
ANONYMOUS_API_BY_DESIGN = {("/api/v1/auth/token/", "post")}


def test_it_refuses_every_unsafe_api_operation_to_anonymous_clients(archive: Archive) -> None:
    client = APIClient()
    operations = api_operations()
    assert len(operations) >= 3
    games = Game.objects.count()
    for route, method in operations:
        path = fill(route, archive)
        response = getattr(client, method)(path, {"text": "x"}, format="json")
        if (route, method) in ANONYMOUS_API_BY_DESIGN:
            assert response.status_code in (400, 401), (method, path, response.status_code)
            continue
        assert response.status_code in (401, 403), (method, path, response.status_code)
        assert response.json()["error"]["code"] == "not_authenticated", (method, path)
    assert Game.objects.count() == games
    assert not Token.objects.exists()


def test_it_refuses_anonymous_posts_on_every_web_route(archive: Archive) -> None:
    # With a valid CSRF token: this is about who may write, not about CSRF.
    client = Client()
    client.get("/")
    games = Game.objects.count()
    refused = []
    for route in web_routes():
        if route in ANONYMOUS_BY_DESIGN:
            continue
        path = fill(route, archive)
        response = client.post(path, {"text": "x", "reason": "x"})
        login = response.status_code == 302 and response["Location"].startswith(
            "/accounts/login/")
        assert login or response.status_code in (403, 405), (path, response.status_code)
        refused.append(route)
    assert {"upload/", "games/<int:pk>/"} <= set(refused)
    assert Game.objects.count() == games
