"""The web side: a large upload becomes a job whose page shows its progress and, once done,
every record's verdict; only its creator and staff see it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from jobs.models import Job
from records.models import Game
from tests.web.dom import parse

from .conftest import Upload, run_worker

pytestmark = pytest.mark.django_db


def _signed_in(user: AbstractUser) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("as_file", [True, False], ids=["file", "pasted"])
def test_it_imports_a_large_upload_as_a_job_and_lists_every_verdict(
    user: AbstractUser, upload: Upload, as_file: bool
) -> None:
    client = _signed_in(user)
    data: dict[str, Any] = (
        {"file": SimpleUploadedFile("club.fcn", upload.data, "text/plain")}
        if as_file else {"text": upload.text}
    )

    response = client.post(reverse("upload"), data)

    job = Job.objects.get()
    assert response.status_code == 303 and response["Location"] == f"/upload/{job.pk}/"
    assert job.status == "queued"  # for the worker, not run in the request
    # Until the worker is done, the result's address is the job's page, following the job.
    waiting = client.get(response["Location"])
    assert waiting.status_code == 200 and b"js/job.js" in waiting.content
    assert parse(waiting.content).find("section", id="job").attrs["data-job-url"] == (
        f"/api/v1/jobs/{job.pk}/")
    run_worker()
    job.refresh_from_db()
    assert (job.status, job.created_by, job.total) == ("done", user, len(upload.statuses))
    assert (job.stored, job.duplicates, job.refused, job.not_stored) == (
        upload.stored, upload.duplicates, upload.refused, 0)
    assert job.payload_name == ("club.fcn" if as_file else "")
    assert Game.objects.filter(uploaded_by=user).count() == upload.stored
    result = client.get(response["Location"])  # reloaded: the same address, now the verdicts
    assert result.status_code == 200 and b"js/job.js" not in result.content
    rows = parse(result.content).find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == upload.statuses
    page = client.get(f"/jobs/{job.pk}/")
    assert page.status_code == 200
    doc = parse(page.content)
    rows = doc.find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == upload.statuses
    counts = {key: doc.find("strong", **{"data-count": key}).words()
              for key in ("stored", "duplicate", "refused", "not_stored")}
    assert counts == {"stored": str(upload.stored), "duplicate": "1", "refused": "1",
                      "not_stored": "0"}
    assert doc.find("progress").attrs["value"] == "100"
    # Finished: nothing left to follow, so no polling script.
    assert b"js/job.js" not in page.content


def test_it_answers_small_uploads_within_the_request(user: AbstractUser, upload: Upload
                                                      ) -> None:
    client = _signed_in(user)

    response = client.post(reverse("upload"), {"text": upload.valid[0]})

    job = Job.objects.get(kind=Job.Kind.IMPORT)  # the same job record as a large upload's
    assert (job.status, job.stored, job.attempts) == ("done", 1, 1)
    assert response.status_code == 303 and response["Location"] == f"/upload/{job.pk}/"
    page = client.get(response["Location"])  # already the verdicts: no job to follow
    assert page.status_code == 200 and b"js/job.js" not in page.content
    assert [r.attrs["data-status"] for r in parse(page.content).find_all("li", "result")] == [
        "stored"]
    assert Game.objects.count() == 1


def test_it_follows_a_running_job_with_the_external_script(user: AbstractUser) -> None:
    job = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user, status=Job.Status.RUNNING,
                             total=40, resume_at=10, stored=9, refused=1)

    page = _signed_in(user).get(f"/jobs/{job.pk}/")

    doc = parse(page.content)
    section = doc.find("section", id="job")
    assert section.attrs["data-job-url"] == f"/api/v1/jobs/{job.pk}/"
    assert section.attrs["data-status"] == "running"
    assert doc.find("progress").attrs["value"] == "25"
    assert b'src="/static/js/job.js"' in page.content
    assert b"<script>" not in page.content  # no inline script (Content-Security-Policy)
    assert not doc.find_all("ol", "results-list")


@pytest.mark.parametrize(("lang", "running", "done"), [
    ("en", "running", "done"), ("vi", "đang chạy", "hoàn tất"), ("zh-hant", "執行中", "已完成"),
])
def test_it_gives_the_script_the_status_labels_the_page_shows(
    user: AbstractUser, lang: str, running: str, done: str
) -> None:
    job = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user, status=Job.Status.RUNNING)
    client = _signed_in(user)

    page = client.get(f"/jobs/{job.pk}/", headers={"accept-language": lang})

    doc = parse(page.content)
    assert doc.find(data_field="status").words() == running
    data = doc.find("script", id="job-status-labels")
    assert data.attrs["type"] == "application/json"  # data, not code: the policy allows it
    labels = json.loads(data.text())
    assert set(labels) == set(Job.Status.values)
    assert (labels["running"], labels["done"]) == (running, done)


@pytest.mark.parametrize(("who", "status"), [("owner", 200), ("staff", 200), ("other", 404)])
def test_it_shows_a_job_only_to_its_creator_and_staff(
    user: AbstractUser, other_user: AbstractUser, staff: AbstractUser, who: str, status: int
) -> None:
    job = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user)
    viewer = {"owner": user, "staff": staff, "other": other_user}[who]

    assert _signed_in(viewer).get(f"/jobs/{job.pk}/").status_code == status


def test_it_sends_anonymous_visitors_to_sign_in(user: AbstractUser) -> None:
    job = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user)

    response = Client().get(f"/jobs/{job.pk}/")

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_it_lists_recent_background_uploads_on_the_upload_page(
    user: AbstractUser, other_user: AbstractUser
) -> None:
    mine = Job.objects.create(kind=Job.Kind.IMPORT, created_by=user, payload_name="mine.fcn")
    Job.objects.create(kind=Job.Kind.IMPORT, created_by=other_user, payload_name="theirs.fcn")

    page = _signed_in(user).get(reverse("upload"))

    links = parse(page.content).find("ul", "job-list").find_all("a")
    assert [link.attrs["href"] for link in links] == [f"/jobs/{mine.pk}/"]
