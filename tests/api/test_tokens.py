"""/api/v1/auth/tokens/: one's named tokens, listed, made and revoked one by one; staff revoke
anyone's in the admin. A revoked key is refused everywhere at once."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from records.tokens import MAX_TOKENS, ApiToken, create_token

pytestmark = pytest.mark.django_db

LIST = "/api/v1/auth/tokens/"


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_it_lists_ones_own_tokens_newest_first_without_keys(user: Any, other_user: Any) -> None:
    old, old_key = create_token(user, "laptop", "read")
    new, key = create_token(user, "server")
    create_token(other_user, "theirs")

    response = with_key(key).get(LIST)

    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert [(t["id"], t["name"], t["scope"]) for t in response.json()] == [
        (new.pk, "server", "write"), (old.pk, "laptop", "read")]
    assert key not in response.content.decode() and old_key not in response.content.decode()


def test_it_makes_a_named_token_and_leaves_the_others_working(user: Any) -> None:
    _, key = create_token(user, "first")

    made = with_key(key).post(LIST, {"name": "dashboard", "scope": "read"}, format="json")

    assert made.status_code == 201
    body = made.json()
    assert (body["name"], body["scope"], body["last_four"]) == (
        "dashboard", "read", body["token"][-4:])
    assert with_key(body["token"]).get("/api/v1/auth/token/").json()["name"] == "dashboard"
    assert with_key(key).get("/api/v1/auth/token/").status_code == 200


@pytest.mark.parametrize(("body", "field"), [
    ({}, "name"),
    ({"name": ""}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": "tab\there"}, "name"),
    ({"name": "a", "scope": "admin"}, "scope"),
    ({"name": "a", "key": "mine"}, "key"),
    ({"name": 0}, "name"),
    ({"name": ["a"]}, "name"),
])
def test_it_refuses_a_bad_request_naming_the_field(
    client_for: Any, user: Any, body: dict[str, str], field: str,
) -> None:
    response = client_for(user).post(LIST, body, format="json")

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


def test_it_refuses_a_token_past_the_most_one_may_have(user: Any) -> None:
    key = create_token(user, "first")[1]
    for n in range(MAX_TOKENS - 1):
        create_token(user, f"t{n}")

    response = with_key(key).post(LIST, {"name": "one more"}, format="json")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "too_many_tokens"
    assert "revoke one first" in response.json()["error"]["message"]
    assert ApiToken.objects.filter(user=user).count() == MAX_TOKENS


def test_it_revokes_one_token_and_no_other(user: Any, other_user: Any) -> None:
    doomed, doomed_key = create_token(user, "doomed")
    _, key = create_token(user, "kept")
    theirs, _ = create_token(other_user, "theirs")

    assert with_key(key).get(f"{LIST}{doomed.pk}/").json()["name"] == "doomed"
    assert with_key(key).delete(f"{LIST}{doomed.pk}/").status_code == 204
    assert with_key(key).delete(f"{LIST}{theirs.pk}/").status_code == 404
    assert with_key(key).get(f"{LIST}{theirs.pk}/").status_code == 404

    assert with_key(doomed_key).get("/api/v1/games/").status_code == 401
    assert with_key(key).get("/api/v1/games/").status_code == 200
    assert ApiToken.objects.filter(pk=theirs.pk).exists()


# Reads too: a revoked key is a wrong key, refused rather than treated as anonymous.
@pytest.mark.parametrize(("method", "path"), [
    ("get", "/api/v1/auth/token/"),
    ("get", LIST),
    ("get", "/api/v1/games/"),
    ("get", "/api/v1/stats/global/"),
    ("post", "/api/v1/uploads/"),
])
def test_it_refuses_a_revoked_token_everywhere(user: Any, method: str, path: str) -> None:
    token, key = create_token(user, "doomed")
    assert with_key(key).delete(f"{LIST}{token.pk}/").status_code == 204

    response = getattr(with_key(key), method)(path)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_needs_a_signed_in_user(api: APIClient, method: str) -> None:
    assert getattr(api, method)(LIST).status_code == 401


def test_it_needs_csrf_with_a_session(user: Any) -> None:
    token, _ = create_token(user, "kept")
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    assert client.get(LIST).status_code == 200
    assert client.delete(f"{LIST}{token.pk}/").status_code == 403
    assert client.post(LIST, {"name": "x"}, format="json").status_code == 403
    assert ApiToken.objects.filter(user=user).count() == 1


def test_it_lets_staff_revoke_anyones_token_in_the_admin(
    client: Client, django_user_model: Any, user: Any,
) -> None:
    token, key = create_token(user, "script")
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    assert "script" in client.get("/admin/records/apitoken/").content.decode()

    response = client.post(f"/admin/records/apitoken/{token.pk}/delete/", {"post": "yes"})

    assert response.status_code == 302
    assert not ApiToken.objects.filter(user=user).exists()
    assert with_key(key).get("/api/v1/games/").status_code == 401


@pytest.mark.parametrize("method", ["get", "delete"])
@pytest.mark.parametrize("token_id", ["0", "999999", str(2**63), "9" * 30])
def test_it_answers_404_for_an_id_that_is_not_ones_own(
    client_for: Any, user: Any, method: str, token_id: str,
) -> None:
    response = getattr(client_for(user), method)(f"{LIST}{token_id}/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
