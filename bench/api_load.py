"""REST API under concurrent load: requests per second and latency percentiles of game detail,
ply state, game list and player statistics on a PostgreSQL archive, beside `/healthz` (a
trivial Django JSON view: one `SELECT 1`) on the same gunicorn server in the same run.

    .venv/bin/python bench/api_load.py [--database-url postgres://postgres@127.0.0.1:5432/fourcolor_bench_api]
        [--games 10000] [--requests 2000] [--concurrency 8] [--workers 2] [--reset] [--json FILE]

The archive is built once (`manage.py seed_demo --games N`: bot-played matches stored through
the import service, like uploads) and reused by later runs while it holds N games; `--reset`
drops and rebuilds it. The server is gunicorn (sync workers, DEBUG off, rate limits lifted)
on a free loopback port. The client is this script: `--concurrency` threads, each sending its
share of `--requests` requests one after the other over HTTP/1.1, after a warm-up of 10% of
them. Every request of an endpoint asks for a different, seeded-random object (game, ply,
page, player), so neither the database's cache nor the API's per-process replay cache is
flattered by asking for one thing again and again.

Client and server share the machine's cores: the figures are for this machine as a whole,
and the ratio to `/healthz` is the portable part.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

from _common import machine_line, quantile, table  # noqa: E402

PYTHON = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/fourcolor_bench_api"


# ----------------------------------------------------------------------------- the archive


def manage(database_url: str, *args: str, capture: bool = False) -> str:
    env = {**os.environ, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
    result = subprocess.run(
        [PYTHON, str(_ROOT / "manage.py"), *args], env=env, cwd=_ROOT, check=True,
        stdout=subprocess.PIPE if capture else None, text=True,
    )
    return result.stdout or ""


def recreate_database(database_url: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f"CREATE DATABASE \"{name}\" ENCODING 'UTF8' TEMPLATE template0")


def database_exists(database_url: str) -> bool:
    import psycopg

    try:
        with psycopg.connect(database_url):
            return True
    except psycopg.OperationalError:
        return False


def game_count(database_url: str) -> int:
    out = manage(database_url, "shell", "-c",
                 "from records.models import Game; print(Game.objects.count())", capture=True)
    return int(out.strip().splitlines()[-1])


def ensure_archive(database_url: str, games: int, reset: bool) -> int:
    if reset or not database_exists(database_url):
        recreate_database(database_url)
    manage(database_url, "migrate", "--noinput", "-v", "0")
    have = game_count(database_url)
    if have < games:
        print(f"building the archive: {games - have} more games (seed_demo) ...", flush=True)
        started = time.perf_counter()
        manage(database_url, "seed_demo", "--games", str(games - have),
               "--seed", str(1000 + have), "--force")
        print(f"  built in {time.perf_counter() - started:.0f} s", flush=True)
        have = game_count(database_url)
    return have


@dataclass
class Targets:
    games: list[tuple[int, int]]  # (id, plies)
    players: list[int]
    pages: int


def targets(database_url: str, seed: int) -> Targets:
    code = (
        "import json; from records.models import Game, Player; "
        "print(json.dumps({'games': list(Game.objects.values_list('pk', 'event_count')), "
        "'players': list(Player.objects.values_list('pk', flat=True))}))"
    )
    data = json.loads(manage(database_url, "shell", "-c", code, capture=True).splitlines()[-1])
    rng = random.Random(seed)
    games = [tuple(g) for g in data["games"]]
    rng.shuffle(games)
    return Targets(games=games, players=data["players"], pages=max(1, len(games) // 50))


# ----------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(database_url: str, port: int, workers: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": "127.0.0.1",
        # Plain HTTP on loopback: no redirect to HTTPS, no Secure-only cookies.
        "HTTPS": "false",
        "LOG_LEVEL": "WARNING",
        "API_THROTTLE_ANON": "100000000/hour",
        "API_THROTTLE_USER": "100000000/hour",
        # The export benchmark streams the whole archive in one request.
        "API_EXPORT_MAX_GAMES": "100000000",
    }
    gunicorn = str(Path(PYTHON).with_name("gunicorn"))
    with log.open("wb") as out:
        server = subprocess.Popen(
            [gunicorn, "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
             "--access-logfile", "/dev/null"],
            env=env, cwd=_ROOT, stdout=out, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited: see {log}")
        try:
            status, _ = get(port, "/healthz")
            if status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer /healthz within 30 s")


def get(port: int, path: str, conn: http.client.HTTPConnection | None = None) -> tuple[int, int]:
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Accept": "application/json"})
        response = conn.getresponse()
        body = response.read()
        return response.status, len(body)
    finally:
        if own:
            conn.close()


# ----------------------------------------------------------------------------- the load


@dataclass
class Result:
    name: str
    requests: int
    seconds: float
    latencies_ms: list[float]
    errors: int
    bytes: int

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds

    def percentile(self, q: float) -> float:
        return quantile(sorted(self.latencies_ms), q)


def load(port: int, name: str, paths: list[str], concurrency: int) -> Result:
    """Send every path once, from `concurrency` threads sharing the list."""
    latencies: list[float] = []
    errors = 0
    size = 0
    lock = threading.Lock()
    cursor = iter(range(len(paths)))

    def worker() -> None:
        nonlocal errors, size
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        bad = got = 0
        while True:
            with lock:
                index = next(cursor, None)
            if index is None:
                break
            started = time.perf_counter()
            try:
                status, length = get(port, paths[index], conn)
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                status, length = 0, 0
            mine.append((time.perf_counter() - started) * 1000)
            got += length
            if status != 200:
                bad += 1
        conn.close()
        with lock:
            latencies.extend(mine)
            errors += bad
            size += got

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Result(name, len(paths), time.perf_counter() - started, latencies, errors, size)


# ----------------------------------------------------------------------------- the export


def worker_pids(master: int) -> list[int]:
    pids = []
    for task in Path(f"/proc/{master}/task").iterdir():
        children = (task / "children").read_text().split()
        pids += [int(pid) for pid in children]
    return pids


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Export:
    label: str
    games: int
    first_line_ms: float
    seconds: float
    mebibytes: float
    rss_before_kib: int
    rss_peak_kib: int


def export(port: int, master: int, label: str, query: str) -> Export:
    """Stream one export, timing its first line and sampling the workers' memory meanwhile."""
    pids = worker_pids(master)
    before = max(rss_kib(pid) for pid in pids)
    peak = before
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max([peak, *(rss_kib(pid) for pid in pids)])
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    conn.request("GET", f"/api/v1/games/export/{query}")
    response = conn.getresponse()
    first = response.readline()
    first_ms = (time.perf_counter() - started) * 1000
    # A game is a line of NDJSON, or a record (each has its Ruleset tag) of FCN.
    fcn = "format=fcn" in query
    games, size = 0, 0
    for line in itertools.chain([first], response):
        size += len(line)
        games += line.startswith(b"[Ruleset ") if fcn else bool(line.strip())
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    conn.close()
    if response.status != 200:
        raise SystemExit(f"export {query}: status {response.status}")
    return Export(label, games, first_ms, seconds, size / 2**20, before, peak)


