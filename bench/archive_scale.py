"""Pages and API reads at archive scale: p50/p99 of a single client per database, the ratio
between databases, and the query plans.

    .venv/bin/python bench/archive_scale.py URL_10K URL_1M [--requests 40] [--rounds N]

Each database (`manage.py seed_demo --games N --jobs 2 --tables 20`) is measured in a process
of its own, in turn `--rounds` times: every archive view, replay and API read, each asked
`--requests` times after a warm-up through Django's test client, then EXPLAIN ANALYZE of each
page's slowest queries. The last table divides each p99 by the first database's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import quantile

ROOT = Path(__file__).resolve().parent.parent
MARK = "ARCHIVE-SCALE-RESULT "


def _targets() -> list[tuple[str, str]]:
    """(name, URL) of every read, chosen from this database's games."""
    from django.db.models import Count

    from records.models import Game, Player

    newest = Game.objects.order_by("-pk").only("pk", "event_count").first()
    assert newest is not None, "an empty database: seed it first"
    longest = Game.objects.filter(pk__gt=newest.pk - 1000).order_by("-event_count").first()
    assert longest is not None
    player = (Player.objects.annotate(rounds=Count("seats")).order_by("-rounds")
              .only("pk", "name").first())
    assert player is not None
    name = player.name.split()[0]
    pk, last, middle = longest.pk, longest.event_count, longest.event_count // 2
    return [
        ("archive", "/"),
        ("archive ?player=", f"/?player={name}"),
        ("archive ?ruleset&outcome", "/?ruleset=bga&outcome=win"),
        ("archive ?ordering=-points", "/?ordering=-points"),
        ("archive ?analysed=true", "/?analysed=true"),
        ("archive ?analysed=false", "/?analysed=false"),
        ("archive page 150", "/?page=150"),
        ("replay ply 0", f"/games/{pk}/"),
        ("replay middle ply", f"/games/{pk}/?ply={middle}"),
        ("replay last ply", f"/games/{pk}/?ply={last}"),
        ("api ply state (middle)", f"/api/v1/games/{pk}/plies/{middle}/"),
        ("api game detail", f"/api/v1/games/{pk}/"),
        ("player page", f"/players/{player.pk}/"),
        ("leaderboards (web)", "/players/"),
        ("leaderboard (api)", "/api/v1/stats/leaderboard/"),
        ("api list (cursor)", "/api/v1/games/?cursor="),
        ("api list ?player= (cursor)", f"/api/v1/games/?player={name}&cursor="),
        ("api list (page 1)", "/api/v1/games/"),
        ("export first line", "/api/v1/games/export/?max=1"),
    ]


def _explain(sql: str) -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS OFF) {sql}")
        return [row[0] for row in cursor.fetchall()]


def _one_database(requests: int, plans: int) -> dict[str, Any]:
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from records.models import Game

    client = Client()
    results: dict[str, Any] = {"games": Game.objects.count(), "vendor": connection.vendor,
                               "reads": {}}
    for name, url in _targets():
        for _ in range(3):  # warm: the replay cache, the connection, the planner's statistics
            response = client.get(url)
            if getattr(response, "streaming", False):
                b"".join(response.streaming_content)  # type: ignore[attr-defined]
        assert response.status_code == 200, (url, response.status_code)
        times = []
        for _ in range(requests):
            started = time.perf_counter()
            response = client.get(url)
            if getattr(response, "streaming", False):
                next(iter(response.streaming_content))  # type: ignore[attr-defined]
            times.append((time.perf_counter() - started) * 1000)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
            if getattr(response, "streaming", False):
                next(iter(response.streaming_content))  # type: ignore[attr-defined]
        slowest = sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:plans]
        explained = []
        if connection.vendor == "postgresql":
            for query in slowest:
                if query["sql"].lstrip().upper().startswith("SELECT"):
                    explained.append({"sql": query["sql"][:600], "plan": _explain(query["sql"])})
        results["reads"][name] = {
            "url": url, "times": times,
            "queries": len(queries.captured_queries), "plans": explained,
        }
    return results


def _measure(url: str, requests: int, plans: int) -> dict[str, Any]:
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings",
           "API_THROTTLE_ANON": "1000000/minute", "API_THROTTLE_EXPORT": "1000000/minute",
           "ARCHIVE_SCALE_CHILD": "1"}
    # DEBUG on (static files served without collectstatic's manifest; Django keeps at most
    # 9,000 queries in its log), the request log off.
    env.update({"DEBUG": "1", "ALLOWED_HOSTS": "testserver", "LOG_LEVEL": "WARNING"})
    done = subprocess.run(
        [sys.executable, __file__, "--child", "--requests", str(requests), "--plans", str(plans)],
        env=env, cwd=ROOT, capture_output=True, text=True, check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith(MARK):
            result: dict[str, Any] = json.loads(line[len(MARK):])
            return result
    raise SystemExit(f"measuring {url} failed:\n{done.stderr[-3000:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("databases", nargs="*", help="DATABASE_URLs, the reference first")
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--plans", type=int, default=2, help="queries explained per read")
    parser.add_argument("--rounds", type=int, default=4,
                        help="measure the databases in turn this many times, --requests in all "
                             "(the machine's load moves: each database sees the same drift)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        print(MARK + json.dumps(_one_database(args.requests, args.plans)))
        return
    if not args.databases:
        parser.error("name at least one DATABASE_URL")
    print(f"# bench/archive_scale.py, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load {os.getloadavg()[0]:.1f}, {args.requests} requests per read in "
          f"{args.rounds} alternating rounds")
    rounds = max(1, min(args.rounds, args.requests))
    merged: dict[str, dict[str, Any]] = {}
    for number in range(rounds):
        share = args.requests // rounds + (number < args.requests % rounds)
        for url in args.databases:  # alternating: the plans come from the last round
            result = _measure(url, share, args.plans if number == rounds - 1 else 0)
            if url not in merged:
                merged[url] = result
                continue
            for name, read in result["reads"].items():
                read["times"] = merged[url]["reads"][name]["times"] + read["times"]
            merged[url] = result
    measured = list(merged.items())
    for _url, result in measured:
        for read in result["reads"].values():
            read["p50"] = quantile(sorted(read["times"]), 0.5)
            read["p99"] = quantile(sorted(read["times"]), 0.99)
    for url, result in measured:
        print(f"\n## {url.rsplit('/', 1)[-1]}: {result['games']:,} games")
        for name, read in result["reads"].items():
            print(f"\n### {name} ({read['url']}): p50 {read['p50']:.1f} ms, "
                  f"p99 {read['p99']:.1f} ms, {read['queries']} queries")
            for plan in read["plans"]:
                print(f"    {plan['sql'][:300]}")
                for line in plan["plan"]:
                    print(f"      {line}")
    names = list(measured[0][1]["reads"])
    header = " | ".join(f"{r['games']:,} games p50 / p99 ms" for _u, r in measured)
    print(f"\n| read | {header} | p99 ratio |\n|---|" + "---|" * len(measured) + "---|")
    for name in names:
        cells = [f"{r['reads'][name]['p50']:.1f} / {r['reads'][name]['p99']:.1f}"
                 for _u, r in measured]
        ratio = measured[-1][1]["reads"][name]["p99"] / measured[0][1]["reads"][name]["p99"]
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio:.2f} |")


if __name__ == "__main__":
    main()
