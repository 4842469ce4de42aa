"""How uploads are read: any chunking of the bytes gives the same lines and records."""

from __future__ import annotations

import io
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import fourcolor
from records.services.reading import DecodedLines, split_lines
from tests.records.conftest import good_text

PIECES = st.lists(
    st.sampled_from(["[", "a", "é", "陳", " ", "\n", "\r", "\r\n", "{", "}", "1x rA"]),
    max_size=60,
)


def _reference_lines(text: str) -> list[str]:
    """Lines ended by \\r\\n, \\n or a bare \\r, endings kept (the engine's line count)."""
    return [m.group(0) for m in re.finditer(r"[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$", text)]


def _chunked(data: bytes, sizes: list[int]) -> list[bytes]:
    chunks, at = [], 0
    for size in sizes:
        chunks.append(data[at : at + size])
        at += size
    chunks.append(data[at:])
    return [c for c in chunks if c]


@settings(max_examples=300)
@given(PIECES, st.lists(st.integers(min_value=1, max_value=7), max_size=40))
def test_it_splits_lines_the_same_whatever_the_chunks(pieces: list[str], sizes: list[int]) -> None:
    text = "".join(pieces)
    expected = _reference_lines(text)
    as_bytes = list(split_lines(_chunked(text.encode(), sizes)))
    assert b"".join(as_bytes) == text.encode()
    assert [line.decode() for line in as_bytes] == expected
    assert list(split_lines([text])) == expected


@settings(max_examples=50)
@given(st.lists(st.integers(min_value=1, max_value=4096), min_size=1, max_size=30))
def test_it_reads_the_same_records_from_any_chunking(sizes: list[int]) -> None:
    text = good_text(0) + "\n" + good_text(1).replace("\n", "\r\n") + "\r\n" + good_text(2)
    chunks = _chunked(text.encode(), sizes)
    got = [(r.line, r.text) for r in fourcolor.iter_records(DecodedLines(iter(chunks)))]
    want = [(r.line, r.text) for r in fourcolor.iter_records(io.StringIO(text, newline=""))]
    assert got == want and len(got) == 3
