"""A parallel import: an upload cut into chunks (contiguous ranges of its records), each
imported on its own (another process or worker), their reports merged into the one report a
serial import of the whole file gives.

- `plan_chunks` reads the file once and says where each chunk starts (record, line, byte); a
  chunk's import reads only its own bytes, with the whole file's indexes and line numbers.
- Duplicates across chunks are stored once (the content hash's unique index decides), maybe not
  in file order; `merge_chunks` gives the file's first occurrence the verdict "stored" and the
  later ones "duplicate", from each chunk's ledger (index, line, verdict, game).
- A chunk imported again (its worker was killed) finds what its cut-short batch stored by the
  content hash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import fourcolor

from records.parallel import split_range
from records.services import ImportReport, RecordResult, RecordStatus, import_records
from records.services.reading import DecodedLines

Ledger = list[tuple[int, int, str, int]]  # (index, line, "stored" | "duplicate", game id)


@dataclass(frozen=True)
class Chunk:
    """Records `first_index` up to `stop_index` (None: to the end of the file) of an upload,
    whose bytes are `start_byte` up to `stop_byte` (None: the end) and whose first line is
    `first_line`."""

    number: int
    first_index: int
    stop_index: int | None
    first_line: int
    start_byte: int
    stop_byte: int | None


def plan_chunks(pieces: Iterable[bytes | str], parts: int, *, first: int = 0,
                max_records: int | None = None, min_records: int = 1,
                ) -> tuple[int, list[Chunk]]:
    """How many records the file holds (at most `max_records` + 1: a job's `total`, a count
    that reads no further than the record an import refuses for the limit), and its records from
    `first` on cut into at most `parts` chunks of near-equal record counts, each of at least
    `min_records` (but one). The last chunk runs to the end of the file (it refuses the record
    past `max_records`, if any)."""
    offsets: list[int] = []  # where each line starts
    starts: list[tuple[int, int]] = []  # (line, byte) of each record
    lines = DecodedLines(pieces, offsets=offsets)
    for rt in fourcolor.iter_records(lines):
        lines.take_bad(rt.line)  # a record's bad UTF-8 is its chunk's to refuse
        starts.append((rt.line, offsets[rt.line - 1]))
        if max_records is not None and len(starts) > max_records:
            break
    count = len(starts)
    last = count if max_records is None else min(count, max_records)
    parts = min(parts, max(1, (last - min(first, last)) // max(min_records, 1)))
    ranges = split_range(min(first, last), last, parts)
    chunks = []
    for number, span in enumerate(ranges):
        final = number == len(ranges) - 1
        line, byte = starts[span.start]
        chunks.append(Chunk(
            number, span.start, None if final else span.stop, line, byte,
            None if final else starts[span.stop][1],
        ))
    if not chunks and first < count:  # only the refused record past the limit is left
        line, byte = starts[first]
        chunks.append(Chunk(0, first, None, line, byte, None))
    return count, chunks


def cut(pieces: Iterable[bytes], start: int, stop: int | None) -> Iterator[bytes]:
    """Bytes `start` up to `stop` of a stream that yields the bytes from offset 0 on."""
    position = 0
    for piece in pieces:
        end = position + len(piece)
        if end > start and (stop is None or position < stop):
            yield piece[max(start - position, 0):None if stop is None else stop - position]
        position = end
        if stop is not None and position >= stop:
            return


@dataclass
class ChunkResult:
    """A chunk's report, and its ledger of records stored or found duplicates."""

    chunk: Chunk
    report: ImportReport
    ledger: Ledger = field(default_factory=list)


