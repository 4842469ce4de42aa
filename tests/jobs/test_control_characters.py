"""A NUL or another control character in one record, and a file of random bytes, uploaded as a
background job (API and web): the record is refused with its category, line and column, every
other record is stored, the job finishes and its report is saved (PostgreSQL's jsonb cannot
hold U+0000), and nothing internal (SQL, a traceback, an exception's name) reaches the user."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from jobs.models import Job
from records.models import Game
from tests.records.conftest import fcn_file, first_line_of, good_texts
from tests.web.dom import parse
from tests.worker import run_worker

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]
INTERNAL = ("Traceback", "psycopg", "DataError", "cannot be converted", "\\u0000", "SELECT",
            "UPDATE ", "Error:")


def _with_control(char: str, count: int = 12, at: int = 7) -> tuple[str, int, int]:
    """A file of `count` valid records whose record `at` has `char` in its Event tag; the
    character's line and column in the file."""
    texts = good_texts(count, start=900)
    texts[at] = f'[Event "Club{char}night"]\n' + texts[at]
    return fcn_file(texts), first_line_of(texts, at), len('[Event "Club') + 1


def _no_internals(text: str) -> None:
    for word in INTERNAL:
        assert word not in text, word


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x85"])
def test_it_refuses_the_record_and_stores_the_rest_through_the_api(
    client_for: Clients, user: AbstractUser, char: str
) -> None:
    text, line, col = _with_control(char)

    response = client_for(user).post("/api/v1/uploads/", data=text.encode(),
                                     content_type="text/x-fcn")

    assert response.status_code == 202
    run_worker()
    body = client_for(user).get(response["Location"]).json()
    assert (body["status"], body["stored"], body["refused"]) == ("done", 11, 1)
    assert Game.objects.count() == 11
    (problem,) = [r for r in body["import_report"]["results"] if r["status"] == "refused"]
    error = problem["error"]
    assert (error["category"], error["line"], error["col"], error["ply"]) == (
        "syntax", line, col, 0)
    assert f"U+{ord(char):04X}" in error["message"]
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert job.status == "done" and job.error == ""
    # What is kept of the line shows the character as a visible symbol, never the character.
    saved = job.report["problems"][0]["error"]["text"]
    assert char not in saved and saved.startswith('[Event "Club')
    again = client_for(user).get(f"/api/v1/jobs/{job.pk}/")
    assert again.status_code == 200 and again.json()["refused"] == 1
    _no_internals(again.content.decode())


def test_it_shows_the_refusal_on_the_job_page(user: AbstractUser) -> None:
    text, line, col = _with_control("\x00")
    client = Client()
    client.force_login(user)

    response = client.post(reverse("upload"), {"text": text.replace("\x00", "\x01")})
    run_worker()

    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert response.status_code == 303 and response["Location"] == f"/upload/{job.pk}/"
    assert (job.status, job.stored, job.refused) == ("done", 11, 1)
    page = client.get(response["Location"])
    assert page.status_code == 200
    content = page.content.decode()
    (row,) = [li for li in parse(page.content).find("ol", "results-list").find_all("li", "result")
              if li.attrs["data-status"] == "refused"]
    fields = {key: row.find(**{"data-field": key}).words()
              for key in ("line", "col", "category", "message")}
    assert (fields["line"], fields["col"], fields["category"]) == (str(line), str(col),
                                                                   "notation")
    assert row.find(data_field="category").attrs["data-category"] == "syntax"
    assert fields["message"].startswith("control character U+0001 in the record")
    assert "\x01" not in content
    _no_internals(content)


def test_it_refuses_a_mebibyte_of_random_bytes_without_failing(
    client_for: Clients, user: AbstractUser
) -> None:
    data = random.Random(12).randbytes(1024 * 1024)

    response = client_for(user).post("/api/v1/uploads/", data=data,
                                     content_type="application/octet-stream")

    assert response.status_code in (202, 400)
    run_worker()
    job = Job.objects.get()
    assert job.status == "done" and job.error == ""
    assert job.stored == 0 and job.refused >= 1
    assert Game.objects.count() == 0
    problems = job.report["problems"]
    assert problems and {p["error"]["category"] for p in problems} <= {"encoding", "syntax",
                                                                      "tags", "limit"}
    assert all("\x00" not in p["error"]["text"] for p in problems)
    _no_internals(response.content.decode())
    page = client_for(user).get(f"/api/v1/jobs/{job.pk}/")
    assert page.status_code == 200
    _no_internals(page.content.decode())


def test_it_never_shows_an_unexpected_error_s_text(
    client_for: Clients, user: AbstractUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    from jobs import runs

    def broken(job: Job, token: str) -> None:
        raise RuntimeError('column "x\x00" of relation "jobs_job": SELECT secret FROM auth_user')

    monkeypatch.setitem(runs.RUNNERS, Job.Kind.IMPORT, broken)
    text, _line, _col = _with_control("\x01")

    response = client_for(user).post("/api/v1/uploads/", data=text.encode(),
                                     content_type="text/x-fcn")
    run_worker()

    job = Job.objects.get()
    assert job.status == "failed"
    assert job.error.startswith("The job stopped on an unexpected error")
    assert f"job {job.pk}" in job.error
    for shown in (response.content.decode(),
                  client_for(user).get(f"/api/v1/jobs/{job.pk}/").content.decode()):
        assert "secret" not in shown and "RuntimeError" not in shown
        _no_internals(shown)
    page = Client()
    page.force_login(user)
    content = page.get(f"/jobs/{job.pk}/").content.decode()
    assert "The job stopped on an unexpected error" in content and "secret" not in content
