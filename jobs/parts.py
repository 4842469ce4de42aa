"""Jobs split across the workers, the one parallel import: a large import or a revalidation
becomes parts (`JobPart`) that whichever workers run the jobs take (a Celery task each, or a
row the database workers claim), while the job shows the sum of its parts' progress and, once
its last part ends, the whole report (docs/deploy.md, "Large jobs split across the workers").

An import's parts are contiguous ranges of the upload's records (records.chunked), each
reading only its own bytes, with the whole file's indexes and lines; their reports merge in
file order into a serial import's. A revalidation's parts are ranges of game ids of near-equal
size. A part runs under a lease like a job, and whoever ends the last part finishes the job,
under the job row's lock: exactly once.
"""

from __future__ import annotations

import codecs
import dataclasses
import logging
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from jobs import payload, publish
from jobs.batches import queue_for_upload
from jobs.lease import DATABASE_GONE, Heartbeat, LeaseLost, Retry, release_part, update
from jobs.models import Job, JobPart
from jobs.work import (
    MAX_PROBLEMS,
    MAX_RESULTS,
    add_revalidated,
    new_report,
    revalidate_next,
    revalidated_games,
)
from records import chunked
from records.models import Game
from records.paging import analyze_if_grown
from records.parallel import split_range

logger = logging.getLogger(__name__)


def split_import(job: Job, token: str) -> bool:
    """Count the import job's records and cut them into at most JOB_PARTS parts of at least
    JOB_PART_MIN_SIZE records, in one read of the upload; hand the parts to the workers (again,
    for parts not done, when the job was delivered anew). False when it is too small to split
    (its `total` written, for the run to go on)."""
    if not job.parts.exists():
        count, plan = chunked.plan_chunks(
            payload.read_range(job.pk, 0, None), int(settings.JOB_PARTS),
            max_records=settings.UPLOAD_MAX_RECORDS,
            min_records=int(settings.JOB_PART_MIN_SIZE),
        )
        if len(plan) < 2:
            job.total = count
            update(job, token, total=count)
            return False
        _store_parts(job, count, [dataclasses.asdict(chunk) for chunk in plan])
    _dispatch(job)
    return True


