"""Statistics benchmark: a player's statistics page and the leaderboards on PostgreSQL
archives of 1,000, 10,000 and 100,000 rounds, with query counts (figures for
docs/performance.md).

    .venv/bin/python bench/stats.py [--sizes 1000,10000,100000] [--pool 500] [--workers 2]
        [--server postgres://postgres@127.0.0.1:5432] [--repeat 60]

Each size gets its own database, ``fourcolor_bench_stats_<size>``, dropped and created again.
Rounds are real: seeded bot matches (2-4 players drawn from a pool of `--pool` names, both
rulesets, 1-6 rounds per match, dates spread over two years), each record checked by the
engine and turned into `Game` / `GameSeat` rows by the import's own `derive_game_fields` /
`derive_seat_fields`, then bulk-inserted (the import's transaction per record would make
100,000 rounds take far longer; its hook is timed apart at the end). One generated stream fills
all the databases: the 1,000-round archive is the first 1,000 rounds of the 100,000-round one.
The derived tables are then built with `recompute_stats`, as after a bulk load.

The calls are timed interleaved (one call on each archive in turn, over and over), so that the
load of a shared machine weighs on every size alike; the ratio of medians is the figure.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

from _common import machine_line, table  # noqa: E402

START_DATE = datetime.date(2025, 1, 1)
SPAN_DAYS = 730
MIN_ROUNDS = 5


# ----------------------------------------------------------------------------- database


def recreate_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f"CREATE DATABASE \"{name}\" ENCODING 'UTF8' TEMPLATE template0")


def setup_django(server: str, names: dict[int, str]) -> None:
    """Django with one database alias per size (`default` is switched with `use`)."""
    os.environ["DATABASE_URL"] = f"{server}/{names[min(names)]}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "false")  # no query log kept in memory
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production-use-0123456789")
    import django
    from django.conf import settings

    django.setup()
    from django.db import connections

    for size, name in names.items():
        settings.DATABASES[f"s{size}"] = {**settings.DATABASES["default"], "NAME": name}
    connections.settings = connections.configure_settings(settings.DATABASES)


def use(size: int) -> None:
    """Point Django's default connection at the archive of `size` rounds."""
    from django.db import connections

    connections["default"] = connections[f"s{size}"]


# ----------------------------------------------------------------------------- archive


def match_specs(pool: int, seed: int) -> Iterator[dict[str, Any]]:
    """An endless, seeded stream of matches (each a dict of generation parameters)."""
    rng = random.Random(f"bench-stats:{seed}")
    number = 0
    while True:
        players = rng.choice((2, 3, 3, 4, 4, 4))
        yield {
            "number": number,
            "ruleset": rng.choice(("classic", "bga")),
            "players": players,
            "names": [f"Player {i:04d}" for i in rng.sample(range(pool), players)],
            "rounds": rng.randint(1, 6),
            "bot": [rng.choice(("greedy", "random")) for _ in range(players)],
        }
        number += 1


