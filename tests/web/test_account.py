"""The account page: the user's API tokens (name, scope, date, last four characters), forms
(POST, CSRF) to make a named one and revoke each, the new key shown once, and the user's own
uploads."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from records.services import import_records
from records.tokens import ApiToken, create_token
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


def new_key(client: Client) -> str:
    return page(client).find("input", id="new-token").attrs["value"]


def test_it_shows_a_new_key_once(signed_in: Client, user: User) -> None:
    response = signed_in.post(PAGE, {"action": "create", "name": "laptop", "scope": "read"})
    assert response.status_code == 302 and response["Location"] == PAGE

    first = page(signed_in)
    key = first.find("input", id="new-token").attrs["value"]
    second = page(signed_in)

    assert "shown only once" in first.find("li", "message--success").words()
    assert not second.find_all("input", id="new-token")
    assert key not in signed_in.get(PAGE).content.decode()
    (row,) = second.find("table", "token-list").find("tbody").find_all("tr")
    cells = [cell.words() for cell in row.find_all("td")]
    assert cells[:2] == ["laptop", "read"]
    assert cells[2].startswith(f"{ApiToken.objects.get().created:%Y-%m-%d}")
    assert cells[3] == f"…{key[-4:]}"
    assert actions(second) == ["revoke", "create"]
    assert api_status(key) == 200


def test_it_makes_several_tokens_that_all_work(signed_in: Client, user: User) -> None:
    signed_in.post(PAGE, {"action": "create", "name": "one"})
    first = new_key(signed_in)
    signed_in.post(PAGE, {"action": "create", "name": "two", "scope": "write"})
    second = new_key(signed_in)

    assert first != second
    assert (api_status(first), api_status(second)) == (200, 200)
    assert sorted(ApiToken.objects.values_list("name", flat=True)) == ["one", "two"]


def test_it_revokes_one_token(signed_in: Client, user: User) -> None:
    token, key = create_token(user, "doomed")
    _, kept = create_token(user, "kept")

    response = signed_in.post(PAGE, {"action": "revoke", "token": token.pk}, follow=True)

    doc = parse(response.content).find("main")
    assert doc.find("li", "message--success").words() == (
        "The token was revoked: it no longer works.")
    assert [row.attrs["data-token-id"] for row in doc.find("tbody").find_all("tr")] == [
        str(ApiToken.objects.get(name="kept").pk)]
    assert (api_status(key), api_status(kept)) == (401, 200)


def test_it_cannot_revoke_another_users_token(signed_in: Client, user: User) -> None:
    theirs, key = create_token(User.objects.create_user("bo"), "theirs")

    signed_in.post(PAGE, {"action": "revoke", "token": theirs.pk})

    assert api_status(key) == 200


def test_it_needs_the_csrf_token(user: User) -> None:
    token, _ = create_token(user, "kept")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.post(PAGE, {"action": "revoke", "token": token.pk}).status_code == 403
    assert client.post(PAGE, {"action": "create"}).status_code == 403
    assert list(ApiToken.objects.all()) == [token]


@pytest.mark.parametrize("form", [
    {"action": "steal"},
    {"action": "revoke", "token": "all"},
    {"action": "create", "scope": "admin"},
    {"action": "create", "name": "two\nlines"},
    {"action": "create", "name": "x" * 101},
])
def test_it_refuses_a_bad_form(signed_in: Client, user: User, form: dict[str, str]) -> None:
    response = signed_in.post(PAGE, form)
    assert response.status_code == 400
    assert not ApiToken.objects.filter(user=user).exists()


def test_it_lists_only_the_users_own_uploads(signed_in: Client, user: User) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        mine = import_records(record_text("classic", 4, 1, FOUR), user).results[0].game_id
        import_records(record_text("classic", 4, 3, FOUR), User.objects.create_user("bo"))

    items = page(signed_in).find("ul", "upload-list").find_all("li")

    assert [item.find("a").attrs["href"] for item in items] == [reverse("game", args=[mine])]
    assert items[0].find("a", href=reverse("game-delete", args=[mine]))
