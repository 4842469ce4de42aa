"""Reads under load (issue 18 goal 5): game detail and ply state against a bare Django JSON view,
32 concurrent clients on gunicorn + PostgreSQL, with an import running beside them.

    .venv/bin/python bench/reads_under_load.py [--database-url postgres://postgres@127.0.0.1:5432/reads5_bench]
        [--games 400] [--clients 32] [--phase-seconds 5] [--rounds 4] [--revalidating 0.25]
        [--import-rounds 3000] [--caches db,redis] [--redis-url redis://127.0.0.1:6379/5]
        [--workers N] [--reset] [--json FILE]

The archive (`manage.py seed_demo --games N`) is built once in its own database and reused
while it holds N games (`--reset` rebuilds it). For each cache backend (`--caches`: `db`, the
database cache, i.e. no REDIS_URL; `redis`, REDIS_URL set) the script starts gunicorn with the
project's configuration (`-c config/gunicorn.conf.py`: sync workers, 2 x cores + 1 of them
unless `--workers`, its one database job worker), DEBUG off, HTTPS false (plain HTTP on
loopback). The rate limits still run (each API request counts itself in its client's counter
in the cache, as in production), per client: the server trusts one proxy (NUM_PROXIES=1) and
each client sends its own X-Forwarded-For address, as 32 machines behind a proxy would; their
rates are raised to one per-minute count no client reaches. (Before the fixed-window counters,
api.throttling, a counter was the list of its client's request times: here about a minute's,
where a production client at 1,000/hour held up to 1,000, and two rates, not one.)

Then, in one run:

1. an untimed warm-up asks for every target once (each game's detail and a ply of each), so
   the replays are in the shared cache: the figures are for a *cached* replay;
2. `manage.py import_games` starts on a file of `--import-rounds` new rounds (generated before,
   never the same rounds in two runs) and is started again whenever it ends, until the
   measurement ends (a later pass finds duplicates: the engine still validates each record);
3. three phases, each `--phase-seconds` long, alternate `--rounds` times, so that every case
   sees the same load: `/healthz` (the project's trivial Django JSON view: one `SELECT 1`, a
   JSON body; the reference), `GET /api/v1/games/{id}/` and `GET /api/v1/games/{id}/plies/{n}/`,
   each request a seeded-random game (and ply) of the archive. A share of the clients
   (`--revalidating`) hold ETags: they ask again for what they got before, with
   If-None-Match (a 304 when nothing changed), the others fetch new objects.

The client is this script: one asyncio loop, `--clients` tasks each sending one request at a
time over raw HTTP/1.1 (sync gunicorn workers close the connection after each answer, so each
request opens one: that is the server's cost too, the same for every case). One Python process
that does little per request leaves the server most of the 2 cores; its CPU seconds are
reported. Throughput is requests / phase time summed over the rounds; p50 and p99 are over
every request of a case. On a machine other work loads, the CPU the gunicorn workers spend
per request (from /proc, summed over each phase) says what a case costs apart from that
load; PostgreSQL's and Redis's own CPU are not in it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import header, quantile, table  # noqa: E402
from api_load import ensure_archive, free_port, manage, targets  # noqa: E402

PYTHON = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/reads5_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
HOST = "127.0.0.1"
BARE = "/healthz (bare Django JSON view)"
DETAIL = "game detail"
PLY = "ply state"
CASES = (BARE, DETAIL, PLY)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# ----------------------------------------------------------------------------- the import


def _import_texts(bounds: tuple[int, int]) -> list[str]:
    from import_archive import round_text

    return [round_text(i) for i in range(*bounds)]


def write_import_file(path: Path, first: int, count: int) -> None:
    """Rounds first .. first+count of bench/import_archive.py's seeded stream: rounds no
    other run of this script imports (each run takes a new `first`)."""
    chunks = [(lo, min(lo + 250, first + count)) for lo in range(first, first + count, 250)]
    with multiprocessing.Pool(2) as pool, path.open("w", encoding="utf-8") as out:
        for texts in pool.imap(_import_texts, chunks):
            out.write("\n".join(texts) + "\n")


class ImportBeside:
    """`manage.py import_games FILE`, started again whenever it ends, until `stop()`."""

    def __init__(self, database_url: str, path: Path, env: dict[str, str]) -> None:
        self.command = [PYTHON, str(_ROOT / "manage.py"), "import_games", str(path)]
        self.env = {**env, "DATABASE_URL": database_url, "LOG_LEVEL": "WARNING"}
        self.process: subprocess.Popen[bytes] | None = None
        self.passes = 0
        self.finished = 0
        self.summary = ""

    def poll(self) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        if self.process is not None:
            self.finished += 1
            out = (self.process.stdout.read() if self.process.stdout else b"").decode()
            lines = [line for line in out.splitlines() if line.strip()]
            self.summary = lines[-1] if lines else f"exit {self.process.returncode}"
        self.process = subprocess.Popen(
            self.command, env=self.env, cwd=_ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.passes += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ----------------------------------------------------------------------------- the server


def start_server(database_url: str, port: int, workers: int | None, redis_url: str | None,
                 log: Path) -> subprocess.Popen[bytes]:
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("REDIS_URL", "CELERY_BROKER_URL", "GUNICORN_WORKERS")
    }
    env |= {
        "DATABASE_URL": database_url,
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(40),
        "ALLOWED_HOSTS": HOST,
        # Plain HTTP on loopback: no redirect to HTTPS, no Secure-only cookies.
        "HTTPS": "false",
        "LOG_LEVEL": "WARNING",
        "API_THROTTLE_ANON": "1000000/minute",
        "API_THROTTLE_USER": "1000000/minute",
        "NUM_PROXIES": "1",
        "GUNICORN_BIND": f"{HOST}:{port}",
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    if workers:
        env["GUNICORN_WORKERS"] = str(workers)
    gunicorn = str(Path(PYTHON).with_name("gunicorn"))
    with log.open("wb") as out:
        server = subprocess.Popen(
            [gunicorn, "-c", str(_ROOT / "config" / "gunicorn.conf.py"), "config.wsgi"],
            env=env, cwd=_ROOT, stdout=out, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited: see {log}")
        try:
            status, _, _ = asyncio.run(fetch(port, "/healthz"))
            if status == 200:
                return server
        except OSError:
            pass
        time.sleep(0.3)
    server.terminate()
    raise SystemExit("gunicorn did not answer /healthz within 60 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=40)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


# ----------------------------------------------------------------------------- the client


async def fetch(port: int, path: str, etag: str | None = None,
                client: int = 0) -> tuple[int, str | None, int]:
    """One GET on a new connection: (status, ETag, body bytes). Raw HTTP/1.1, so the client
    spends as little CPU per request as it can."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        # Each client its own address (the server trusts one proxy): its own rate counter.
        address = f"10.5.{client // 250}.{1 + client % 250}"
        head = (f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: application/json\r\n"
                f"Connection: close\r\nX-Forwarded-For: {address}\r\n")
        if etag:
            head += f"If-None-Match: {etag}\r\n"
        writer.write((head + "\r\n").encode("latin-1"))
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length, tag = 0, None
        for line in lines[1:]:
            name, _, value = line.partition(":")
            lowered = name.lower()
            if lowered == "content-length":
                length = int(value)
            elif lowered == "etag":
                tag = value.strip()
        if length:
            await reader.readexactly(length)
        return status, tag, length
    finally:
        writer.close()


