"""The hostile-input corpus: tests/data/hostile/MANIFEST.json and what each case must give.

Small cases are files under tests/data/hostile/; cases too large to commit (a 33 MiB upload, a
record of 100,000 events, 20,000 tiny records, a 2 MiB line) are made here by generator
functions named in the manifest. The tiny records are 2,000 at the CI size (tests/sizes.py):
the manifest gives the full size, and UPLOAD_MAX_RECORDS has tests of its own. Every case says
what the import service must answer for each record it holds: stored, duplicate, or refused at
a line, column, ply and category. The web form and the API answers follow from that, except
for cases over an upload size limit, which both doors refuse before reading them
(`over_upload_limit`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.sizes import sweep

HOSTILE = Path(__file__).resolve().parent.parent / "data" / "hostile"
MANIFEST = HOSTILE / "MANIFEST.json"

MIB = 1024 * 1024
PIECE = 64 * 1024  # what the upload doors read at a time

# A legal two-seat classic round, kept literal so that the generated cases do not depend on the
# engine's generator: seat 1 deals and opens with yE; seat 2 wins with yK yA for 9 points
# (tests/notation/fcn.py, DEAL_A).
SMALL_VALID = (
    '[Ruleset "classic"]\n[Seat1 "Ann"]\n[Seat2 "Bo"]\n[Dealer "1"]\n[Result "2:9"]\n\n'
    "1: rK rA rE rR rH rC yP yP gA gA gA wC wC yE gH gH gR wP wA wE yR\n"
    "2: yK yA yH yH yH gP gP gP rP rP wK gK wR wR gE gE gC gC wH wH\n\n"
    "1x yE 2w yE yK yA\n"
)
# The same deal left unfinished, for records that go on and on: a drawn card discarded again
# and again (no Pile tag, so any card may be drawn).
_OPEN_HEAD = SMALL_VALID.replace('[Result "2:9"]', '[Result "*"]').replace(
    "1x yE 2w yE yK yA\n", ""
)
_CYCLE = ("2d rC", "2x rC", "1d rC", "1x rC")


@dataclass(frozen=True)
class Expected:
    """What the import service must say about one record of a case."""

    status: str  # stored, duplicate or refused
    line: int | None = None  # a refusal's place in the file
    col: int | None = None
    ply: int | None = None
    category: str | None = None


@dataclass(frozen=True)
class Case:
    name: str
    about: str
    records: tuple[Expected, ...]
    file: str | None = None
    generator: str | None = None
    over_upload_limit: bool = False  # both the web form and the API refuse it by size
    engine_valid: bool = False  # every record valid to the engine (storage limits aside)
    engine_records: tuple[Expected, ...] | None = None  # the engine alone, where it differs
    text_in_json: bool = True  # valid UTF-8 that can travel as a JSON string
    seconds: int = 20  # a hang fails the test after this long

    def data(self) -> bytes:
        """The whole input as bytes (the generated ones are built in memory: web and API)."""
        if self.file is not None:
            return (HOSTILE / self.file).read_bytes()
        return b"".join(self.chunks())

    def chunks(self) -> Iterator[bytes]:
        """The input in pieces, without holding a generated one whole (the service reads it so)."""
        if self.file is not None:
            yield (HOSTILE / self.file).read_bytes()
            return
        assert self.generator is not None
        yield from GENERATORS[self.generator]()

    @property
    def stored(self) -> int:
        return sum(r.status == "stored" for r in self.records)

    @property
    def refused(self) -> int:
        return sum(r.status == "refused" for r in self.records)

    @property
    def duplicates(self) -> int:
        return sum(r.status == "duplicate" for r in self.records)


# ----------------------------------------------------------------------------- generators


def huge_file() -> Iterator[bytes]:
    """33 MiB: a valid record, then one line of 'x' with no line break to the end."""
    yield SMALL_VALID.encode()
    chunk = b"x" * MIB
    for _ in range(33):
        yield chunk


def long_line() -> Iterator[bytes]:
    """2 MiB on one line, under every upload limit: refused by the line-length limit. One
    piece, line break included: a reader with large buffers hands it over so."""
    yield b"[" + b"A" * (2 * MIB) + b"\n"


def events_100k() -> Iterator[bytes]:
    """A record of 100,000 events, one per line (about 600 KB), then a valid record."""
    yield _OPEN_HEAD.encode()
    yield b"1x yE\n"
    lines = [_CYCLE[k % 4] for k in range(100_000 - 1)]
    for start in range(0, len(lines), 10_000):
        yield ("\n".join(lines[start : start + 10_000]) + "\n").encode()
    yield b"\n" + SMALL_VALID.encode()


def events_100k_one_line() -> Iterator[bytes]:
    """The same 100,000 events on one line, then a valid record; in 64 KiB pieces, as the
    upload doors read a body (see long_line for a line in one piece)."""
    line = ("1x yE " + " ".join(_CYCLE[k % 4] for k in range(100_000 - 1)) + "\n").encode()
    data = _OPEN_HEAD.encode() + line + b"\n" + SMALL_VALID.encode()
    for start in range(0, len(data), PIECE):
        yield data[start : start + PIECE]


TINY_RECORDS = sweep(full=20_000, ci=2_000)


def many_tiny_records() -> Iterator[bytes]:
    """TINY_RECORDS two-line records that each lack every required tag."""
    yield b'[A "b"]\nx\n\n' * TINY_RECORDS


GENERATORS: dict[str, Callable[[], Iterator[bytes]]] = {
    "huge_file": huge_file,
    "long_line": long_line,
    "events_100k": events_100k,
    "events_100k_one_line": events_100k_one_line,
    "many_tiny_records": many_tiny_records,
}


# ----------------------------------------------------------------------------- the manifest


def _expected(item: dict[str, Any]) -> Expected:
    return Expected(
        status=item["status"], line=item.get("line"), col=item.get("col"),
        ply=item.get("ply"), category=item.get("category"),
    )


def _records(entry: dict[str, Any]) -> tuple[Expected, ...]:
    if "repeat" in entry:  # {"repeat": N, "record": {...}, "line_step": K}
        spec = entry["repeat"]
        count = TINY_RECORDS if entry.get("generator") == "many_tiny_records" else spec["count"]
        first = _expected(spec["record"])
        return tuple(
            Expected(first.status, (first.line or 0) + k * spec["line_step"], first.col,
                     first.ply, first.category)
            for k in range(count)
        )
    return tuple(_expected(item) for item in entry["records"])


def load_cases() -> list[Case]:
    entries = json.loads(MANIFEST.read_text(encoding="utf-8"))["cases"]
    return [
        Case(
            name=entry["name"],
            about=entry["about"],
            records=_records(entry),
            file=entry.get("file"),
            generator=entry.get("generator"),
            over_upload_limit=entry.get("over_upload_limit", False),
            engine_valid=entry.get("engine_valid", False),
            engine_records=(
                tuple(_expected(item) for item in entry["engine_records"])
                if "engine_records" in entry else None
            ),
            text_in_json=entry.get("text_in_json", True),
            seconds=entry.get("seconds", 20),
        )
        for entry in entries
    ]


CASES = load_cases()
CASE_IDS = [case.name for case in CASES]


def params(cases: Iterable[Case] = CASES, **marks: Any) -> list[Any]:
    """One pytest parameter per case, named after it: the generated (large) cases marked slow,
    and a case named in `marks` given that mark (a known fault's strict xfail)."""
    out = []
    for case in cases:
        extra = [pytest.mark.slow] if case.generator else []
        if case.name in marks:
            extra.append(marks[case.name])
        out.append(pytest.param(case, id=case.name, marks=extra))
    return out
