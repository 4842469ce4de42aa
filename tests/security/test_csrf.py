"""CSRF: every POST the site accepts needs the token, form by form and route by route.

The routes come from the URLconf and the API's schema, and the forms from the pages
themselves, so a form or route added later is covered without this file being told.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from records.models import Game
from tests.security.urls import api_operations, fill, web_routes
from tests.web.conftest import Archive

pytestmark = pytest.mark.django_db

FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.S | re.I)
ACTION = re.compile(r'action="([^"]*)"')
TOKEN = 'name="csrfmiddlewaretoken"'


def _guarded(user: User | None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def _post_forms(html: str) -> list[str]:
    return [form for form in FORM.findall(html) if re.search(r'method="post"', form, re.I)]


def _pages(archive: Archive) -> list[str]:
    return ["/", "/players/", "/matches/", "/upload/", "/accounts/login/", "/admin/login/",
            f"/games/{archive.four.pk}/", f"/players/{archive.player('Ann').pk}/",
            f"/matches/{archive.match.pk}/"]  # type: ignore[union-attr]


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_it_puts_a_token_in_every_post_form_and_refuses_the_form_without_it(
    archive: Archive, user: User, signed_in: bool
) -> None:
    client = _guarded(user if signed_in else None)
    actions: set[str] = set()
    for page in _pages(archive):
        html = client.get(page, follow=True).content.decode()
        for form in _post_forms(html):
            assert TOKEN in form, f"a form on {page} has no CSRF token: {form[:300]}"
            action = ACTION.search(form)
            actions.add(action.group(1) if action and action.group(1) else page)
    # The forms the site has today, at least: language, sign in or out, upload.
    expected = {"/i18n/setlang/", "/accounts/logout/" if signed_in else "/accounts/login/"}
    assert expected <= actions, actions
    games = Game.objects.count()
    for action in sorted(actions):
        response = client.post(action, {"text": "x", "language": "vi", "username": "u"})
        assert response.status_code == 403, action
        assert b"CSRF" in response.content, action
    assert Game.objects.count() == games


def test_it_accepts_a_form_with_its_token(user: User) -> None:
    """The control for the test above: the same client passes with the token it was given."""
    client = _guarded(user)
    client.get("/")
    token = client.cookies["csrftoken"].value

    response = client.post("/i18n/setlang/", {"language": "vi", "next": "/",
                                              "csrfmiddlewaretoken": token})

    assert response.status_code == 302


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_it_refuses_a_post_without_a_token_on_every_web_route(
    archive: Archive, user: User, signed_in: bool
) -> None:
    client = _guarded(user if signed_in else None)
    routes = web_routes()
    assert {"upload/", "accounts/login/", "accounts/logout/", "i18n/setlang/"} <= set(routes)
    for route in routes:
        path = fill(route, archive)
        response = client.post(path, {})
        assert response.status_code == 403, (path, response.status_code)


def test_it_refuses_session_writes_to_the_api_without_a_token(
    archive: Archive, user: User
) -> None:
    """A signed-in browser's session must not let another site write through the API:
    DRF's SessionAuthentication checks the CSRF token on every unsafe method."""
    client = _guarded(user)
    operations = api_operations()
    assert ("/api/v1/uploads/", "post") in operations
    games = Game.objects.count()
    for route, method in operations:
        path = fill(route, archive)
        response = getattr(client, method)(path, {}, content_type="application/json")
        assert response.status_code == 403, (method, path, response.content[:300])
        assert "CSRF" in response.json()["error"]["message"], (method, path)
    assert Game.objects.count() == games


def test_it_does_not_ask_token_clients_for_a_csrf_token(archive: Archive, user: User) -> None:
    """Scripts send `Authorization: Token`, which no other site can make a browser send."""
    from records.tokens import create_token

    key = create_token(user, "script")[1]
    client = Client(enforce_csrf_checks=True, headers={"authorization": f"Token {key}"})

    response = client.post("/api/v1/uploads/", "no record here", content_type="text/x-fcn")

    assert response.status_code == 201  # read and answered for what it is, not refused for CSRF
    assert response.json()["refused"] == 1
