"""The web worker's copies of kept answers and ply states (issue 18 goal 5): API reads with
and without them, alternated in one process, on the site's own cache.

    .venv/bin/python bench/kept_copies.py --database-url postgres://postgres@127.0.0.1:5432/DB \
        [--redis-url redis://127.0.0.1:6379/8] [--requests 2000] [--rounds 3]

The database must hold an archive (`manage.py seed_demo --games 300`, or the one
bench/reads_under_load.py builds). Django's test client asks for game details and ply states
of random games among the first `--games` (half each, no ETag held), the same way for both
sides: first every target once (so that every answer and state is in the shared cache, as on
a busy site), then per round and side the worker's copies are forgotten
(`records.replay_cache.clear_local`), 500 requests warm them, and `--requests` more are
timed: CPU and wall time per request, `LOCAL_ENTRIES` 2000 (the code's) against 0 (no copy:
every read goes to the shared cache). The database's cache unless `--redis-url` is given.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from _common import header, table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", default="")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=300, help="the archive's first N games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.update({
        "DATABASE_URL": args.database_url, "DEBUG": "false", "HTTPS": "false",
        "LOG_LEVEL": "WARNING", "ALLOWED_HOSTS": "testserver",
        # The rate limits count as in production; a rate no run reaches.
        "API_THROTTLE_ANON": "1000000/minute,10000000/hour",
    })
    os.environ.setdefault("SECRET_KEY", "bench-kept-copies-not-secret-" + "x" * 32)
    if args.redis_url:
        os.environ["REDIS_URL"] = args.redis_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    from records import replay_cache
    from records.models import Game

    print(header("The worker's copies of kept answers and ply states"), flush=True)
    games = list(Game.objects.order_by("pk").values_list("pk", "event_count")[:args.games])
    if not games:
        raise SystemExit("no games in that database: seed_demo --games 300 first")
    rng = random.Random(args.seed)
    client = Client()

    def urls(count: int) -> list[str]:
        out = []
        for _ in range(count):
            pk, plies = rng.choice(games)
            out.append(f"/api/v1/games/{pk}/" if rng.random() < 0.5
                       else f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/")
        return out

    for url in [f"/api/v1/games/{pk}/" for pk, _ in games] + [
        f"/api/v1/games/{pk}/plies/{n}/" for pk, plies in games for n in range(plies + 1)
    ]:
        client.get(url)  # every answer and state kept in the shared cache
    rows = []
    code_size = replay_cache.LOCAL_ENTRIES
    for number in range(args.rounds):
        for size in (code_size, 0):
            replay_cache.LOCAL_ENTRIES = size
            replay_cache.clear_local()
            timed = urls(args.requests + 500)
            for url in timed[:500]:
                client.get(url)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            for url in timed[500:]:
                answer = client.get(url)
                if answer.status_code != 200:
                    raise SystemExit(f"{url}: {answer.status_code}")
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
            rows.append([number + 1, size, f"{cpu / args.requests * 1e3:.3f}",
                         f"{wall / args.requests * 1e3:.3f}"])
    cache_name = "Redis" if args.redis_url else "database"
    print(f"{len(games)} games; {args.requests} API reads a side and round; the {cache_name} "
          f"cache\n")
    print(table(["round", "LOCAL_ENTRIES", "CPU ms/request", "wall ms/request"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
