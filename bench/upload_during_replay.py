"""Single-record uploads while late-dated games force rating replays: do uploads wait for them?

    .venv/bin/python bench/upload_during_replay.py [--database-url postgres://postgres@127.0.0.1:5432/fourcolor_bench_replay]
        [--games 1500] [--uploaders 4] [--seconds 60] [--late-every 5] [--workers 4] [--reset]

Issue 12, item 8: ratings were replayed under one archive-wide lock inside the upload, so
while a late-dated game forced a replay a one-record upload took 2.5-5.5 s, and with four
uploaders the p99 reached 30 s. Now an upload stores and answers; a statistics job on the
worker counts the games and replays the ratings behind the answer.

The set-up is the default one: gunicorn with config/gunicorn.conf.py (`--workers` web workers
and its job worker, no broker), DEBUG off, PostgreSQL, rate limits lifted, on a free loopback
port. The archive (`seed_demo --games N`) is built once and reused while it holds N games. Two
phases of `--seconds` each, side by side in one run: `--uploaders` threads each upload new
one-record files through the API with a token, one after the other; in the second phase
another thread also uploads, every `--late-every` seconds, a round dated 1999-01-01 (before
every game of the archive), so each statistics job that counts it replays every rated round
of its ruleset. Afterwards the statistics jobs' run times are read from the database, and each
upload is classed by whether its request overlapped a job that replayed ratings. Meanwhile a
sampler asks PostgreSQL every 0.1 s which of the server's sessions wait for a lock, and which
session blocks them: an upload waiting behind the statistics job would show there. Prints
p50/p99/max per class, the replays (rounds, seconds), the lock waits and the load average.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import secrets
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

from _common import machine_line, quantile  # noqa: E402
from api_load import ensure_archive, free_port, manage  # noqa: E402

PYTHON = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fourcolor_bench_replay"
LIFTED = "100000000/hour"


@dataclass
class Upload:
    began: float  # wall clock (time.time()), comparable with the jobs' timestamps
    seconds: float
    status: int
    late: bool


def start_server(database_url: str, port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ, "DATABASE_URL": database_url, "DEBUG": "false", "HTTPS": "false",
        "SECRET_KEY": secrets.token_urlsafe(40), "ALLOWED_HOSTS": "127.0.0.1",
        "LOG_LEVEL": "WARNING", "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(workers), "JOB_WORKERS": "1", "CELERY_BROKER_URL": "",
        "API_THROTTLE_ANON": LIFTED, "API_THROTTLE_USER": LIFTED,
        "API_THROTTLE_UPLOAD": LIFTED, "API_THROTTLE_EXPORT": LIFTED,
    }
    gunicorn = str(Path(PYTHON).with_name("gunicorn"))
    with log.open("wb") as out:
        server = subprocess.Popen([gunicorn, "-c", str(_ROOT / "config" / "gunicorn.conf.py"),
                                   "config.wsgi"], env=env, cwd=_ROOT, stdout=out,
                                  stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited: see {log}")
        if post(port, "/healthz", None, {})[0] == 200:
            return server
        time.sleep(0.3)
    server.terminate()
    raise SystemExit("gunicorn did not answer /healthz within 60 s")


def post(port: int, path: str, data: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers=headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
    except OSError:
        return 0, b""


def record(label: str, n: int, rng: random.Random, *, date: str | None = None,
           ruleset: str | None = None) -> str:
    import fourcolor
    from fourcolor.generate import generate_record

    players = rng.choice((2, 3, 4))
    tags = {"Event": f"replay bench {label} {n} {os.getpid()} {time.time_ns()}"}
    if date:
        tags["Date"] = date
    rec = generate_record(ruleset or rng.choice(("classic", "bga")), players, n,
                          names=tuple(f"Bench {label} {n % 40} {s}" for s in range(players)),
                          tags=tags, bot="random")
    return str(fourcolor.write_fcn(rec))


def uploader(port: int, token: str, label: str, late: bool, every: float, until: float,
             out: list[Upload]) -> None:
    rng = random.Random(label)
    headers = {"Authorization": f"Token {token}", "Content-Type": "text/x-fcn"}
    n = 0
    while time.monotonic() < until:
        n += 1
        text = record(label, n, rng, date="1999.01.01" if late else None,
                      ruleset=("classic", "bga")[n % 2] if late else None)
        began, start = time.time(), time.perf_counter()
        status, _ = post(port, "/api/v1/uploads/", text.encode(), headers)
        out.append(Upload(began, time.perf_counter() - start, status, late))
        if late:
            time.sleep(max(0.0, every - (time.perf_counter() - start)))


def replays(database_url: str, since: float) -> list[tuple[float, float, int]]:
    """(started, finished, rounds rated) of every statistics job since `since` that replayed."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT extract(epoch FROM started_at), extract(epoch FROM finished_at), report "
            "FROM jobs_job WHERE kind = 'stats' AND started_at >= to_timestamp(%s) "
            "AND finished_at IS NOT NULL ORDER BY started_at", (since,)).fetchall()
    return [(float(a), float(b), int((r or {}).get("rated", 0))) for a, b, r in rows
            if (r or {}).get("rated", 0)]


