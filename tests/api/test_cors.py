"""Cross-origin use of the API: anonymous reads from any site, nothing with credentials or
writes, the whole API for configured origins (api/cors.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from records.tokens import create_token

# Only the headers are checked: the reads and writes behind them run on both databases in their
# own modules.
pytestmark = pytest.mark.any_database

ORIGIN = "https://other-site.example"
TRUSTED = "https://app.example.org"
ALLOW = "Access-Control-Allow-Origin"


def preflight(client: Client, path: str, method: str, headers: str = "",
              origin: str = ORIGIN) -> Any:
    extra = {"HTTP_ACCESS_CONTROL_REQUEST_METHOD": method}
    if headers:
        extra["HTTP_ACCESS_CONTROL_REQUEST_HEADERS"] = headers
    return client.options(path, HTTP_ORIGIN=origin, **extra)


# (description, request) -> the Access-Control-Allow-Origin expected (None: absent)
CASES = [
    ("anonymous GET of a list", lambda c, t: c.get("/api/v1/games/", HTTP_ORIGIN=ORIGIN), "*"),
    ("anonymous GET of a game", lambda c, t: c.get("/api/v1/players/", HTTP_ORIGIN=ORIGIN), "*"),
    ("anonymous HEAD", lambda c, t: c.head("/api/v1/games/", HTTP_ORIGIN=ORIGIN), "*"),
    ("anonymous GET answered 404", lambda c, t: c.get("/api/v1/games/999999/",
                                                      HTTP_ORIGIN=ORIGIN), "*"),
    ("preflight of a GET", lambda c, t: preflight(c, "/api/v1/games/", "GET"), "*"),
    ("preflight of a GET with If-None-Match",
     lambda c, t: preflight(c, "/api/v1/games/", "GET", "if-none-match"), "*"),
    ("GET with a token", lambda c, t: c.get("/api/v1/games/", HTTP_ORIGIN=ORIGIN,
                                            HTTP_AUTHORIZATION=f"Token {t}"), None),
    ("preflight of a GET with Authorization",
     lambda c, t: preflight(c, "/api/v1/games/", "GET", "authorization"), None),
    ("preflight of a POST", lambda c, t: preflight(c, "/api/v1/uploads/", "POST"), None),
    ("preflight of a DELETE", lambda c, t: preflight(c, "/api/v1/games/1/", "DELETE"), None),
    ("anonymous POST", lambda c, t: c.post("/api/v1/uploads/", {"text": "x"},
                                           HTTP_ORIGIN=ORIGIN), None),
    ("a web page", lambda c, t: c.get("/", HTTP_ORIGIN=ORIGIN), None),
    ("GET without an Origin", lambda c, t: c.get("/api/v1/games/"), None),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "send", "expected"), CASES, ids=[c[0] for c in CASES])
def test_it_allows_only_anonymous_reads_across_origins(
    user: Any, case: str, send: Any, expected: str | None
) -> None:
    token = create_token(user, "test")[1]

    response = send(Client(), token)

    assert response.get(ALLOW) == expected
    assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.django_db
def test_it_refuses_the_read_of_a_signed_in_session(user: Any) -> None:
    client = Client()
    client.force_login(user)

    response = client.get("/api/v1/games/", HTTP_ORIGIN=ORIGIN)

    assert response.status_code == 200 and ALLOW not in response


@pytest.mark.django_db
def test_it_answers_a_read_preflight_with_methods_headers_and_exposed_headers() -> None:
    response = preflight(Client(), "/api/v1/games/", "GET", "if-none-match")

    assert response.status_code == 200
    assert set(response["Access-Control-Allow-Methods"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert "authorization" not in response["Access-Control-Allow-Headers"]
    exposed = Client().get("/api/v1/games/", HTTP_ORIGIN=ORIGIN)["Access-Control-Expose-Headers"]
    assert {"etag", "link", "retry-after"} <= set(exposed.split(", "))


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("send", "expected"),
    [
        (lambda c, t: c.get("/api/v1/auth/token/", HTTP_ORIGIN=TRUSTED,
                            HTTP_AUTHORIZATION=f"Token {t}"), TRUSTED),
        (lambda c, t: preflight(c, "/api/v1/uploads/", "POST", "authorization, content-type",
                                origin=TRUSTED), TRUSTED),
        (lambda c, t: c.get("/api/v1/games/", HTTP_ORIGIN=TRUSTED), TRUSTED),
        (lambda c, t: preflight(c, "/api/v1/uploads/", "POST", origin=ORIGIN), None),
    ],
)
def test_it_opens_the_whole_api_to_configured_origins(
    settings: Any, user: Any, send: Any, expected: str | None
) -> None:
    settings.API_CORS_TRUSTED_ORIGINS = [TRUSTED]
    token = create_token(user, "test")[1]

    response = send(Client(), token)

    assert response.get(ALLOW) == expected
    if expected and response.request["REQUEST_METHOD"] == "OPTIONS":
        assert "POST" in response["Access-Control-Allow-Methods"]
        assert "authorization" in response["Access-Control-Allow-Headers"]