def _generate(specs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Worker: play the matches and derive their rows exactly as the import does."""
    import fourcolor
    from fourcolor.generate import generate_record
    from fourcolor.match import is_below_threshold, next_dealer
    from records.services import derive_game_fields, derive_seat_fields

    out = []
    for spec in specs:
        tag = f"bench-{spec['number']:07d}"
        rounds = []
        dealer = 1
        for number in range(1, spec["rounds"] + 1):
            tags = {"Date": spec["date"], "Match": tag, "Round": str(number)}
            record = generate_record(
                spec["ruleset"], spec["players"], spec["number"] * 10 + number, dealer=dealer,
                bot=spec["bot"], names=spec["names"], tags=tags,
            )
            text = fourcolor.write_fcn(record)
            check = fourcolor.check_record(text)
            assert check.ok and check.game is not None, check.error
            rounds.append((derive_game_fields(check), derive_seat_fields(check), text))
            game = check.game
            dealer = next_dealer(game.finish.outcome, game.finish.seat, dealer, spec["players"],
                                 is_below_threshold(game))
        out.append({"tag": tag, "rounds": rounds})
    return out


def build(stream: Iterator[dict[str, Any]], sizes: list[int], workers: int,
          players: dict[str, int]) -> dict[int, float]:
    """Generate max(sizes) rounds and insert each into every archive still short of its size
    (the last match of an archive may be cut); returns the seconds spent per archive."""
    from django.db import connections
    from django.utils import timezone

    from records.models import Game, GameSeat, Match, match_key, player_key

    total = max(sizes)
    total_matches = total * 2 // 7 + 1  # ~3.5 rounds per match: the dates span two years
    specs: list[dict[str, Any]] = []
    planned = 0
    while planned < total:
        spec = next(stream)
        spec["rounds"] = min(spec["rounds"], total - planned)
        # Dates grow with the match number: later rounds are newer, as in a live archive.
        day = START_DATE + datetime.timedelta(days=SPAN_DAYS * spec["number"] // total_matches)
        spec["date"] = day.strftime("%Y.%m.%d")
        planned += spec["rounds"]
        specs.append(spec)
    chunks = [specs[i : i + 40] for i in range(0, len(specs), 40)]
    have = dict.fromkeys(sizes, 0)
    spent = dict.fromkeys(sizes, 0.0)
    started = time.perf_counter()
    for size in sizes:
        connections[f"s{size}"].close()  # the forked workers must not share a connection
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for matches in pool.imap(_generate, chunks):
            now = timezone.now()
            for size in sizes:
                rounds = [r for m in matches for r in m["rounds"]][: size - have[size]]
                if not rounds:
                    continue
                alias = f"s{size}"
                tags = sorted({fields["tags"]["Match"] for fields, _, _ in rounds})
                stored = {
                    m.tag: m for m in Match.objects.using(alias).bulk_create(
                        Match(tag=t, key=match_key(t)) for t in tags
                    )
                }
                games = [
                    Game(**fields, match=stored[fields["tags"]["Match"]], original_text=text,
                         uploaded_at=now, validated_at=now)
                    for fields, _, text in rounds
                ]
                Game.objects.using(alias).copy_create(games, batch_size=1000)
                GameSeat.objects.using(alias).copy_create(
                    (
                        GameSeat(game=game, player_id=players[player_key(row["name"])],
                                 date=game.date, **row)
                        for game, (_, rows, _) in zip(games, rounds, strict=True)
                        for row in rows
                    ),
                    batch_size=2000,
                )
                have[size] += len(games)
                spent[size] = time.perf_counter() - started
            print(f"\r  {have[max(sizes)]:,}/{total:,} rounds", end="", file=sys.stderr,
                  flush=True)
    print(file=sys.stderr)
    return spent


# ----------------------------------------------------------------------------- timing

Call = Callable[[Any], Any]


def scenarios(
    sample: list[int], pairs: list[tuple[int, int]], since: datetime.date
) -> dict[str, tuple[Call, list[Any]]]:
    from ratings import stats
    from ratings.global_stats import global_stats
    from ratings.leaderboards import leaderboard
    from ratings.history import rating_history

    return {
        "player page (all rounds)": (lambda p: stats.player_stats(p), sample),
        "player page (classic, 4 players)": (
            lambda p: stats.player_stats(p, ruleset="classic", players=4), sample),
        "leaderboard: rating (classic)": (
            lambda _: leaderboard("rating", ruleset="classic", min_rounds=MIN_ROUNDS),
            [None]),
        "leaderboard: win rate (all)": (
            lambda _: leaderboard("win_rate", min_rounds=MIN_ROUNDS), [None]),
        "leaderboard: net per round (bga, 4p)": (
            lambda _: leaderboard("net_per_round", ruleset="bga", players=4,
                                        min_rounds=MIN_ROUNDS), [None]),
        "head-to-head": (lambda ab: stats.head_to_head(*ab), pairs),
        "rating history (last 50)": (lambda p: rating_history(p, "classic", limit=50), sample),
        "player page, newer half (seats)": (lambda p: stats.player_stats(p, since=since), sample),
        "leaderboard: win rate, newer half (seats)": (
            lambda _: leaderboard("win_rate", min_rounds=MIN_ROUNDS, since=since), [None]),
        "global figures (seats)": (lambda _: global_stats(), [None]),
    }


# The rows the bound applies to (time at the largest size <= 1.5x the smallest).
BOUNDED = (
    "player page (all rounds)", "player page (classic, 4 players)",
    "leaderboard: rating (classic)", "leaderboard: win rate (all)",
    "leaderboard: net per round (bga, 4p)", "head-to-head",
)


def workload(size: int) -> dict[str, tuple[Call, list[Any]]]:
    """The calls to time on one archive, with sampled players and their usual opponents."""
    from django.db.models import Max, Min

    from ratings.models import PairTotals
    from records.models import Game, GameSeat

    use(size)
    rng = random.Random(size)
    active = sorted(set(GameSeat.objects.order_by().values_list("player_id", flat=True)))
    sample = rng.sample(active, min(40, len(active)))
    pairs = [
        (p, PairTotals.objects.filter(player_id=p, ruleset="", players=0)
         .order_by("-rounds", "opponent_id").values_list("opponent_id", flat=True)[0])
        for p in sample
    ]
    span = Game.objects.aggregate(first=Min("date"), last=Max("date"))
    since = span["first"] + (span["last"] - span["first"]) / 2
    return scenarios(sample, pairs, since)


def measure(sizes: list[int], repeat: int) -> dict[str, dict[int, tuple[float, float, int]]]:
    """Median and p90 (ms) and the query count of each call on each archive, the archives
    taking turns call by call."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    work = {size: workload(size) for size in sizes}
    out: dict[str, dict[int, tuple[float, float, int]]] = {}
    for name in work[sizes[0]]:
        queries: dict[int, int] = {}
        times: dict[int, list[float]] = {size: [] for size in sizes}
        for size in sizes:
            use(size)
            call, args = work[size][name]
            for arg in args[:3]:
                call(arg)  # warm the caches
            with CaptureQueriesContext(connection) as captured:
                call(args[0])
            queries[size] = len(captured)
        for i in range(repeat):
            for size in sizes:
                use(size)
                call, args = work[size][name]
                arg = args[i % len(args)]
                started = time.perf_counter_ns()
                call(arg)
                times[size].append((time.perf_counter_ns() - started) / 1e6)
        out[name] = {}
        for size in sizes:
            ordered = sorted(times[size])
            out[name][size] = (
                statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))], queries[size]
            )
        print(f"  measured {name}", file=sys.stderr)
    return out


