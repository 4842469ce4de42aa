"""An upload's report: what became of each record, and the counts for the whole file.

One type for every door: the import builds it, a job stores `as_dict()` and reads it back with
`from_dict` (the exact inverse), and a resumed job `merge`s the run's report onto the saved
one. The web and the API show it, each in its own words.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_lazy, ngettext_lazy

from fourcolor.errors import FcnError
from fourcolor.messages import MESSAGES, render

from records.services.reading import shown


class RecordStatus(StrEnum):
    """What became of one record (a str: equal to its value, and stored as it)."""

    STORED = "stored"
    DUPLICATE = "duplicate"  # its canonical content was stored already: `game_id` is that game
    REFUSED = "refused"  # the engine (or a storage limit) refused it: see `error`
    UNAVAILABLE = "unavailable"  # not stored: the database stayed unavailable
    VALID = "valid"  # legal and not stored: the check page's verdict (never in an import)


@dataclass
class RecordResult:
    """What became of one record of an upload."""

    index: int  # 0-based position in the file
    line: int  # the record's first line in the file
    status: RecordStatus
    game_id: int | None = None  # the stored game (for a duplicate: the one already stored)
    error: dict[str, Any] | None = None  # line, col, ply, category, message, event, text, error
    # A duplicate's differences from the stored record of its round (each a code and its
    # params: fourcolor.notation.identity.Difference); empty: the same record but for layout.
    differences: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.status = RecordStatus(self.status)

    def as_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["status"] = self.status.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RecordResult:
        return cls(
            index=int(data["index"]), line=int(data["line"]), status=RecordStatus(data["status"]),
            game_id=data.get("game_id"), error=data.get("error"),
            differences=list(data.get("differences") or []),
        )

    @property
    def message(self) -> str:
        """One line: `LINE:COL: error[CATEGORY]: MESSAGE (ply N...)`, or the duplicate's game."""
        if self.error is not None:
            return str(self.error["error"])
        if self.status is RecordStatus.DUPLICATE:
            with translation.override("en"):
                differs = "; ".join(describe_differences(self.differences))
            return f"{self.line}: duplicate of game {self.game_id}" + (
                f" ({differs})" if differs else "")
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
    cause: str = field(default="", compare=False)

    @property
    def total(self) -> int:
        return self.stored + self.duplicates + self.refused + self.unavailable

    def add(self, result: RecordResult, *, keep: bool = False) -> None:
        """Count a record's result and list it while the lists have room (always with
        `keep`)."""
        if result.status is RecordStatus.STORED:
            self.stored += 1
        elif result.status is RecordStatus.DUPLICATE:
            self.duplicates += 1
        elif result.status is RecordStatus.UNAVAILABLE:
            self.unavailable += 1
        else:
            self.refused += 1
        if keep or len(self.results) < self.max_results:
            self.results.append(result)
        else:
            self.results_omitted += 1
        if result.status is not RecordStatus.STORED:
            if keep or len(self.problems) < self.max_problems:
                self.problems.append(result)
            else:
                self.problems_omitted += 1

    def as_dict(self) -> dict[str, Any]:
        return {
            **{name: getattr(self, name) for name in _COUNTS},
            "total": self.total,
            "stopped": self.stopped,
            "results": [r.as_dict() for r in self.results],
            "problems": [r.as_dict() for r in self.problems],
            "limit_index": self.limit_refusal.index if self.limit_refusal is not None else None,
        }

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], *, max_results: int = 1000, max_problems: int = 100
    ) -> ImportReport:
        """The report `as_dict()` gave (a job's saved report): every field but `cause`, which
        is never saved. The caps are not in it: give those the report was made with."""
        results = [RecordResult.from_dict(r) for r in data.get("results", [])]
        limit_index = data.get("limit_index")
        return cls(
            **{name: int(data.get(name, 0)) for name in _COUNTS},
            results=results,
            problems=[RecordResult.from_dict(r) for r in data.get("problems", [])],
            max_results=max_results,
            max_problems=max_problems,
            stopped=str(data.get("stopped", "")),
            limit_refusal=next((r for r in results if r.index == limit_index), None),
        )

    def settled(self) -> ImportReport:
        """What a resumed import builds on: the records before `next_index`, none of them
        unavailable (the resumed run decides those), and the limit's refusal and stop only
        when it is among them."""
        def kept(result: RecordResult) -> bool:
            return result.index < self.next_index and result.status is not RecordStatus.UNAVAILABLE

        limit = self.limit_refusal
        if limit is not None and not kept(limit):
            limit = None
        return ImportReport(
            stored=self.stored, duplicates=self.duplicates, refused=self.refused,
            results=[r for r in self.results if kept(r)],
            problems=[r for r in self.problems if kept(r)],
            max_results=self.max_results, max_problems=self.max_problems,
            next_index=self.next_index, stopped=self.stopped if limit is not None else "",
            limit_refusal=limit,
        )._recount()

    def merge(self, later: ImportReport) -> ImportReport:
        """This report followed by `later`'s records (a resumed run's): counts added, the
        lists joined within this report's caps (the limit's refusal listed whatever the caps),
        `next_index` and the stop (when it says one) those of `later`. Associative."""
        limit = later.limit_refusal if later.limit_refusal is not None else self.limit_refusal
        results = [r for r in self.results + later.results if r is not limit and r != limit]
        problems = [r for r in self.problems + later.problems if r is not limit and r != limit]
        merged = ImportReport(
            stored=self.stored + later.stored,
            duplicates=self.duplicates + later.duplicates,
            refused=self.refused + later.refused,
            unavailable=self.unavailable + later.unavailable,
            results=results[: self.max_results] + ([limit] if limit is not None else []),
            problems=problems[: self.max_problems] + ([limit] if limit is not None else []),
            max_results=self.max_results, max_problems=self.max_problems,
            next_index=later.next_index, stopped=later.stopped or self.stopped,
            cause=later.cause or self.cause, limit_refusal=limit,
        )
        return merged._recount()

    def _recount(self) -> ImportReport:
        """The omitted counts again, from the counts and the lists."""
        self.results_omitted = self.total - len(self.results)
        self.problems_omitted = self.total - self.stored - len(self.problems)
        return self


