"""Jobs split across the Celery workers: a large import or a revalidation becomes parts
(`JobPart`), each a Celery task of its own that any worker runs, while the job itself shows
the whole progress (the sum of its parts') and, once its last part ends, the whole report.

- An import's parts are contiguous ranges of the upload's records (records.chunked): a part
  reads only its own bytes of the stored upload, with the whole file's indexes and lines. The
  job's report is the merge of the parts' reports in file order, each repeated record's first
  occurrence "stored" (duplicates across parts are stored once: the content hash's unique
  index), so it equals a serial import's.
- A revalidation's parts are ranges of game ids of near-equal size.
- A part is run under a lease like a job (jobs.tasks.claim): a worker killed -9 leaves its
  part's message unacknowledged, the broker hands it back, and the next worker takes the part
  over once the lease ran out and goes on from the part's last committed batch (the records
  of a batch the kill cut short are found by their content hash: nothing is stored twice).
- Whoever ends the last part finishes the job, under the job row's lock: exactly once.

Without a broker (the default set-up) nothing is split: the database worker runs the job in
one process as before.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Sum
from django.utils import timezone

import fourcolor
from jobs import payload
from jobs.models import Job, JobPart
from records import chunked
from records.models import Game
from records.parallel import split_range
from records.services import ImportReport

logger = logging.getLogger(__name__)


def part_count(size: int) -> int:
    """How many parts a job of `size` records (or games) becomes: JOB_PARTS at most, none
    under JOB_PART_MIN_SIZE each (a small job is not worth the bookkeeping); 1: not split."""
    most = int(getattr(settings, "JOB_PARTS", 8))
    least = max(1, int(getattr(settings, "JOB_PART_MIN_SIZE", 1000)))
    return max(1, min(most, size // least))


def split_import(job: Job) -> bool:
    """Make the import job's parts (its `total` counted) and hand them to the workers (again,
    for parts not done, when the job was delivered anew); False when it is too small to split."""
    if not job.parts.exists():
        if part_count(job.total or 0) < 2:
            return False
        count, plan = chunked.plan_chunks(
            payload.read_range(job.pk, 0, None), part_count(job.total or 0),
            max_records=settings.UPLOAD_MAX_RECORDS,
        )
        if len(plan) < 2:
            return False
        with transaction.atomic():
            JobPart.objects.bulk_create([
                JobPart(job=job, number=c.number, first_index=c.first_index,
                        stop_index=c.stop_index, first_line=c.first_line,
                        start_byte=c.start_byte, stop_byte=c.stop_byte,
                        next_index=c.first_index)
                for c in plan
            ])
            Job.objects.filter(pk=job.pk).update(total=count, heartbeat_at=timezone.now())
    _dispatch(job)
    return True


def split_revalidate(job: Job, games: Any) -> bool:
    """Make the revalidation's parts (ranges of game ids of near-equal size) and hand them to
    the workers; False when there are too few games to split."""
    if not job.parts.exists():
        total = games.count()
        ranges = split_range(0, total, part_count(total))
        if len(ranges) < 2:
            return False
        ordered = games.order_by("pk").values_list("pk", flat=True)
        starts = [ordered[span.start] for span in ranges]
        with transaction.atomic():
            JobPart.objects.bulk_create([
                JobPart(job=job, number=number, first_index=start,
                        stop_index=starts[number + 1] if number + 1 < len(starts) else None,
                        next_index=start)
                for number, start in enumerate(starts)
            ])
            Job.objects.filter(pk=job.pk).update(total=total, heartbeat_at=timezone.now())
    _dispatch(job)
    return True


def _dispatch(job: Job) -> None:
    """Queue the job's parts not done, on the queue the job itself came by (a deployment that
    routes imports to workers of their own keeps their parts there)."""
    from jobs.queue import current_queue

    queue = current_queue()
    for pk in job.parts.filter(done=False).order_by("number").values_list("pk", flat=True):
        transaction.on_commit(lambda pk=pk: run_job_part.apply_async(args=[pk], queue=queue))


# ----------------------------------------------------------------------------- a part's run


def _save(part: JobPart, token: str, **fields: Any) -> None:
    """Write the part's progress if this run still holds its lease, then the job's (the sum
    of its parts')."""
    from jobs.tasks import LeaseLost

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
    from jobs.tasks import MAX_PROBLEMS, MAX_RESULTS, Unavailable

    saved = ImportReport.from_dict(part.report, max_results=MAX_RESULTS,
                                   max_problems=MAX_PROBLEMS) if part.report else None

    def progress(result: chunked.ChunkResult) -> None:
        run = result.report.settled()
        merged = saved.merge(run) if saved is not None else run
        _save(part, token, report=merged.as_dict(), ledger=[list(e) for e in result.ledger],
              next_index=run.next_index, handled=merged.total, stored=merged.stored,
              duplicates=merged.duplicates, refused=merged.refused)

    pieces: Any = payload.read_range(job.pk, part.start_byte, part.stop_byte)
    if job.payload_is_text:
        pieces = chunked.decoded(pieces)
    result = chunked.import_chunk(
        pieces, _chunk(part), job.created_by, start_at=max(part.next_index, part.first_index),
        max_results=MAX_RESULTS, max_problems=MAX_PROBLEMS,
        max_records=settings.UPLOAD_MAX_RECORDS, progress=progress,
        ledger=[(int(i), int(line), str(s), int(g)) for i, line, s, g in part.ledger],
    )
    if result.report.unavailable:
        raise Unavailable(result.report.unavailable, f"job part {part.pk}: {result.report.stopped}")


def run_revalidate_part(part: JobPart, job: Job, token: str) -> None:
    from jobs.tasks import revalidate_next

    games = Game.objects.filter(pk__gte=part.first_index)
    if part.stop_index is not None:
        games = games.filter(pk__lt=part.stop_index)
    if job.options.get("stale"):
        games = games.exclude(engine_version=fourcolor.__version__)
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
    from jobs.queue import request_stats
    from jobs.tasks import MAX_PROBLEMS, MAX_RESULTS

    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.finished:
            return False
        parts = list(job.parts.order_by("number"))
        if not parts or not all(p.done for p in parts):
            return False
        if job.kind == Job.Kind.IMPORT:
            results = [chunked.ChunkResult(
                _chunk(p), ImportReport.from_dict(p.report, max_results=MAX_RESULTS,
                                                  max_problems=MAX_PROBLEMS),
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
            totals = _revalidate_totals([p.report for p in parts])
            fields = dict(report=totals, seen=totals["checked"], refused=totals["refused"],
                          resume_at=totals["checked"], total=totals["checked"])
            due = bool(totals["updated"])
        Job.objects.filter(pk=job.pk).update(
            status=Job.Status.DONE, finished_at=timezone.now(), error="", not_stored=0,
            runner="", **fields)
        JobPart.objects.filter(job=job).update(ledger=[])
    if due:
        request_stats()  # the stored (or rewritten) games' statistics: a job of their own
    if job.kind == Job.Kind.IMPORT:
        from jobs.analysis import queue_for_upload

        job.refresh_from_db(fields=["stored"])
        queue_for_upload(job)
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


def _revalidate_totals(reports: list[dict[str, Any]]) -> dict[str, Any]:
    from jobs.tasks import MAX_PROBLEMS

    totals: dict[str, Any] = {key: sum(int(r.get(key, 0)) for r in reports) for key in (
        "checked", "unchanged", "changed", "refused", "updated", "details_omitted")}
    details = [d for r in reports for d in r.get("details", [])]
    totals["details"] = details[:MAX_PROBLEMS]
    totals["details_omitted"] += len(details) - len(totals["details"])
    return totals


RUNNERS = {Job.Kind.IMPORT: run_import_part, Job.Kind.REVALIDATE: run_revalidate_part}


def claim_part(part_id: int, token: str) -> JobPart | None:
    """Take the part's lease (None: nothing to do); Busy while another run holds it fresh."""
    from jobs.tasks import Busy, lease_seconds

    with transaction.atomic():
        part = JobPart.objects.select_for_update().filter(pk=part_id).first()
        if part is None or part.done:
            return None
        now = timezone.now()
        if part.runner and part.heartbeat_at is not None and (
                now - part.heartbeat_at).total_seconds() < lease_seconds():
            raise Busy
        part.runner, part.heartbeat_at, part.attempts = token, now, part.attempts + 1
        part.save(update_fields=["runner", "heartbeat_at", "attempts"])
    return part


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def run_job_part(self: Task, part_id: int) -> None:
    """Run one part of a split job (any worker), then end the job if it was the last."""
    from jobs.tasks import (
        DB_RETRY_SECONDS,
        UNEXPECTED_ERROR,
        Busy,
        Heartbeat,
        LeaseLost,
        Unavailable,
        lease_seconds,
        runner_token,
    )

    token = runner_token()
    try:
        part = claim_part(part_id, token)
    except Busy:
        raise self.retry(countdown=lease_seconds()) from None
    if part is None:
        return
    job = Job.objects.get(pk=part.job_id)
    try:
        with Heartbeat(part.pk, token, enabled=not self.request.is_eager, model=JobPart):
            RUNNERS[job.kind](part, job, token)
        if JobPart.objects.filter(pk=part.pk, runner=token).update(done=True, runner=""):
            finish_job(job.pk)
    except LeaseLost as exc:
        logger.warning("%s", exc)
    except (Unavailable, OperationalError, InterfaceError) as exc:
        logger.warning("job part %s: database unavailable (%s); tried again", part_id, exc)
        try:
            JobPart.objects.filter(pk=part.pk, runner=token).update(runner="")
        except (OperationalError, InterfaceError):
            pass  # its lease runs out all the same
        raise self.retry(countdown=DB_RETRY_SECONDS) from None
    except Exception:  # noqa: BLE001 - any other failure ends the job (logged)
        logger.exception("job %s part %s failed", job.pk, part_id)
        Job.objects.filter(pk=job.pk).exclude(status=Job.Status.DONE).update(
            status=Job.Status.FAILED, finished_at=timezone.now(),
            error=UNEXPECTED_ERROR.format(job=job.pk))