def incremental_cost(stream: Iterator[dict[str, Any]], count: int) -> dict[str, float]:
    """Import `count` new rounds through the real import service, each followed by the hook;
    then one classic round dated before the whole archive: the hook defers its replay when it
    is longer than RATINGS_REPLAY_LIMIT, and the scheduled pass (`rate_pending`) does it."""
    import fourcolor
    from fourcolor.generate import generate_record
    from ratings.services import on_games_stored, rate_pending
    from records.models import Game
    from records.services import import_records

    spec = next(stream)
    newest = (START_DATE + datetime.timedelta(days=SPAN_DAYS)).strftime("%Y.%m.%d")
    base = 9_000_000 + Game.objects.count()  # fresh seeds when run again on the same archive
    hook = []
    for i in range(count):
        record = generate_record(spec["ruleset"], spec["players"], base + i,
                                 names=spec["names"], tags={"Date": newest})
        game_id = import_records(fourcolor.write_fcn(record)).results[0].game_id
        started = time.perf_counter()
        on_games_stored([game_id])
        hook.append((time.perf_counter() - started) * 1000)
    names = (spec["names"] + ["Old 1", "Old 2", "Old 3"])[:4]
    old = generate_record("classic", 4, base + count, names=names, tags={"Date": "2024.12.31"})
    game_id = import_records(fourcolor.write_fcn(old)).results[0].game_id
    started = time.perf_counter()
    report = on_games_stored([game_id])
    old_hook = time.perf_counter() - started
    started = time.perf_counter()
    passed = rate_pending()
    return {
        "hook median ms": statistics.median(hook),
        "old hook s": old_hook,
        "old deferred": float(bool(report.deferred)),
        "old replayed": float(report.rated + passed.rated),
        "pass s": time.perf_counter() - started,
    }