def lock_sampler(database_url: str, stop: threading.Event, out: list[tuple[str, str]]) -> None:
    """(waiting query, blocking query) for every session found waiting on a lock."""
    import psycopg

    sql = ("SELECT left(w.query, 70), left(b.query, 70) FROM pg_stat_activity w "
           "JOIN LATERAL unnest(pg_blocking_pids(w.pid)) AS blocker(pid) ON true "
           "JOIN pg_stat_activity b ON b.pid = blocker.pid "
           "WHERE w.datname = current_database() AND w.wait_event_type = 'Lock'")
    with psycopg.connect(database_url, autocommit=True) as conn:
        while not stop.is_set():
            out.extend((str(a), str(b)) for a, b in conn.execute(sql).fetchall())
            time.sleep(0.1)


def stats(values: list[float]) -> str:
    if not values:
        return "     -"
    s = sorted(values)
    return (f"{len(s):6} {quantile(s, 0.5) * 1000:8.0f} {quantile(s, 0.99) * 1000:8.0f} "
            f"{s[-1] * 1000:8.0f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--games", type=int, default=1500, help="archive size (built once)")
    parser.add_argument("--uploaders", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--late-every", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn web workers")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--reset", action="store_true")
    args = parser.parse_args()

    print(machine_line())
    have = ensure_archive(args.database_url, args.games, args.reset)
    token = manage(args.database_url, "shell", "-c", (
        "from django.contrib.auth.models import User; "
        "from rest_framework.authtoken.models import Token; "
        "u, _ = User.objects.get_or_create(username='replay-bench'); "
        "print(Token.objects.get_or_create(user=u)[0].key)"), capture=True).split()[-1]
    # Everything counted and rated before the run: only this run's late games replay.
    manage(args.database_url, "run_jobs", "--until-empty")
    port = args.port or free_port()
    log = _ROOT / "var" / "upload_during_replay_gunicorn.log"
    log.parent.mkdir(exist_ok=True)
    server = start_server(args.database_url, port, args.workers, log)
    waits: list[tuple[str, str]] = []
    stop = threading.Event()
    sampler = threading.Thread(target=lock_sampler, args=(args.database_url, stop, waits))
    sampler.start()
    try:
        # Warm-up, not counted: every web worker loads its code and connects on first use.
        warm: list[Upload] = []
        threads = [threading.Thread(target=uploader, args=(
            port, token, f"warm{i}", False, 0.0, time.monotonic() + 10, warm))
            for i in range(args.uploaders)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        load_before = os.getloadavg()
        out: list[Upload] = []
        baseline: list[Upload] = []
        for phase, sink in (("baseline", baseline), ("late", out)):
            since = time.time()
            until = time.monotonic() + args.seconds
            threads = [threading.Thread(target=uploader, args=(
                port, token, f"{phase}{i}", False, 0.0, until, sink))
                for i in range(args.uploaders)]
            if phase == "late":
                threads.append(threading.Thread(target=uploader, args=(
                    port, token, "late", True, args.late_every, until, sink)))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        load_after = os.getloadavg()
        # Let the last statistics job finish, so its run counts.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and manage(args.database_url, "shell", "-c", (
                "from jobs.models import Job; print(Job.objects.filter(kind='stats', "
                "status__in=['queued', 'running']).count())"), capture=True).split()[-1] != "0":
            time.sleep(2)
    finally:
        stop.set()
        sampler.join()
        server.terminate()
        server.wait(timeout=60)

    windows = replays(args.database_url, since)
    mine = [u for u in out if not u.late]

    def during(u: Upload) -> bool:
        return any(a < u.began + u.seconds and u.began < b for a, b, _ in windows)

    bad = [u.status for u in out if u.status not in (200, 201, 202)]
    print(f"archive: {have} games; {args.uploaders} uploaders for {args.seconds:.0f} s without, "
          f"then {args.seconds:.0f} s with a late-dated round every {args.late_every:.0f} s; "
          f"gunicorn {args.workers} workers + "
          "its job worker, no broker")
    print(f"load average at the start {load_before[0]:.1f} / {load_before[1]:.1f}, at the end "
          f"{load_after[0]:.1f} / {load_after[1]:.1f} (1 / 5 min)")
    print(f"rating replays: {len(windows)}; rounds replayed per job "
          f"{min((r for *_, r in windows), default=0)}-{max((r for *_, r in windows), default=0)};"
          f" seconds per job " + (f"{min(b - a for a, b, _ in windows):.1f}-"
                                  f"{max(b - a for a, b, _ in windows):.1f}" if windows else "-"))
    print("uploads                          count   p50 ms   p99 ms   max ms")
    print(f"  one record, no late games    {stats([u.seconds for u in baseline])}")
    print(f"  one record, with late games  {stats([u.seconds for u in mine])}")
    print(f"  one record, during a replay  {stats([u.seconds for u in mine if during(u)])}")
    print(f"  one record, no replay running{stats([u.seconds for u in mine if not during(u)])}")
    print(f"  the late-dated rounds        {stats([u.seconds for u in out if u.late])}")
    print(f"lock waits sampled (every 0.1 s, both phases): {len(waits)}")
    for (waiting, blocker), n in collections.Counter(waits).most_common(8):
        print(f"  {n:5} x {waiting!r} waits for {blocker!r}")
    bad += [u.status for u in baseline if u.status not in (200, 201, 202)]
    print(f"statuses other than 200/201/202: {len(bad)} {sorted(set(bad))}")
    return 1 if bad or not windows else 0


if __name__ == "__main__":
    sys.exit(main())
