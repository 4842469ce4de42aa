"""A token whose scope is "read" reads everything a signed-in user may read and changes
nothing: every write is a 403 `read_only_token`, before the endpoint looks at the request."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from records.tokens import ApiToken, create_token
from tests.api.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


WRITES = [
    ("post", "/api/v1/uploads/"),
    ("delete", "/api/v1/games/{game}/"),
    ("post", "/api/v1/games/{game}/analysis/"),
    ("post", "/api/v1/drafts/"),
    ("post", "/api/v1/auth/token/"),
    ("delete", "/api/v1/auth/token/"),
    ("post", "/api/v1/auth/tokens/"),
    ("delete", "/api/v1/auth/tokens/{token}/"),
]


@pytest.mark.parametrize(("method", "path"), WRITES)
def test_it_refuses_every_write_with_a_read_token(
    archive: Archive, user: Any, method: str, path: str,
) -> None:
    token, key = create_token(user, "dashboard", "read")

    response = getattr(with_key(key), method)(
        path.format(game=archive.match[0], token=token.pk), {}, format="json")

    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "read_only_token"
    assert '"read"' in error["message"] and '"write"' in error["message"]
    assert ApiToken.objects.filter(pk=token.pk).exists()


@pytest.mark.parametrize("path", [
    "/api/v1/games/", "/api/v1/games/{game}/", "/api/v1/jobs/", "/api/v1/drafts/",
    "/api/v1/auth/token/", "/api/v1/auth/tokens/",
])
def test_it_reads_with_a_read_token(archive: Archive, user: Any, path: str) -> None:
    _, key = create_token(user, "dashboard", "read")

    assert with_key(key).get(path.format(game=archive.match[0])).status_code == 200


def test_a_write_token_writes(archive: Archive, user: Any) -> None:
    _, key = create_token(user, "uploader", "write")

    response = with_key(key).delete(f"/api/v1/games/{archive.match[0]}/")

    assert response.status_code == 204
