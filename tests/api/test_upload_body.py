"""How an upload's body may come: chunked (`Transfer-Encoding: chunked`, no `Content-Length`,
as curl and HTTP libraries stream a file) is read like any body; a `file` and a `text` field
together are refused, since storing one and dropping the other would be a guess."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

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
