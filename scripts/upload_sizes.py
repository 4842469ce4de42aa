"""Large uploads against the production set-up: 1, 10 and 30 MB files through the API.

    .venv/bin/python scripts/upload_sizes.py [--database-url URL] [--sizes 1,10,30]
        [--port 8170] [--celery redis://127.0.0.1:6379/1]

On a fresh database, each file of distinct valid records is posted with a token; measured: the
answer (202 expected) and its time, the job's time and counters, the peak memory (VmHWM) of
each worker, and one game per record. Method: docs/reliability.md. Exits 1 when an answer
takes over --answer-limit seconds or a record is missing or stored twice.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from served import (  # noqa: E402
    ROOT, database, gunicorn, make_token, production_env, records_file, request, rows, stop)
from served import celery as start_celery  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fourcolor_upload_sizes"
MB = 1_000_000


@dataclass
class Figures:
    workers: str
    megabytes: float
    records: int
    answer_status: int
    answer_seconds: float
    job_status: str
    job_seconds: float  # from sending to the job's end
    stored: int
    duplicates: int
    refused: int
    games_in_database: int
    stored_twice: int
    job_worker_peak_mib: float
    web_worker_peak_mib: float
    job_worker_start_mib: float  # the same processes' peak before the first upload
    web_worker_start_mib: float

    def ok(self, answer_limit: float) -> bool:
        return (self.answer_status in (201, 202) and self.answer_seconds <= answer_limit
                and self.job_status == "done" and self.stored_twice == 0
                and self.games_in_database == self.records - 2 == self.stored)


def make_file(megabytes: float, run: str, path: Path) -> int:
    """About `megabytes` of distinct valid records (then a repeat and an illegal one, as the
    fault script's files); the number of records written."""
    sample, _ = records_file(60, run)
    per_record = len(sample.encode()) / 62
    count = max(1, int(megabytes * MB / per_record))
    text, valid = records_file(count, run)
    path.write_text(text, encoding="utf-8")
    return len(valid) + 2


def peak_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    try:
        out = subprocess.run(["pgrep", "-P", str(pid)], stdout=subprocess.PIPE, text=True)
    except FileNotFoundError:
        return []
    return [int(p) for p in out.stdout.split()]


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def post_file(url: str, token: str, path: Path) -> tuple[int, dict[str, Any], float]:
    with path.open("rb") as body:
        began = time.monotonic()
        status, _, raw = request(url, data=body, timeout=600, headers={
            "Authorization": f"Token {token}", "Content-Type": "text/x-fcn",
            "Content-Length": str(path.stat().st_size)})
        seconds = time.monotonic() - began
    return status, json.loads(raw or b"{}"), seconds


def follow(url: str, token: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        _, _, raw = request(url, headers={"Authorization": f"Token {token}"})
        job: dict[str, Any] = json.loads(raw)
        if job["finished"] or time.monotonic() > deadline:
            return job
        time.sleep(0.5)


def count_games(database_url: str, run: str) -> tuple[int, int]:
    (count, distinct), = rows(database_url, "SELECT count(*), count(DISTINCT content_hash) "
                              "FROM records_game WHERE event LIKE %s", [f"{run} #%"])
    return int(count), int(count) - int(distinct)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--sizes", default="1,10,30", help="megabytes, comma-separated")
    parser.add_argument("--port", type=int, default=8170)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn web workers")
    parser.add_argument("--celery", default="", help="a broker URL: run the jobs on Celery")
    parser.add_argument("--answer-limit", type=float, default=10.0,
                        help="seconds an upload may take to be answered")
    parser.add_argument("--job-timeout", type=float, default=900.0)
    args = parser.parse_args(argv)

    env = production_env(args.database_url, CELERY_BROKER_URL=args.celery,
                         UPLOAD_MAX_RECORDS="100000", API_UPLOAD_MAX_BYTES=str(40 * 1024 * 1024),
                         API_THROTTLE_UPLOAD="1000000/hour")
    database(env, drop=True)
    token = make_token(env, "upload-sizes")
    log = ROOT / "var" / f"upload_sizes_{args.port}.log"
    log.unlink(missing_ok=True)
    server = gunicorn(env, args.port, args.workers, log)
    celery = None
    if args.celery:
        celery = start_celery(env, log, beat=False)
    base = f"http://127.0.0.1:{args.port}"
    results: list[Figures] = []
    try:
        time.sleep(5)  # the job worker's start

        def processes() -> tuple[list[int], list[int]]:
            web = [p for p in children(server.pid) if "gunicorn" in command_line(p)]
            if celery is not None:
                return [celery.pid, *children(celery.pid)], web
            return [p for p in children(server.pid) if "run_jobs" in command_line(p)], web

        workers, web = processes()
        start_job = max((peak_mib(p) for p in workers), default=0.0)
        start_web = max((peak_mib(p) for p in web), default=0.0)
        for size in (float(s) for s in args.sizes.split(",")):
            run = f"sizes-{uuid.uuid4().hex[:8]}"
            path = ROOT / "var" / f"{run}.fcn"
            records = make_file(size, run, path)
            megabytes = path.stat().st_size / MB
            status, body, answered = post_file(f"{base}/api/v1/uploads/", token, path)
            began = time.monotonic() - answered
            job = body if body.get("finished") else follow(body["url"], token, args.job_timeout)
            job_seconds = time.monotonic() - began
            path.unlink()
            games, twice = count_games(args.database_url, run)
            workers, web = processes()
            figures = Figures(
                workers="celery" if celery is not None else "run_jobs",
                megabytes=round(megabytes, 1), records=records, answer_status=status,
                answer_seconds=round(answered, 2), job_status=job["status"],
                job_seconds=round(job_seconds, 1), stored=job["stored"],
                duplicates=job["duplicates"], refused=job["refused"], games_in_database=games,
                stored_twice=twice,
                job_worker_peak_mib=max((peak_mib(p) for p in workers), default=0.0),
                web_worker_peak_mib=max((peak_mib(p) for p in web), default=0.0),
                job_worker_start_mib=start_job, web_worker_start_mib=start_web,
            )
            results.append(figures)
            print(json.dumps(asdict(figures) | {"ok": figures.ok(args.answer_limit)}),
                  flush=True)
    finally:
        if celery is not None:
            stop(celery)
        stop(server)
    return 0 if all(f.ok(args.answer_limit) for f in results) else 1


if __name__ == "__main__":
    sys.exit(main())
