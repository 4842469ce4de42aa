"""gzip on the API's public reads (the game list, a game, the streamed export), and never on an
answer that may hold a secret (BREACH): the site's pages with their CSRF token, the browsable
API's HTML, the token endpoints, writes."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from django.test import Client

from tests.api.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def body(response: Any) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize(("method", "path", "accept", "compressed"), [
    ("get", "/api/v1/games/", "application/json", True),
    ("get", "/api/v1/games/{game}/", "application/json", True),
    ("get", "/api/v1/games/export/?format=ndjson", "application/x-ndjson", True),
    ("get", "/api/v1/schema/", "application/vnd.oai.openapi", True),
    ("get", "/api/v1/games/", "text/html", False),  # the browsable API: a CSRF token
    ("get", "/api/v1/auth/tokens/", "application/json", False),
    ("get", "/", "text/html", False),  # the site's pages
    ("post", "/api/v1/uploads/", "application/json", False),
])
def test_it_compresses_only_public_api_reads(
    archive: Archive, client_for: Any, user: Any, method: str, path: str, accept: str,
    compressed: bool,
) -> None:
    client = client_for(user)
    response = getattr(client, method)(path.format(game=archive.match[0]),
                                       HTTP_ACCEPT=accept, HTTP_ACCEPT_ENCODING="gzip")

    assert (response.get("Content-Encoding") == "gzip") is compressed
    if compressed:
        assert response.status_code == 200
        assert "Accept-Encoding" in response["Vary"]
        assert gzip.decompress(body(response))


def test_it_compresses_to_the_same_answer(archive: Archive) -> None:
    plain = Client().get("/api/v1/games/").json()
    packed = Client().get("/api/v1/games/", HTTP_ACCEPT_ENCODING="gzip")

    assert json.loads(gzip.decompress(packed.content)) == plain


def test_it_sends_plain_bytes_to_a_client_without_gzip(archive: Archive) -> None:
    response = Client().get("/api/v1/games/")

    assert not response.has_header("Content-Encoding")
    assert response.json()["results"]
