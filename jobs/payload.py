"""A job's upload, kept in the database a chunk at a time (`JobChunk`): written as it is read
from the request and read back as an iterator of chunks, so that no process ever holds more
than one chunk of an upload, whatever its size.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from typing import Any

from jobs.models import Job, JobChunk
from records.services.reading import READ_CHUNK, read_pieces

# Bytes per stored chunk: large enough that a 30 MB upload is 30 rows, small enough that one
# row is nothing next to a worker's baseline memory.
PAYLOAD_CHUNK_BYTES = 1024 * 1024


def _pieces(source: Any) -> Iterator[bytes]:
    """The upload's bytes, piece by piece (text is encoded as UTF-8, see Job.payload_is_text).

    surrogatepass: text decoded from JSON may hold a lone surrogate; it goes back to the import
    as the same text, which refuses that record with its position."""
    chunks = getattr(source, "chunks", None)  # an UploadedFile: from its start, piece by piece
    for piece in chunks(READ_CHUNK) if callable(chunks) else read_pieces(source):
        yield piece.encode("utf-8", "surrogatepass") if isinstance(piece, str) else piece


def store(job: Job, source: Any) -> int:
    """Write `source` into the job's chunks; returns its size in bytes."""
    size = 0
    number = 0
    buffer = bytearray()
    for piece in _pieces(source):
        buffer += piece
        size += len(piece)
        while len(buffer) >= PAYLOAD_CHUNK_BYTES:
            JobChunk.objects.create(job=job, number=number,
                                    data=bytes(buffer[:PAYLOAD_CHUNK_BYTES]))
            del buffer[:PAYLOAD_CHUNK_BYTES]
            number += 1
    if buffer:
        JobChunk.objects.create(job=job, number=number, data=bytes(buffer))
    return size


def read(job_id: int, *, as_text: bool) -> Iterator[bytes | str]:
    """The job's whole upload, a chunk at a time; as text (`as_text`) decoded incrementally,
    so a character split between two chunks is whole again."""
    pieces = read_range(job_id, 0, None)
    return codecs.iterdecode(pieces, "utf-8", "surrogatepass") if as_text else pieces


def read_range(job_id: int, start: int, stop: int | None) -> Iterator[bytes]:
    """Bytes `start` up to `stop` (None: the end) of the job's upload, as stored: only the
    chunks that hold them are fetched (a part of a split import reads its own bytes)."""
    first = start // PAYLOAD_CHUNK_BYTES
    rows = JobChunk.objects.filter(job_id=job_id, number__gte=first).order_by("number")
    if stop is not None:
        rows = rows.filter(number__lte=max(stop - 1, start) // PAYLOAD_CHUNK_BYTES)
    for number in list(rows.values_list("number", flat=True)):
        data = bytes(JobChunk.objects.filter(job_id=job_id, number=number)
                     .values_list("data", flat=True).get())
        offset = number * PAYLOAD_CHUNK_BYTES
        piece = data[max(start - offset, 0):None if stop is None else max(stop - offset, 0)]
        if piece:
            yield piece
