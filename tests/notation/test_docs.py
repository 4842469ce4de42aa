"""docs/notation.md stays true to the code: its examples are what the code writes, and its
tables name every error category and limit the code has."""

from __future__ import annotations

import re
from pathlib import Path

import fourcolor
from fourcolor import notation
from fourcolor.messages import MESSAGES

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")


def code_blocks() -> list[str]:
    return re.findall(r"^```[a-z]*\n(.*?)^```", DOC, flags=re.S | re.M)


def categories_in_code() -> set[str]:
    """The categories of the engine's error codes (the archive adds `encoding`, `unavailable`
    and a stored refusal's generic `error`)."""
    return {category for category, _ in MESSAGES.values()} - {"encoding", "error", "unavailable"}


def test_it_documents_every_error_category_the_code_raises() -> None:
    section = DOC.split("### Categories", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", section, flags=re.M))
    assert documented == categories_in_code()
    assert len(documented) == 22


def test_it_documents_the_limits_with_their_values() -> None:
    section = DOC.split("## Limits", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `(MAX_[A-Z_]+)` \| (\d+)", section, flags=re.M))
    constants = {name: getattr(notation, name) for name in dir(notation) if name.startswith("MAX_")}
    assert {name: int(value) for name, value in rows.items()} == constants


def test_it_shows_the_canonical_text_the_writer_writes() -> None:
    blocks = code_blocks()
    example, canonical = (
        blocks[0],
        next(b for b in blocks if b.startswith("[Event") and b != blocks[0]),
    )
    assert fourcolor.check_record(example).ok
    assert fourcolor.write_fcn(fourcolor.parse_record(example)) == canonical


def test_it_lists_every_verb_of_the_parser() -> None:
    table = DOC.split("## Events", 1)[1].split("\n### ", 1)[0]
    verbs = set(re.findall(r"^\| `S([a-z])", table, flags=re.M))
    assert verbs == set(notation.VERBS)
