"""POST /api/v1/uploads/ when the database goes away during an import run in the request: the
answer is 202 with the job, queued again for the worker (nothing to send again); once the
database is back the worker goes on from the first record not stored, each record stored once.
Sending the file again meanwhile is safe too: its stored records come back as duplicates."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from jobs.models import Job
from records.models import Game
from tests.api.openapi import ResponseChecker, openapi_document
from tests.records.conftest import bad_record, fcn_file, good_texts
from tests.records.db_down import database_down_after
from tests.worker import run_worker

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


def test_it_hands_an_upload_the_database_stopped_to_the_worker(
    uploader: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = _texts()
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        response = uploader.post(URL, data=fcn_file(texts), content_type="text/x-fcn")

    assert response.status_code == 202
    body = response.json()
    ResponseChecker(openapi_document()).check(URL, "post", 202, "application/json", body)
    assert response["Location"] == body["url"]
    assert (body["status"], body["stored"], body["refused"], body["not_stored"]) == (
        "queued", 2, 1, 3)
    assert "database unavailable" in body["error"] and "automatically" in body["error"]
    assert Game.objects.count() == 2
    Job.objects.update(run_after=timezone.now())  # the retry pause is over

    run_worker()

    body = uploader.get(response["Location"]).json()
    assert (body["status"], body["stored"], body["refused"], body["not_stored"]) == (
        "done", 5, 1, 0)
    statuses = [r["status"] for r in body["import_report"]["results"]]
    assert statuses == ["created", "created", "refused"] + ["created"] * 3
    assert Game.objects.count() == 5


def test_it_reports_a_retried_upload_as_duplicates(
    uploader: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client saw no answer (say, its connection was cut) and sends the file again: every
    record already stored is reported as a duplicate, none stored twice."""
    texts = _texts()
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        uploader.post(URL, data=fcn_file(texts), content_type="text/x-fcn")

    again = uploader.post(URL, data=fcn_file(texts), content_type="text/x-fcn")

    assert again.status_code == 201
    statuses = [r["status"] for r in again.json()["import_report"]["results"]]
    assert statuses == ["duplicate", "duplicate", "refused"] + ["created"] * 3
    Job.objects.update(run_after=timezone.now())
    run_worker()  # the first upload's job ends too: its last records are duplicates now
    first = Job.objects.order_by("pk").first()
    assert first is not None
    assert (first.status, first.stored, first.duplicates) == ("done", 2, 3)
    assert Game.objects.count() == 5


def test_it_answers_503_while_the_database_is_still_down(
    uploader: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database is still gone when the answer is due (the job could not even be queued
    again): the answer is the 503 with Retry-After every request gets meanwhile."""
    from jobs import queue

    with monkeypatch.context() as patch:
        database_down_after(patch, batches=0)
        patch.setattr(queue, "put_back", lambda *args, **kwargs: False)
        response = uploader.post(URL, data=fcn_file(_texts()), content_type="text/x-fcn")

    assert response.status_code == 503
    assert response["Retry-After"]
    assert response.json()["error"]["code"] == "unavailable"
    assert not Game.objects.exists()
