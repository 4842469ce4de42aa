"""Fault test: the database cut for 15 s under load; every answer during the cut is a 503 with
Retry-After, none a 500; the service recovers by itself; no upload is lost or doubled.

    .venv/bin/python scripts/fault_db_outage.py [--cut 15] [--port 8201] [--pg-port 5621]
        [--workers 4] [--clients 6] [--games 40] [--broker redis://127.0.0.1:6379/14]

Runs as root, on a throwaway PostgreSQL `Instance` (scripts/served.py), with the README's
production set-up (gunicorn, DEBUG off, no broker; `--broker`: a Celery worker with beat
beside it). Steps and checks: docs/reliability.md. Prints the counts per phase and status;
exit status 1 when a check fails.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.served import (  # noqa: E402
    Instance, celery, database, fresh_log, gunicorn, lifted_limits, make_token, manage,
    production_env, request, rows, stop, throwaway_instance, uncounted, verdict)


@dataclass
class Answer:
    at: float  # seconds since the start of the load
    what: str
    status: int  # 0: no HTTP answer (connection reset, timeout)
    retry_after: str | None
    upload: str | None = None  # the uploaded record's Event tag


def record(n: int, rng: random.Random) -> tuple[str, str]:
    import fourcolor
    from fourcolor.generate import generate_record

    event = f"outage {os.getpid()} {n}"
    players = rng.choice((2, 3, 4))
    names = tuple(f"Outage {n} {seat}" for seat in range(players))
    rec = generate_record(rng.choice(("classic", "bga")), players, n, names=names,
                          tags={"Event": event}, bot="random")
    return event, fourcolor.write_fcn(rec)


def load(base: str, token: str, game: int, client: int, t0: float, stop: threading.Event,
         out: list[Answer]) -> None:
    rng = random.Random(client)
    auth = {"Authorization": f"Token {token}"}
    n = client * 100_000
    steps = [
        ("page /", lambda: request(f"{base}/")),
        ("page replay", lambda: request(f"{base}/games/{game}/?ply=3")),
        ("api games anon", lambda: request(f"{base}/api/v1/games/")),
        ("api games token", lambda: request(f"{base}/api/v1/games/", headers=auth)),
        ("api ply", lambda: request(f"{base}/api/v1/games/{game}/plies/2/")),
        ("healthz", lambda: request(f"{base}/healthz")),
    ]
    while not stop.is_set():
        for what, call in steps:
            status, headers, _ = call()
            out.append(Answer(time.monotonic() - t0, what, status, headers.get("Retry-After")))
        n += 1
        event, text = record(n, rng)
        status, headers, _ = request(f"{base}/api/v1/uploads/", data=text.encode(),
                                     headers=auth | {"Content-Type": "text/x-fcn"})
        out.append(Answer(time.monotonic() - t0, "api upload", status,
                          headers.get("Retry-After"), event))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cut", type=float, default=15.0)
    parser.add_argument("--port", type=int, default=8201)
    parser.add_argument("--pg-port", type=int, default=5621)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--games", type=int, default=40, help="demo games seeded")
    parser.add_argument("--broker", default="",
                        help="a Celery broker URL (Redis or RabbitMQ): run the statistics jobs "
                             "on a Celery worker with beat, started by the script")
    args = parser.parse_args()
    with throwaway_instance(args.pg_port, "fourcolor_fault") as db:
        return serve(db, args)


def serve(db: Instance, args: argparse.Namespace) -> int:
    server = worker = None
    try:
        # With a broker, beat's statistics check every 5 s: the catch-up after the cut is
        # seen within the run (the default is a minute).
        environ = production_env(db.url, CELERY_BROKER_URL=args.broker,
                                 STATS_CHECK_SECONDS="5", **lifted_limits())
        database(environ, drop=False)
        manage(environ, "seed_demo", "--games", str(args.games))
        token = make_token(environ, "outage")
        game = int(db.query("SELECT min(id) FROM records_game"))
        if args.broker:
            worker = celery(environ, fresh_log("fault_db_outage_celery.log"))
        server = gunicorn(environ, args.port, args.workers,
                          fresh_log("fault_db_outage_gunicorn.log"))
        return run(db, args, token, game)
    finally:
        if server is not None:
            stop(server)
        if worker is not None:
            stop(worker)


def run(db: Instance, args: argparse.Namespace, token: str, game: int) -> int:
    base = f"http://127.0.0.1:{args.port}"
    answers: list[Answer] = []
    stop = threading.Event()
    t0 = time.monotonic()
    threads = [threading.Thread(target=load, args=(base, token, game, c, t0, stop, answers))
               for c in range(args.clients)]
    for thread in threads:
        thread.start()
    time.sleep(8)
    cut_at = time.monotonic() - t0
    db.stop()
    down_at = time.monotonic() - t0
    print(f"{down_at:5.1f} s: database stopped (stop began at {cut_at:.1f} s)", flush=True)
    time.sleep(args.cut)
    started = time.monotonic() - t0
    db.start()
    back_at = time.monotonic() - t0
    print(f"{back_at:5.1f} s: database started again ({back_at - down_at:.1f} s down)",
          flush=True)
    healthy = None
    while time.monotonic() - t0 < back_at + 30:
        if request(f"{base}/healthz")[0] == 200:
            healthy = time.monotonic() - t0
            break
        time.sleep(0.1)
    time.sleep(12)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)

    def phase(a: Answer) -> str:
        if a.at < cut_at:
            return "before"
        if a.at < started:
            # Answers finishing in the stop's first second may still have been served.
            return "cut" if a.at > down_at + 1.0 else "stopping"
        return "restarting" if a.at < (healthy or back_at) + 1.0 else "after"

    table: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    for a in answers:
        table[phase(a)][a.status] += 1
    for name in ("before", "stopping", "cut", "restarting", "after"):
        counts = ", ".join(f"{status or 'no answer'}: {n}"
                           for status, n in sorted(table[name].items()))
        print(f"  {name:10} {sum(table[name].values()):5} answers  {counts}")
    cut = [a for a in answers if phase(a) == "cut"]
    cut_503 = [a for a in cut if a.status == 503]
    per_kind = collections.Counter((a.what, a.status) for a in cut)
    print("  during the cut, by request:", dict(sorted(per_kind.items())))
    errors = collections.Counter((a.what, a.status) for a in answers
                                 if a.status >= 500 and a.status != 503 or a.status == 0)
    if errors:
        print("  errors (any phase), by request:", dict(sorted(errors.items())))
    uploads = [a for a in answers if a.upload]
    created = {a.upload for a in uploads if a.status == 201}
    refused = {a.upload for a in uploads if a.status == 503}
    # An upload whose records committed just before the database went away can still be
    # answered 503 (its answer needs the database too). That is safe: a retried upload reports
    # them as duplicates, never stores them twice. While the database is down nothing can be
    # stored, so an upload answered 503 in the cut itself must not be.
    refused_in_cut = {a.upload for a in uploads if a.status == 503 and phase(a) == "cut"}
    stored = collections.Counter(event for event, in rows(
        db.url, "SELECT event FROM records_game WHERE event LIKE 'outage %'"))
    doubled = [event for event, n in stored.items() if n > 1]
    print(f"  set-up: gunicorn, {args.workers} workers, "
          + (f"Celery worker with beat on {args.broker}" if args.broker
             else "no broker (gunicorn's job worker)"))
    print(f"  uploads: {len(uploads)}, 201: {len(created)}, 503: {len(refused)}; "
          f"stored now: {len(stored)}; recovered (/healthz 200) "
          f"{(healthy - back_at) if healthy else float('nan'):.2f} s after the start")
    checks = [
        ("no 500 (or dropped connection) at any time",
         not any(a.status >= 500 and a.status != 503 or a.status == 0 for a in answers)),
        ("answers during the cut", len(cut) > 0),
        ("every answer during the cut is a 503", len(cut_503) == len(cut)),
        ("every 503 has Retry-After", all(a.retry_after for a in answers if a.status == 503)),
        ("/healthz 200 within 5 s of the restart", healthy is not None
         and healthy - back_at <= 5),
        ("everything answers after", table["after"] and all(
            s < 500 for s in table["after"])),
        ("every upload answered 201 is stored", created <= set(stored)),
        ("no upload answered 503 during the cut is stored", not (refused_in_cut & set(stored))),
        ("no game stored twice", not doubled),
    ]
    # Nothing lost from the statistics either: every stored game counted, caught up after the
    # cut by the job worker (or by Celery, beat's check included) without anything run by hand.
    caught_up = None
    counting_began = time.monotonic()
    while time.monotonic() - counting_began < 60:
        left = uncounted(db.url)
        if left == 0:
            caught_up = time.monotonic() - counting_began
            break
        time.sleep(1)
    print(f"  statistics: {left} stored game(s) not counted "
          + (f"(all counted {caught_up:.1f} s after the load ended)" if caught_up is not None
             else "a minute after the load ended"))
    checks.append(("every stored game counted within a minute", left == 0))
    late = refused & set(stored)
    if late:
        print(f"  {len(late)} upload(s) answered 503 as the database went away were stored "
              "(their retry reports duplicates)")
    return verdict(checks)


if __name__ == "__main__":
    sys.exit(main())
