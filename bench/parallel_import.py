"""Parallel import benchmark: `import_games --jobs N` for N = 1 and 2 on the same file, hook off
and on, in the order 1, 2, 1, 2 ...; the upload job and a batch of analyses on 1 and 2 Celery
workers (`--celery`); PostgreSQL's COPY rate for our rows (the ceiling of any number of
processes). Wall times, the machine's load printed before and after.

    .venv/bin/python bench/parallel_import.py [--rounds 10000] [--jobs 1,2] [--repeats 2]
        [--celery redis://127.0.0.1:6379/N [--celery-only] [--no-upload] [--analyses N]]

The file is bench/import_archive.py's. Figures: docs/performance.md, docs/deploy.md.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import import_archive  # noqa: E402
from _common import header, table  # noqa: E402

TABLES = ("records_gameseat", "records_game", "records_player", "records_match")


def empty_archive() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE")
    connection.close()


def timed_command(path: Path, jobs: int, hook: bool) -> tuple[float, str]:
    """Wall seconds and the summary line."""
    from django.core.management import call_command

    from records.signals import games_stored_batch

    receivers = list(games_stored_batch.receivers)
    if not hook:
        games_stored_batch.receivers = []
        games_stored_batch.sender_receivers_cache.clear()
    out = io.StringIO()
    try:
        t0 = time.perf_counter()
        call_command("import_games", str(path), "--jobs", str(jobs), stdout=out,
                     stderr=io.StringIO())
        elapsed = time.perf_counter() - t0
    finally:
        games_stored_batch.receivers = receivers
        games_stored_batch.sender_receivers_cache.clear()
    return elapsed, out.getvalue().strip().splitlines()[-1]


@contextmanager
def celery_workers(count: int, broker: str, log: Path, queue: str,
                   **env: str) -> Iterator[None]:
    """`count` Celery workers (one process each, on `queue`, `env` added to their
    environment), ready before the block runs; killed after it, the broker's database
    emptied (whatever they still had queued, such as an import's statistics job, is not
    timed)."""
    import redis

    from scripts.served import celery, stop

    environment = dict(os.environ, CELERY_BROKER_URL=broker, **env)
    processes = [celery(environment, log, beat=False, queue=queue, name=f"bench{number}")
                 for number in range(count)]
    try:
        deadline = time.monotonic() + 120
        while log.read_text(errors="replace").count(" ready.") < count:
            if time.monotonic() > deadline:
                raise SystemExit(f"the Celery workers did not start (see {log})")
            time.sleep(0.5)
        yield
    finally:
        for process in processes:
            stop(process, signal.SIGKILL)
        redis.Redis.from_url(broker).flushdb()


def timed_job(job: Any, task: Any, queue: str, limit: float, log: Path) -> float:
    """Seconds from handing `job` to `task` on `queue` until the job ends."""
    t0 = time.perf_counter()
    task.apply_async(args=[job.pk], queue=queue)
    while not job.finished:
        time.sleep(0.2)
        job.refresh_from_db()
        if time.perf_counter() - t0 > limit:
            raise SystemExit(f"job {job.pk} did not end (see {log})")
    return time.perf_counter() - t0


def celery_run(path: Path, workers: int, broker: str, log: Path) -> tuple[float, str]:
    """Seconds from submitting the file as one upload job to its end, with `workers` Celery
    workers (ready before the submission); the job's counts."""
    from django.db import connection

    from jobs.queue import create_import_job
    from jobs.tasks import run_job

    queue = f"bench-parallel-{os.getpid()}"
    with celery_workers(workers, broker, log, queue):
        job = create_import_job(path.read_bytes(), None, path.name)
        elapsed = timed_job(job, run_job, queue, 1800, log)
    parts = job.parts.count()
    summary = (f"{job.status}: {job.stored} stored, {job.duplicates} duplicates, "
               f"{job.refused} refused, {parts} parts")
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE jobs_job CASCADE")
    return elapsed, summary


