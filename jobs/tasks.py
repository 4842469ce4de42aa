"""The Celery tasks that run jobs, and the bookkeeping that makes them safe to kill.

Each task is acknowledged late and rejected (so requeued) when its worker is lost: a job whose
worker is killed -9 is delivered again (by Redis after the visibility timeout) and resumes at
`Job.resume_at`. Every record is stored in a committed batch before `resume_at` moves past it,
so a resumed import never stores a record twice (one stored in the batch the kill interrupted
is recognised by its content hash) and never stores part of one (a batch is a transaction).

A job is run by one worker at a time: the one holding its lease (`Job.runner`, refreshed with
every progress report). A second delivery of a job whose lease is fresh (Redis redelivers a
long job's message after the visibility timeout, its worker still busy with it) waits and
looks again; one whose lease expired takes the job over, and the old runner, should it wake,
finds the lease gone and stops.
"""

from __future__ import annotations

import datetime
import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, connections, transaction
from django.db.models import QuerySet
from django.utils import timezone

import fourcolor
from jobs import payload
from jobs.analysis import queue_for_upload, run_analysis, run_analysis_job
from jobs.batches import batch_progress, run_batch, run_batch_job
from jobs.models import Job
# run_job_part: imported here so that Celery, which looks for tasks in jobs.tasks, knows it.
from jobs.parts import run_job_part, split_import, split_revalidate  # noqa: F401
from records.models import Game
from records.services import (
    ImportReport,
    RevalidateReport,
    count_records,
    import_records,
    revalidate_games,
)

logger = logging.getLogger(__name__)

# Per-record results and problems kept in a job's report (the counts cover every record).
MAX_RESULTS = 1000
MAX_PROBLEMS = 100
# Games revalidated between two progress reports.
REVALIDATE_CHUNK = 500
# A lost database: the task is tried again after this many seconds, this many times.
DB_RETRY_SECONDS = 15
DB_RETRIES = 20


class Busy(Exception):
    """Another runner holds the job's lease."""


class LeaseLost(Exception):
    """This runner's lease was taken over (it was presumed dead): stop without writing."""


def lease_seconds() -> int:
    return int(getattr(settings, "JOB_LEASE_SECONDS", 120))


HOST = socket.gethostname()[:12]


def runner_token() -> str:
    """A run's token: host and process, so that a worker on the same host can tell that the
    process holding a job is gone (jobs.worker), then a random part (32 characters in all)."""
    return f"{HOST}:{os.getpid()}:{uuid.uuid4().hex}"[:32]


# ----------------------------------------------------------------------------- lease


def claim(job_id: int, token: str, resume_token: str | None = None) -> Job | None:
    """Take the job's lease for `token`: the job, or None when there is nothing to do (no such
    job, or finished). Raises Busy when another runner holds a fresh lease."""
    with transaction.atomic():
        job = (
            Job.objects.select_for_update().filter(pk=job_id).first()
        )
        if job is None or job.finished:
            return None
        now = timezone.now()
        fresh = (
            job.status == Job.Status.RUNNING
            and job.heartbeat_at is not None
            and (now - job.heartbeat_at).total_seconds() < lease_seconds()
        )
        if fresh and job.runner != resume_token:
            raise Busy
        job.status = Job.Status.RUNNING
        job.runner = token
        job.started_at = job.started_at or now
        job.heartbeat_at = now
        job.attempts += 1
        job.run_after = None
        job.save(update_fields=["status", "runner", "started_at", "heartbeat_at", "attempts",
                                "run_after"])
    return job


def _update(job: Job, token: str, **fields: Any) -> None:
    """Write progress if this runner still holds the lease (one short transaction)."""
    fields["heartbeat_at"] = timezone.now()
    if not Job.objects.filter(pk=job.pk, runner=token).update(**fields):
        raise LeaseLost(f"job {job.pk}: lease taken over by another runner")


def _finish(job: Job, token: str, status: str, **fields: Any) -> None:
    fields.setdefault("error", "")
    _update(job, token, status=status, finished_at=timezone.now(), **fields)


# ----------------------------------------------------------------------------- reports


def empty_report() -> dict[str, Any]:
    return ImportReport(max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS).as_dict()


