"""Importing uploads: every record validated by the engine first, the valid ones stored in batches.

Every door that writes games (the commands, the API, the web upload, the jobs) comes through
here. The policy:

- the valid records are stored in batches, one short transaction each, so a record's game and
  seats are always committed together;
- a record whose round is stored already is a *duplicate*; the unique index on
  `Game.content_hash` has the last word, so two uploads of one file racing still end with one
  game per record (records.services.storing);
- a refused record is reported with its line, column, ply, category, message and line text;
- a lost database connection is retried; if it stays lost the import stops and reports every
  record not stored (status "unavailable") and the record to resume from (`start_at`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.db import DatabaseError

import fourcolor
from fourcolor.errors import LimitError
from fourcolor.messages import render
from fourcolor.notation import MAX_RECORD_CHARS

from records.models import Game
from records.services import storing
from records.services.duplicates import duplicate_differences
from records.services.reading import QUOTE_CHARS, BadLine, DecodedLines, line_of
from records.services.report import (
    ImportReport,
    RecordResult,
    RecordStatus,
    refused_result,
    unavailable_result,
)
from records.services.storing import KnownIds, Uploader, ValidRecord
from records.services.validating import validate_record
from records.signals import games_stored_batch

logger = logging.getLogger(__name__)

# Valid records stored per transaction: one INSERT for their games, one for their seats, one
# lookup each for players and matches, instead of ~5 round trips per record.
BATCH_RECORDS = 250
# ...or fewer, once the batch's first record waited this long (a slow stream still commits,
# and reports progress, at a steady pace).
BATCH_SECONDS = 1.0
STATS_BATCH = 5000  # stored games handed to derived-data apps (statistics, ratings) at a time


@dataclass(frozen=True, kw_only=True)
class ImportOptions:
    """How one import runs: the keyword options of `import_records` and `import_texts`.

    - `max_results`, `max_problems`: how many results and problems the report keeps.
    - `on_result` sees every record's result once its batch is decided, in file order.
    - `progress(report)` is called after each committed batch and once at the end
      (`report.next_index`: where a resumed import would start); with `progress_in_batch`,
      inside each batch's transaction, so that the progress it writes commits with the batch's
      games or not at all (a job's run: its resumed run counts no killed batch's games twice).
    - `start_at`: skip the first `start_at` records of the stream (indexes and lines stay the
      whole stream's), to resume an interrupted import with `start_at=report.next_index`.
    - `max_records`: the most records one upload may hold (None: no limit). The record after
      them is refused (category `limit`) for all the rest, which is not read, and
      `report.stopped` says so; the records before keep their verdicts.
    - `announce`: tell the derived-data apps about the stored games
      (`records.signals.games_stored_batch`); off for a caller that announces them itself.
    - `given`: tags (name -> value: `Switches`, `Ruleset`) for the records that lack them, each
      added to such a record's stored text as a tag line before its first line.
    """

    max_results: int = 1000
    max_problems: int = 100
    on_result: Callable[[RecordResult], None] | None = None
    progress: Callable[[ImportReport], None] | None = None
    progress_in_batch: bool = False
    start_at: int = 0
    max_records: int | None = None
    announce: bool = True
    given: Mapping[str, str] = field(default_factory=dict)


def import_records(
    stream: Any,
    uploader: Uploader = None,
    *,
    first_index: int = 0,
    first_line: int = 1,
    **options: Any,
) -> ImportReport:
    """Validate every record of a file, then store the valid ones in batches.

    `stream`: bytes or str, a binary or text file object (open text files with newline='' to
    keep line endings verbatim), or an iterable of lines. Bytes are decoded as strict UTF-8;
    a record with invalid UTF-8 is refused with the position of the first bad byte.
    `options`: the keywords of `ImportOptions`.

    When the database stays unavailable the import stops: the records not stored get the
    status "unavailable", `report.stopped` says why and `report.next_index` is the first
    record not stored. Other database errors are raised.

    `first_index`, `first_line`: the stream is a piece of a larger file that starts at the
    first line of its record `first_index` (0-based), line `first_line` (a chunk of a
    parallel import, records.chunked): indexes, lines and `start_at` are the whole file's."""
    lines = DecodedLines(stream, first_line)
    records = fourcolor.iter_records(lines)
    if first_index or first_line != 1:
        records = (
            fourcolor.RecordText(rt.index + first_index, rt.line + first_line - 1, rt.text,
                                 rt.oversize)
            for rt in records
        )
    return _import(records, lines, uploader, ImportOptions(**options))


def import_texts(
    texts: Iterable[str],
    uploader: Uploader = None,
    **options: Any,
) -> ImportReport:
    """Like `import_records` (the same `options`), for texts that are one record each (a JSON
    upload, an NDJSON export's texts): each is stored exactly as given, lines counted from 1
    in it."""
    records = (
        fourcolor.RecordText(index, 1, text, len(text) > MAX_RECORD_CHARS)
        for index, text in enumerate(texts)
    )
    return _import(records, None, uploader, ImportOptions(**options))


def ndjson_texts(lines: Iterable[bytes | str]) -> Iterator[str]:
    """The records of an NDJSON export (`export_games --format ndjson`, the API's export with
    `with_text=true`), one a line: each object's `text` (`original` in older exports), as it
    was uploaded. Blank lines are passed over; ValueError names the first bad line."""
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
            key = "text" if "text" in line else "original"
            original = line[key]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(
                _("line %(line)s: not an export object with 'text' (export_games, or the API's "
                  "export with with_text=true): %(reason)s") % {"line": number, "reason": exc}
            ) from None
        if not isinstance(original, str):
            raise ValueError(_("line %(line)s: '%(key)s' is not a string")
                             % {"line": number, "key": key})
        yield original


class _Importer:
    """One import: records are validated as they come and queued; a full (or old) queue is
    stored as a batch and its results reported in file order."""

    def __init__(self, uploader: Uploader, report: ImportReport, options: ImportOptions) -> None:
        self.user = uploader if getattr(uploader, "is_authenticated", False) else None
        self.announce = options.announce
        self.report = report
        self.on_result = options.on_result
        self.progress = options.progress
        self.progress_in_batch = options.progress_in_batch
        self.ids = KnownIds()
        self.queue: list[RecordResult | ValidRecord] = []
        self.valid = 0
        self.since = 0.0
        self.stored: list[int] = []  # not announced yet
        self.unsettled = False  # batches were announced as not final
        self.down: DatabaseError | None = None

    def add(self, entry: RecordResult | ValidRecord) -> None:
        if not self.queue:
            self.since = time.monotonic()
        self.queue.append(entry)
        if isinstance(entry, ValidRecord):
            self.valid += 1
        if self.valid >= BATCH_RECORDS or time.monotonic() - self.since >= BATCH_SECONDS:
            self.flush()

    def flush(self) -> None:
        queue, self.queue, self.valid = self.queue, [], 0
        if not queue:
            return
        valid = [entry for entry in queue if isinstance(entry, ValidRecord)]
        # With progress_in_batch: the outcomes whose progress was written in their transaction
        # and the results built for it (a batch redone record by record after it is not).
        reported: tuple[storing.Outcomes, list[RecordResult]] | None = None

        def report_with_games(outcomes: storing.Outcomes) -> None:
            nonlocal reported
            if self.progress is not None and self.progress_in_batch:
                results = self._results(queue, outcomes)
                ahead = dataclasses.replace(self.report, results=list(self.report.results),
                                            problems=list(self.report.problems))
                for result in results:
                    ahead.add(result, keep=result is self.report.limit_refusal)
                ahead.next_index = queue[-1].index + 1
                self.progress(ahead)
                reported = (outcomes, results)

        outcomes = (storing.store_retrying(valid, self.user, self.ids, report_with_games)
                    if valid else {})
        if isinstance(outcomes, DatabaseError):
            self.down = outcomes
            self.report.stopped = "database unavailable"
            # psycopg's messages span lines.
            self.report.cause = " ".join(str(outcomes).split())[:QUOTE_CHARS]
            logger.warning("import stopped, database unavailable: %s", self.report.cause)
            self.report.next_index = valid[0].index
            for entry in queue:
                if isinstance(entry, ValidRecord):
                    entry = unavailable_result(entry.index, entry.line, valid[0].index)
                self.emit(entry)
            return
        committed = reported is not None and reported[0] is outcomes
        results = reported[1] if committed and reported else self._results(queue, outcomes)
        for result in results:
            if result.status is RecordStatus.STORED and result.game_id is not None:
                self.stored.append(result.game_id)
            self.emit(result)
        self.report.next_index = queue[-1].index + 1
        if not self.announce:
            self.stored.clear()
        elif len(self.stored) >= STATS_BATCH:
            announce_stored(self.stored, final=False)
            self.stored.clear()
            self.unsettled = True
        if self.progress is not None and not committed:
            self.progress(self.report)

    @staticmethod
    def _results(queue: list[RecordResult | ValidRecord], outcomes: storing.Outcomes
                 ) -> list[RecordResult]:
        """The batch's results in file order, its stored records' outcomes filled in."""
        differs = duplicate_differences(
            (entry.index, entry.fields["canonical_text"], outcomes[entry.index][1])
            for entry in queue if isinstance(entry, ValidRecord)
            and outcomes[entry.index][0] is RecordStatus.DUPLICATE
        )
        results = []
        for entry in queue:
            if isinstance(entry, ValidRecord):
                status, game_id = outcomes[entry.index]
                entry = RecordResult(entry.index, entry.line, status, game_id=game_id,
                                     differences=differs.get(entry.index, []))
            results.append(entry)
        return results

    def finish(self) -> ImportReport:
        self.flush()
        if self.down is not None:
            # Announcing would only fail (with a traceback in the log): say what to run instead.
            if self.stored:
                logger.warning(
                    "%d stored games not counted in the statistics yet (database unavailable): "
                    "the next statistics job counts them", len(self.stored),
                )
        elif self.stored or self.unsettled:
            announce_stored(self.stored)
        if self.progress is not None:
            self.progress(self.report)
        return self.report

    def emit(self, result: RecordResult) -> None:
        self.report.add(result, keep=result is self.report.limit_refusal)
        if self.on_result is not None:
            self.on_result(result)


def _import(
    records: Iterable[fourcolor.RecordText],
    lines: DecodedLines | None,
    uploader: Uploader,
    options: ImportOptions,
) -> ImportReport:
    report = ImportReport(max_results=options.max_results, max_problems=options.max_problems)
    report.next_index = max(options.start_at, 0)
    importer = _Importer(uploader, report, options)
    max_records = options.max_records
    for rt, bad, within in _wanted(records, lines, options.start_at, max_records):
        if not within:
            _too_many(importer, rt, max_records or 0)
            break  # the rest is not read: a huge file costs no more than its first records
        if importer.down is not None:
            # Not stored: the import stopped, and a resumed one will look at it.
            importer.emit(unavailable_result(rt.index, rt.line, report.next_index))
        else:
            importer.add(validate_record(rt, bad, options.given))
    return importer.finish()


def _wanted(
    records: Iterable[fourcolor.RecordText],
    lines: DecodedLines | None,
    start_at: int,
    max_records: int | None,
) -> Iterator[tuple[fourcolor.RecordText, BadLine | None, bool]]:
    """The records to decide, in order, each with its first undecodable line: from `start_at`
    (the ones before were done by the import this one resumes) up to the one past
    `max_records`, which comes last, not to be validated."""
    for rt in records:
        bad = lines.take_bad(rt.line) if lines is not None else None
        if rt.index < start_at:
            continue
        if max_records is not None and rt.index >= max_records:
            yield rt, bad, False
            return
        yield rt, bad, True


def limit_refusal(rt: fourcolor.RecordText, max_records: int) -> RecordResult:
    """The refusal of the record past the first `max_records` (for it and all that follow)."""
    quote = line_of(rt.text, rt.line, rt.line).encode("utf-8", "replace").decode("utf-8")
    error = LimitError("limit.records", line=rt.line, col=1, n=max_records)
    return refused_result(rt.index, rt.line, error, quote)


def _too_many(importer: _Importer, rt: fourcolor.RecordText, max_records: int) -> None:
    """Refuse the record after the first `max_records`, once, for it and all that follow."""
    refusal = limit_refusal(rt, max_records)
    importer.report.limit_refusal = refusal
    if importer.down is not None:
        importer.emit(refusal)  # the database stopped the import first: its reason stands
        return
    # A database failure storing the last batch overrides this stop.
    importer.report.stopped = render("limit.records", {"n": max_records})
    importer.add(refusal)


def announce_stored(game_ids: Sequence[int], *, final: bool = True) -> None:
    """Tell derived-data apps about freshly stored games, STATS_BATCH at a time; `final` on
    the import's last call. A failing receiver is logged and never fails the upload: such
    games stay due, and the next statistics job counts them."""
    pieces = [game_ids[i:i + STATS_BATCH] for i in range(0, len(game_ids), STATS_BATCH)]
    for number, piece in enumerate(pieces or [[]]):
        last = final and number == max(len(pieces) - 1, 0)
        for receiver, response in games_stored_batch.send_robust(
            sender=Game, game_ids=list(piece), final=last
        ):
            if isinstance(response, Exception):
                logger.error(
                    "derived data not updated for %d games by %r (%s); the next statistics job "
                    "will", len(piece), receiver, response,
                )