def celery_batch(games: list[int], workers: int, broker: str, log: Path, samples: int
                 ) -> tuple[float, str, str]:
    """Seconds from submitting a batch of analyses of `games` to its end, with `workers`
    Celery workers (ready before); the batch's counts; a digest of the stored analyses."""
    import hashlib
    import json

    from django.db import connection

    from jobs.analysis import Parameters
    from jobs.batches import create_batch
    from jobs.tasks import run_job
    from records.models import GameAnalysis

    queue = f"bench-analyses-{os.getpid()}"
    with celery_workers(workers, broker, log, queue, ANALYSIS_SAMPLES=str(samples)):
        job = create_batch(None, Parameters(samples, 0), games=games)
        elapsed = timed_job(job, run_job, queue, 3600, log)
    results = [json.dumps(r, sort_keys=True) for r in GameAnalysis.objects.filter(
        game_id__in=games).order_by("game_id").values_list("result", flat=True)]
    digest = hashlib.sha256("\n".join(results).encode()).hexdigest()[:16]
    summary = (f"{job.status}: {job.stored} analysed, {job.refused} failed, "
               f"{job.children.count()} analysis jobs")
    GameAnalysis.objects.filter(game_id__in=games).delete()
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE jobs_job CASCADE")
    return elapsed, summary, digest


def copy_rates() -> list[list[str]]:
    """COPY of the stored games and seats into empty indexed copies: rows, s, rows/s."""
    from django.db import connection

    rows = []
    with connection.cursor() as cursor:
        for name in ("records_game", "records_gameseat"):
            copy = f"bench_copy_{name}"
            cursor.execute(f"DROP TABLE IF EXISTS {copy}")
            cursor.execute(f"CREATE TABLE {copy} (LIKE {name} INCLUDING ALL)")
            raw = cursor.cursor  # psycopg 3
            buffer = io.BytesIO()
            with raw.copy(f"COPY {name} TO STDOUT (FORMAT binary)") as out:
                for data in out:
                    buffer.write(data)
            t0 = time.perf_counter()
            with raw.copy(f"COPY {copy} FROM STDIN (FORMAT binary)") as into:
                into.write(buffer.getvalue())
            elapsed = time.perf_counter() - t0
            cursor.execute(f"SELECT count(*) FROM {copy}")
            n = cursor.fetchone()[0]
            cursor.execute(f"DROP TABLE {copy}")
            rows.append([name, f"{n:,}", f"{buffer.tell() / 1e6:.1f}", f"{elapsed:.2f}",
                         f"{n / elapsed:,.0f}"])
    return rows


