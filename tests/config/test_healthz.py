"""GET /healthz: 200 when the database answers, 503 when it does not."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client

from config import views


@pytest.mark.django_db
def test_it_reports_ok_when_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "status": "ok",
        "database": {"ok": True, "vendor": connection.vendor},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_it_answers_head_requests(client: Client) -> None:
    assert client.head("/healthz").status_code == 200


class _UnreachableDatabase:
    vendor = "unreachable"

    def cursor(self) -> None:
        raise OperationalError("could not connect to server: Connection refused (secret=hunter2)")


def test_it_reports_503_without_details_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(views, "connection", _UnreachableDatabase())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "error",
        "database": {"ok": False, "error": "OperationalError"},
    }
    assert b"hunter2" not in response.content


def test_it_refuses_writes(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
