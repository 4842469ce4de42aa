"""The upload page when the database goes away during an import run in the request: the
uploader is sent to the upload's result page (the job's page while it runs), which counts the
records not stored yet and says the job goes on by itself; the worker then stores the rest
once the database is back, each record once, and the page lists every verdict. Sending the
file again is safe too: its stored records come back as duplicates."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from jobs.models import Job
from records.models import Game
from tests.records.conftest import bad_record, fcn_file, good_texts
from tests.records.db_down import database_down_after
from tests.web.dom import parse
from tests.web.upload_result import upload_and_follow
from tests.worker import run_worker

pytestmark = pytest.mark.django_db(transaction=True)  # the import's retries need autocommit


def _texts() -> list[str]:
    texts = good_texts(5, start=4500)
    texts.insert(2, bad_record().text)
    return texts


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_it_sends_the_uploader_to_the_job_the_worker_finishes(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(user)
    upload = SimpleUploadedFile("club.fcn", fcn_file(_texts()).encode(), "text/plain")
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        response = client.post(reverse("upload"), {"file": upload})

    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert response.status_code == 303 and response["Location"] == f"/upload/{job.pk}/"
    page = parse(client.get(response["Location"]).content)
    counts = {n.attrs["data-count"]: n.words() for n in page.find_all("strong", data_count=True)}
    assert counts == {"stored": "2", "duplicate": "0", "refused": "1", "not_stored": "3"}
    assert page.find(data_field="status").attrs["class"] == "status status--queued"
    assert "tried again automatically" in page.find(data_field="error").words()
    assert Game.objects.count() == 2

    Job.objects.update(run_after=timezone.now())
    run_worker()

    page = parse(client.get(response["Location"]).content)
    rows = page.find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == (
        ["stored", "stored", "refused"] + ["stored"] * 3)
    assert Game.objects.count() == 5


def test_it_reports_the_stored_records_as_duplicates_when_the_file_is_sent_again(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = _client(user)
    text = fcn_file(_texts())
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        assert client.post(reverse("upload"), {"text": text}).status_code == 303

    response = upload_and_follow(client, {"text": text})

    rows = parse(response.content).find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == (
        ["duplicate", "duplicate", "refused"] + ["stored"] * 3)
    assert Game.objects.count() == 5
