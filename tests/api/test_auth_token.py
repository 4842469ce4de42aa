"""/api/v1/auth/token/ (the token a request carries) and `manage.py issue_token`."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from records.tokens import ApiToken, create_token, digest

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/token/"


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def session(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def test_it_creates_a_token_that_then_authenticates(session: APIClient, user: Any) -> None:
    created = session.post(URL)

    assert created.status_code == 201
    body = created.json()
    assert (body["username"], body["name"], body["scope"]) == ("uploader", "script", "write")
    assert body["last_four"] == body["token"][-4:]
    shown = with_key(body["token"]).get(URL).json()
    assert shown == {k: v for k, v in body.items() if k != "token"}


def test_it_stores_only_a_hash_of_the_key(session: APIClient, user: Any) -> None:
    key = session.post(URL).json()["token"]

    (token,) = ApiToken.objects.filter(user=user).values()
    assert key not in {str(value) for value in token.values()}
    assert token["key_digest"] == digest(key)


def test_it_shows_the_calling_token_and_a_session_is_pointed_to_the_list(
    session: APIClient, user: Any,
) -> None:
    shown = session.get(URL)

    assert shown.status_code == 404
    assert "/api/v1/auth/tokens/" in shown.json()["error"]["message"]
    token, key = create_token(user, "nightly", "read")
    assert with_key(key).get(URL).json()["id"] == token.pk


def test_a_bodiless_post_with_a_token_gives_it_a_new_key(user: Any) -> None:
    token, old = create_token(user, "nightly", "write")
    other = create_token(user, "other")[1]

    new = with_key(old).post(URL).json()

    assert (new["id"], new["name"], new["token"] != old) == (token.pk, "nightly", True)
    assert with_key(old).get(URL).status_code == 401
    assert with_key(new["token"]).get(URL).status_code == 200
    assert with_key(other).get(URL).status_code == 200  # the user's other tokens work on


def test_it_revokes_the_calling_token_only(user: Any) -> None:
    first, second = create_token(user, "a")[1], create_token(user, "b")[1]

    assert with_key(first).delete(URL).status_code == 204

    assert with_key(first).get(URL).status_code == 401
    assert with_key(second).get(URL).status_code == 200


@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_it_needs_a_signed_in_user_or_a_password(api: APIClient, method: str) -> None:
    response = getattr(api, method)(URL)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_it_only_ever_shows_ones_own_token(client_for: Any, user: Any, other_user: Any) -> None:
    mine = create_token(user, "mine")[1]

    theirs = client_for(other_user).get(URL).json()

    assert theirs["username"] == other_user.username
    assert theirs["id"] != ApiToken.objects.get(key_digest=digest(mine)).pk


def test_it_needs_csrf_for_a_session_post(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(URL)

    assert response.status_code == 403
    assert not ApiToken.objects.filter(user=user).exists()


def test_it_refuses_an_inactive_users_token(client_for: Any, user: Any) -> None:
    client = client_for(user)
    user.is_active = False
    user.save()

    assert client.get(URL).status_code == 401


@pytest.mark.parametrize(("body", "fmt"), [({}, "json"), ({"username": "uploader"}, "json")])
def test_a_body_is_a_password_exchange_even_signed_in(
    user: Any, body: dict[str, str], fmt: str
) -> None:
    """Only a POST without a body gives a new key (the schema's body is optional); a body that
    misses the password fields is refused, not taken for a new key."""
    token, key = create_token(user, "script")

    response = with_key(key).post(URL, body, format=fmt)

    assert response.status_code == 400
    assert "password" in response.json()["error"]["fields"]
    assert ApiToken.objects.get(user=user).key_digest == token.key_digest


# --- manage.py issue_token --------------------------------------------------------------------


def issue(*args: str) -> str:
    out = StringIO()
    call_command("issue_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


def test_it_issues_a_new_token_each_time_and_all_work(user: Any) -> None:
    first = issue("uploader")
    second = issue("uploader", "--name", "backup", "--scope", "read")

    assert first != second
    assert with_key(first).get(URL).json()["scope"] == "write"
    assert with_key(second).get(URL).json() | {"id": 0, "created": ""} == {
        "id": 0, "created": "", "name": "backup", "scope": "read", "username": "uploader",
        "last_four": second[-4:]}


@pytest.mark.parametrize(("args", "message"), [
    (("--name", ""), "--name"),
    (("--name", "two\nlines"), "--name"),
    (("--name", "x" * 101), "--name"),
])
def test_it_refuses_a_bad_name(user: Any, args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        issue("uploader", *args)
    assert not ApiToken.objects.exists()


def test_it_creates_the_user_only_when_asked(django_user_model: Any) -> None:
    with pytest.raises(CommandError, match="No user 'robot'"):
        issue("robot")

    key = issue("robot", "--create-user")

    robot = django_user_model.objects.get(username="robot")
    assert not robot.has_usable_password()
    assert with_key(key).get(URL).json()["username"] == "robot"


def test_it_refuses_an_inactive_user(django_user_model: Any) -> None:
    django_user_model.objects.create_user("gone", is_active=False)

    with pytest.raises(CommandError, match="inactive"):
        issue("gone")
