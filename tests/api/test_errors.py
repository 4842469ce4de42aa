"""The API's one error body (api.exceptions), whatever went wrong and wherever."""

from __future__ import annotations

import logging
from urllib.parse import unquote
from typing import Any

import pytest
from django.core.exceptions import RequestDataTooBig
from django.test import Client
from django.utils import translation
from rest_framework import exceptions
from rest_framework.test import APIClient

from fourcolor.errors import FcnError, IllegalRecordError


from api.exceptions import exception_handler
from api.views.games import GameViewSet


def handled(exc: Exception) -> tuple[int, dict[str, Any], Any]:
    # Outside a request nothing chose the language: English, whatever an earlier test's left.
    with translation.override("en"):
        response = exception_handler(exc, {})
    return response.status_code, response.data, response


def test_it_turns_an_engine_error_into_a_422_with_the_position() -> None:
    error = IllegalRecordError("hand.missing", line=14, col=3, ply=5, event="2x rK", seat=2,
                               cards=["rK"])

    status, body, _ = handled(error)

    assert status == 422
    assert body == {"error": {
        "status": 422, "code": "record_error", "message": "14:3: seat 2 does not hold red general",
        "record": {"line": 14, "col": 3, "ply": 5, "category": "not-in-hand",
                   "code": "hand.missing", "params": {"seat": 2, "cards": ["rK"]},
                   "message": "seat 2 does not hold red general", "event": "2x rK"},
    }}


def test_it_keeps_the_category_of_any_notation_error() -> None:
    status, body, _ = handled(FcnError("syntax.card", line=2, col=9, value="zz"))

    assert status == 422 and body["error"]["record"]["category"] == "syntax"
    assert body["error"]["record"]["params"] == {"value": "zz"}


@pytest.mark.parametrize(
    ("exc", "status", "code", "message"),
    [
        (exceptions.NotFound(), 404, "not_found", "Not found."),
        (exceptions.MethodNotAllowed("PUT"), 405, "method_not_allowed",
         'Method "PUT" not allowed.'),
        (RequestDataTooBig(), 413, "too_large", "The request body is too large."),
        (exceptions.ParseError("JSON parse error"), 400, "parse_error", "JSON parse error"),
    ],
)
def test_it_gives_every_api_error_the_same_shape(
    exc: Exception, status: int, code: str, message: str
) -> None:
    got_status, body, _ = handled(exc)

    assert got_status == status
    assert body == {"error": {"status": status, "code": code, "message": message}}


def test_it_lists_the_invalid_fields() -> None:
    status, body, _ = handled(exceptions.ValidationError({"seat": ["Too big."], "ply": ["No."]}))

    assert status == 400
    assert body["error"]["fields"] == {"seat": ["Too big."], "ply": ["No."]}
    assert body["error"]["message"] == "Invalid input: seat: Too big."


def test_it_files_a_bare_validation_message_under_non_field_errors() -> None:
    _, body, _ = handled(exceptions.ValidationError("Nothing to upload."))

    assert body["error"]["fields"] == {"non_field_errors": ["Nothing to upload."]}
    assert body["error"]["message"] == "Invalid input: Nothing to upload."


def test_it_says_how_long_to_wait_when_throttled() -> None:
    status, body, response = handled(exceptions.Throttled(wait=41.2))

    assert status == 429
    assert response["Retry-After"] == "42"
    assert body["error"]["retry_after"] == 42 and body["error"]["code"] == "throttled"


@pytest.mark.django_db
def test_it_answers_an_unexpected_failure_with_a_500_body_and_logs_it(
    api: APIClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret detail: password=hunter2")

    monkeypatch.setattr(GameViewSet, "list", broken)

    with caplog.at_level(logging.ERROR, logger="api.exceptions"):
        response = api.get("/api/v1/games/")

    assert response.status_code == 500
    assert response.json() == {"error": {"status": 500, "code": "server_error",
                                         "message": "Internal server error."}}
    assert b"hunter2" not in response.content
    assert any(r.exc_info and "hunter2" in str(r.exc_info[1]) for r in caplog.records)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/", "/api/v2/games/", "/api/v1/nothing/", "/api/v1/games/1/x/",
             "/api/v1/games/1%0A/"]
)
def test_it_answers_unknown_api_addresses_with_a_json_404(api: APIClient, path: str) -> None:
    response = api.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == {
        "status": 404, "code": "not_found",
        "message": f"No API endpoint at {unquote(path)}.",
    }


@pytest.mark.django_db
def test_it_lists_the_endpoints_at_the_root(api: APIClient) -> None:
    body = api.get("/api/v1/").json()

    base = "http://testserver/api/v1/"
    assert body == {
        "games": f"{base}games/", "players": f"{base}players/", "uploads": f"{base}uploads/",
        "leaderboard": f"{base}stats/leaderboard/", "ratings": f"{base}stats/ratings/",
        "global-stats": f"{base}stats/global/", "token": f"{base}auth/token/",
        "tokens": f"{base}auth/tokens/",
        "schema": f"{base}schema/", "docs": f"{base}docs/", "redoc": f"{base}redoc/",
        "jobs": f"{base}jobs/", "drafts": f"{base}drafts/", "rulesets": f"{base}rulesets/",
    }
    # Each answers: reads with 200, the token and jobs with 401 (anonymous), uploads with 405
    # (POST only, whoever asks), and the ratings ask for their ruleset.
    statuses = {name: api.get(link).status_code for name, link in body.items()}
    assert statuses == dict.fromkeys(body, 200) | {
        "token": 401, "tokens": 401, "uploads": 405, "jobs": 401, "drafts": 401, "ratings": 400}


@pytest.mark.django_db
def test_it_answers_an_unknown_address_without_a_csrf_check(user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.delete("/api/v1/games/x/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch", "trace"])
def test_it_answers_405_to_an_unsupported_method_whatever_the_parameters(
    client_for: Any, user: Any, method: str
) -> None:
    client = client_for(user)

    response = client.generic(method.upper(), "/api/v1/games/?palyer=An&ordering=-date")

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/nowhere/", "/api/v1/games/1/"])
def test_it_answers_a_host_it_does_not_serve_in_json(path: str) -> None:
    response = Client().get(path, HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "bad_request"
    assert "text/html" in Client().get("/", HTTP_HOST="evil.example")["Content-Type"]


@pytest.mark.django_db
def test_it_answers_an_over_long_query_string_in_json() -> None:
    response = Client().get("/api/v1/games/", {"player": "x" * 5000})

    assert response.status_code == 414
    assert response.json()["error"]["status"] == 414


@pytest.mark.django_db
@pytest.mark.parametrize("resource", ["drafts", "jobs", "players"])
@pytest.mark.parametrize("key", ["9" * 19, "9" * 5000, "١٢"])
def test_a_key_no_database_column_holds_is_a_json_404(
    client_for: Any, user: Any, resource: str, key: str
) -> None:
    # 5,000 digits are past what int() reads; 19 past a 64-bit key; Arabic-Indic digits are
    # digits to `\d`, not to the URL's pattern.
    response = client_for(user).get(f"/api/v1/{resource}/{key}/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
