"""Name search at archive scale: the query plans of the word index, and each search's latency.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fourcolor_100k \
        .venv/bin/python bench/name_search.py --requests 20

On a seeded database, after ANALYZE: the plans of a player search and of the archive filtered
by two words of a name (both must read `name_word_prefix`), then each search page's median and
largest time through Django's test client.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEARCHES = ("/players/?q=hoang", "/?player=nguyen", "/?player=Nguy%E1%BB%85n%20lan",
            "/api/v1/players/?search=chau", "/?uploaded_by=dem", "/?match=spring")


def _plan(queryset) -> str:  # type: ignore[no-untyped-def]
    from django.db import connection

    sql, params = queryset.query.sql_with_params()
    explain = ("EXPLAIN (ANALYZE, BUFFERS OFF) " if connection.vendor == "postgresql"
               else "EXPLAIN QUERY PLAN ")
    with connection.cursor() as cursor:
        cursor.execute(explain + sql, params)
        return "\n".join(str(row[0] if connection.vendor == "postgresql" else row[-1])
                         for row in cursor.fetchall())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=20)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from records.filters import GameFilters
    from records.models import Game, NameWord, Player
    from records.search import matching

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"{connection.vendor}: {Game.objects.count()} games, {Player.objects.count()} players,"
          f" {NameWord.objects.count()} name words")
    for title, queryset in (
        ("players ?q=hoang", Player.objects.filter(pk__in=matching("player", "hoang"))),
        ("archive ?player=nguyen lan", GameFilters(player="nguyen lan").apply(
            Game.objects.all())[:50]),
    ):
        plan = _plan(queryset)
        print(f"--- {title}: {'index' if 'name_word_prefix' in plan else 'NO INDEX'}\n{plan}")
    client = Client(SERVER_NAME="localhost")
    for url in SEARCHES:
        assert client.get(url).status_code == 200, url
        times = []
        for _ in range(args.requests):
            started = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        print(f"{url}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


if __name__ == "__main__":
    main()
