"""Revoking and regenerating API tokens: DELETE /api/v1/auth/token/ by their owner, and staff
revoking anyone's token in the admin. A revoked key is refused everywhere at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.conftest import Archive

pytestmark = pytest.mark.django_db

URL = "/api/v1/auth/token/"


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


# Reads too: a revoked key is a wrong key, refused rather than treated as anonymous.
@pytest.mark.parametrize(("method", "path"), [
    ("get", URL),
    ("get", "/api/v1/games/"),
    ("get", "/api/v1/stats/global/"),
    ("post", "/api/v1/uploads/"),
    ("delete", URL),
])
def test_it_refuses_a_revoked_token_everywhere(user: Any, method: str, path: str) -> None:
    key = Token.objects.create(user=user).key
    assert with_key(key).delete(URL).status_code == 204

    response = getattr(with_key(key), method)(path)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_it_revokes_only_the_callers_token(client_for: Any, user: Any, other_user: Any) -> None:
    mine, theirs = client_for(user), client_for(other_user)

    assert mine.delete(URL).status_code == 204

    assert Token.objects.filter(user=other_user).exists()
    assert theirs.get(URL).status_code == 200


def test_it_answers_204_when_there_is_no_token_left(user: Any) -> None:
    session = APIClient()
    session.force_login(user)

    assert session.delete(URL).status_code == 204
    assert session.get(URL).status_code == 404  # signed in, without a token


def test_it_regenerates_and_only_the_new_key_works(user: Any) -> None:
    old = Token.objects.create(user=user).key

    response = with_key(old).post(URL)

    assert response.status_code == 201
    new = response.json()["token"]
    assert new != old
    assert with_key(old).get(URL).status_code == 401
    assert with_key(new).get(URL).json()["last_four"] == new[-4:]


def test_it_needs_csrf_to_revoke_with_a_session(user: Any) -> None:
    Token.objects.create(user=user)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.delete(URL)

    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]
    assert Token.objects.filter(user=user).exists()


def test_it_lets_staff_revoke_anyones_token_in_the_admin(
    client: Client, django_user_model: Any, user: Any, archive: Archive
) -> None:
    key = Token.objects.create(user=user).key
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    # DRF's token admin lists tokens by user (its TokenProxy's primary key is the user's).
    page = f"/admin/authtoken/tokenproxy/{user.pk}/delete/"
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 200

    response = client.post(page, {"post": "yes"})

    assert response.status_code == 302
    assert not Token.objects.filter(user=user).exists()
    assert with_key(key).get("/api/v1/games/").status_code == 401