def import_chunk(
    pieces: Iterable[bytes | str], chunk: Chunk, uploader: Any = None, *,
    start_at: int | None = None, max_results: int = 1000, max_problems: int = 100,
    max_records: int | None = None, progress: Callable[[ChunkResult], None] | None = None,
    ledger: Ledger | None = None, given: Mapping[str, str] | None = None,
) -> ChunkResult:
    """Import one chunk: `pieces` are the chunk's own bytes (or text), from `chunk.start_byte`
    on. `start_at`: resume at this record, `ledger` the entries of the run that got there. The
    stored games are not announced: the caller announces them once, for the whole upload."""
    result = ChunkResult(chunk, ImportReport(), list(ledger or []))

    def on_result(record: RecordResult) -> None:
        if record.status in (RecordStatus.STORED, RecordStatus.DUPLICATE):
            assert record.game_id is not None
            result.ledger.append((record.index, record.line, record.status.value,
                                  record.game_id))

    def reported(report: ImportReport) -> None:
        result.report = report
        if progress is not None:
            progress(result)

    result.report = import_records(
        pieces, uploader, max_results=max_results, max_problems=max_problems,
        on_result=on_result, progress=reported,
        start_at=chunk.first_index if start_at is None else start_at,
        max_records=max_records, announce=False, first_index=chunk.first_index,
        first_line=chunk.first_line, given=given or {},
    )
    return result


def merge_chunks(results: Sequence[ChunkResult], *, max_results: int = 1000,
                 max_problems: int = 100,
                 stored_by_upload: Callable[[set[int]], set[int]] | None = None,
                 ) -> tuple[ImportReport, list[int]]:
    """The upload's report (the chunks' reports in file order, every repeated record's first
    occurrence "stored") and the ids of the games the upload stored.

    `stored_by_upload(games)`: which of these games, that the chunks found already stored,
    this very upload stored (a chunk's run killed after a commit and before its report: the
    redone chunk finds those records stored). Their first occurrence is then "stored" too."""
    ordered = sorted(results, key=lambda r: r.chunk.first_index)
    report = ImportReport(max_results=max_results, max_problems=max_problems)
    report.next_index = ordered[0].chunk.first_index if ordered else 0
    for result in ordered:
        report = report.merge(result.report)
    down = [r.report.next_index for r in ordered if r.report.unavailable]
    if down:
        report.next_index = min(down)  # the first record not stored: where to resume
    ledger = sorted(entry for result in ordered for entry in result.ledger)
    ours = {game for _, _, status, game in ledger if status == RecordStatus.STORED}
    if stored_by_upload is not None:
        found = {game for _, _, _, game in ledger} - ours
        ours |= stored_by_upload(found) if found else set()
    changed = _first_occurrences(ledger, ours)
    if changed:
        report = _relabel(report, changed)
    stored = sorted(ours)
    return report, stored


def _first_occurrences(ledger: Ledger, stored: set[int]
                       ) -> dict[int, tuple[int, RecordStatus, int]]:
    """Records whose verdict a serial import would give otherwise: index -> (line, verdict,
    game). Of the records that share a game the upload stored, the first is the stored one."""
    first: dict[int, int] = {}
    changed = {}
    for index, line, status, game in ledger:
        if game not in stored:
            continue  # a duplicate of a game stored before this upload
        wanted = RecordStatus.STORED if first.setdefault(game, index) == index else (
            RecordStatus.DUPLICATE)
        if wanted != status:
            changed[index] = (line, wanted, game)
    return changed


def _relabel(report: ImportReport, changed: dict[int, tuple[int, RecordStatus, int]]
             ) -> ImportReport:
    def fixed(result: RecordResult) -> RecordResult:
        if result.index not in changed:
            return result
        line, status, game = changed[result.index]
        return RecordResult(result.index, line, status, game_id=game)

    results = [fixed(r) for r in report.results]
    problems = {r.index: r for r in report.problems
                if changed.get(r.index, (0, None))[1] is not RecordStatus.STORED}
    for index, (line, status, game) in changed.items():
        if status is RecordStatus.DUPLICATE:
            problems[index] = RecordResult(index, line, status, game_id=game)
    # A swap of two records' verdicts cancels out; a record a redone chunk found stored by its
    # own killed run becomes "stored" alone.
    for _, status, _ in changed.values():
        step = 1 if status is RecordStatus.STORED else -1
        report.stored += step
        report.duplicates -= step
    report.results = results
    report.problems = [problems[i] for i in sorted(problems)][: report.max_problems]
    report.results_omitted = report.total - len(report.results)
    report.problems_omitted = report.total - report.stored - len(report.problems)
    return report