def merge_reports(base: dict[str, Any], run: ImportReport) -> dict[str, Any]:
    """The whole file's report: `base` (the records before this run's start, as saved) and
    this run's records up to `run.next_index`. Records the run left unstored (database down)
    are not kept: a resumed run will handle them."""
    saved = ImportReport.from_dict(base, max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS)
    return saved.merge(run.settled()).as_dict()


# ----------------------------------------------------------------------------- runs


class Unavailable(Exception):
    """The database stopped the import: its progress is saved, the rest is to be resumed."""

    def __init__(self, not_stored: int, message: str) -> None:
        super().__init__(message)
        self.not_stored = not_stored


def _source(job: Job) -> Iterator[bytes | str]:
    return payload.read(job.pk, as_text=job.payload_is_text)


def run_import(job: Job, token: str) -> None:
    if job.total is None:
        job.total = count_records(_source(job), settings.UPLOAD_MAX_RECORDS)
        _update(job, token, total=job.total)
    if _splits(job) and split_import(job):
        return  # the parts run on every worker; the last to end finishes the job
    base = job.report or empty_report()
    start = job.resume_at

    def progress(report: ImportReport) -> None:
        merged = merge_reports(base, report)
        _update(
            job, token, report=merged, resume_at=report.next_index, seen=merged["total"],
            stored=merged["stored"], duplicates=merged["duplicates"],
            refused=merged["refused"],
        )

    # announce=False: the statistics of the stored games are counted by a job of their own,
    # queued below (and found by the worker's periodic check should this run die first), so
    # that no upload waits for a rating replay.
    # ahead: a large upload is validated in a forked process while its batches are stored
    # (records.services.validating; the same verdicts, not used in Celery's daemonic workers).
    report = import_records(
        _source(job), job.created_by, max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS,
        progress=progress, start_at=start, max_records=settings.UPLOAD_MAX_RECORDS,
        announce=False, ahead=True,
    )
    if report.stored:
        from jobs.queue import request_stats

        request_stats()
    if not report.unavailable:
        job.refresh_from_db(fields=["stored", "started_at"])
        queue_for_upload(job)
    # Stopped by the database (records left unavailable): resumable. Stopped by the records
    # limit: done, the record after the limit refused in the report like any other.
    if report.unavailable:
        left = max((job.total or 0) - report.next_index, report.unavailable)
        raise Unavailable(left, f"{report.stopped}; {left} records not stored yet: to be "
                                f"resumed from record {report.next_index + 1}")
    _finish(job, token, Job.Status.DONE, not_stored=0, resume_at=report.next_index)


def _splits(job: Job) -> bool:
    """Whether the job runs as parts on the Celery workers (jobs/parts.py): with a broker, a
    job split before, or one not started yet (a job a serial run began goes on serially)."""
    from jobs.queue import uses_celery

    return uses_celery() and (job.parts.exists() or (job.resume_at == 0 and not job.report))


def run_stats(job: Job, token: str) -> None:
    """Count every stored game the totals miss and replay the ratings that wait."""
    from ratings.services import catch_up

    report = catch_up()
    _finish(job, token, Job.Status.DONE, total=report.games, seen=report.games,
            resume_at=report.games,
            report={"counted": report.games, "rated": report.rated,
                    "rulesets": report.rulesets})


def revalidate_report(report: RevalidateReport) -> dict[str, Any]:
    return {
        "checked": report.checked,
        "unchanged": report.unchanged,
        "changed": report.changed,
        "refused": report.refused,
        "updated": report.updated,
        "details": [{"game_id": pk, "reason": reason} for pk, reason in report.details],
        "details_omitted": report.details_omitted,
    }


