"""Fault test: kill -9 a job worker in the middle of a background import, start another, and
check that the job ends with every valid record stored exactly once.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fourcolor \
        [CELERY_BROKER_URL=redis://127.0.0.1:6379/5] \
        .venv/bin/python scripts/fault_worker_kill.py --records 3000 [--parts N]

Runs against the configured database and broker (nothing is deleted; records carry a fresh
run id). Without a broker the workers are `manage.py run_jobs`; with one, Celery workers
(`--parts N`: the job split in N parts, killed mid-part). Method: docs/reliability.md.
Exits 1 when a valid record is missing, stored twice, or stored in part.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import uuid
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from scripts.served import ROOT, celery, run_jobs, stop  # noqa: E402


@dataclass
class Figures:
    workers: str  # "celery" or "run_jobs" (the database worker)
    records_in_file: int
    valid_distinct: int
    killed_at_resume_at: int  # records the job had reported handled at the kill
    games_when_killed: int  # games of this file in the database just after the kill
    job_status: str
    job_attempts: int
    accepted: int  # stored + duplicates, as the job reports them
    stored_reported: int
    duplicates_reported: int
    refused_reported: int
    games_in_database: int
    valid_missing: int
    stored_twice: int
    partial_games: int
    seconds_to_recover: float  # from the kill to the job's end
    seconds_total: float
    parts: int = 0  # the job's parts (--parts), 0: not split
    parts_redone: int = 0  # runs of parts beyond one each (the killed worker's parts redone)

    @property
    def ok(self) -> bool:
        return (self.job_status == "done" and self.valid_missing == 0 and self.stored_twice == 0
                and self.partial_games == 0 and self.games_in_database == self.valid_distinct)


def make_file(count: int, run: str) -> tuple[str, list[str]]:
    """`count` distinct valid records (engine-generated rounds, each its own deal, from seeds
    no other run uses, under numbered Event tags), then a repeat of the first and one with an
    unknown ruleset."""
    import fourcolor
    from fourcolor.generate import generate_record

    shapes = [(r, p) for r in ("classic", "bga") for p in (2, 3, 4)]
    first = zlib.crc32(run.encode()) * 100_000
    valid = [
        fourcolor.write_fcn(generate_record(*shapes[i % 6], first + i,
                                            tags={"Event": f"{run} #{i}"}))
        for i in range(count)
    ]
    bad = valid[0].replace('[Event "', '[Event "refused ', 1).replace(
        '[Ruleset "', '[Ruleset "no-such-', 1)
    return "\n".join([*valid, valid[0], bad]), valid


def start_worker(name: str, queue: str | None, env: dict[str, str], log: Path,
                 concurrency: int = 1) -> subprocess.Popen[bytes]:
    """A Celery worker on `queue`, or the database worker (`run_jobs`) when queue is None."""
    if queue is None:
        return run_jobs(env, log)
    return celery(env, log, concurrency=concurrency, beat=False, queue=queue, name=name)


def run(records: int, kill_after: int, kill_delay: float, timeout: float, visibility: int,
        lease: int, log: Path, parts: int = 0) -> Figures:
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db.models import Count, F

    import fourcolor
    from jobs.models import JobPart
    from jobs.publish import uses_celery
    from jobs.queue import create_import_job
    from jobs.tasks import run_job
    from records.models import Game
    from fourcolor.notation.identity import identity_text
    from records.services import sha256_text

    began = time.monotonic()
    run_id = f"fault-{uuid.uuid4().hex[:10]}"
    queue = run_id if uses_celery() else None
    text, valid = make_file(records, run_id)
    user, _ = get_user_model().objects.get_or_create(username="fault-worker-kill")
    env = dict(os.environ, CELERY_BROKER_URL=settings.CELERY_BROKER_URL or "",
               DATABASE_URL=database_url(settings.DATABASES["default"]),
               CELERY_VISIBILITY_TIMEOUT=str(visibility), CELERY_RESTORE_INTERVAL="1",
               JOB_LEASE_SECONDS=str(lease))
    if parts:
        if not uses_celery():
            raise SystemExit("--parts needs CELERY_BROKER_URL (jobs are split on Celery only)")
        env.update(JOB_PARTS=str(parts), JOB_PART_MIN_SIZE="1")
    concurrency = 2 if parts else 1
    mine = Game.objects.filter(event__startswith=f"{run_id} #")

    job = create_import_job(text.encode("utf-8"), user, f"{run_id}.fcn")
    if queue is not None:
        run_job.apply_async(args=[job.pk], queue=queue)
    worker_a = start_worker("fault-a", queue, env, log, concurrency)
    worker_b = None
    try:
        deadline = time.monotonic() + timeout
        while True:
            job.refresh_from_db()
            if job.resume_at >= kill_after or job.finished:
                break
            if time.monotonic() > deadline or worker_a.poll() is not None:
                raise SystemExit(f"worker A made no progress (see {log})")
            time.sleep(0.05)
        # Not right after a progress report: somewhere in the next batch, maybe after its
        # commit and before its report (those records then come back as duplicates).
        time.sleep(kill_delay)
        stop(worker_a, signal.SIGKILL)
        killed_at = time.monotonic()
        job.refresh_from_db()
        resume_at, games_then = job.resume_at, mine.count()
        if job.finished:
            raise SystemExit("the job finished before the kill: use more --records")
        worker_b = start_worker("fault-b", queue, env, log, concurrency)
        while not job.finished:
            if time.monotonic() > deadline + timeout:
                raise SystemExit(f"the job did not finish after the kill (see {log})")
            time.sleep(0.2)
            job.refresh_from_db()
        recovered = time.monotonic() - killed_at
    finally:
        stop(worker_a, signal.SIGKILL)
        if worker_b is not None:
            stop(worker_b)
    hashes = set(mine.values_list("content_hash", flat=True))
    expected = {sha256_text(identity_text(fourcolor.parse_record(t))) for t in valid}
    partial = mine.annotate(n=Count("seats")).exclude(n=F("players")).count()
    return Figures(
        workers="celery" if queue is not None else "run_jobs",
        records_in_file=len(valid) + 2, valid_distinct=len(valid),
        killed_at_resume_at=resume_at, games_when_killed=games_then,
        job_status=job.status, job_attempts=job.attempts,
        accepted=job.stored + job.duplicates, stored_reported=job.stored,
        duplicates_reported=job.duplicates, refused_reported=job.refused,
        games_in_database=mine.count(), valid_missing=len(expected - hashes),
        stored_twice=mine.count() - len(hashes), partial_games=partial,
        seconds_to_recover=round(recovered, 1),
        seconds_total=round(time.monotonic() - began, 1),
        parts=JobPart.objects.filter(job=job).count(),
        parts_redone=sum(max(n - 1, 0) for n in JobPart.objects.filter(job=job)
                         .values_list("attempts", flat=True)),
    )


def database_url(db: dict[str, Any]) -> str:
    """The URL of the database Django is using (a test database's name included)."""
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgres://{auth}{db.get('HOST') or ''}:{db.get('PORT') or 5432}/{db['NAME']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=3000, help="valid records in the file")
    parser.add_argument("--kill-after", type=int, default=500,
                        help="kill worker A once the job has handled this many records")
    parser.add_argument("--kill-delay", type=float, default=0.5,
                        help="seconds between reaching --kill-after and the kill")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds for each phase")
    parser.add_argument("--visibility", type=int, default=3,
                        help="the workers' CELERY_VISIBILITY_TIMEOUT (seconds)")
    parser.add_argument("--lease", type=int, default=3, help="the workers' JOB_LEASE_SECONDS")
    parser.add_argument("--log", type=Path, default=ROOT / "var" / "fault_worker_kill.log")
    parser.add_argument("--parts", type=int, default=0,
                        help="split the job into this many parts (Celery only; 0: not split)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures = run(args.records, args.kill_after, args.kill_delay, args.timeout, args.visibility,
                  args.lease, args.log, args.parts)
    if args.json:
        print(json.dumps(asdict(figures) | {"ok": figures.ok}))
    else:
        for key, value in asdict(figures).items():
            print(f"{key:>22}: {value}")
        print(f"{'verdict':>22}: {'OK' if figures.ok else 'FAILED'}")
    return 0 if figures.ok else 1


if __name__ == "__main__":
    sys.exit(main())
