"""Server time of the replay page: ply 1 against the last ply of a long round.

    .venv/bin/python bench/web_replay.py               # 200 timed requests per case
    .venv/bin/python bench/web_replay.py --quick       # 30 per case
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fourcolor_dev \\
        .venv/bin/python bench/web_replay.py

The page embeds every ply of the chosen view for replay.js, so the server replays the whole
round for any ply: the first and the last ply should cost the same. The script creates a
throw-away test database (`test_` + the configured name, as the test suite does), stores a
133-ply round and a 41-ply round through `records.services.import_records`, and times whole
requests through Django's test client (middleware, view, template, gzip as browsers ask for
it): after untimed warm-up requests, each case's median, p90 and p99 over the timed requests,
interleaved so that drift on the machine affects every case alike. Two runs: *cold* empties
the cache of built replays before every request (the engine replays and reviews the whole
round each time), *warm* serves them from it (a game viewed again).

A third round of the same length is analysed (`fourcolor.analysis` at a low sample count: the
page's cost depends on how many decisions and options it shows, not on how they were rated),
and its page is timed beside the unanalysed one: the marks, the evaluation chart and every
decision's options.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from _common import machine_line, quantile, table

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-used-anywhere-else-0123456789")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
# The test client speaks plain HTTP: no redirect to HTTPS. No per-request log lines.
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

import fourcolor  # noqa: E402
from fourcolor.generate import generate_record  # noqa: E402
from records.services import import_records  # noqa: E402

LONG = ("classic", 3, 52, "random")  # 133 plies
SHORT = ("classic", 4, 1, "greedy")  # 41 plies
ANALYSED = ("classic", 3, 57, "random")  # a long round too, analysed
ANALYSIS_SAMPLES = 2


def store(ruleset: str, players: int, seed: int, bot: str) -> tuple[int, int]:
    text = fourcolor.write_fcn(generate_record(ruleset, players, seed, bot=bot))
    report = import_records(text, None)
    result = report.results[0]
    if result.game_id is None:
        raise SystemExit(f"could not store the benchmark round: {result.message}")
    plies = fourcolor.check_record(text).game.event_count  # type: ignore[union-attr]
    return result.game_id, plies


def analyse_game(game_id: int) -> int:
    """Analyse and store the game (every seat); the number of decisions rated."""
    from fourcolor.analysis import analyse
    from records.analysis import load_record, store_analysis
    from records.models import Game

    analysis = analyse(load_record(Game.objects.get(pk=game_id)), samples=ANALYSIS_SAMPLES)
    store_analysis(game_id, analysis)
    return len(analysis.decisions)


def time_requests(
    client: Client, urls: dict[str, str], rounds: int, warmup: int, *, cold: bool
) -> dict[str, list[float]]:
    """Seconds per request for each URL. `cold`: the cache of built replays is emptied before
    every request (the engine replays and reviews the round each time), else it is warm."""
    for url in urls.values():
        for _ in range(warmup):
            assert client.get(url).status_code == 200, url
    times: dict[str, list[float]] = {name: [] for name in urls}
    clock = time.perf_counter
    for _ in range(rounds):
        for name, url in urls.items():
            if cold:
                cache.clear()
            t0 = clock()
            response = client.get(url)
            times[name].append(clock() - t0)
            assert response.status_code == 200, url
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="30 timed requests per case")
    parser.add_argument("--requests", type=int, default=None, help="timed requests per case")
    args = parser.parse_args()
    rounds = args.requests or (30 if args.quick else 200)

    setup_test_environment()
    # Production settings (DEBUG off) but plain static file names: no collectstatic needed.
    storages = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    override_settings(STORAGES=storages).enable()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        long_id, long_plies = store(*LONG)
        short_id, short_plies = store(*SHORT)
        analysed_id, analysed_plies = store(*ANALYSED)
        decisions = analyse_game(analysed_id)
        client = Client(headers={"accept-encoding": "gzip"})  # as browsers ask
        urls = {
            f"long round ({long_plies} plies), ply 1": f"/games/{long_id}/?ply=1",
            f"long round, last ply ({long_plies})": f"/games/{long_id}/?ply={long_plies}",
            "long round, ply 1, one seat's view": f"/games/{long_id}/?ply=1&seat=1",
            "long round, last ply, one seat's view": f"/games/{long_id}/?ply={long_plies}&seat=1",
            f"short round ({short_plies} plies), ply 1": f"/games/{short_id}/?ply=1",
            f"short round, last ply ({short_plies})": f"/games/{short_id}/?ply={short_plies}",
            f"analysed round ({analysed_plies} plies, {decisions} decisions), ply 1":
                f"/games/{analysed_id}/?ply=1",
            "analysed round, ply 1, one seat's view": f"/games/{analysed_id}/?ply=1&seat=1",
        }
        sizes = {name: len(client.get(url).content) for name, url in urls.items()}
        plain = Client()
        full = {name: len(plain.get(url).content) for name, url in urls.items()}
        runs = {
            "cold": time_requests(client, urls, rounds, warmup=5, cold=True),
            "warm": time_requests(client, urls, rounds, warmup=5, cold=False),
        }
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)

    print(f"Replay page server time: {rounds} timed requests per case "
          f"(Django test client, DEBUG off, {connection.vendor})")
    print(machine_line())
    for run, times in runs.items():
        what = ("cold: replay and review built by the engine on every request" if run == "cold"
                else "warm: the built replay comes from the cache")
        print(f"\n{what}")
        rows = []
        for name, values in times.items():
            ordered = sorted(values)
            rows.append([
                name,
                f"{statistics.median(ordered) * 1000:.1f}",
                f"{quantile(ordered, 0.90) * 1000:.1f}",
                f"{quantile(ordered, 0.99) * 1000:.1f}",
                f"{full[name] / 1024:.0f}",
                f"{sizes[name] / 1024:.0f}",
            ])
        print(table(["case", "median ms", "p90 ms", "p99 ms", "page KiB", "gzip KiB"], rows))
        names = list(times)
        first, last = statistics.median(times[names[0]]), statistics.median(times[names[1]])
        print(f"last ply / ply 1 (long round, medians): {last / first:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
