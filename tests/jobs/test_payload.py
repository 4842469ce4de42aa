"""A job's upload is kept in chunks of PAYLOAD_CHUNK_BYTES and read back one chunk at a time:
byte for byte, whatever door it came in by, and text cut between two chunks in the middle of a
character comes back whole."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Max
from rest_framework.test import APIClient

from jobs import payload
from jobs.models import Job, JobChunk
from jobs.queue import create_import_job

from .conftest import make_upload, run_worker

pytestmark = pytest.mark.django_db
CHUNK = 1000


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(payload, "PAYLOAD_CHUNK_BYTES", CHUNK)


def _read(job: Job) -> list[bytes | str]:
    return list(payload.read(job.pk, as_text=job.payload_is_text))


@pytest.mark.parametrize("how", ["bytes", "text", "file", "stream"])
def test_it_stores_an_upload_in_chunks_and_reads_it_back(user: AbstractUser, how: str) -> None:
    data = ("[Event \"Tứ sắc 四色牌\"]\n" * 300).encode()
    source: Any = {
        "bytes": data,
        "text": data.decode(),
        "file": SimpleUploadedFile("club.fcn", data),
        "stream": __import__("io").BytesIO(data),
    }[how]

    job = create_import_job(source, user, "club.fcn")

    sizes = list(JobChunk.objects.filter(job=job).order_by("number")
                 .values_list("number", "data"))
    assert [n for n, _ in sizes] == list(range(len(data) // CHUNK + 1))
    assert all(len(bytes(chunk)) == CHUNK for _, chunk in sizes[:-1])
    assert job.payload_size == len(data)
    pieces = _read(job)
    if how == "text":
        # Each chunk decoded on its own would cut 3-byte characters: they come back whole.
        assert "".join(str(p) for p in pieces) == data.decode()
    else:
        assert b"".join(bytes(p) for p in pieces) == data  # type: ignore[arg-type]
    assert max(len(p) for p in pieces) <= CHUNK


def test_it_imports_an_upload_of_many_chunks(client_for: Any, user: AbstractUser) -> None:
    upload = make_upload(12)
    client: APIClient = client_for(user)

    response = client.post("/api/v1/uploads/", data=upload.data, content_type="text/x-fcn")
    run_worker()

    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert JobChunk.objects.filter(job=job).aggregate(n=Max("number"))["n"] == (
        len(upload.data) - 1) // CHUNK
    body = client.get(response["Location"]).json()
    assert (body["stored"], body["duplicates"], body["refused"]) == (12, 1, 1)
    assert [r["status"] for r in body["import_report"]["results"]] == [
        {"stored": "created"}.get(s, s) for s in upload.statuses]


def test_it_reads_any_byte_range_fetching_only_the_chunks_that_hold_it(
        django_assert_max_num_queries: Any) -> None:
    data = bytes(range(256)) * 17  # 4,352 bytes: five chunks, the last one short
    job = create_import_job(data, None, "range.fcn")
    for start, stop in [(0, None), (0, 1000), (999, 1001), (1000, 2000), (2500, 4352),
                        (4000, None), (4352, None), (1234, 1234), (3999, 4001)]:
        assert b"".join(payload.read_range(job.pk, start, stop)) == data[start:stop]
    with django_assert_max_num_queries(3):  # the numbers, then the two chunks
        assert b"".join(payload.read_range(job.pk, 999, 1001)) == data[999:1001]