def revalidate_next(games: QuerySet[Game], last_id: int, totals: dict[str, Any], *,
                    update: bool) -> list[int]:
    """Revalidate the next chunk of `games` after id `last_id` and add its counts and details
    (the first MAX_PROBLEMS) to `totals`; the chunk's ids, none when all are done. A whole job
    and a job's part (jobs/parts.py) go through their games with it."""
    chunk = list(games.filter(pk__gt=last_id).order_by("pk")
                 .values_list("pk", flat=True)[:REVALIDATE_CHUNK])
    if not chunk:
        return chunk
    report = revalidate_games(Game.objects.filter(pk__in=chunk), update=update,
                              chunk_size=REVALIDATE_CHUNK, max_details=MAX_PROBLEMS)
    part = revalidate_report(report)
    for key in ("checked", "unchanged", "changed", "refused", "updated", "details_omitted"):
        totals[key] = int(totals.get(key, 0)) + part[key]
    details = list(totals.get("details", [])) + part["details"]
    totals["details"] = details[:MAX_PROBLEMS]
    totals["details_omitted"] += len(details) - len(totals["details"])
    return chunk


def run_revalidate(job: Job, token: str) -> None:
    """Revalidate games in id order, a chunk at a time, reporting after each chunk; a resumed
    job goes on after the last game of the last reported chunk."""
    games = Game.objects.all()
    if job.options.get("stale"):
        games = games.exclude(engine_version=fourcolor.__version__)
    if job.total is None:
        job.total = games.count()
        _update(job, token, total=job.total)
    if _splits(job) and split_revalidate(job, games):
        return  # the parts run on every worker; the last to end finishes the job
    totals = dict(job.report or {})
    last_id = int(totals.pop("last_id", 0))
    done = job.resume_at
    while chunk := revalidate_next(games, last_id, totals, update=bool(job.options.get("update"))):
        last_id, done = chunk[-1], done + len(chunk)
        _update(job, token, report=totals | {"last_id": last_id}, resume_at=done,
                seen=totals["checked"], refused=totals["refused"])
    if totals.get("updated"):
        from jobs.queue import request_stats

        request_stats()  # the rewritten games are due: the statistics job counts them again
    _finish(job, token, Job.Status.DONE, total=max(job.total or 0, done))


RUNNERS: dict[str, Callable[[Job, str], None]] = {
    Job.Kind.IMPORT: run_import,
    Job.Kind.REVALIDATE: run_revalidate,
    Job.Kind.ANALYSIS: run_analysis,
    Job.Kind.ANALYSES: run_batch,
    Job.Kind.STATS: run_stats,
}


@dataclass(frozen=True)
class Retry:
    """A run the database stopped: its progress is saved; run it again later."""

    error: str
    not_stored: int = 0


def execute(job: Job, token: str) -> Retry | None:
    """Run a claimed job to its end (done or failed, written in the job); a `Retry` when the
    database went away, for the caller to put the job back (`put_back`) or give up (`fail`)."""
    try:
        RUNNERS[job.kind](job, token)
    except LeaseLost as exc:
        logger.warning("%s", exc)
    except Unavailable as exc:
        logger.warning("job %s: %s", job.pk, exc)
        return Retry(str(exc), exc.not_stored)
    except (OperationalError, InterfaceError) as exc:
        # The database went away outside the import's own retries (writing progress, say).
        logger.warning("job %s: database unavailable (%s)", job.pk, exc)
        return Retry("database unavailable")
    except Exception:  # noqa: BLE001 - any other failure ends the job (its reason in the log)
        logger.exception("job %s failed", job.pk)
        # The exception's text is for the log: it may quote SQL, paths or the upload's bytes.
        fail(job.pk, token, UNEXPECTED_ERROR.format(job=job.pk))
    _count_in_batch(job)
    return None


def _count_in_batch(job: Job) -> None:
    """An analysis of a batch ended (done or failed): the batch's progress, and its end when
    it was the last (jobs/batches.py). A database gone now leaves the batch to count it when
    its next analysis ends, or when a worker takes the batch over after its lease."""
    if job.batch_id is None:
        return
    try:
        batch_progress(job.batch_id)
    except (OperationalError, InterfaceError) as exc:
        logger.warning("job %s: batch %s not counted (%s)", job.pk, job.batch_id, exc)


UNEXPECTED_ERROR = ("The job stopped on an unexpected error (logged as job {job}); what was "
                    "stored stays stored. Ask the site's staff to resume it.")


