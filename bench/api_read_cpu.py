"""CPU time of one API read in one process, for the code of any worktree: what `/healthz`, a
game's detail and a ply state cost the web process apart from the machine's load (which moves
throughput under load several-fold between runs).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_300 taskset -c 0 \\
        .venv/bin/python bench/api_read_cpu.py [--tree /work/wt/other] [--redis-url URL] \\
        [--requests 400] [--games 100] [--clients 32] [--rate 1000000/minute] [--profile N]

Reads an existing archive (`manage.py seed_demo --games 300`). The code is the worktree
`--tree` names (this one by default): run it once per tree, alternated, to compare two commits
on the same database. As in production: DEBUG off, the rate limits on, per client
(NUM_PROXIES=1, one X-Forwarded-For per client among `--clients`, a per-minute rate no client
reaches; `--rate 1000000/minute,1000000/hour --clients 2`: two rates, and clients with an hour
of ~1,000 requests each), the database cache or Redis (`--redis-url`, flushed first).
Every game's detail and one ply are asked for once untimed (the kept answers and ply states are
in the cache: the figures are for cached reads), then the three reads are interleaved
`--requests` times, each a game (and any ply) of the first `--games`, through Django's test
client (middleware, DRF, view; no socket), and the process's CPU time of each request
(`time.process_time`) recorded. Prints median, mean and p90 per read, and the ratio
bare CPU / CPU.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=str(HERE.parent), help="the worktree whose code runs")
    parser.add_argument("--redis-url", default="", help="count and keep in Redis (flushed)")
    parser.add_argument("--requests", type=int, default=400, help="timed requests per read")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--rate", default="1000000/minute",
                        help="the anonymous and user rates (production's have an hourly one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="then profile the ply reads: the N costliest functions")
    args = parser.parse_args()

    tree = str(Path(args.tree).resolve())
    sys.path.insert(0, tree)
    sys.path.insert(1, str(HERE))
    os.chdir(tree)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false", "HTTPS": "false",
        "SECRET_KEY": "api-read-cpu-" + "x" * 40, "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING", "NUM_PROXIES": "1",
        "API_THROTTLE_ANON": args.rate, "API_THROTTLE_USER": args.rate,
    })
    if args.redis_url:
        os.environ["REDIS_URL"] = args.redis_url
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()
    else:
        os.environ.pop("REDIS_URL", None)

    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from _common import machine_line, quantile
    from records.models import Game

    games = list(Game.objects.order_by("pk").values_list("pk", "event_count")[:args.games])
    rng = random.Random(args.seed)
    client = Client()
    addresses = [f"198.51.100.{n + 1}" for n in range(args.clients)]

    def get(url: str, n: int) -> int:
        response = client.get(url, HTTP_X_FORWARDED_FOR=addresses[n % len(addresses)])
        return int(response.status_code)

    for n, (pk, plies) in enumerate(games):  # untimed: the kept answers and states
        assert get(f"/api/v1/games/{pk}/", n) == 200
        assert get(f"/api/v1/games/{pk}/plies/{plies // 2}/", n) == 200
    reads = {
        "/healthz (bare view)": lambda pk, plies: "/healthz",
        "game detail": lambda pk, plies: f"/api/v1/games/{pk}/",
        "ply state": lambda pk, plies: f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/",
    }
    cpu: dict[str, list[float]] = {name: [] for name in reads}
    for n in range(args.requests):
        pk, plies = games[rng.randrange(len(games))]
        for name, url in reads.items():
            path = url(pk, plies)
            start = time.process_time()
            status = get(path, n)
            cpu[name].append((time.process_time() - start) * 1000)
            assert status == 200, (path, status)

    commit = os.popen(f"git -C {tree} log --oneline -1").read().strip()[:60]
    print(f"# bench/api_read_cpu.py, {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}, "
          f"{connection.settings_dict['NAME']}, cache {'Redis' if args.redis_url else 'database'}"
          f", {args.requests} requests per read, {args.clients} clients, rate {args.rate}, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"# code: {commit}")
    print(f"# {machine_line()}")
    print("| read | CPU ms median | mean | p90 | bare CPU / CPU (medians) |")
    print("|---|---:|---:|---:|---:|")
    bare = statistics.median(cpu["/healthz (bare view)"])
    for name, values in cpu.items():
        values.sort()
        middle = statistics.median(values)
        print(f"| {name} | {middle:.2f} | {statistics.fmean(values):.2f} | "
              f"{quantile(values, 0.9):.2f} | {bare / middle:.2f} |")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for n in range(args.requests):
            pk, plies = games[rng.randrange(len(games))]
            get(reads["ply state"](pk, plies), n)
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(args.profile)


if __name__ == "__main__":
    main()
