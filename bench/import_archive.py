"""Archive import benchmark: generated rounds imported into PostgreSQL through
`records.services.import_records`, beside `check_record`'s rate on the same file in the same
run, with and without the statistics hook, and the import's peak memory for two file sizes.

    .venv/bin/python bench/import_archive.py [--rounds 10000] [--memory-sizes 10000,100000]

The file (bot rounds, both rulesets, 2-4 players, matches; round i the same in every file) is
cached under var/bench/. The ratios to `check_record` (the mean of a rate before and after the
imports) are printed with their goals; the statistics both ways must end equal. Memory is each
child's VmHWM after setup and after the import (not ru_maxrss, which survives exec on Linux).
Method and figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

from _common import header, table  # noqa: E402

DB_NAME = "fourcolor_bench_import"  # the default of --database
CACHE = _ROOT / "var" / "bench"
RULESETS = ("classic", "bga")
ROUNDS_PER_MATCH = 4
_NAMES = (
    "Nguyễn Văn An", "Trần Thị Bích", "Lê Hoàng", "Phạm Minh Châu", "Võ Thanh Tùng", "Đặng Thu Hà",
    "Bùi Quốc Bảo", "Huỳnh Mai", "陳美玲", "林志強", "黃淑芬", "張偉", "王小明", "李嘉欣",
    "Marie Dupont", "Jean Lefèvre", "Anna Schmidt", "Jörg Müller", "Sofía García", "Łukasz Nowak",
    "Иван Петров", "Ольга Смирнова", "ไพโรจน์", "สมศรี",
)
NAME_POOL = tuple(f"{name} {n}" if n else name for n in range(10) for name in _NAMES)


def round_text(index: int) -> str:
    """Round `index`: its match (four consecutive rounds) fixes ruleset, players and names."""
    from fourcolor.generate import generate_record
    from fourcolor.notation import write_fcn

    block, number = divmod(index, ROUNDS_PER_MATCH)
    rng = random.Random(f"import-archive:{block}")
    ruleset = RULESETS[block % 2]
    players = rng.choice((2, 3, 4))
    names = rng.sample(NAME_POOL, players)
    day = 1 + block % 28
    tags = {
        "Event": "Import benchmark",
        "Date": f"2026.{1 + block % 12:02d}.{day:02d}",
        "Match": f"bench-{block}",
        "Round": str(number + 1),
    }
    dealer = 1 + (number % players)
    return write_fcn(
        generate_record(
            ruleset, players, index, dealer=dealer, bot="greedy", names=names, tags=tags
        )
    )


def _texts(bounds: tuple[int, int]) -> list[str]:
    return [round_text(i) for i in range(*bounds)]


def cache_path(size: int) -> Path:
    return CACHE / f"import_{size}.fcn"


def generate_file(size: int, workers: int) -> tuple[Path, float | None]:
    """The cached file of `size` rounds (written when missing); the generation rate in
    rounds/s when it had to be written, else None. A smaller cached file is reused as the
    start (round i is the same in every file)."""
    path = cache_path(size)
    if path.exists():
        return path, None
    CACHE.mkdir(parents=True, exist_ok=True)
    smaller = sorted(
        (n for n in (int(p.stem.split("_")[1]) for p in CACHE.glob("import_*.fcn")) if n < size),
        reverse=True,
    )
    start = smaller[0] if smaller else 0
    tmp = path.with_suffix(".tmp")
    t0 = time.perf_counter()
    with tmp.open("w", encoding="utf-8", newline="\n") as out:
        if start:
            out.write(cache_path(start).read_text(encoding="utf-8"))
        chunks = [(lo, min(lo + 500, size)) for lo in range(start, size, 500)]
        with multiprocessing.Pool(workers) as pool:
            for done, texts in enumerate(pool.imap(_texts, chunks), start=1):
                for text in texts:
                    out.write(text)
                    out.write("\n")
                print(
                    f"  {path.name}: {chunks[done - 1][1]:,} / {size:,} rounds",
                    end="\r",
                    file=sys.stderr,
                )
    print(file=sys.stderr)
    tmp.replace(path)
    elapsed = time.perf_counter() - t0
    return path, (size - start) / elapsed


def recreate_database(server: str) -> None:
    from scripts.served import create_database

    create_database(f"{server}/{DB_NAME}")


def setup_django(server: str) -> None:
    """Django on the fresh benchmark database, migrated; DEBUG off (no query log)."""
    os.environ["DATABASE_URL"] = f"{server}/{DB_NAME}"
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-import-archive-not-secret-" + "x" * 32)
    os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    assert not settings.DEBUG, "DEBUG must be off: the query log would grow with the file"
    call_command("migrate", verbosity=0)


def fresh_database(server: str) -> None:
    """Drop and create the benchmark database under a running Django, and migrate it."""
    from django.core.management import call_command
    from django.db import connections

    connections.close_all()
    recreate_database(server)
    call_command("migrate", verbosity=0)


def validation_rates(
    path: Path, derive: Any | None, *, only_check: bool = False
) -> dict[str, tuple[int, float]]:
    """Games and games/s of the passes over the file (read as `fourcolor validate` reads it):
    `check_record` (the reference), then unless `only_check` with the facts counted in its
    pass (the import's one replay), and that + the import's derivation (canonical text, hash,
    rows; when `derive` is given)."""
    import fourcolor

    def run(extra: Any, facts: bool = False) -> tuple[int, float]:
        games = 0
        t0 = time.perf_counter()
        with path.open(encoding="utf-8", newline="") as f:
            for rt in fourcolor.iter_records(f):
                check = fourcolor.check_record(
                    rt.text, rt.line, oversize=rt.oversize, facts=facts
                )
                if check.error is not None:
                    raise SystemExit(f"generated record {rt.index} refused: {check.error}")
                if extra is not None:
                    extra(check)
                games += 1
        return games, games / (time.perf_counter() - t0)

    out = {"check_record": run(None)}
    if only_check:
        return out
    out["check_record(facts=True)"] = run(None, facts=True)
    if derive is not None:
        out["check_record(facts=True) + import derivation"] = run(derive, facts=True)
    return out


def timed_import(path: Path, *, announce: bool = True) -> tuple[Any, float]:
    """`import_records` of the file; (report, wall seconds). `announce` False: without the
    statistics hook (the games are stored and left for the statistics job)."""
    from records.models import Game
    from records.services import import_records

    t0 = time.perf_counter()
    with path.open("rb") as f:
        report = import_records(f, uploader=None, announce=announce)
    elapsed = time.perf_counter() - t0
    stored = Game.objects.count()
    if report.problems or stored != report.total:
        raise SystemExit(
            f"import incomplete: {report.total} records, {stored} stored, "
            f"problems {report.problems[:3]}"
        )
    return report, elapsed


def derived_digest() -> str:
    """The statistics an import leaves (counted games, ratings, totals) as one hash, players by
    name and games by content (ids follow the batches, which follow the clock): the import with
    the hook and the one without it + the statistics job must agree."""
    import hashlib

    from ratings.models import CountedGame, PairTotals, PlayerRating, PlayerTotals
    from ratings.services import games_due

    if games_due():
        raise SystemExit(f"{games_due()} stored games not counted after the statistics")
    h = hashlib.sha256()

    def columns(model: Any, *keys: str) -> list[str]:
        named = {key.split("__")[0] + "_id" for key in keys}
        return [*keys, *(f.attname for f in model._meta.concrete_fields
                         if f.attname not in named and f.attname != "id")]

    for model, fields in (
        (CountedGame, ("game__content_hash", "ruleset", "order_key", "rated")),
        (PlayerRating, ("player__name_key", "ruleset", "mu", "sigma", "ordinal", "rounds")),
        (PlayerTotals, columns(PlayerTotals, "player__name_key")),
        (PairTotals, columns(PairTotals, "player__name_key", "opponent__name_key")),
    ):
        for row in sorted(map(repr, model.objects.values_list(*fields))):
            h.update(row.encode())
    return h.hexdigest()[:16]


def peak_rss_kib() -> int:
    """This process image's peak resident set size in KiB (VmHWM), else ru_maxrss."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def memory_child(server: str, path: Path) -> None:
    """Run in a child process: prints 'rss_setup_kib rss_end_kib games seconds'."""
    recreate_database(server)
    setup_django(server)
    before = peak_rss_kib()
    report, elapsed = timed_import(path)
    after = peak_rss_kib()
    print(f"{before} {after} {report.total} {elapsed:.3f}")


def measure_memory(server: str, path: Path) -> tuple[int, int, int, float]:
    result = subprocess.run(
        [sys.executable, __file__, "--memory-child", str(path), "--server", server,
         "--database", DB_NAME],
        check=True,
        capture_output=True,
        text=True,
    )
    before, after, games, seconds = result.stdout.split()[-4:]
    return int(before), int(after), int(games), float(seconds)


def main() -> int:
    global DB_NAME
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=10_000)
    p.add_argument("--memory-sizes", default="10000,100000")
    p.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    p.add_argument("--database", default=DB_NAME, help="dropped and created for each run")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--memory-child", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    DB_NAME = args.database
    if args.memory_child is not None:
        memory_child(args.server, args.memory_child)
        return 0

    print(header("Archive import benchmark (bench/import_archive.py)"))
    print(f"command: {' '.join([Path(sys.executable).name, *sys.argv])}")

    path, rate = generate_file(args.rounds, args.workers)
    print(
        f"file: {path.relative_to(_ROOT)} ({path.stat().st_size / 1e6:.1f} MB, "
        f"{args.rounds:,} rounds; {'generated' if rate else 'cached'})"
    )

    recreate_database(args.server)
    setup_django(args.server)
    from ratings.services import catch_up
    from records.services import derive_game_fields, derive_seat_fields

    before = validation_rates(path, lambda c: (derive_game_fields(c), derive_seat_fields(c)))
    # Without the statistics hook (as an upload job runs it), then the statistics job that
    # counts those games afterwards; then, on a fresh database again, with the hook.
    fresh_database(args.server)
    plain, plain_s = timed_import(path, announce=False)
    t0 = time.perf_counter()
    catch_up()
    catch_up_s = time.perf_counter() - t0
    digest_job = derived_digest()
    fresh_database(args.server)
    hooked, hooked_s = timed_import(path, announce=True)
    digest_hook = derived_digest()
    after = validation_rates(path, None, only_check=True)
    # The reference: check_record's rate before and after the imports (the load drifts).
    check_rate = 2 / (1 / before["check_record"][1] + 1 / after["check_record"][1])
    runs = {
        "import_records, statistics hook off (announce=False)": (plain.total, plain_s),
        "  + the statistics job afterwards (catch_up)": (plain.total, plain_s + catch_up_s),
        "import_records with the statistics hook": (hooked.total, hooked_s),
    }
    rows = [
        [name, f"{games:,}", f"{games / r:.1f}", f"{r:,.0f}", f"{r / check_rate:.2f}"]
        for name, (games, r) in [
            *((f"{k} (before the imports)", v) for k, v in before.items()),
            ("check_record (after the imports)", after["check_record"]),
        ]
    ]
    rows += [
        [name, f"{games:,}", f"{s:.1f}", f"{games / s:,.0f}", f"{games / s / check_rate:.2f}"]
        for name, (games, s) in runs.items()
    ]
    print()
    print(table(["pass", "games", "s", "games/s", "÷ check_record"], rows))
    print(f"\ncheck_record (mean of before and after): {check_rate:,.0f} games/s")
    ratio_plain = plain.total / plain_s / check_rate
    ratio_hook = hooked.total / hooked_s / check_rate
    print(
        f"import (one process) without the statistics hook: {ratio_plain:.2f}x check_record "
        f"(goal >= 0.5: {'met' if ratio_plain >= 0.5 else 'NOT met'})\n"
        f"import (one process) with the statistics hook: {ratio_hook:.2f}x check_record "
        f"(goal >= 0.3: {'met' if ratio_hook >= 0.3 else 'NOT met'})"
    )
    print(
        f"statistics after the imports equal: {digest_job == digest_hook} "
        f"({digest_job} / {digest_hook}: the statistics job after the import, the hook)"
    )
    # Memory: each size in its own process on a fresh database.
    sizes = [int(s) for s in args.memory_sizes.split(",") if s]
    mem_rows = []
    for size in sizes:
        size_path, _ = generate_file(size, args.workers)
        before, after, games, seconds = measure_memory(args.server, size_path)
        mem_rows.append([f"{games:,}", f"{size_path.stat().st_size / 1e6:.0f}",
                         f"{before / 1024:.1f}", f"{after / 1024:.1f}",
                         f"{(after - before) / 1024:.1f}", f"{games / seconds:,.0f}"])
        print(
            f"memory, {games:,} rounds: peak RSS {before / 1024:.1f} MiB after setup, "
            f"{after / 1024:.1f} MiB after import",
            flush=True,
        )
    print()
    print(
        table(
            [
                "rounds",
                "file MB",
                "peak RSS after setup MiB",
                "peak RSS after import MiB",
                "growth MiB",
                "games/s",
            ],
            mem_rows,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