def put_back(job_id: int, token: str, retry: Retry, delay: float = DB_RETRY_SECONDS) -> bool:
    """Queue a job the database stopped again, to run after `delay` seconds (from `resume_at`:
    nothing is done twice); whether that was written. Left as it is when even that write
    fails: its lease then runs out and a worker takes it over all the same."""
    try:
        Job.objects.filter(pk=job_id, runner=token).update(
            status=Job.Status.QUEUED, runner="", heartbeat_at=None, not_stored=retry.not_stored,
            run_after=timezone.now() + datetime.timedelta(seconds=delay),
            error=f"{retry.error[:3900]} (tried again automatically)",
        )
    except (OperationalError, InterfaceError):
        logger.warning("job %s: could not queue it again (database unavailable); its lease "
                       "will run out and a worker will take it over", job_id)
        return False
    return True


def run_job(task: Task, job_id: int, resume_token: str | None = None) -> None:
    """Celery: claim the job, run it, and record how it ended."""
    token = runner_token()
    eager = bool(task.request.is_eager)
    try:
        job = claim(job_id, token, resume_token)
    except Busy:
        if eager:
            return  # whoever holds the lease is running it right now
        raise task.retry(countdown=lease_seconds()) from None
    if job is None:
        return
    with Heartbeat(job.pk, token, enabled=not eager):
        retry = execute(job, token)
    if retry is None:
        return
    if eager or task.request.retries >= DB_RETRIES:
        fail(job_id, token, retry.error, not_stored=retry.not_stored)
        return
    put_back(job_id, token, retry, delay=0)
    raise task.retry(countdown=DB_RETRY_SECONDS)


def fail(job_id: int, token: str, error: str, *, not_stored: int = 0) -> None:
    """Mark the job failed with its reason (`manage.py resume_jobs` goes on from there)."""
    try:
        Job.objects.filter(pk=job_id, runner=token).update(
            status=Job.Status.FAILED, finished_at=timezone.now(), error=error[:4000],
            not_stored=not_stored,
        )
    except (OperationalError, InterfaceError):
        logger.exception("job %s: could not record its failure", job_id)


class Heartbeat:
    """While a job runs, refresh its lease every JOB_LEASE_SECONDS / 6 from a thread of its
    own (with its own database connection): a job that reports no progress for a while (a
    long rating replay, one slow batch) is not taken for abandoned while its runner lives."""

    def __init__(self, job_id: int, token: str, *, enabled: bool = True, model: Any = Job
                 ) -> None:
        # `model`: JobPart for a part of a split job (jobs/parts.py), which has a lease too.
        self.job_id, self.token, self.enabled, self.model = job_id, token, enabled, model
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Heartbeat:
        if self.enabled:
            self._thread = threading.Thread(target=self._beat, name=f"job-{self.job_id}-lease",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(max(lease_seconds() / 6, 0.2)):
                try:
                    self.model.objects.filter(pk=self.job_id, runner=self.token).update(
                        heartbeat_at=timezone.now()
                    )
                except (OperationalError, InterfaceError):
                    logger.warning("job %s: lease not refreshed (database unavailable)",
                                   self.job_id)
        finally:
            connections.close_all()  # this thread's own connection


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def run_import_job(self: Task, job_id: int, resume_token: str | None = None) -> None:
    """Import a Job's upload, from `resume_at` on."""
    run_job(self, job_id, resume_token)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def run_revalidate_job(self: Task, job_id: int, resume_token: str | None = None) -> None:
    """Revalidate the archive (or its stale games), from `resume_at` on."""
    run_job(self, job_id, resume_token)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def run_stats_job(self: Task, job_id: int, resume_token: str | None = None) -> None:
    """Count the games the statistics miss and replay the ratings that wait."""
    run_job(self, job_id, resume_token)


@shared_task
def catch_up_stats() -> None:
    """Periodic (Celery beat, CELERY_BEAT_SCHEDULE): queue a statistics job when stored games
    are not counted yet or ratings wait (a crash between storing and counting)."""
    from jobs.queue import request_stats_if_due

    request_stats_if_due()


TASKS: dict[str, Any] = {
    Job.Kind.IMPORT: run_import_job,
    Job.Kind.REVALIDATE: run_revalidate_job,
    Job.Kind.ANALYSIS: run_analysis_job,
    Job.Kind.ANALYSES: run_batch_job,
    Job.Kind.STATS: run_stats_job,
}
