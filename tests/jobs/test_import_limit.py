"""UPLOAD_MAX_RECORDS in background imports: a job stores the records before the limit, refuses
the next one (category `limit`) for all the rest and is done (not failed: there is nothing to
resume); a resumed job counts the limit from the start of the file, as a first run does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from rest_framework.test import APIClient

import records.services
import records.services.importing
from jobs import runs, tasks, work
from jobs.models import Job
from jobs.queue import create_import_job
from records.models import Game
from tests.records.conftest import first_line_of, good_texts
from tests.web.dom import parse

from .conftest import make_upload, run_worker

pytestmark = pytest.mark.django_db
LIMIT = 10
MESSAGE = f"too many records in one upload: at most {LIMIT} (split the file)"


@pytest.fixture(autouse=True)
def _limit(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    settings.UPLOAD_MAX_RECORDS = LIMIT
    monkeypatch.setattr(records.services.importing, "BATCH_RECORDS", 4)
    monkeypatch.setattr(records.services.importing, "BATCH_SECONDS", 3600.0)


def _assert_limited(job: Job) -> None:
    """14 records (12 valid, a repeat, an illegal one): the first 10 stored, the 11th refused."""
    job.refresh_from_db()
    assert (job.status, job.error, job.not_stored) == ("done", "", 0)
    assert (job.stored, job.duplicates, job.refused, job.seen) == (
        LIMIT, 0, 1, LIMIT + 1)
    assert job.total == LIMIT + 1  # the records read: the file's 14 were not
    results = job.report["results"]
    assert [r["index"] for r in results] == list(range(LIMIT + 1))
    refusal = results[LIMIT]["error"]
    assert (refusal["category"], refusal["message"], refusal["col"]) == ("limit", MESSAGE, 1)
    texts = good_texts(12, start=300)  # make_upload's records
    assert refusal["line"] == first_line_of(texts, LIMIT)
    assert [p["error"]["category"] for p in job.report["problems"] if p["error"]] == ["limit"]
    assert Game.objects.count() == LIMIT


def test_it_refuses_the_records_over_the_limit_in_an_api_job(
    client_for: Callable[[Any], APIClient], user: AbstractUser
) -> None:
    upload = make_upload(12)

    response = client_for(user).post("/api/v1/uploads/", data=upload.data,
                                     content_type="text/x-fcn")

    assert response.status_code == 202
    assert response.json()["status"] == "queued"
    run_worker()
    body = client_for(user).get(response["Location"]).json()
    assert (body["status"], body["refused"]) == ("done", 1)
    _assert_limited(Job.objects.get(kind=Job.Kind.IMPORT))


def test_it_shows_the_limit_on_the_web_job_page(user: AbstractUser) -> None:
    client = Client()
    client.force_login(user)

    location = client.post("/upload/", {"text": make_upload(12).text})["Location"]
    run_worker()
    response = client.get(location)

    assert response.status_code == 200
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    _assert_limited(job)
    doc = parse(response.content)
    refused = doc.find("li", "result", **{"data-status": "refused"})
    assert refused.find(data_field="message").words() == MESSAGE
    assert refused.find(data_field="category").words() == "size limit"
    assert refused.find(data_field="category").attrs["data-category"] == "limit"


def test_it_keeps_the_limit_refusal_after_more_refusals_than_the_report_lists(
    client_for: Callable[[Any], APIClient], user: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 12 refused records (more than the 5 problems a report lists here), then the limit.
    monkeypatch.setattr(work, "MAX_PROBLEMS", 5)
    # Dealer 9 of a 2-4 seat round: each record refused, category tags.
    texts = [text.replace('[Dealer "', '[Dealer "9"]\n[X "', 1) for text in good_texts(14, 300)]
    body = "\n".join(texts).encode()

    response = client_for(user).post("/api/v1/uploads/", data=body, content_type="text/x-fcn")

    assert response.status_code == 202
    run_worker()
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert (job.status, job.refused, job.seen, job.total) == ("done", LIMIT + 1, LIMIT + 1,
                                                              LIMIT + 1)
    problems = job.report["problems"]
    assert problems[-1]["error"]["category"] == "limit"
    assert problems[-1]["error"]["message"] == MESSAGE
    assert [p["error"]["category"] for p in problems[:-1]] == ["tags"] * 5
    assert job.report["stopped"] == MESSAGE
    api = client_for(user).get(f"/api/v1/jobs/{job.pk}/").json()
    assert api["import_report"]["results"][-1]["error"]["message"] == MESSAGE


class Killed(BaseException):
    """Stands for SIGKILL: nothing in the task may catch it."""


def test_it_counts_the_limit_from_the_start_of_the_file_when_a_job_resumes(
    user: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    job = create_import_job(make_upload(12).data, user)
    real = runs.update
    calls = {"progress": 0}

    def update(job: Job, token: str, **fields: Any) -> None:
        if "resume_at" in fields:
            calls["progress"] += 1
            if calls["progress"] == 2:  # after the first batch's progress was written
                raise Killed
        real(job, token, **fields)

    with monkeypatch.context() as patch:
        patch.setattr(runs, "update", update)
        with pytest.raises(Killed):
            tasks.run_job.apply(args=[job.pk], throw=True)
    job.refresh_from_db()
    # Killed while writing the second batch's progress, which commits with the batch's games:
    # neither was, and the resumed run stores them, counted as a run never killed counts them.
    assert job.resume_at == 4 and Game.objects.count() == 4
    Job.objects.filter(pk=job.pk).update(heartbeat_at=None, status=Job.Status.QUEUED)

    tasks.run_job.apply(args=[job.pk])

    _assert_limited(job)