def split_revalidate(job: Job, games: Any) -> bool:
    """Make the revalidation's parts (ranges of game ids of near-equal size) and hand them to
    the workers; False when there are too few games to split."""
    if not job.parts.exists():
        total = games.count()
        ranges = split_range(0, total, min(int(settings.JOB_PARTS),
                                           total // int(settings.JOB_PART_MIN_SIZE)))
        if len(ranges) < 2:
            return False
        ordered = games.order_by("pk").values_list("pk", flat=True)
        starts = [ordered[span.start] for span in ranges]
        _store_parts(job, total, [
            {"number": number, "first_index": start,
             "stop_index": starts[number + 1] if number + 1 < len(starts) else None}
            for number, start in enumerate(starts)])
    _dispatch(job)
    return True


def _store_parts(job: Job, total: int, parts: list[dict[str, Any]]) -> None:
    """The job's parts (JobPart fields each), each to start at its first record or game."""
    with transaction.atomic():
        JobPart.objects.bulk_create([
            JobPart(job=job, next_index=part["first_index"], heartbeat_at=timezone.now(), **part)
            for part in parts
        ])
        Job.objects.filter(pk=job.pk).update(total=total, heartbeat_at=timezone.now())


def _dispatch(job: Job) -> None:
    """Queue the job's parts not done, on the queue the job itself came by (a deployment that
    routes imports to workers of their own keeps their parts there). With every part done, end
    the job: the runner of its last part died before it could."""
    queue = publish.current_queue()
    waiting = job.parts.filter(done=False).order_by("number").values_list("pk", flat=True)
    for pk in waiting:
        publish.dispatch_part(pk, queue)
    if not waiting:
        finish_job(job.pk)


# ----------------------------------------------------------------------------- a part's run


def _save(part: JobPart, token: str, **fields: Any) -> None:
    """Write the part's progress if this run still holds its lease, then the job's (the sum
    of its parts')."""
    fields["heartbeat_at"] = timezone.now()
    if not JobPart.objects.filter(pk=part.pk, runner=token).update(**fields):
        raise LeaseLost(f"job part {part.pk}: lease taken over by another runner")
    sums = JobPart.objects.filter(job_id=part.job_id).aggregate(
        handled=Sum("handled"), stored=Sum("stored"), duplicates=Sum("duplicates"),
        refused=Sum("refused"))
    Job.objects.filter(pk=part.job_id, status=Job.Status.RUNNING).update(
        seen=sums["handled"] or 0, resume_at=sums["handled"] or 0, stored=sums["stored"] or 0,
        duplicates=sums["duplicates"] or 0, refused=sums["refused"] or 0,
        heartbeat_at=timezone.now())


def _chunk(part: JobPart) -> chunked.Chunk:
    return chunked.Chunk(part.number, part.first_index, part.stop_index, part.first_line,
                         part.start_byte, part.stop_byte)


def run_import_part(part: JobPart, job: Job, token: str) -> None:
    saved = new_report(part.report) if part.report else None

    def progress(result: chunked.ChunkResult) -> None:
        run = result.report.settled()
        merged = saved.merge(run) if saved is not None else run
        _save(part, token, report=merged.as_dict(), ledger=[list(e) for e in result.ledger],
              next_index=run.next_index, handled=merged.total, stored=merged.stored,
              duplicates=merged.duplicates, refused=merged.refused)

    pieces: Any = payload.read_range(job.pk, part.start_byte, part.stop_byte)
    if job.payload_is_text:
        pieces = codecs.iterdecode(pieces, "utf-8", "surrogatepass")
    result = chunked.import_chunk(
        pieces, _chunk(part), job.created_by, start_at=max(part.next_index, part.first_index),
        max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS,
        max_records=settings.UPLOAD_MAX_RECORDS, progress=progress,
        ledger=[(int(i), int(line), str(s), int(g)) for i, line, s, g in part.ledger],
        given=job.options.get("given") or {},
    )
    if result.report.unavailable:
        raise Retry(f"job part {part.pk}: {result.report.stopped}", result.report.unavailable)


def run_revalidate_part(part: JobPart, job: Job, token: str) -> None:
    games = revalidated_games(stale=bool(job.options.get("stale"))).filter(pk__gte=part.first_index)
    if part.stop_index is not None:
        games = games.filter(pk__lt=part.stop_index)
    totals = dict(part.report or {})
    last_id = part.next_index - 1
    while ids := revalidate_next(games, last_id, totals, update=bool(job.options.get("update"))):
        last_id = ids[-1]
        _save(part, token, report=totals, next_index=last_id + 1, handled=totals["checked"],
              refused=totals["refused"])


def finish_job(job_id: int) -> bool:
    """End the job if every part is done (its report the merge of the parts', in order);
    whether this call ended it. Under the job row's lock: the last two parts ending together
    end it once."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished:
            return False
        parts = list(job.parts.order_by("number"))
        if not parts or not all(p.done for p in parts):
            return False
        if job.kind == Job.Kind.IMPORT:
            results = [chunked.ChunkResult(
                _chunk(p), new_report(p.report),
                [(int(i), int(line), str(s), int(g)) for i, line, s, g in p.ledger])
                for p in parts]
            report, stored = chunked.merge_chunks(
                results, max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS,
                stored_by_upload=lambda games: _stored_by(job, games))
            fields: dict[str, Any] = dict(
                report=report.as_dict(), seen=report.total, resume_at=report.next_index,
                stored=report.stored, duplicates=report.duplicates, refused=report.refused)
            due = bool(stored)
        else:
            totals = add_revalidated({}, [p.report for p in parts])
            fields = dict(report=totals, seen=totals["checked"], refused=totals["refused"],
                          resume_at=totals["checked"], total=totals["checked"])
            due = bool(totals["updated"])
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.DONE, finished_at=timezone.now(), error="", not_stored=0,
            runner="", **fields)
        JobPart.objects.filter(job=job).update(ledger=[])
    if due:
        publish.request_stats()  # the stored (or rewritten) games' statistics: a job of their own
    if job.kind == Job.Kind.IMPORT:
        job.refresh_from_db(fields=["stored"])
        queue_for_upload(job)
        analyze_if_grown(job.stored)
    return True


def _stored_by(job: Job, games: set[int]) -> set[int]:
    """Of these games, those this job's parts stored in a run that was killed before it
    reported them: stored for the job's uploader since the job started. (Only the same
    uploader sending the same record in another upload at the same time looks alike.)"""
    if job.created_by_id is None or job.started_at is None:
        return set()
    return set(Game.objects.filter(pk__in=games, uploaded_by_id=job.created_by_id,
                                   uploaded_at__gte=job.started_at)
               .values_list("pk", flat=True))


RUNNERS = {Job.Kind.IMPORT: run_import_part, Job.Kind.REVALIDATE: run_revalidate_part}


def run_part(part_id: int, token: str, *, heartbeat: bool = True) -> Retry | None:
    """Run one part of a split job under `token`'s lease (taken: jobs.lease.claim_part), then
    end the job if it was the last; a `Retry` when the database stopped it (the part given up
    for any runner to take again)."""
    try:
        part = JobPart.objects.get(pk=part_id)
        job = Job.objects.get(pk=part.job_id)
        with Heartbeat(part.pk, token, enabled=heartbeat, model=JobPart):
            RUNNERS[job.kind](part, job, token)
        if JobPart.objects.filter(pk=part.pk, runner=token).update(done=True, runner=""):
            finish_job(job.pk)
    except LeaseLost as exc:
        logger.warning("%s", exc)
    except (Retry, *DATABASE_GONE) as exc:
        logger.warning("job part %s: database unavailable (%s); tried again", part_id, exc)
        release_part(part_id, token)
        return Retry(str(exc))
    except Exception:  # noqa: BLE001 - any other failure ends the job (logged)
        job_id = JobPart.objects.filter(pk=part_id).values_list("job_id", flat=True).get()
        logger.exception("job %s part %s failed", job_id, part_id)
        Job.objects.filter(pk=job_id).exclude(status=Job.Status.DONE).update(
            status=Job.Status.FAILED, finished_at=timezone.now(),
            error=UNEXPECTED_ERROR.format(job=job_id))
    return None


UNEXPECTED_ERROR = ("The job stopped on an unexpected error (logged as job {job}); what was "
                    "stored stays stored. Ask the site's staff to resume it.")
