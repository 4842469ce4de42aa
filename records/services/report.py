"""An upload's report: what became of each record, and the counts for the whole file."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fourcolor.errors import FcnError

from records.services.reading import shown


@dataclass
class RecordResult:
    """What became of one record of an upload."""

    index: int  # 0-based position in the file
    line: int  # the record's first line in the file
    status: str  # "stored", "duplicate" or "refused"
    game_id: int | None = None  # the stored game (for a duplicate: the one already stored)
    error: dict[str, Any] | None = None  # line, col, ply, category, message, event, text, error

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def message(self) -> str:
        """One line: `LINE:COL: error[CATEGORY]: MESSAGE (ply N...)`, or the duplicate's game."""
        if self.error is not None:
            return str(self.error["error"])
        if self.status == "duplicate":
            return f"{self.line}: duplicate of game {self.game_id}"
        return f"{self.line}: stored as game {self.game_id}"


@dataclass
class ImportReport:
    """Counts for the whole upload; the first results and problems in detail (memory stays
    flat however long the file)."""

    stored: int = 0
    duplicates: int = 0
    refused: int = 0
    results: list[RecordResult] = field(default_factory=list)
    problems: list[RecordResult] = field(default_factory=list)
    results_omitted: int = 0
    problems_omitted: int = 0
    max_results: int = 1000
    max_problems: int = 100
    # Records not stored because the database stayed unavailable (the import stopped).
    unavailable: int = 0
    # Index (0-based, in the whole stream) of the first record not yet decided and committed:
    # pass it as `start_at` to resume. After a complete import, the number of records read.
    next_index: int = 0
    stopped: str = ""  # why the import stopped before the end ("" when it did not)
    # The refusal of the record after `max_records`: listed in `results` and `problems`
    # whatever their caps, since it says why the rest of the file was not read.
    limit_refusal: RecordResult | None = None
    # The database's own words when it stopped the import: for the log and the operator's
    # command line only (they may name hosts and ports), never in `as_dict()` nor on a page.
    cause: str = ""

    @property
    def total(self) -> int:
        return self.stored + self.duplicates + self.refused + self.unavailable

    def add(self, result: RecordResult, *, keep: bool = False) -> None:
        """Count a record's result and list it while the lists have room (always with
        `keep`)."""
        if result.status == "stored":
            self.stored += 1
        elif result.status == "duplicate":
            self.duplicates += 1
        elif result.status == "unavailable":
            self.unavailable += 1
        else:
            self.refused += 1
        if keep or len(self.results) < self.max_results:
            self.results.append(result)
        else:
            self.results_omitted += 1
        if result.status != "stored":
            if keep or len(self.problems) < self.max_problems:
                self.problems.append(result)
            else:
                self.problems_omitted += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "stored": self.stored,
            "duplicates": self.duplicates,
            "refused": self.refused,
            "unavailable": self.unavailable,
            "total": self.total,
            "next_index": self.next_index,
            "stopped": self.stopped,
            "results": [r.as_dict() for r in self.results],
            "results_omitted": self.results_omitted,
            "problems": [r.as_dict() for r in self.problems],
            "problems_omitted": self.problems_omitted,
        }


def refused_result(
    index: int, first_line: int, error: FcnError, text: str, seats: Sequence[str] = ()
) -> RecordResult:
    detail = {key: shown(value) if isinstance(value, str) else value
              for key, value in error.as_dict().items()}
    detail["text"] = shown(text)
    detail["error"] = shown(str(error))
    # The players' names when the tags could be read, so that a page can say "Noor may not
    # ..." rather than the engine's "seat 4 may not ..." (web.refusals).
    detail["seats"] = [shown(name) for name in seats]
    return RecordResult(index, first_line, "refused", error=detail)


def unavailable_result(index: int, line: int, resume: int) -> RecordResult:
    message = f"not stored: database unavailable (resume at record {resume + 1})"
    return RecordResult(index, line, "unavailable", error={
        "line": line, "col": None, "ply": None, "category": "unavailable", "message": message,
        "event": None, "text": "", "error": f"{line}: error[unavailable]: {message}",
    })
