"""CPU time of the web process per page: what a page costs the server apart
from waiting for the database or for other processes, which the machine's load moves less
than wall time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sc18_10k \\
        taskset -c 0 .venv/bin/python bench/page_cpu.py / /players/17/ --requests 60
    ... --profile 40        # and the 40 costliest functions (cumulative) of the first page

Reads an existing archive (seed it with `manage.py seed_demo`): each page is asked for through
Django's test client (middleware, view, template) after untimed warm-up requests, the pages
interleaved, and the process's CPU time (`time.process_time`: this process only, user +
system) of each request recorded; prints the median and p90 per page. Used to tell whether the
archive's rows were the page's cost (docs/performance.md, "Pages and API reads").
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time

from _common import machine_line, quantile

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As bench/archive_scale.py: DEBUG on (static files without collectstatic's manifest; Django
# keeps no more than 9,000 queries), no per-request log lines.
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("LOG_LEVEL", "WARNING")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="+", help="pages to ask for, e.g. / /players/17/")
    parser.add_argument("--requests", type=int, default=60, help="timed requests per page")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N costliest functions of the first page")
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    client = Client()
    for url in args.urls:
        for _ in range(args.warmup):
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
    cpu: dict[str, list[float]] = {url: [] for url in args.urls}
    wall: dict[str, list[float]] = {url: [] for url in args.urls}
    for _ in range(args.requests):
        for url in args.urls:
            start, started = time.process_time(), time.perf_counter()
            client.get(url)
            cpu[url].append((time.process_time() - start) * 1000)
            wall[url].append((time.perf_counter() - started) * 1000)
    print(f"# bench/page_cpu.py, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{connection.settings_dict['NAME']}, {args.requests} requests per page, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"# {machine_line()}")
    print("| page | CPU ms median | CPU ms p90 | wall ms median |")
    print("|---|---:|---:|---:|")
    for url, values in cpu.items():
        values.sort()
        print(f"| {url} | {statistics.median(values):.1f} | {quantile(values, 0.9):.1f} | "
              f"{statistics.median(wall[url]):.1f} |")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(args.requests):
            client.get(args.urls[0])
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(
            args.profile
        )


if __name__ == "__main__":
    main()