def worker_cpu_seconds(master: int) -> float:
    """User + system CPU seconds of the gunicorn master's web workers (not its job worker)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{master}/task").iterdir():
        for pid in (task / "children").read_text().split():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
                if b"run_jobs" in command:
                    continue
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # a worker restarting (max_requests)
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


@dataclass
class Case:
    name: str
    server_cpu_s: float = 0.0
    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0
    body_bytes: int = 0

    @property
    def requests(self) -> int:
        return len(self.latencies_ms)

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        return quantile(sorted(self.latencies_ms), q)

    @property
    def cpu_ms_per_request(self) -> float:
        return self.server_cpu_s * 1000 / max(self.requests, 1)

    @property
    def share_304(self) -> float:
        return self.statuses.get(304, 0) / max(self.requests, 1)


async def phase(port: int, case: Case, seconds: float, clients: int, revalidating: float,
                new_path: Callable[[random.Random], str], seed: int,
                held_by: dict[tuple[str, int], list[tuple[str, str]]]) -> None:
    """`clients` tasks for `seconds`; the first `revalidating` share of them ask again, with
    If-None-Match, for paths they got a 200 and an ETag for (their own earlier answers, kept
    in `held_by` from phase to phase), nine times in ten once they hold some."""
    deadline = time.perf_counter() + seconds
    holders = round(clients * revalidating)

    async def client(index: int) -> None:
        rng = random.Random(f"{seed}:{case.name}:{index}")
        held = held_by.setdefault((case.name, index), [])
        while time.perf_counter() < deadline:
            again = index < holders and bool(held) and rng.random() < 0.9
            path, etag = rng.choice(held) if again else (new_path(rng), None)
            started = time.perf_counter()
            try:
                status, tag, length = await fetch(port, path, etag, index)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                case.errors += 1
                continue
            case.latencies_ms.append((time.perf_counter() - started) * 1000)
            case.statuses[status] = case.statuses.get(status, 0) + 1
            case.body_bytes += length
            if status not in (200, 304):
                case.errors += 1
            elif status == 200 and tag and index < holders:
                held.append((path, tag))

    started = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    case.seconds += time.perf_counter() - started


def path_makers(games: list[tuple[int, int]]) -> dict[str, Callable[[random.Random], str]]:
    def detail(rng: random.Random) -> str:
        pk, _ = games[rng.randrange(len(games))]
        return f"/api/v1/games/{pk}/"

    def ply(rng: random.Random) -> str:
        pk, plies = games[rng.randrange(len(games))]
        return f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/"

    return {BARE: lambda rng: "/healthz", DETAIL: detail, PLY: ply}


async def warm_up(port: int, games: list[tuple[int, int]], clients: int) -> int:
    """Every game's detail and one of its plies once: the replays land in the shared cache."""
    paths = [p for pk, n in games for p in (f"/api/v1/games/{pk}/",
                                            f"/api/v1/games/{pk}/plies/{n // 2}/")]
    queue = iter(paths)
    bad = 0

    async def client(index: int) -> None:
        nonlocal bad
        for path in queue:
            status, _, _ = await fetch(port, path, client=index)
            bad += status != 200

    await asyncio.gather(*(client(i) for i in range(clients)))
    return bad


