"""The account page: whether the user has an API token, buttons (POST, CSRF) to create,
regenerate and revoke it, the new key shown once, and the user's own uploads."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from records.services import import_records
from tests.web.conftest import FOUR, record_text
from tests.web.dom import Node, parse

pytestmark = pytest.mark.django_db

PAGE = "/account/"


def page(client: Client) -> Node:
    response = client.get(PAGE)
    assert response.status_code == 200
    return parse(response.content).find("main")


def actions(doc: Node) -> list[str]:
    return [form.find("input", name="action").attrs["value"]
            for form in doc.find_all("form") if form.attrs.get("method") == "post"]


def api_status(key: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get("/api/v1/auth/token/").status_code


def test_it_sends_a_visitor_to_sign_in(client: Client) -> None:
    response = client.get(PAGE)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={PAGE}"


def test_it_links_the_page_from_the_header(signed_in: Client) -> None:
    header = parse(signed_in.get(reverse("archive")).content).find("header")
    assert header.find("a", href=PAGE).words() == "uploader"


def test_it_says_when_there_is_no_token(signed_in: Client) -> None:
    doc = page(signed_in)
    assert doc.find(**{"data-token-state": "none"})
    assert actions(doc) == ["create"]
    for form in doc.find_all("form"):
        assert form.find_all("input", name="csrfmiddlewaretoken")


def test_it_shows_a_new_key_once(signed_in: Client, user: User) -> None:
    response = signed_in.post(PAGE, {"action": "create"})
    assert response.status_code == 302 and response["Location"] == PAGE
    key = Token.objects.get(user=user).key

    first, second = page(signed_in), page(signed_in)

    assert first.find("input", id="new-token").attrs["value"] == key
    assert "shown only once" in first.find("li", "message--success").words()
    assert not second.find_all("input", id="new-token")
    assert key not in signed_in.get(PAGE).content.decode()
    assert second.find(**{"data-token-state": "active"})
    assert actions(second) == ["create", "revoke"]
    assert api_status(key) == 200


def test_it_regenerates_the_token(signed_in: Client, user: User) -> None:
    old = Token.objects.create(user=user).key

    signed_in.post(PAGE, {"action": "create"})

    new = Token.objects.get(user=user).key
    assert new != old
    assert page(signed_in).find("input", id="new-token").attrs["value"] == new
    assert (api_status(old), api_status(new)) == (401, 200)


def test_it_revokes_the_token(signed_in: Client, user: User) -> None:
    key = Token.objects.create(user=user).key

    response = signed_in.post(PAGE, {"action": "revoke"}, follow=True)

    assert not Token.objects.filter(user=user).exists()
    doc = parse(response.content).find("main")
    assert doc.find("li", "message--success").words() == (
        "Your API token was revoked: it no longer works.")
    assert doc.find(**{"data-token-state": "none"})
    assert api_status(key) == 401


def test_it_needs_the_csrf_token(user: User) -> None:
    Token.objects.create(user=user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.post(PAGE, {"action": "revoke"}).status_code == 403
    assert client.post(PAGE, {"action": "create"}).status_code == 403
    assert Token.objects.filter(user=user).exists()


def test_it_refuses_an_unknown_action(signed_in: Client, user: User) -> None:
    response = signed_in.post(PAGE, {"action": "steal"})
    assert response.status_code == 400
    assert not Token.objects.filter(user=user).exists()


def test_it_lists_only_the_users_own_uploads(signed_in: Client, user: User) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        mine = import_records(record_text("classic", 4, 1, FOUR), user).results[0].game_id
        import_records(record_text("classic", 4, 3, FOUR), User.objects.create_user("bo"))

    items = page(signed_in).find("ul", "upload-list").find_all("li")

    assert [item.find("a").attrs["href"] for item in items] == [reverse("game", args=[mine])]
    assert items[0].find("a", href=reverse("game-delete", args=[mine]))