# The numbers `as_dict` saves as they are.
_COUNTS = ("stored", "duplicates", "refused", "unavailable", "results_omitted", "problems_omitted",
           "next_index")


def refused_result(
    index: int, first_line: int, error: FcnError, text: str, seats: Sequence[str] = ()
) -> RecordResult:
    detail = {key: shown(value) if isinstance(value, str) else value
              for key, value in error.as_dict().items()}
    detail["params"] = {key: shown(value) if isinstance(value, str) else value
                        for key, value in error.params.items()}
    detail["text"] = shown(text)
    detail["error"] = shown(str(error))
    # The players' names when the tags could be read, so that a page can say "Noor may not
    # ..." rather than the engine's "seat 4 may not ..." (records.refusal_text).
    detail["seats"] = [shown(name) for name in seats]
    return RecordResult(index, first_line, RecordStatus.REFUSED, error=detail)


def stored_error(detail: Mapping[str, Any], cls: type[FcnError] = FcnError) -> FcnError:
    """The error a stored refusal (`refused_result`'s `error`) describes. A refusal stored
    before refusals had codes has only its English message: it comes back as code `stored`."""
    where = {"line": int(detail.get("line") or 0), "col": int(detail.get("col") or 0),
             "ply": int(detail.get("ply") or 0), "event": str(detail.get("event") or "")}
    code, params = detail.get("code"), detail.get("params")
    if isinstance(code, str) and code in MESSAGES and isinstance(params, dict):
        return cls(code, category=detail.get("category") or None, **where, **params)
    return cls("stored", category=str(detail.get("category") or "error"),
               value=str(detail.get("message") or ""), **where)


def unavailable_result(index: int, line: int, resume: int) -> RecordResult:
    params = {"n": resume + 1}
    message = render("import.unavailable", params)
    return RecordResult(index, line, RecordStatus.UNAVAILABLE, error={
        "line": line, "col": None, "ply": None, "category": "unavailable",
        "code": "import.unavailable", "params": params, "message": message,
        "event": None, "text": "", "error": f"{line}: error[unavailable]: {message}",
    })


# A duplicate's differences (fourcolor.notation.identity's codes), one phrase a code.
DIFFERENCES = {
    "comments_added": ngettext_lazy("adds %(count)d comment", "adds %(count)d comments",
                                    "count"),
    "comments_removed": ngettext_lazy("has %(count)d comment fewer",
                                      "has %(count)d comments fewer", "count"),
    "comments_changed": gettext_lazy("has other comments"),
    "tag_added": gettext_lazy("adds the %(tag)s tag (“%(value)s”)"),
    "tag_removed": gettext_lazy("has no %(tag)s tag"),
    "tag_changed": gettext_lazy("gives %(tag)s as “%(value)s”, not “%(old)s”"),
    "name_written": gettext_lazy("writes seat %(seat)d’s name “%(value)s”, not “%(old)s”"),
}


def describe_differences(differences: list[dict[str, Any]]) -> list[str]:
    """A duplicate's differences in the active language, one phrase each ("adds 3 comments");
    a difference a newer engine knows, by its code rather than nothing."""
    return [str(DIFFERENCES[d["code"]] % d.get("params", {})) if d["code"] in DIFFERENCES
            else str(d["code"]) for d in differences]