# ----------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--pool", type=int, default=500, help="distinct player names")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=60, help="timed calls per figure")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--reuse", action="store_true",
                        help="measure the archives a previous run built (no build)")
    args = parser.parse_args()
    sizes = sorted(int(s) for s in args.sizes.split(","))
    names = {size: f"fourcolor_bench_stats_{size}" for size in sizes}
    if not args.reuse:
        for name in names.values():
            recreate_database(args.server, name)
    setup_django(args.server, names)

    from django.core.management import call_command
    from django.db import connection

    from ratings.services import recompute_stats
    from records.models import Player, player_key

    pool = [f"Player {i:04d}" for i in range(args.pool)]
    ids = []
    for size in sizes:
        call_command("migrate", database=f"s{size}", verbosity=0)
        if not args.reuse:
            Player.objects.using(f"s{size}").bulk_create(
                Player(name=n, name_key=player_key(n)) for n in pool
            )
        ids.append(dict(
            Player.objects.using(f"s{size}").filter(name__in=pool).values_list("name_key", "pk")
        ))
    assert all(i == ids[0] for i in ids), "player ids differ between the archives"
    stream = match_specs(args.pool, 1)
    builds = []
    if not args.reuse:
        print(f"building {max(sizes):,} rounds into {len(sizes)} archives", file=sys.stderr)
        spent = build(stream, sizes, args.workers, ids[0])
    for size in sizes if not args.reuse else []:
        use(size)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        started = time.perf_counter()
        report = recompute_stats()
        derived = time.perf_counter() - started
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        builds.append((f"{size:,}", f"{spent[size]:.0f}", f"{derived:.1f}",
                       f"{report.player_rows:,}", f"{report.pair_rows:,}", f"{report.rated:,}"))
    results = measure(sizes, args.repeat)
    use(max(sizes))
    incremental = incremental_cost(stream, 30)

    print(f"\nMachine: {machine_line()}; PostgreSQL {connection.pg_version // 10000}")
    print(f"Pool of {args.pool} players; min_rounds={MIN_ROUNDS}; {args.repeat} calls each, "
          "interleaved across the archives.\n")
    if builds:
        print(table(["rounds", "build s (cumulative)", "recompute_stats s", "player totals",
                     "pair totals", "rated rounds"], builds))
        print()
    headers = ["call"] + [f"{s:,}: median ms (p90) [queries]" for s in sizes]
    if len(sizes) > 1:
        headers.append(f"{sizes[-1]:,} / {sizes[0]:,}")
    rows = []
    for name, by_size in results.items():
        row: list[object] = [name + (" *" if name in BOUNDED else "")]
        for size in sizes:
            median, p90, queries = by_size[size]
            row.append(f"{median:.2f} ({p90:.2f}) [{queries}]")
        if len(sizes) > 1:
            row.append(f"{by_size[sizes[-1]][0] / by_size[sizes[0]][0]:.2f}x")
        rows.append(row)
    print(table(headers, rows))
    print("\n* bounded by the issue: time at the largest size <= 1.5x the smallest.")
    deferred = "deferred to the scheduled pass" if incremental["old deferred"] else "replayed"
    print(
        f"\nImport hook (on_games_stored) per new round at {max(sizes):,} rounds: "
        f"{incremental['hook median ms']:.1f} ms median. A classic round dated before the whole "
        f"archive: hook {incremental['old hook s']:.2f} s ({deferred}); "
        f"`recompute_stats --pending` re-rated {incremental['old replayed']:,.0f} rounds in "
        f"{incremental['pass s']:.1f} s."
    )
    over = [
        name for name in BOUNDED
        if len(sizes) > 1 and results[name][sizes[-1]][0] > 1.5 * results[name][sizes[0]][0]
    ]
    print(f"\nOVER THE BOUND: {', '.join(over)}" if over else "\nEvery bounded call within 1.5x.")


if __name__ == "__main__":
    main()
