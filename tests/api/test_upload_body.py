"""How an upload's body may come: chunked (`Transfer-Encoding: chunked`, no `Content-Length`,
as curl and HTTP libraries stream a file) is read like any body; a `file` and a `text` field
together are refused, since storing one and dropping the other would be a guess."""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from jobs.models import Job
from records.models import Game
from tests.api.conftest import round_text
from tests.worker import run_worker

pytestmark = pytest.mark.django_db
Clients = Callable[[Any], APIClient]


def chunked(body: bytes) -> dict[str, Any]:
    """The environ gunicorn gives a chunked request: no length, an input that ends itself."""
    return {"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": "",
            "HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input_terminated": True}


def test_it_reads_a_chunked_body(client_for: Clients, user: AbstractUser) -> None:
    body = (round_text(1) + "\n" + round_text(2)).encode()

    response = client_for(user).post("/api/v1/uploads/", data=b"", content_type="text/x-fcn",
                                     **chunked(body))

    assert response.status_code == 201, response.content[:300]
    assert response.json()["import_report"]["created"] == 2
    assert Game.objects.count() == 2


def test_it_makes_a_large_chunked_body_a_job(
    client_for: Clients, user: AbstractUser, settings: Any
) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 1000
    body = "\n".join(round_text(seed) for seed in range(1, 4)).encode()

    response = client_for(user).post("/api/v1/uploads/", data=b"", content_type="text/x-fcn",
                                     **chunked(body))

    assert response.status_code == 202
    run_worker()
    assert Game.objects.count() == 3


def test_it_refuses_a_chunked_body_over_the_limit_before_storing(
    client_for: Clients, user: AbstractUser, settings: Any
) -> None:
    settings.UPLOAD_MAX_BYTES = settings.API_UPLOAD_MAX_BYTES = 5000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1024
    body = "\n".join(round_text(seed) for seed in range(1, 12)).encode()
    assert len(body) > 5000

    response = client_for(user).post("/api/v1/uploads/", data=b"", content_type="text/x-fcn",
                                     **chunked(body))

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert not Game.objects.exists()


def test_it_refuses_a_file_and_a_text_together(client_for: Clients, user: AbstractUser) -> None:
    file = SimpleUploadedFile("a.fcn", round_text(1).encode(), "text/plain")

    response = client_for(user).post("/api/v1/uploads/", {"file": file, "text": round_text(2)},
                                     format="multipart")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] == "Invalid input: Send a `file` or a `text` field, not both."
    assert not Game.objects.exists()


def test_it_counts_the_file_not_the_multipart_framing_against_the_limit(
    client_for: Clients, user: AbstractUser, settings: Any
) -> None:
    data = round_text(3).encode()
    settings.API_UPLOAD_MAX_BYTES = len(data)
    exact = SimpleUploadedFile("exact.fcn", data, "text/plain")
    over = SimpleUploadedFile("over.fcn", data + b"\n", "text/plain")
    client = client_for(user)

    accepted = client.post("/api/v1/uploads/", {"file": exact}, format="multipart")
    refused = client.post("/api/v1/uploads/", {"file": over}, format="multipart")

    assert accepted.status_code == 201, accepted.content[:300]
    assert refused.status_code == 413
    assert refused.json()["error"]["message"] == (
        f"The upload has {len(data) + 1} bytes; the limit is {len(data)}.")
    assert Game.objects.count() == 1


def test_it_refuses_a_file_field_in_json(client_for: Clients, user: AbstractUser) -> None:
    response = client_for(user).post("/api/v1/uploads/",
                                     {"text": round_text(1), "file": round_text(2)},
                                     format="json")

    assert response.status_code == 400
    assert "file" in response.json()["error"]["fields"]
    assert not Game.objects.exists()


def test_it_says_when_to_look_again_at_a_job_left_running(
    client_for: Clients, user: AbstractUser, settings: Any
) -> None:
    settings.BACKGROUND_IMPORT_MIN_BYTES = 10
    response = client_for(user).post("/api/v1/uploads/", data=round_text(1),
                                     content_type="text/x-fcn")

    assert response.status_code == 202
    assert response["Retry-After"] == "2"


@pytest.mark.parametrize("content_type", ["text/html", "text/csv", "application/xml"])
def test_it_refuses_a_body_that_is_not_fcn_json_or_a_form(
    client_for: Clients, user: AbstractUser, content_type: str
) -> None:
    response = client_for(user).post("/api/v1/uploads/", data=round_text(1),
                                     content_type=content_type)

    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"
    assert not Game.objects.exists()


def test_it_reads_a_gzip_body(client_for: Clients, user: AbstractUser) -> None:
    body = gzip.compress((round_text(1) + "\n" + round_text(2)).encode())

    response = client_for(user).post("/api/v1/uploads/", data=body, content_type="text/x-fcn",
                                     HTTP_CONTENT_ENCODING="gzip")

    assert response.status_code == 201, response.content[:300]
    assert response.json()["import_report"]["created"] == 2


def test_it_reads_a_chunked_gzip_body(client_for: Clients, user: AbstractUser) -> None:
    body = gzip.compress(round_text(1).encode())

    response = client_for(user).post("/api/v1/uploads/", data=b"", content_type="text/x-fcn",
                                     HTTP_CONTENT_ENCODING="gzip", **chunked(body))

    assert response.status_code == 201, response.content[:300]
    assert Game.objects.count() == 1


def test_it_refuses_a_gzip_body_that_expands_past_the_limit(
    client_for: Clients, user: AbstractUser, settings: Any
) -> None:
    settings.UPLOAD_MAX_BYTES = settings.API_UPLOAD_MAX_BYTES = 100_000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
    bomb = gzip.compress(b"\n" * 50_000_000)  # 50 MB of blank lines in about 50 KB
    assert len(bomb) < 100_000

    response = client_for(user).post("/api/v1/uploads/", data=bomb, content_type="text/x-fcn",
                                     HTTP_CONTENT_ENCODING="gzip")

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"
    assert not Job.objects.exists()


@pytest.mark.parametrize(("encoding", "body", "status"), [
    ("gzip", b"not gzip at all", 400),
    ("gzip", gzip.compress(b"[Seat1 ", mtime=0)[:-6], 400),  # cut short
    ("br", b"\x0b\x02\x80hello\x03", 415),
])
def test_it_refuses_a_body_it_cannot_decode(
    client_for: Clients, user: AbstractUser, encoding: str, body: bytes, status: int
) -> None:
    response = client_for(user).post("/api/v1/uploads/", data=body, content_type="text/x-fcn",
                                     HTTP_CONTENT_ENCODING=encoding)

    assert response.status_code == status
    assert response.json()["error"]["status"] == status
    assert not Job.objects.exists()
