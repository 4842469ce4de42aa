"""The task layer under both transports (jobs/worker.py, jobs/tasks.py): what each kind of job
does over the services, and running a claimed job to its end.

A serial import's progress commits in the transaction of the batch it reports, so a run taken
over or resumed starts after the last committed batch and counts every record once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from django.conf import settings

from jobs import payload, publish, work
from jobs.analysis import run_analysis
from jobs.batches import batch_progress, queue_for_upload, run_batch
from jobs.lease import DATABASE_GONE, LeaseLost, Retry, fail, finish, update
from jobs.models import Job
from jobs.parts import UNEXPECTED_ERROR, split_import, split_revalidate
from jobs.work import new_report, revalidate_next
from ratings.services import catch_up
from records.paging import analyze_if_grown
from records.services import ImportReport, import_records

logger = logging.getLogger(__name__)


def _source(job: Job) -> Iterator[bytes | str]:
    return payload.read(job.pk, as_text=job.payload_is_text)


def run_import(job: Job, token: str) -> None:
    if _splits(job) and split_import(job, token):
        return  # the parts run on every worker; the last to end finishes the job
    base = new_report(job.report)
    start = job.resume_at

    def progress(report: ImportReport) -> None:
        merged = base.merge(report.settled()).as_dict()
        update(
            job, token, report=merged, resume_at=report.next_index, seen=merged["total"],
            stored=merged["stored"], duplicates=merged["duplicates"],
            refused=merged["refused"],
        )

    # announce=False: the statistics of the stored games are counted by a job of their own,
    # queued below (and found by the periodic check should this run die first), so that no
    # upload waits for a rating replay.
    report = import_records(
        _source(job), job.created_by, max_results=work.MAX_RESULTS, max_problems=work.MAX_PROBLEMS,
        progress=progress, progress_in_batch=True, start_at=start,
        max_records=settings.UPLOAD_MAX_RECORDS,
        announce=False, given=job.options.get("given") or {},
    )
    if report.stored:
        publish.request_stats()
    if not report.unavailable:
        job.refresh_from_db(fields=["stored", "started_at"])
        queue_for_upload(job)
    # Stopped by the database (records left unavailable): resumable. Stopped by the records
    # limit: done, the record after the limit refused in the report like any other.
    if report.unavailable:
        left = max((job.total or 0) - report.next_index, report.unavailable)
        raise Retry(f"{report.stopped}; {left} records not stored yet: to be resumed from "
                    f"record {report.next_index + 1}", left)
    finish(job, token, Job.Status.DONE, not_stored=0, resume_at=report.next_index)
    analyze_if_grown(job.stored)  # the list counts' estimates after a bulk upload


def _splits(job: Job) -> bool:
    """Whether the job runs as parts (jobs/parts.py): a job split before, or one not started
    yet (a job a serial run began goes on serially)."""
    return job.parts.exists() or (job.resume_at == 0 and not job.report)


def run_stats(job: Job, token: str) -> None:
    """Count every stored game the totals miss and replay the ratings that wait."""
    report = catch_up()
    finish(job, token, Job.Status.DONE, total=report.games, seen=report.games,
           resume_at=report.games,
           report={"counted": report.games, "rated": report.rated,
                   "rulesets": report.rulesets})


def run_revalidate(job: Job, token: str) -> None:
    """Revalidate games in id order, a chunk at a time, reporting after each chunk; a resumed
    job goes on after the last game of the last reported chunk."""
    games = work.revalidated_games(stale=bool(job.options.get("stale")))
    if job.total is None:
        job.total = games.count()
        update(job, token, total=job.total)
    if _splits(job) and split_revalidate(job, games):
        return  # the parts run on every worker; the last to end finishes the job
    totals = dict(job.report or {})
    last_id = int(totals.pop("last_id", 0))
    done = job.resume_at
    while chunk := revalidate_next(games, last_id, totals, update=bool(job.options.get("update"))):
        last_id, done = chunk[-1], done + len(chunk)
        update(job, token, report=totals | {"last_id": last_id}, resume_at=done,
               seen=totals["checked"], refused=totals["refused"])
    if totals.get("updated"):
        publish.request_stats()  # the rewritten games are due: the statistics job counts them
    finish(job, token, Job.Status.DONE, total=max(job.total or 0, done))


RUNNERS: dict[str, Callable[[Job, str], None]] = {
    Job.Kind.IMPORT: run_import,
    Job.Kind.REVALIDATE: run_revalidate,
    Job.Kind.ANALYSIS: run_analysis,
    Job.Kind.ANALYSES: run_batch,
    Job.Kind.STATS: run_stats,
}


def execute(job: Job, token: str) -> Retry | None:
    """Run a claimed job to its end (done or failed, written in the job); a `Retry` when the
    database went away, for the caller to put the job back (jobs.lease.put_back) or give up."""
    try:
        RUNNERS[job.kind](job, token)
    except LeaseLost as exc:
        logger.warning("%s", exc)
    except Retry as exc:
        logger.warning("job %s: %s", job.pk, exc)
        return exc
    except DATABASE_GONE as exc:
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
    except DATABASE_GONE as exc:
        logger.warning("job %s: batch %s not counted (%s)", job.pk, job.batch_id, exc)
