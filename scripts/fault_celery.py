"""Fault test of the Celery set-up: a real Redis broker and a real Celery worker (with beat)
against PostgreSQL through a TCP proxy on loopback that this script cuts and restores.

    .venv/bin/python scripts/fault_celery.py [--server postgres://postgres@127.0.0.1:5432]
        [--broker redis://127.0.0.1:6379/13] [--database fc_fault_celery] [--records 1200]
        [--budget 120]

In a fresh database (`--database`, dropped at the end): a 15 s cut while an upload's parts
run, a 1 s cut with statistics due, `kill -9` of the worker mid-job (docs/reliability.md).
After each, every record stored once and every game counted within `--budget` seconds. Prints
the seconds each took; exit 1 on a failure.
"""

from __future__ import annotations

import argparse
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.served import (  # noqa: E402
    celery, create_database, drop_database, records_file, stop)


class Proxy:
    """A TCP proxy on loopback to the database: `cut()` drops every connection and refuses new
    ones (as a network partition or a stopped server would), `restore()` lets them in again."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = threading.Event()
        self.open.set()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if not self.open.is_set():
                client.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, server))
            threading.Thread(target=self._pipe, args=(client, server), daemon=True).start()

    def _pipe(self, client: socket.socket, server: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(client, selectors.EVENT_READ, server)
        selector.register(server, selectors.EVENT_READ, client)
        try:
            while True:
                for key, _ in selector.select():
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            selector.close()
            for end in (client, server):
                end.close()

    def cut(self) -> None:
        self.open.clear()
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def restore(self) -> None:
        self.open.set()


def wait(what: str, done: Any, budget: float) -> float:
    """Seconds until `done()` is true; SystemExit past `budget`."""
    start = time.monotonic()
    while not done():
        if time.monotonic() - start > budget:
            raise SystemExit(f"FAILED: {what} not within {budget:.0f} s")
        time.sleep(0.25)
    return time.monotonic() - start


class Run:
    def __init__(self, args: argparse.Namespace, log: Path) -> None:
        from django.contrib.auth import get_user_model

        self.args, self.log = args, log
        self.user, _ = get_user_model().objects.get_or_create(username="fault-celery")
        self.valid: list[str] = []
        self.figures: dict[str, float] = {}

    def upload(self, tag: str) -> Any:
        from jobs import publish
        from jobs.queue import create_import_job

        text, valid = records_file(self.args.records, f"{tag}-{uuid.uuid4().hex[:8]}")
        self.valid += valid
        job = create_import_job(text.encode(), self.user, f"{tag}.fcn")
        publish.enqueue(job)
        return job

    def parts_running(self, job: Any) -> bool:
        from jobs.models import JobPart

        job.refresh_from_db()
        return job.finished or JobPart.objects.filter(job=job, stored__gt=0).exists()

    def settled(self, job: Any) -> bool:
        """The job ended and every stored game is counted."""
        from records.models import Game

        job.refresh_from_db()
        return job.finished and not Game.objects.filter(counted__isnull=True).exists()

    def check(self, label: str, job: Any) -> None:
        import fourcolor
        from django.db.models import Count, F

        from fourcolor.notation.identity import identity_text
        from ratings.models import CountedGame
        from ratings.services import pending_ratings
        from records.models import Game
        from records.services import sha256_text

        job.refresh_from_db()
        expected = {sha256_text(identity_text(fourcolor.parse_record(t))) for t in self.valid}
        hashes = list(Game.objects.values_list("content_hash", flat=True))
        problems = []
        if job.status != "done":
            problems.append(f"job {job.pk} {job.status}: {job.error}")
        if expected - set(hashes):
            problems.append(f"{len(expected - set(hashes))} records missing")
        if len(hashes) != len(set(hashes)):
            problems.append(f"{len(hashes) - len(set(hashes))} records stored twice")
        partial = Game.objects.annotate(n=Count("seats")).exclude(n=F("players")).count()
        if partial:
            problems.append(f"{partial} games stored in part")
        if CountedGame.objects.count() != len(hashes) or pending_ratings():
            problems.append(f"statistics count {CountedGame.objects.count()} of "
                            f"{len(hashes)} games")
        print(f"{label}: {len(hashes)} games, job {job.pk} {job.status} "
              f"({job.stored} stored, {job.duplicates} duplicates, {job.refused} refused)")
        if problems:
            raise SystemExit(f"FAILED {label}: " + "; ".join(problems))

    def long_cut(self, proxy: Proxy) -> None:
        job = self.upload("cut15")
        wait("the upload's parts starting", lambda: self.parts_running(job), self.args.budget)
        proxy.cut()
        time.sleep(15)
        proxy.restore()
        self.figures["15 s cut: job done and counted, s after the restore"] = wait(
            "the job and its statistics after the 15 s cut", lambda: self.settled(job),
            self.args.budget)
        self.check("15 s cut during the parts", job)

    def short_cut(self, proxy: Proxy) -> None:
        from jobs import publish
        from jobs.models import Job
        from records.services import import_records

        text, valid = records_file(self.args.records // 4, f"stats-{uuid.uuid4().hex[:8]}")
        self.valid += valid
        import_records(text, self.user, announce=False)  # stored, not counted: due
        proxy.cut()
        job = Job.objects.create(kind=Job.Kind.STATS)  # the script's own connection is direct
        publish.enqueue(job)
        time.sleep(1)
        proxy.restore()
        self.figures["1 s cut: statistics counted, s after the restore"] = wait(
            "the statistics after the 1 s cut", lambda: self.settled(job), self.args.budget)
        Job.objects.filter(kind=Job.Kind.STATS, status=Job.Status.QUEUED).delete()
        self.check("1 s cut with statistics due", job)

    def kill(self, env: dict[str, str], workers: list[subprocess.Popen[Any]]) -> None:
        """Kill the last of `workers` mid-job and start another (added to `workers`)."""
        job = self.upload("kill")
        wait("the upload's parts starting", lambda: self.parts_running(job), self.args.budget)
        time.sleep(0.5)
        stop(workers[-1], signal.SIGKILL)
        job.refresh_from_db()
        if job.finished:
            raise SystemExit("FAILED: the job ended before the kill (use more --records)")
        workers.append(celery(env, self.log, concurrency=2))
        self.figures["kill -9: job done and counted, s after the restart"] = wait(
            "the job after the kill and restart", lambda: self.settled(job), self.args.budget)
        self.check("kill -9 of the worker mid-job", job)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--database", default="fc_fault_celery",
                        help="name of the database created and dropped on --server")
    parser.add_argument("--records", type=int, default=1200,
                        help="valid records per upload (4 parts)")
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds each fault may take to heal")
    parser.add_argument("--log", type=Path, default=ROOT / "var" / "fault_celery.log")
    args = parser.parse_args(argv)
    server, name = urlsplit(args.server), args.database
    create_database(f"{args.server}/{name}")
    proxy = Proxy((server.hostname or "127.0.0.1", server.port or 5432))
    auth = f"{server.username}@" if server.username else ""
    common = {"CELERY_BROKER_URL": args.broker, "DEBUG": "true", "LOG_LEVEL": "WARNING",
              "JOB_PARTS": "4", "JOB_PART_MIN_SIZE": str(max(args.records // 4, 1)),
              "STATS_CHECK_SECONDS": "5", "DB_CONN_MAX_AGE": "0"}
    os.environ.update(common, DATABASE_URL=f"{args.server}/{name}",
                      DJANGO_SETTINGS_MODULE="config.settings")
    env = dict(os.environ, DATABASE_URL=f"postgres://{auth}127.0.0.1:{proxy.port}/{name}")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    import django
    import redis

    django.setup()
    redis.Redis.from_url(args.broker).flushdb()
    args.log.parent.mkdir(parents=True, exist_ok=True)
    args.log.write_text("")
    workers = [celery(env, args.log, concurrency=2)]
    began = time.monotonic()
    try:
        run = Run(args, args.log)
        run.long_cut(proxy)
        run.short_cut(proxy)
        run.kill(env, workers)
    finally:
        for worker in workers:
            stop(worker, signal.SIGKILL)
        redis.Redis.from_url(args.broker).flushdb()
        from django.db import connections

        connections.close_all()
        drop_database(f"{args.server}/{name}")
    for what, seconds in run.figures.items():
        print(f"{what}: {seconds:.1f}")
    print(f"all three faults healed by themselves; {time.monotonic() - began:.0f} s in all "
          f"(worker log: {args.log})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
