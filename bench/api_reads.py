"""The API's reads for builders (issue 17): 304s against full answers, and a replay's plies in
one request against one request per ply.

    .venv/bin/python bench/api_reads.py               # 100 timed rounds per case
    .venv/bin/python bench/api_reads.py --quick       # 20
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fourcolor_dev \\
        .venv/bin/python bench/api_reads.py

Like bench/web_replay.py: a throw-away test database with 60 bot-played rounds stored through
`records.services.import_records`, whole requests through Django's test client (middleware,
throttles, view, renderer), cases interleaved, median and p90. A game's 304 is answered from
its validators before any replay or serialisation; a list's 304 from the hash of its rendered
body (the server still builds it: the saving is the transfer).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from _common import machine_line, quantile, table

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-used-anywhere-else-0123456789")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("LOG_LEVEL", "WARNING")
# The benchmark sends thousands of requests from one client: rate limits out of the way.
os.environ.setdefault("API_THROTTLE_ANON", "1000000/minute")
os.environ.setdefault("API_THROTTLE_USER", "1000000/minute")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

import fourcolor  # noqa: E402
from fourcolor.generate import generate_record  # noqa: E402
from records.models import Game  # noqa: E402
from records.services import import_records  # noqa: E402

API = "/api/v1"


def seed(games: int) -> Game:
    texts = [fourcolor.write_fcn(generate_record("classic", 3 + n % 2, n, bot="random"))
             for n in range(games)]
    report = import_records("\n".join(texts), None)
    assert report.refused == 0
    return Game.objects.order_by("-event_count").first()  # type: ignore[return-value]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 timed rounds per case")
    args = parser.parse_args()
    rounds = 20 if args.quick else 100

    setup_test_environment()
    storages = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    override_settings(STORAGES=storages).enable()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        game = seed(60)
        client = Client()
        detail, listing = f"{API}/games/{game.pk}/", f"{API}/games/?page_size=50"
        tags = {url: client.get(url)["ETag"] for url in (detail, listing)}
        plies = game.event_count

        def get(url: str, etag: str | None = None, status: int = 200) -> Callable[[], int]:
            headers = {"If-None-Match": etag} if etag else {}

            def send() -> int:
                response = client.get(url, headers=headers)
                assert response.status_code == status, (url, response.status_code)
                return len(response.content)
            return send

        def one_by_one() -> int:
            return sum(get(f"{API}/games/{game.pk}/plies/{n}/")() for n in range(plies + 1))

        cases: dict[str, Callable[[], int]] = {
            "game detail, 200": get(detail),
            "game detail, If-None-Match: 304": get(detail, tags[detail], 304),
            "game list (50), 200": get(listing),
            "game list (50), If-None-Match: 304": get(listing, tags[listing], 304),
            f"all {plies + 1} ply states, one request each": one_by_one,
            f"all {plies + 1} ply states, GET /plies/": get(f"{API}/games/{game.pk}/plies/"),
        }
        sizes = {name: send() for name, send in cases.items()}  # also the warm-up
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, send in cases.items():
                t0 = time.perf_counter()
                send()
                times[name].append(time.perf_counter() - t0)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    print(f"API reads: {rounds} timed rounds per case (Django test client, DEBUG off, "
          f"{connection.vendor}); game {game.pk} has {plies} plies")
    print(machine_line())
    rows = []
    for name, values in times.items():
        ordered = sorted(values)
        rows.append([name, f"{statistics.median(ordered) * 1000:.1f}",
                     f"{quantile(ordered, 0.90) * 1000:.1f}", f"{sizes[name] / 1024:.1f}"])
    print(table(["case", "median ms", "p90 ms", "body KiB"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