def analyses_table(path: Path, counts: list[int], args: argparse.Namespace) -> None:
    """The batch of analyses on 1 and 2 Celery workers (the file imported once first)."""
    from records.models import Game

    log = _ROOT / "var" / "bench" / "parallel_analyses_celery.log"
    log.unlink(missing_ok=True)
    empty_archive()
    timed_command(path, 2, False)
    games = list(Game.objects.filter(players=4).order_by("pk")
                 .values_list("pk", flat=True)[:args.analyses])
    times: dict[int, list[float]] = {}
    digests = set()
    for _ in range(args.repeats):
        for workers in counts:
            elapsed, summary, digest = celery_batch(games, workers, args.celery, log,
                                                    args.analysis_samples)
            times.setdefault(workers, []).append(elapsed)
            digests.add(digest)
            print(f"  batch of analyses, {workers} workers: {elapsed:.1f} s ({summary}; "
                  f"results {digest})", file=sys.stderr)
    print()
    print(f"A batch of analyses of {len(games)} 4-seat games ({args.analysis_samples} deals "
          "per option) on Celery workers (one process each):")
    print(table(["workers", "s (each run)", "games/min (best)", "speed-up"], [
        [str(w), " ".join(f"{t:.1f}" for t in ts), f"{60 * len(games) / min(ts):.1f}",
         f"{min(times[counts[0]]) / min(ts):.2f}"] for w, ts in sorted(times.items())]))
    print(f"stored analyses: {'the same in every run' if len(digests) == 1 else 'DIFFER'} "
          f"({', '.join(sorted(digests))})")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=10_000)
    p.add_argument("--jobs", default="1,2", help="process counts to compare")
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    p.add_argument("--database", default="fourcolor_bench_parallel")
    p.add_argument("--celery", metavar="BROKER_URL", default="",
                   help="also time the upload job on 1 and 2 Celery workers (a Redis database "
                        "of its own: it is emptied)")
    p.add_argument("--celery-only", action="store_true",
                   help="with --celery: skip the import_games passes")
    p.add_argument("--analyses", type=int, default=0, metavar="N",
                   help="with --celery: also time a batch of analyses of N games")
    p.add_argument("--analysis-samples", type=int, default=32, metavar="K",
                   help="deals per option in the batch's analyses (32)")
    p.add_argument("--no-upload", action="store_true",
                   help="with --celery: skip the upload job's runs")
    args = p.parse_args()
    if args.celery:
        os.environ["CELERY_BROKER_URL"] = args.celery
    counts = [int(n) for n in args.jobs.split(",")]
    import_archive.DB_NAME = args.database

    print(header("Parallel import benchmark (bench/parallel_import.py)"))
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")
    print(f"cores: {os.cpu_count()}")
    path, _ = import_archive.generate_file(args.rounds, 2)
    print(f"file: {path.relative_to(_ROOT)} ({path.stat().st_size / 1e6:.1f} MB, "
          f"{args.rounds:,} rounds)")
    import_archive.recreate_database(args.server)
    import_archive.setup_django(args.server)

    results: dict[tuple[bool, int], list[float]] = {}
    summaries = set()
    for hook in (False, True) if not args.celery_only else ():
        for _ in range(args.repeats if not hook else 1):
            for jobs in counts:
                empty_archive()
                elapsed, summary = timed_command(path, jobs, hook)
                summaries.add(summary)
                results.setdefault((hook, jobs), []).append(elapsed)
                print(f"  hook {'on ' if hook else 'off'} --jobs {jobs}: {elapsed:.1f} s "
                      f"({summary})", file=sys.stderr)
    rows = []
    for (hook, jobs), times in sorted(results.items()):
        best = min(times)
        serial = min(results[(hook, counts[0])])
        rows.append(["on" if hook else "off", str(jobs), " ".join(f"{t:.1f}" for t in times),
                     f"{args.rounds / best:,.0f}", f"{serial / best:.2f}"])
    print()
    if rows:
        print(table(["stats hook", "--jobs", "s (each run)", "games/s (best)", "speed-up"],
                    rows))
        print(f"summaries: {sorted(summaries)}")
    if args.celery and not args.no_upload:
        log = _ROOT / "var" / "bench" / "parallel_import_celery.log"
        log.unlink(missing_ok=True)
        times: dict[int, list[float]] = {}
        for _ in range(args.repeats):
            for workers in counts:
                empty_archive()
                elapsed, summary = celery_run(path, workers, args.celery, log)
                times.setdefault(workers, []).append(elapsed)
                print(f"  celery, {workers} workers: {elapsed:.1f} s ({summary})",
                      file=sys.stderr)
        print()
        print("The upload job on Celery workers (one process each):")
        print(table(["workers", "s (each run)", "games/s (best)", "speed-up"], [
            [str(w), " ".join(f"{t:.1f}" for t in ts), f"{args.rounds / min(ts):,.0f}",
             f"{min(times[counts[0]]) / min(ts):.2f}"] for w, ts in sorted(times.items())]))
    if args.celery and args.analyses:
        analyses_table(path, counts, args)
    print()
    print("PostgreSQL COPY of our rows (binary, into empty copies with every index):")
    print(table(["table", "rows", "MB", "s", "rows/s"], copy_rates()))
    print(f"load after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
