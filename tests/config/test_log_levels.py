"""What a visitor does never reaches ERROR, the level an operator alerts on: a request the
server refuses (4xx, an over-large paste, a malformed form) and a 503 while the database is
away are WARNING at most, without a traceback; a fault of the server itself is still ERROR."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from tests.config.test_database_unavailable import _refuse

pytestmark = pytest.mark.django_db


def _signed_in() -> Client:
    client = Client()
    client.force_login(User.objects.create_user("ana", password="a-long-test-password-1"))
    return client


def _paste_too_large(settings: Any) -> int:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    return _signed_in().post("/upload/", {"text": "x" * 5000}).status_code


def _too_many_fields(settings: Any) -> int:
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5
    return _signed_in().post("/check/", {f"f{n}": "x" for n in range(10)}).status_code


def _database_gone_page(settings: Any) -> int:
    with connection.execute_wrapper(_refuse):
        return Client().get("/players/").status_code


def _database_gone_api(settings: Any) -> int:
    with connection.execute_wrapper(_refuse):
        return Client().get("/api/v1/games/").status_code


def _api_too_large(settings: Any) -> int:
    settings.API_UPLOAD_MAX_BYTES = 10
    client = _signed_in()
    return client.post("/api/v1/uploads/", "x" * 100, content_type="text/x-fcn").status_code


def _bad_host(settings: Any) -> int:
    return Client().get("/", HTTP_HOST="evil.example").status_code


CASES: dict[str, tuple[Callable[[Any], int], int]] = {
    "paste over the size limit": (_paste_too_large, 400),
    "too many form fields": (_too_many_fields, 400),
    "page while the database is away": (_database_gone_page, 503),
    "API while the database is away": (_database_gone_api, 503),
    "API upload over the limit": (_api_too_large, 413),
    "unknown host": (_bad_host, 400),
    "missing page": (lambda s: Client().get("/games/999999/").status_code, 404),
    "wrong method": (lambda s: Client().delete("/api/v1/games/").status_code, 405),
}


@pytest.mark.parametrize("case", list(CASES))
def test_it_logs_what_a_visitor_does_below_error(
    case: str, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    request, status = CASES[case]
    with caplog.at_level(logging.INFO):
        assert request(settings) == status
    loud = [(r.name, r.levelname, r.getMessage()) for r in caplog.records
            if r.levelno >= logging.ERROR]
    assert loud == []
    assert not any(r.exc_info for r in caplog.records), "a client's error needs no traceback"


def test_it_still_logs_a_fault_of_the_server_at_error(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.views import games

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(games.GameViewSet, "list", broken)
    with caplog.at_level(logging.INFO):
        assert Client().get("/api/v1/games/").status_code == 500
    assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)
