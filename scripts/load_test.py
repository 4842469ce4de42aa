"""Load test: Locust against gunicorn on PostgreSQL over loopback, reads and uploads mixed,
then a check that every upload the server accepted is stored exactly once.

    .venv/bin/python scripts/load_test.py [--database-url URL] [--games 2000] [--seconds 60]
        [--users 24] [--workers 4] [--port 8160] [--reset] [--broker URL]

Needs the `bench` extras (Locust). The steps, the checks and the figures: docs/reliability.md
("Load"). Exits non-zero when a request fails with a 5xx or an unexpected status, or a check
fails.
"""

from __future__ import annotations

# Locust patches the standard library for gevent when imported: first, before anything else.
try:
    import gevent
    from locust import FastHttpUser, between, events, task
    from locust.env import Environment
except ImportError:  # pragma: no cover - a missing extra, said plainly
    raise SystemExit("Locust is missing: pip install -e '.[bench]'") from None

import argparse
import hashlib
import json
import random
import secrets
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts.served import (  # noqa: E402
    celery, database, gunicorn, lifted_limits, make_token, manage, production_env, rows, stop,
    uncounted)

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fourcolor_load"
UPLOAD_URL = "/api/v1/uploads/"


@dataclass
class Targets:
    """What the readers ask for: existing games (with their ply counts) and players."""

    games: list[tuple[int, int]]
    players: list[int]


def targets(database_url: str) -> Targets:
    games = rows(database_url, "SELECT id, event_count FROM records_game ORDER BY id")
    players = rows(database_url, "SELECT id FROM records_player")
    return Targets([(int(i), int(n)) for i, n in games], [int(p) for p, in players])


def game_count(database_url: str) -> int:
    return int(rows(database_url, "SELECT count(*) FROM records_game")[0][0])


def content_hash(text: str) -> str:
    """What the archive keys a game by: sha256 of its identity text (records.services)."""
    import fourcolor
    from fourcolor.notation.identity import identity_text

    return hashlib.sha256(identity_text(fourcolor.parse_record(text)).encode("utf-8")).hexdigest()


def upload_pool(run_id: str, count: int) -> list[tuple[str, str]]:
    """`count` new records (text, content hash), each unique to this run."""
    import fourcolor
    from fourcolor.generate import generate_record

    pool = []
    for index in range(count):
        rng = random.Random(f"{run_id}:{index}")
        players = rng.choice((2, 3, 4))
        names = tuple(f"Load {run_id[:4]} {rng.randrange(40)}" for _ in range(players))
        if len(set(names)) < players:
            names = tuple(f"Load {run_id[:4]} seat{k}" for k in range(players))
        tags = {"Event": f"load test {run_id}", "Round": str(index + 1)}
        record = generate_record(rng.choice(("classic", "bga")), players, index, names=names,
                                 tags=tags, bot="random")
        text = fourcolor.write_fcn(record)
        pool.append((text, content_hash(text)))
    return pool


@dataclass
class Ledger:
    """What the server answered to every upload, for the checks afterwards."""

    created: dict[str, int] = field(default_factory=dict)  # content hash -> game id
    created_twice: list[str] = field(default_factory=list)  # hashes answered created again
    duplicates: list[tuple[str, int]] = field(default_factory=list)  # hash, id it names
    pairs: list[tuple[str, list[str]]] = field(default_factory=list)  # hash, both statuses
    unexpected: list[str] = field(default_factory=list)
    pool_exhausted: int = 0

    def note(self, text_hash: str, status: int, body: dict[str, Any]) -> str:
        """Record one upload's answer (its job, finished in the request: a one-record upload
        is small); the record's status (created, duplicate, ...)."""
        results = (body.get("import_report") or {}).get("results") or []
        if status != 201 or len(results) != 1:
            self.unexpected.append(f"{status}: {json.dumps(body)[:300]}")
            return "unexpected"
        result = results[0]
        if result["status"] == "created":
            if text_hash in self.created:
                self.created_twice.append(text_hash)
            self.created[text_hash] = int(result["id"])
        elif result["status"] == "duplicate":
            self.duplicates.append((text_hash, int(result["id"])))
        else:
            self.unexpected.append(f"{status}: {json.dumps(result)[:300]}")
        return str(result["status"])