def scenarios(t: Targets, count: int, seed: int) -> dict[str, Callable[[int], list[str]]]:
    rng = random.Random(seed)

    def games(n: int) -> list[tuple[int, int]]:
        return [t.games[rng.randrange(len(t.games))] for _ in range(n)]

    return {
        "/healthz (trivial JSON view)": lambda n: ["/healthz"] * n,
        "game detail": lambda n: [f"/api/v1/games/{pk}/" for pk, _ in games(n)],
        "ply state": lambda n: [
            f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/" for pk, plies in games(n)
        ],
        "ply state, one seat's view": lambda n: [
            f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/?seat=1" for pk, plies in games(n)
        ],
        "game list (page of 50)": lambda n: [
            f"/api/v1/games/?page={rng.randint(1, min(t.pages, 200))}" for _ in range(n)
        ],
        "game list, filtered by player": lambda n: [
            f"/api/v1/players/{rng.choice(t.players)}/games/" for _ in range(n)
        ],
        "player statistics": lambda n: [
            f"/api/v1/players/{rng.choice(t.players)}/stats/" for _ in range(n)
        ],
        "player statistics, date range": lambda n: [
            f"/api/v1/players/{rng.choice(t.players)}/stats/?since=2000-01-01"
            for _ in range(n)
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--games", type=int, default=10_000, help="archive size (built once)")
    parser.add_argument("--requests", type=int, default=2000, help="per endpoint")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2,
                        help="gunicorn workers")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reset", action="store_true", help="rebuild the archive")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--only", help="run the endpoints whose name contains this (and "
                        "/healthz); no export")
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        parser.error("the benchmark runs on PostgreSQL (--database-url postgres://...)")

    have = ensure_archive(args.database_url, args.games, args.reset)
    t = targets(args.database_url, args.seed)
    port = free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"api_load_gunicorn_{port}.log"
    server = start_server(args.database_url, port, args.workers, log)
    results: list[Result] = []
    exports: list[Export] = []
    try:
        for name, make in scenarios(t, args.requests, args.seed).items():
            if args.only and args.only not in name and not name.startswith("/healthz"):
                continue
            load(port, name, make(max(1, args.requests // 10)), args.concurrency)  # warm-up
            results.append(load(port, name, make(args.requests), args.concurrency))
        # One worker serves each export; the others idle. Growing sizes: flat memory shows as
        # the same peak whatever the number of games.
        for games in [] if args.only else sorted({min(1000, have), have}):
            exports.append(export(port, server.pid, f"NDJSON, {games} games", f"?max={games}"))
        if not args.only:
            exports.append(export(port, server.pid, f"FCN, {have} games", "?format=fcn"))
    finally:
        server.terminate()
        server.wait(timeout=30)

    base = results[0].per_second
    print()
    print(machine_line())
    print(f"archive: {have} games, {len(t.players)} players (PostgreSQL); gunicorn "
          f"{args.workers} sync workers; {args.concurrency} client threads; "
          f"{args.requests} requests per endpoint after a warm-up")
    print()
    print(table(
        ["endpoint", "req/s", "vs /healthz", "p50 ms", "p90 ms", "p99 ms", "KiB/resp", "errors"],
        [
            [r.name, f"{r.per_second:.0f}", f"{r.per_second / base:.2f}",
             f"{r.percentile(0.50):.1f}", f"{r.percentile(0.90):.1f}",
             f"{r.percentile(0.99):.1f}", f"{r.bytes / max(r.requests, 1) / 1024:.1f}",
             str(r.errors)]
            for r in results
        ],
    ))
    print()
    print(table(
        ["export", "games", "first line ms", "total s", "MiB sent", "worker RSS before MiB",
         "peak MiB"],
        [
            [e.label, str(e.games), f"{e.first_line_ms:.0f}", f"{e.seconds:.1f}",
             f"{e.mebibytes:.1f}", f"{e.rss_before_kib / 1024:.0f}",
             f"{e.rss_peak_kib / 1024:.0f}"]
            for e in exports
        ],
    ))
    if args.json:
        Path(args.json).write_text(json.dumps([
            {"endpoint": r.name, "requests": r.requests, "per_second": r.per_second,
             "p50_ms": r.percentile(0.5), "p90_ms": r.percentile(0.9),
             "p99_ms": r.percentile(0.99), "errors": r.errors}
            for r in results
        ], indent=2))
    return 1 if any(r.errors for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