# ----------------------------------------------------------------------------- a run


@dataclass
class Run:
    backend: str
    cases: dict[str, Case]
    load_before: str
    load_after: str
    import_passes: int
    import_summary: str
    client_cpu_s: float
    wall_s: float


def one_run(args: argparse.Namespace, backend: str, games: list[tuple[int, int]],
            import_file: Path) -> Run:
    port = free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"reads5_gunicorn_{port}.log"
    redis_url = args.redis_url if backend == "redis" else None
    if redis_url:
        import redis

        redis.Redis.from_url(redis_url).flushdb()
    server = start_server(args.database_url, port, args.workers, redis_url, log)
    importer = ImportBeside(args.database_url, import_file, dict(os.environ))
    makers = path_makers(games)
    cases = {name: Case(name) for name in CASES}
    held_by: dict[tuple[str, int], list[tuple[str, str]]] = {}
    try:
        bad = asyncio.run(warm_up(port, games, args.clients))
        if bad:
            raise SystemExit(f"warm-up: {bad} answers were not 200 (see {log})")
        load_before = uptime()
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        importer.poll()
        time.sleep(1.0)  # the import under way (its start-up is Django's) before the first phase
        for number in range(args.rounds):
            # The order turns each round, so that no case always follows the same one.
            order = CASES[number % 3:] + CASES[:number % 3]
            for name in order:
                importer.poll()
                cpu_before = worker_cpu_seconds(server.pid)
                asyncio.run(phase(port, cases[name], args.phase_seconds, args.clients,
                                  0.0 if name == BARE else args.revalidating, makers[name],
                                  args.seed + number, held_by))
                # A worker restarted meanwhile (max_requests) loses its count: rare, and low.
                cases[name].server_cpu_s += max(0.0, worker_cpu_seconds(server.pid) - cpu_before)
        wall = time.perf_counter() - t0
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        load_after = uptime()
        importer.poll()
    finally:
        importer.stop()
        stop_server(server)
    client_cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    return Run(backend, cases, load_before, load_after, importer.passes,
               importer.summary, client_cpu, wall)