def run_locust(host: str, token: str, data: Targets, pool: list[tuple[str, str]], users: int,
               seconds: int, ledger: Ledger) -> tuple[Any, Counter[tuple[str, int]], float]:
    rng = random.Random(8)
    fresh = iter(pool)
    accepted: list[tuple[str, str]] = []  # (text, hash) answered created: sent again later
    statuses: Counter[tuple[str, int]] = Counter()
    auth = {"Authorization": f"Token {token}", "Content-Type": "text/x-fcn; charset=utf-8"}

    def next_fresh() -> tuple[str, str] | None:
        item = next(fresh, None)
        if item is None:
            ledger.pool_exhausted += 1
        return item

    class Visitor(FastHttpUser):
        wait_time = between(0.05, 0.5)

        def game(self) -> tuple[int, int]:
            return rng.choice(data.games)

        def get(self, path: str, name: str) -> None:
            with self.client.get(path, name=name, catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"status {response.status_code}")

        @task(3)
        def archive_page(self) -> None:
            self.get(f"/?page={rng.randint(1, max(1, len(data.games) // 50))}", "web archive")

        @task(3)
        def replay_page(self) -> None:
            self.get(f"/games/{self.game()[0]}/", "web replay")

        @task(3)
        def api_list(self) -> None:
            page = rng.randint(1, max(1, len(data.games) // 50))
            self.get(f"/api/v1/games/?page={page}", "api game list")

        @task(3)
        def api_detail(self) -> None:
            self.get(f"/api/v1/games/{self.game()[0]}/", "api game detail")

        @task(3)
        def api_ply(self) -> None:
            game, plies = self.game()
            self.get(f"/api/v1/games/{game}/plies/{rng.randint(0, plies)}/", "api ply")

        @task(2)
        def api_player_stats(self) -> None:
            self.get(f"/api/v1/players/{rng.choice(data.players)}/stats/", "api player stats")

        def post(self, text: str, text_hash: str, name: str) -> str:
            with self.client.post(UPLOAD_URL, data=text.encode(), headers=auth, name=name,
                                  catch_response=True) as response:
                try:
                    body = response.json()
                except ValueError:
                    body = {"raw": response.text[:200]}
                outcome = ledger.note(text_hash, response.status_code, body)
                if outcome == "unexpected":
                    response.failure(f"status {response.status_code}")
                return outcome

        @task(3)
        def upload_new(self) -> None:
            item = next_fresh()
            if item is not None and self.post(*item, "api upload (new)") == "created":
                accepted.append(item)

        @task(1)
        def upload_again(self) -> None:
            if accepted:
                text, text_hash = rng.choice(accepted)
                self.post(text, text_hash, "api upload (duplicate)")

        @task(1)
        def upload_pair(self) -> None:
            """Two requests with one new record at the same moment: one stores it."""
            item = next_fresh()
            if item is None:
                return
            outcomes = gevent.joinall([
                gevent.spawn(self.post, *item, "api upload (concurrent pair)") for _ in (1, 2)
            ])
            ledger.pairs.append((item[1], [str(g.value) for g in outcomes]))
            accepted.append(item)

    @events.request.add_listener
    def count(name: str, response: Any, **kwargs: Any) -> None:
        statuses[(name, int(getattr(response, "status_code", 0) or 0))] += 1

    # stop_timeout: at the end every user finishes the request it is in, so that no upload
    # is stored by the server while its answer is lost to the checks.
    env = Environment(user_classes=[Visitor], host=host, events=events, stop_timeout=120)
    runner = env.create_local_runner()
    started = time.monotonic()
    runner.start(users, spawn_rate=users)
    gevent.spawn_later(seconds, runner.quit)
    runner.greenlet.join()
    return env.stats, statuses, time.monotonic() - started


def wait_counted(database_url: str, seconds: float) -> int:
    """Stored games the statistics do not count yet, once none are left or after `seconds`:
    each upload's statistics job (on the job worker, or Celery) must catch up by itself."""
    deadline = time.monotonic() + seconds
    while True:
        left = uncounted(database_url)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(1)


def check_database(database_url: str, ledger: Ledger, before: int, run_id: str) -> list[str]:
    """Every problem found; empty when every accepted upload is stored exactly once."""
    problems = []
    mine = rows(database_url, "SELECT content_hash, id FROM records_game WHERE event = %s",
                [f"load test {run_id}"])
    total = game_count(database_url)
    stored: dict[str, list[int]] = {}
    for text_hash, game_id in mine:
        stored.setdefault(str(text_hash), []).append(int(game_id))
    for text_hash, game_id in ledger.created.items():
        if stored.get(text_hash) != [game_id]:
            problems.append(f"accepted {text_hash[:12]} as game {game_id}; stored: "
                            f"{stored.get(text_hash)}")
    extra = set(stored) - set(ledger.created)
    if extra:
        problems.append(f"{len(extra)} games of this run stored but never answered created")
    if ledger.created_twice:
        problems.append(f"{len(ledger.created_twice)} records answered created twice")
    for text_hash, game_id in ledger.duplicates:
        if ledger.created.get(text_hash) != game_id:
            problems.append(f"duplicate {text_hash[:12]} names game {game_id}, stored as "
                            f"{ledger.created.get(text_hash)}")
    bad_pairs = [p for p in ledger.pairs if sorted(p[1]) != ["created", "duplicate"]]
    if bad_pairs:
        problems.append(f"{len(bad_pairs)} concurrent pairs without exactly one created: "
                        f"{bad_pairs[:3]}")
    if total != before + len(ledger.created):
        problems.append(f"game count {total} != {before} before + {len(ledger.created)} "
                        "accepted")
    if ledger.unexpected:
        problems.append(f"{len(ledger.unexpected)} unexpected upload answers: "
                        f"{ledger.unexpected[:3]}")
    return problems


def report(stats: Any, statuses: Counter[tuple[str, int]], elapsed: float) -> dict[str, Any]:
    kinds = {}
    for (name, _method), entry in sorted(stats.entries.items()):
        kinds[name] = {
            "requests": entry.num_requests,
            "failures": entry.num_failures,
            "p50_ms": entry.get_response_time_percentile(0.5),
            "p99_ms": entry.get_response_time_percentile(0.99),
            "max_ms": round(entry.max_response_time or 0),
        }
    by_status: Counter[int] = Counter()
    for (_name, status), n in statuses.items():
        by_status[status] += n
    total = stats.total
    return {
        "seconds": round(elapsed, 1),
        "requests": total.num_requests,
        "failures": total.num_failures,
        "requests_per_second": round(total.num_requests / elapsed, 1),
        "p50_ms": total.get_response_time_percentile(0.5),
        "p99_ms": total.get_response_time_percentile(0.99),
        "by_status": dict(sorted(by_status.items())),
        "kinds": kinds,
    }


def print_report(figures: dict[str, Any], ledger: Ledger, before: int, after: int) -> None:
    print(f"\n{figures['requests']} requests in {figures['seconds']} s "
          f"({figures['requests_per_second']}/s), {figures['failures']} failed")
    print("by status: " + ", ".join(f"{s}: {n}" for s, n in figures["by_status"].items()))
    print(f"\n{'kind':<30}{'requests':>10}{'failed':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for name, k in figures["kinds"].items():
        print(f"{name:<30}{k['requests']:>10}{k['failures']:>8}{k['p50_ms']:>9}"
              f"{k['p99_ms']:>9}{k['max_ms']:>9}")
    print(f"{'all':<30}{figures['requests']:>10}{figures['failures']:>8}"
          f"{figures['p50_ms']:>9}{figures['p99_ms']:>9}")
    print(f"\nuploads: {len(ledger.created)} accepted as new, {len(ledger.duplicates)} answered "
          f"duplicate, {len(ledger.pairs)} concurrent pairs; games {before} before, {after} "
          "after")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--games", type=int, default=2000, help="seed_demo games (first run)")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--users", type=int, default=24, help="simulated concurrent users")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--port", type=int, default=8160)
    parser.add_argument("--pool", type=int, default=2500, help="new records generated ahead")
    parser.add_argument("--reset", action="store_true", help="drop and reseed the database")
    parser.add_argument("--broker", default="",
                        help="a Celery broker URL: the jobs (each upload's statistics) run on a "
                             "Celery worker with beat that the script starts (default: none, "
                             "gunicorn's job worker)")
    args = parser.parse_args(argv)

    print(f"preparing {args.database_url} ({args.games} seed games)...", flush=True)
    # The production set-up with the rate limits lifted.
    env = production_env(args.database_url, CELERY_BROKER_URL=args.broker, **lifted_limits())
    database(env, drop=args.reset)
    # seed_demo does nothing on a database that already has games (an earlier run's).
    manage(env, "seed_demo", "--games", str(args.games))
    token = make_token(env, "load-test")
    data = targets(args.database_url)
    run_id = secrets.token_hex(4)
    print(f"generating {args.pool} new records (run {run_id})...", flush=True)
    pool = upload_pool(run_id, args.pool)
    before = game_count(args.database_url)
    log = ROOT / "var" / f"load_test_gunicorn_{args.port}.log"
    worker = None
    if args.broker:
        worker = celery(env, ROOT / "var" / f"load_test_celery_{args.port}.log")
    server = gunicorn(env, args.port, args.workers, log)
    print(f"gunicorn on 127.0.0.1:{args.port} ({args.workers} workers), {len(data.games)} games; "
          f"{args.users} users for {args.seconds} s; "
          + (f"Celery worker with beat on {args.broker}" if args.broker
             else "no broker (gunicorn's job worker)"), flush=True)
    ledger = Ledger()
    try:
        stats, statuses, elapsed = run_locust(
            f"http://127.0.0.1:{args.port}", token, data, pool, args.users, args.seconds, ledger
        )
        uncounted = wait_counted(args.database_url, 120)
    finally:
        stop(server)
        if worker is not None:
            stop(worker)
    figures = report(stats, statuses, elapsed)
    after = game_count(args.database_url)
    print_report(figures, ledger, before, after)
    problems = check_database(args.database_url, ledger, before, run_id)
    server_errors = sum(n for s, n in figures["by_status"].items() if s >= 500 or s == 0)
    if server_errors:
        problems.append(f"{server_errors} requests answered 5xx or not at all")
    print(f"statistics: {uncounted} stored games not counted after the load")
    if uncounted:
        problems.append(f"{uncounted} stored games not counted 2 minutes after the load")
    if figures["failures"]:
        problems.append(f"{figures['failures']} requests failed")
    if ledger.pool_exhausted:
        print(f"note: the pool of new records ran out {ledger.pool_exhausted} times "
              "(raise --pool)")
    if problems:
        print("\nFAILED:\n  " + "\n  ".join(problems))
        return 1
    print("\nexactly once: every accepted upload stored once, no duplicate stored, "
          f"{after} = {before} + {len(ledger.created)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
