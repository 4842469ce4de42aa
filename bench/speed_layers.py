"""Each speed layer's gain on a figure a user sees, with and without it in one run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/fc_bench \
        .venv/bin/python bench/speed_layers.py CASE [--blocks 8] [--requests 25] [--tree DIR]

Reads an archive made by `manage.py seed_demo --games 2000` (DEBUG on). Blocks with and
without the layer alternate (A B A B ...); each times `--requests` requests through Django's
test client (or imports of a fresh file) after a warm-up, and prints median and p99 wall time,
median CPU time and the gain (without / with - 1). Cases:

- `game_rows`: the archive's rows drawn by one tag against the template loop; the page `/`.
- `db_cache`: common.cache.DatabaseCache's `set`/`set_many` against Django's; a game's first
  API reads, the cache emptied before each.
- `copy`: records.copying's COPY against bulk_create; an import of 100 new rounds.
- `pages`: no layer, to compare two trees (`--tree`): the replay page (cached and cold), a
  game's API detail and a ply.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case")
    parser.add_argument("--tree", default=str(ROOT), help="the worktree whose code runs")
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--requests", type=int, default=25)
    args = parser.parse_args()
    tree = str(Path(args.tree).resolve())
    sys.path.insert(0, tree)
    os.chdir(tree)
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true", "HTTPS": "false",
        "SECRET_KEY": "speed-layers-" + "x" * 40, "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING", "API_THROTTLE_ANON": "1000000/minute",
        "API_THROTTLE_USER": "1000000/minute",
    })
    import django

    django.setup()
    sides = CASES[args.case]()
    report(args.case, run(sides, args.blocks, args.requests))


# A block of n timed requests -> (wall seconds, this process's CPU seconds) of each.
Side = Callable[[int], list[tuple[float, float]]]


def run(sides: dict[str, tuple[Callable[[], None], Side]], blocks: int,
        requests: int) -> dict[str, list[tuple[float, float]]]:
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in sides}
    for _ in range(blocks):
        for name, (setup, block) in sides.items():
            setup()
            block(1)  # warm-up after the switch
            times[name] += block(requests)
    return times


def report(case: str, times: dict[str, list[tuple[float, float]]]) -> None:
    """Wall time (what the user waits) and CPU time (what the machine's load moves less)."""
    names = list(times)
    medians = {}
    for name in names:
        wall = sorted(w for w, _ in times[name])
        cpu = sorted(c for _, c in times[name])
        p99 = wall[min(len(wall) - 1, int(0.99 * len(wall)))]
        medians[name] = (statistics.median(wall), statistics.median(cpu))
        print(f"{case:10} {name:12} n={len(wall):4}  wall median {medians[name][0] * 1000:8.2f} ms"
              f"  p99 {p99 * 1000:8.2f} ms  cpu median {medians[name][1] * 1000:8.2f} ms")
    if len(names) == 2:
        (wall_a, cpu_a), (wall_b, cpu_b) = (medians[n] for n in names)
        print(f"{case:10} gain (without / with - 1): wall {wall_b / wall_a - 1:+.1%}"
              f"  cpu {cpu_b / cpu_a - 1:+.1%}")


def timed(ask: Callable[[], object], before: Callable[[], object] = lambda: None) -> Side:
    """Time `ask()`, after an untimed `before()` each time."""
    from django.db import reset_queries

    def block(n: int) -> list[tuple[float, float]]:
        spent = []
        for _ in range(n):
            before()
            reset_queries()
            start, cpu = time.perf_counter(), time.process_time()
            ask()
            spent.append((time.perf_counter() - start, time.process_time() - cpu))
        return spent
    return block


def _client():  # type: ignore[no-untyped-def]
    from django.test import Client

    return Client()


def _ok(response) -> None:  # type: ignore[no-untyped-def]
    if response.status_code != 200:
        raise SystemExit(f"{response.status_code}: {response.content[:300]!r}")


def game_rows() -> dict[str, tuple[Callable[[], None], Side]]:
    from django.template import engines
    from django.template.loaders.locmem import Loader

    cached = engines["django"].engine.template_loaders[0]
    rows = (ROOT / "tests" / "web" / "game_rows_reference.html").read_text(encoding="utf-8")
    table = (ROOT / "templates" / "records" / "_game_table.html").read_text(encoding="utf-8")
    loop = table.replace("{% game_rows games %}", rows.strip())
    override = Loader(engines["django"].engine, {"records/_game_table.html": loop})
    client = _client()

    def page() -> None:
        response = client.get("/")
        _ok(response)

    def tag() -> None:
        if override in cached.loaders:
            cached.loaders.remove(override)
        cached.reset()

    def template_loop() -> None:
        if override not in cached.loaders:
            cached.loaders.insert(0, override)
        cached.reset()

    return {"with": (tag, timed(page)), "without": (template_loop, timed(page))}


def _long_games() -> list[tuple[int, int]]:
    """(id, plies) of the archive's 20 longest rounds."""
    from records.models import Game

    return list(Game.objects.order_by("-event_count").values_list("pk", "event_count")[:20])


def pages() -> dict[str, tuple[Callable[[], None], Side]]:
    from django.core.cache import cache

    client = _client()
    games = _long_games()
    rng = random.Random(1)

    def replay() -> None:
        pk, plies = rng.choice(games)
        _ok(client.get(f"/games/{pk}/?ply={rng.randint(0, plies)}"))

    def detail() -> None:
        _ok(client.get(f"/api/v1/games/{rng.choice(games)[0]}/"))

    def ply() -> None:
        pk, plies = rng.choice(games)
        _ok(client.get(f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/"))

    nothing = lambda: None  # noqa: E731
    return {"replay": (nothing, timed(replay)),
            "replay-cold": (nothing, timed(replay, cache.clear)),
            "api-game": (nothing, timed(detail)), "api-ply": (nothing, timed(ply))}


def db_cache() -> dict[str, tuple[Callable[[], None], Side]]:
    """common.cache.DatabaseCache's one-statement `set` and `set_many` against Django's, on a
    game's first API reads (a ply, then its detail: the answers written to the cache)."""
    from django.core.cache import cache
    from django.core.cache.backends.db import DatabaseCache as Django

    from common.cache import DatabaseCache as Ours

    own = (Ours._base_set, Ours.set_many)
    client = _client()
    games = _long_games()
    rng = random.Random(3)

    def first_reads() -> None:
        pk, plies = rng.choice(games)
        _ok(client.get(f"/api/v1/games/{pk}/plies/{rng.randint(0, plies)}/"))
        _ok(client.get(f"/api/v1/games/{pk}/"))

    def ours() -> None:
        Ours._base_set, Ours.set_many = own  # type: ignore[method-assign]

    def djangos() -> None:
        Ours._base_set, Ours.set_many = Django._base_set, Django.set_many  # type: ignore[method-assign]

    return {"with": (ours, timed(first_reads, cache.clear)),
            "without": (djangos, timed(first_reads, cache.clear))}


def copy() -> dict[str, tuple[Callable[[], None], Side]]:
    """records.copying's COPY (copy_rows) against the ORM's bulk_create, on an
    import's games/s: each request is one file of 100 new rounds through the import service.
    The figure printed per "request" is seconds per 100 games."""
    from records.copying import CopyQuerySet

    own = CopyQuerySet.copy_rows

    def rows(self, rows):  # type: ignore[no-untyped-def]
        return [obj.pk for obj in self.bulk_create([self.model(**row) for row in rows])]

    def ours() -> None:
        CopyQuerySet.copy_rows = own  # type: ignore[method-assign]

    def orms() -> None:
        CopyQuerySet.copy_rows = rows  # type: ignore[method-assign]

    one_file = _importer()
    return {"with": (ours, timed(one_file)), "without": (orms, timed(one_file))}


def _importer() -> Callable[[], None]:
    """One file of 100 rounds never imported before, through the import service."""
    import fourcolor
    from records.services import import_records

    sys.path.insert(1, str(HERE))
    from _common import mixed_records

    salt = f"speed-layers-{os.getpid()}-{time.time()}"
    files = iter(range(10**6))

    def one_file() -> None:
        start = next(files) * 100
        text = "\n".join(fourcolor.write_fcn(record) for ruleset in ("classic",)
                         for record in mixed_records(ruleset, 100, start=start, salt=salt))
        report = import_records(text)
        if report.stored != 100:
            raise SystemExit(f"stored {report.stored} of 100")
    return one_file


CASES = {"game_rows": game_rows, "db_cache": db_cache, "copy": copy, "pages": pages}

if __name__ == "__main__":
    main()
