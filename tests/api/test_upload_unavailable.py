"""POST /api/v1/uploads/ when the database stays unavailable during the import: 503 with
`Retry-After`, the report so far (records not stored have the status `unavailable`) and the
error body; sending the file again later stores the rest, the stored ones being duplicates."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from records.models import Game
from tests.api.openapi import ResponseChecker, openapi_document
from tests.records.conftest import bad_record, fcn_file, first_line_of, good_texts
from tests.records.db_down import database_down_after

pytestmark = pytest.mark.django_db(transaction=True)  # the import's retries need autocommit
URL = "/api/v1/uploads/"


@pytest.fixture
def uploader(client_for: Any, user: Any) -> APIClient:
    client: APIClient = client_for(user)
    return client


def _texts() -> list[str]:
    """Two valid records (the first batch), an illegal one, then three valid ones."""
    texts = good_texts(5, start=4400)
    texts.insert(2, bad_record().text)
    return texts


def test_it_answers_503_with_retry_after_and_every_verdict(
    uploader: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts()
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        response = uploader.post(URL, data=fcn_file(texts), content_type="text/x-fcn")

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    body = response.json()
    ResponseChecker(openapi_document()).check(URL, "post", 503, "application/json", body)
    assert body["error"]["code"] == "unavailable" and body["error"]["status"] == 503
    assert body["error"]["retry_after"] == 30
    assert "Upload the file again later" in body["error"]["message"]
    assert (body["created"], body["refused"], body["unavailable"], body["total"]) == (2, 1, 3, 6)
    statuses = [r["status"] for r in body["results"]]
    assert statuses == ["created", "created", "refused"] + ["unavailable"] * 3
    first = body["results"][3]
    assert first["id"] is None and first["line"] == first_line_of(texts, 3)
    assert first["error"]["category"] == "unavailable"
    assert Game.objects.count() == 2

    again = uploader.post(URL, data=fcn_file(texts), content_type="text/x-fcn")

    assert again.status_code == 207  # the illegal record is refused again
    statuses = [r["status"] for r in again.json()["results"]]
    assert statuses == ["duplicate", "duplicate", "refused"] + ["created"] * 3
    assert Game.objects.count() == 5


def test_it_answers_503_when_nothing_could_be_stored(
    uploader: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=0)
        response = uploader.post(URL, {"text": fcn_file(good_texts(3, start=4410))},
                                 format="json")

    assert response.status_code == 503 and response["Retry-After"] == "30"
    body = response.json()
    assert (body["created"], body["unavailable"]) == (0, 3)
    assert [r["status"] for r in body["results"]] == ["unavailable"] * 3
    assert not Game.objects.exists()
