"""Checking records without storing them (the /check/ page): each record's verdict exactly as an
upload would give it (the same reader, engine and limits), the valid records' canonical texts
for their replays, and which of them the archive already holds. Nothing is written: no game, no
job, no session; the only query reads the content hashes of the valid records."""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any

import fourcolor
from fourcolor.messages import render

from records.models import Game
from records.services.duplicates import duplicate_differences
from records.services.importing import limit_refusal
from records.services.validating import validate_record
from records.services.reading import DecodedLines
from records.services.report import RecordResult, RecordStatus
from records.services.storing import ValidRecord
from records.variants import describe

VALID = RecordStatus.VALID  # a legal record that the archive does not hold yet


@dataclass
class CheckReport:
    """Every record's result in file order: status "valid", "duplicate" (legal and already
    stored: `game_id`) or "refused" (`error`, as in an upload's report)."""

    results: list[RecordResult] = field(default_factory=list)
    canonical: dict[int, str] = field(default_factory=dict)  # record index -> canonical FCN
    # record index -> the variant it was checked under, in words (records.variants.describe)
    variants: dict[int, str] = field(default_factory=dict)
    stopped: str = ""  # why reading stopped before the end (too many records)

    def count(self, status: str) -> int:
        return sum(1 for result in self.results if result.status == status)

    @property
    def valid(self) -> int:
        return self.count(VALID)

    @property
    def duplicates(self) -> int:
        return self.count("duplicate")

    @property
    def refused(self) -> int:
        return self.count("refused")

    @property
    def total(self) -> int:
        return len(self.results)


def check_records(source: Any, *, max_records: int | None = None,
                  given: Mapping[str, str] | None = None) -> CheckReport:
    """The verdicts on every record of `source` (bytes, text or a file, as `import_records`
    takes it), with the `given` tags for the records that lack them, as an upload adds them.
    Past `max_records` records, the next one is refused as in an upload and the rest is not
    read. The caller bounds the size: this runs in the request."""
    lines = DecodedLines(source)
    report = CheckReport()
    legal: list[ValidRecord] = []
    for rt in fourcolor.iter_records(lines):
        bad = lines.take_bad(rt.line)
        if max_records is not None and rt.index >= max_records:
            report.results.append(limit_refusal(rt, max_records))
            report.stopped = render("limit.records", {"n": max_records})
            break
        verdict = validate_record(rt, bad, given)
        if isinstance(verdict, ValidRecord):
            legal.append(verdict)
            fields = verdict.fields
            report.canonical[verdict.index] = str(fields["canonical_text"])
            report.variants[verdict.index] = describe(fields["ruleset"], fields["switches"],
                                                      fields["players"])
            verdict = RecordResult(verdict.index, verdict.line, VALID)
        report.results.append(verdict)
    stored = dict(Game.objects.filter(content_hash__in={v.content_hash for v in legal})
                  .values_list("content_hash", "pk"))
    duplicates = [(v.index, str(v.fields["canonical_text"]), stored[v.content_hash])
                  for v in legal if v.content_hash in stored]
    differs = duplicate_differences(duplicates)
    for index, _, game_id in duplicates:
        result = report.results[index]
        result.status, result.game_id = RecordStatus.DUPLICATE, game_id
        result.differences = differs.get(index, [])
    return report
