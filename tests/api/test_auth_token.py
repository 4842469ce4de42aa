"""/api/v1/auth/token/ and `manage.py issue_token`: tokens for scripts."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

URL = "/api/v1/auth/token/"


@pytest.fixture
def session(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_it_creates_a_token_that_then_authenticates(session: APIClient, user: Any) -> None:
    created = session.post(URL)

    assert created.status_code == 201
    body = created.json()
    assert body["username"] == "uploader"
    assert body["token"] == Token.objects.get(user=user).key
    assert body["last_four"] == body["token"][-4:]
    scripted = APIClient()
    scripted.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert scripted.get(URL).json()["last_four"] == body["token"][-4:]


@pytest.mark.django_db
def test_it_shows_the_current_token_or_says_there_is_none(session: APIClient) -> None:
    missing = session.get(URL)
    session.post(URL)
    shown = session.get(URL)

    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"
    assert shown.status_code == 200
    # After its creation, never the key: its last four characters only.
    assert shown.json().keys() == {"username", "last_four", "created"}
    assert len(shown.json()["last_four"]) == 4


@pytest.mark.django_db
def test_it_rotates_a_token_and_the_old_one_stops_working(client_for: Any, user: Any) -> None:
    client = client_for(user)
    old = Token.objects.get(user=user).key

    new = client.post(URL).json()["token"]
    after = client.get(URL)

    assert new != old
    assert after.status_code == 401
    assert after.json()["error"]["code"] == "authentication_failed"


@pytest.mark.django_db
def test_it_revokes_a_token(client_for: Any, user: Any) -> None:
    client = client_for(user)

    assert client.delete(URL).status_code == 204
    assert not Token.objects.filter(user=user).exists()
    assert client.get(URL).status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_it_needs_a_signed_in_user_or_a_password(api: APIClient, method: str) -> None:
    response = getattr(api, method)(URL)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_it_only_ever_shows_ones_own_token(
    client_for: Any, user: Any, other_user: Any, staff: Any
) -> None:
    mine = Token.objects.get_or_create(user=user)[0].key

    for someone in (other_user, staff):
        theirs = client_for(someone).get(URL).json()
        assert theirs["username"] == someone.username
        assert theirs["last_four"] == Token.objects.get(user=someone).key[-4:] != mine[-4:]


@pytest.mark.django_db
def test_it_needs_csrf_for_a_session_rotation(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(URL)

    assert response.status_code == 403
    assert not Token.objects.filter(user=user).exists()


@pytest.mark.django_db
def test_it_refuses_an_inactive_users_token(client_for: Any, user: Any) -> None:
    client = client_for(user)
    user.is_active = False
    user.save()

    assert client.get(URL).status_code == 401


# --- manage.py issue_token --------------------------------------------------------------------


def issue(*args: str) -> str:
    out = StringIO()
    call_command("issue_token", *args, stdout=out, stderr=StringIO())
    return out.getvalue().strip()


@pytest.mark.django_db
def test_it_issues_the_same_token_until_rotated(user: Any) -> None:
    first = issue("uploader")
    again = issue("uploader")
    rotated = issue("uploader", "--rotate")

    assert first == again != rotated
    assert Token.objects.get(user=user).key == rotated


@pytest.mark.django_db
def test_it_creates_the_user_only_when_asked(django_user_model: Any) -> None:
    with pytest.raises(CommandError, match="No user 'robot'"):
        issue("robot")

    key = issue("robot", "--create-user")

    robot = django_user_model.objects.get(username="robot")
    assert not robot.has_usable_password()
    assert Token.objects.get(user=robot).key == key
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get(URL).json()["username"] == "robot"


@pytest.mark.django_db
def test_it_refuses_an_inactive_user(django_user_model: Any) -> None:
    django_user_model.objects.create_user("gone", is_active=False)

    with pytest.raises(CommandError, match="inactive"):
        issue("gone")


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "fmt"), [({}, "json"), ({"username": "uploader"}, "json")])
def test_a_body_is_a_password_exchange_even_signed_in(
    client_for: Any, user: Any, body: dict[str, str], fmt: str
) -> None:
    """Only a POST without a body rotates one's own token (the schema's body is optional); a
    body that misses the password fields is refused, not taken for a rotation."""
    client = client_for(user)
    old = Token.objects.get(user=user).key

    response = client.post(URL, body, format=fmt)

    assert response.status_code == 400
    assert "password" in response.json()["error"]["fields"]
    assert Token.objects.get(user=user).key == old
