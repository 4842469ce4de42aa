"""`manage.py import_games FILE...`: validate and store every record of FCN files.

Refused records are listed as `FILE:LINE:COL: error[CATEGORY]: MESSAGE (ply N: "EVENT")`,
duplicates with the stored game. An `.ndjson`/`.jsonl` export (`export_games --format ndjson`,
the API's `/games/export/?with_text=true`) is read through its objects' `text`, the record as
uploaded, so it imports back byte for byte.

When the database stays unavailable the import stops, lists the records not stored and prints
the command that resumes it (`--start-at N`: the first FILE from its record N, counted from 1);
the exit status is 1.

An FCN file of at least 2 x CHUNK_RECORDS records is imported in `--jobs N` processes, each a
contiguous range of its records (records.chunked, as an upload job's parts): the verdicts, the
stored games and the report are those of a serial import. On SQLite in memory the ranges run
one after another in this process. NDJSON files are read in one process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.db import DatabaseError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm
from tqdm.utils import CallbackIOWrapper

from records import chunked
from records.parallel import in_processes
from records.services import (
    ImportReport,
    RecordResult,
    RecordStatus,
    import_records,
    import_texts,
    ndjson_texts,
)
from records.services.importing import announce_stored


def _ndjson_originals(file: IO[bytes], bar: tqdm) -> Iterator[str]:
    """The texts as uploaded of an NDJSON export, one record each (the service's reader)."""

    def lines() -> Iterator[bytes]:
        for raw in file:
            bar.update(len(raw))
            yield raw

    try:
        yield from ndjson_texts(lines())
    except ValueError as exc:
        raise CommandError(str(exc)) from None


# Records per process at least: a smaller file is not worth a fork.
CHUNK_RECORDS = 500


class Command(BaseCommand):
    help = "Validate and store the records of FCN files (or NDJSON exports)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", metavar="FILE", help="FCN or .ndjson files")
        parser.add_argument("--user", help="the username recorded as the uploader")
        parser.add_argument(
            "--max-problems", type=int, default=1000,
            help="refusals and duplicates listed per file (default 1000); all are counted",
        )
        parser.add_argument(
            "--start-at", type=int, default=1, metavar="N",
            help="start the first FILE at its record N, counted from 1 (to resume a stopped "
                 "import: the number it printed)",
        )
        parser.add_argument(
            "--jobs", type=int, default=min(os.cpu_count() or 1, 8), metavar="N",
            help="import each FCN file in N processes (default: the machine's cores, at most "
                 "8), each a range of its records",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        paths = [Path(name) for name in options["files"]]
        for path in paths:
            if not path.is_file():
                raise CommandError(f"{path}: no such file")
        start_at = options["start_at"]
        if start_at < 1:
            raise CommandError("--start-at: the number of a record, 1 or more")
        if options["jobs"] < 1:
            raise CommandError("--jobs: the number of processes, 1 or more")
        self.jobs = options["jobs"]
        try:
            uploader = self._uploader(options.get("user"))
        except DatabaseError as exc:
            raise CommandError(f"database unavailable: {str(exc).strip()}") from None
        totals = ImportReport()
        for number, path in enumerate(paths):
            try:
                report = self._import_file(
                    path, uploader, options["max_problems"], start_at - 1 if number == 0 else 0
                )
            except DatabaseError as exc:  # not a lost connection (that is reported): say so
                raise CommandError(
                    f"{path}: database error, the import stopped: {str(exc).strip()}"
                ) from None
            except OSError as exc:  # unreadable file, or a read error halfway
                raise CommandError(f"{path}: {exc.strerror or exc}") from None
            totals = totals.merge(report)
            if report.stopped:
                self._resume_hint(report, paths[number:], options)
        if len(paths) > 1:
            self.stdout.write(
                f"all files: {totals.stored} stored, {totals.duplicates} duplicates, "
                f"{totals.refused} refused"
            )

    def _resume_hint(self, report: ImportReport, rest: list[Path], options: Any) -> None:
        user = f" --user {options['user']}" if options.get("user") else ""
        files = " ".join(str(path) for path in rest)
        # One number, in the words and in the command: the first record not stored, counted
        # from 1 as everywhere else (`next_index` counts from 0).
        first = report.next_index + 1
        cause = f" ({report.cause})" if report.cause else ""
        raise CommandError(
            f"{rest[0]}: {report.stopped}{cause}; {report.unavailable} records from record "
            f"{first} on were not stored. "
            f"Resume with: manage.py import_games{user} --start-at {first} {files}"
            " (the job worker counts the stored games' statistics within a minute; without one "
            "running, manage.py recompute_stats --missing does)"
        )

    def _uploader(self, username: str | None) -> Any:
        if not username:
            return None
        model = get_user_model()
        try:
            return model._default_manager.get_by_natural_key(username)
        except model.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None

    def _import_file(
        self, path: Path, uploader: Any, max_problems: int, start_at: int
    ) -> ImportReport:
        if self.jobs > 1 and path.suffix.lower() not in (".ndjson", ".jsonl"):
            with path.open("rb") as file:
                count, plan = chunked.plan_chunks(
                    iter(lambda: file.read(1 << 20), b""), self.jobs, first=start_at,
                    min_records=CHUNK_RECORDS)
            if len(plan) > 1:
                report = self._import_parallel(path, plan, count - start_at, uploader,
                                               max_problems)
                self._summary(path, str(path), report)
                return report
        size = os.path.getsize(path)
        bar = tqdm(
            total=size, unit="B", unit_scale=True, desc=path.name, disable=None, leave=False
        )
        counts = {"stored": 0, "duplicate": 0, "refused": 0, "unavailable": 0}

        def on_result(result: RecordResult) -> None:
            counts[result.status] += 1
            if sum(counts.values()) % 200 == 0:
                bar.set_postfix(counts, refresh=False)

        with path.open("rb") as file, bar:
            if path.suffix.lower() in (".ndjson", ".jsonl"):
                report = import_texts(
                    _ndjson_originals(file, bar), uploader, max_results=0,
                    max_problems=max_problems, on_result=on_result, start_at=start_at,
                )
                where = f"{path}#"
            else:
                report = import_records(
                    CallbackIOWrapper(bar.update, file), uploader, max_results=0,
                    max_problems=max_problems, on_result=on_result, start_at=start_at,
                )
                where = f"{path}"
        self._summary(path, where, report)
        return report

    def _import_parallel(
        self, path: Path, plan: list[chunked.Chunk], count: int, uploader: Any,
        max_problems: int,
    ) -> ImportReport:
        work = [(str(path), chunk, getattr(uploader, "pk", None), max_problems)
                for chunk in plan]
        results = []
        with tqdm(total=count, unit="records", desc=path.name, disable=None,
                  leave=False) as bar:
            for result in in_processes(_import_file_chunk, work, self.jobs):
                results.append(result)
                bar.update(result.report.total)
        report, stored = chunked.merge_chunks(results, max_results=0,
                                              max_problems=max_problems)
        if stored and not report.unavailable:
            announce_stored(stored)
        elif not report.stopped:
            report.stopped = "database unavailable"
        return report

    def _summary(self, path: Path, where: str, report: ImportReport) -> None:
        for problem in report.problems:
            if problem.status is RecordStatus.UNAVAILABLE:
                continue  # one line for all of them: see _resume_hint
            # NDJSON: lines are counted in each record's text, so say which record it is
            # (FILE#N:LINE:COL, N counted from 1).
            prefix = f"{where}{problem.index + 1}:" if where != str(path) else f"{path}:"
            line = prefix + problem.message
            if problem.status is RecordStatus.REFUSED:
                self.stdout.write(self.style.ERROR(line))
            else:
                self.stdout.write(line)
        if report.problems_omitted:
            self.stdout.write(f"{path}: ... and {report.problems_omitted} more not listed")
        text = (
            f"{path}: {report.stored} stored, {report.duplicates} duplicates, "
            f"{report.refused} refused"
        )
        if report.unavailable:
            text += f", {report.unavailable} not stored (database unavailable)"
        style = self.style.WARNING if report.refused or report.unavailable else self.style.SUCCESS
        self.stdout.write(style(text))


def _import_file_chunk(work: tuple[str, chunked.Chunk, int | None, int]) -> chunked.ChunkResult:
    """One process's range of a file (`--jobs`): its bytes only, read from its first line."""
    name, chunk, uploader_id, max_problems = work
    uploader = (get_user_model()._default_manager.get(pk=uploader_id)
                if uploader_id is not None else None)
    with open(name, "rb") as file:
        file.seek(chunk.start_byte)
        pieces = chunked.cut(iter(lambda: file.read(1 << 20), b""), 0,
                             None if chunk.stop_byte is None
                             else chunk.stop_byte - chunk.start_byte)
        return chunked.import_chunk(pieces, chunk, uploader, max_results=0,
                                    max_problems=max_problems)