def report(runs: list[Run], args: argparse.Namespace, have: int) -> str:
    rows = []
    for run in runs:
        base = run.cases[BARE].per_second
        for case in run.cases.values():
            rows.append([
                case.name, run.backend, f"{case.per_second:.0f}",
                f"{case.per_second / base:.2f}" if base else "-",
                f"{case.percentile(0.50):.1f}", f"{case.percentile(0.99):.1f}",
                f"{case.share_304:.0%}", f"{case.cpu_ms_per_request:.1f}",
                f"{run.cases[BARE].cpu_ms_per_request / max(case.cpu_ms_per_request, 1e-9):.2f}",
                str(case.requests), str(case.errors),
            ])
    lines = [
        f"archive: {have} games (PostgreSQL); gunicorn -c config/gunicorn.conf.py "
        f"({args.workers or 'default'} workers); {args.clients} clients, "
        f"{args.revalidating:.0%} of them revalidating with If-None-Match on the API cases; "
        f"{args.rounds} rounds x 3 phases x {args.phase_seconds:g} s",
        "",
        table(["case", "cache", "req/s", "vs bare", "p50 ms", "p99 ms", "304",
               "worker CPU ms/req", "bare CPU / CPU", "requests", "errors"], rows, right=2),
        "",
    ]
    for run in runs:
        lines += [
            f"[{run.backend}] load before: {run.load_before}",
            f"[{run.backend}] load after:  {run.load_after}",
            f"[{run.backend}] import beside: {run.import_passes} pass(es) of "
            f"{args.import_rounds} rounds started; last finished: {run.import_summary or '-'}",
            f"[{run.backend}] client CPU: {run.client_cpu_s:.1f} s over {run.wall_s:.0f} s "
            f"({run.client_cpu_s / run.wall_s:.0%} of one core)",
        ]
    goals = []
    for run in runs:
        base = run.cases[BARE].per_second
        for name in (DETAIL, PLY):
            case = run.cases[name]
            ratio = case.per_second / base if base else 0.0
            ok = ratio >= 0.5 and case.percentile(0.99) <= 50
            goals.append(f"[{run.backend}] {name}: {ratio:.2f}x the bare view, p99 "
                         f"{case.percentile(0.99):.1f} ms -> {'met' if ok else 'MISSED'} "
                         "(goal >= 0.5x, p99 <= 50 ms)")
    return "\n".join(lines + [""] + goals)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DB)
    parser.add_argument("--games", type=int, default=400, help="archive size (built once)")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--phase-seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--revalidating", type=float, default=0.25,
                        help="share of the clients that hold ETags (API cases)")
    parser.add_argument("--import-rounds", type=int, default=3000)
    parser.add_argument("--caches", default="db,redis", help="db, redis or both")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS)
    parser.add_argument("--workers", type=int, default=None,
                        help="gunicorn workers (default: the config's, 2 x cores + 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reset", action="store_true", help="rebuild the archive")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if not args.database_url.startswith("postgres"):
        parser.error("the benchmark runs on PostgreSQL (--database-url postgres://...)")

    print(header("Reads under load (issue 18 goal 5)"), flush=True)
    have = ensure_archive(args.database_url, args.games, args.reset)
    t = targets(args.database_url, args.seed)
    games = t.games[:args.games]
    stored = int(manage(args.database_url, "shell", "-c",
                        "from records.models import Game; print(Game.objects.count())",
                        capture=True).split()[-1])
    runs = []
    folder = Path(os.environ.get("TMPDIR", "/tmp"))
    for number, backend in enumerate(args.caches.split(",")):
        # New rounds for every run: past every round this archive may hold already.
        import_file = folder / f"reads5_import_{os.getpid()}_{number}.fcn"
        print(f"[{backend}] writing {args.import_rounds} rounds to import ...", flush=True)
        write_import_file(import_file, 10**7 + stored + number * args.import_rounds,
                          args.import_rounds)
        print(f"[{backend}] measuring ...", flush=True)
        try:
            runs.append(one_run(args, backend, games, import_file))
        finally:
            import_file.unlink(missing_ok=True)
    text = report(runs, args, have)
    print()
    print(text)
    if args.json:
        Path(args.json).write_text(json.dumps([
            {"backend": run.backend, "case": c.name, "requests": c.requests,
             "per_second": c.per_second, "p50_ms": c.percentile(0.5),
             "p99_ms": c.percentile(0.99), "share_304": c.share_304, "errors": c.errors,
             "worker_cpu_ms_per_request": c.cpu_ms_per_request,
             "load_before": run.load_before, "load_after": run.load_after}
            for run in runs for c in run.cases.values()
        ], indent=2))
    return 1 if any(c.errors for run in runs for c in run.cases.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
