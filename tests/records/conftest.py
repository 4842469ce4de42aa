"""Test data for the records app, made by the engine's own generator (seeded, so every run
sees the same games) and the conformance corpus copied into tests/data/corpus."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

import fourcolor
from fourcolor.cards import CARDS
from fourcolor.generate import generate_match, generate_record

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"
SHAPES = [(ruleset, players) for ruleset in ("classic", "bga") for players in (2, 3, 4)]


@functools.lru_cache(maxsize=None)
def good_text(seed: int) -> str:
    """A valid round's canonical text; rulesets and table sizes vary with the seed."""
    ruleset, players = SHAPES[seed % len(SHAPES)]
    return fourcolor.write_fcn(generate_record(ruleset, players, seed))


def good_texts(count: int, start: int = 0) -> list[str]:
    return [good_text(seed) for seed in range(start, start + count)]


def fcn_file(texts: list[str]) -> str:
    """Records as a file: each text ends with a newline, a blank line between them."""
    return "\n".join(texts)


def match_texts(match_id: str, rounds: int = 3, seed: int = 7, **kwargs: object) -> list[str]:
    records = generate_match("classic", 3, seed, rounds=rounds, match_id=match_id, **kwargs)
    return [fourcolor.write_fcn(r) for r in records]


@dataclass(frozen=True)
class BadRecord:
    """An illegal round and where the engine must place its fault, counted in the record."""

    text: str
    line_offset: int  # 0-based line of the fault in the record's text
    col: int
    ply: int
    category: str
    message: str
    event: str
    line_text: str


def bad_record(seed: int = 1) -> BadRecord:
    """A valid round whose opening discard is replaced by a card the dealer does not hold."""
    record = generate_record("classic", 4, seed)
    first = record.events[0]
    assert first.verb == "x", "this seed opens with a redeal; pick another"
    held = set(record.deal[record.dealer])
    absent = next(c for c in CARDS if c.rank != "K" and c not in held)
    text = fourcolor.write_fcn(record)
    lines = text.split("\n")
    offset = next(i for i, line in enumerate(lines) if line.startswith(first.text()))
    lines[offset] = f"{first.seat}x {absent.token}" + lines[offset][len(first.text()):]
    return BadRecord(
        text="\n".join(lines),
        line_offset=offset,
        col=1,
        ply=1,
        category="not-in-hand",
        message=f"seat {record.dealer} does not hold {absent.token}",
        event=f"{first.seat}x {absent.token}",
        line_text=lines[offset],
    )


def first_line_of(texts: list[str], index: int) -> int:
    """The 1-based file line where record `index` of `fcn_file(texts)` starts."""
    return 1 + sum(text.count("\n") + 1 for text in texts[:index])


@pytest.fixture
def corpus() -> Path:
    return CORPUS
