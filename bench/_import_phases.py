"""Where an import's time goes: `bench/import_archive.py --profile`.

The import's own functions are wrapped with wall-clock timers (inclusive; each row says what it
includes), then the import runs once with the statistics hook under those timers and once more
under cProfile (its top calls by own time). The engine's split between validating and counting
the facts is the difference of the passes `check_record` and `check_record(facts=True)` of the
main table: timing each ply's observer call would cost more than it measures.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# (label, module, attribute): wrapped while the timed import runs. Inclusive times: a phase
# below another (indented) is part of it.
PHASES: tuple[tuple[str, str, str], ...] = (
    ("validate + facts (fourcolor.check_record(facts=True))", "fourcolor", "check_record"),
    ("derive: canonical text + hash + game columns", "records.services.storing",
     "derive_game_fields"),
    ("derive: seat rows", "records.services.storing", "derive_seat_fields"),
    ("store batches (one transaction each, commit included)", "records.services.storing",
     "_store_records"),
    ("  game rows (dicts)", "records.services.storing", "game_rows"),
    ("  seat rows (dicts)", "records.services.storing", "seat_rows"),
    ("  COPY (per table, the hook's below; rows sent, the commit waits for the rest)",
     "records.models", "_copy"),
    ("  players, matches (look-ups, inserts)", "records.services.storing", "_get_or_create"),
    ("  content hashes already stored (SELECT)", "records.services.storing", "_stored_hashes"),
    ("statistics hook (games_stored_batch receivers)", "records.services.importing",
     "_announce_stored"),
    ("  totals", "ratings.totals", "add_games"),
    ("  rating replay", "ratings.services", "rate_from"),
)


@contextmanager
def timers(spent: dict[str, float]) -> Iterator[None]:
    import importlib

    saved = []
    for label, module_name, attr in PHASES:
        module = importlib.import_module(module_name)
        original = getattr(module, attr, None)
        if original is None:
            continue
        saved.append((module, attr, original))
        setattr(module, attr, _timed(original, label, spent))
    try:
        yield
    finally:
        for module, attr, original in reversed(saved):
            setattr(module, attr, original)


def _timed(fn: Callable[..., Any], label: str, spent: dict[str, float]) -> Callable[..., Any]:
    clock = time.perf_counter
    per_table = fn.__name__ == "_copy"  # _copy(conn, meta, fields, rows)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            key = f"    COPY {args[1].db_table}" if per_table else label
            spent[key] = spent.get(key, 0.0) + clock() - t0

    return wrapper


def profile_import(path: Path, check_rate: float, server: str, fresh: Callable[[], None]) -> str:
    """Two more imports with the hook into fresh databases: one timed per phase, one under
    cProfile. Returns the report's text."""
    from _common import table
    from import_archive import timed_import

    spent: dict[str, float] = {}
    cpu0 = time.process_time()
    with timers(spent):
        report, elapsed = timed_import(path, announce=True)
    cpu = time.process_time() - cpu0
    games = report.total
    labels = []
    for label, _, attr in PHASES:
        labels.append(label)
        if attr == "_copy":
            labels += sorted(key for key in spent if key.startswith("    COPY "))
    rows = [
        [label, f"{spent.get(label, 0.0):.2f}", f"{spent.get(label, 0.0) / games * 1e3:.3f}"]
        for label in labels
        if label in spent or label.endswith("the commit waits for the rest)")
    ]
    accounted = sum(spent.get(label, 0.0) for label, _, _ in PHASES if not label.startswith(" "))
    rows.append(["the rest (reading the file, reports, batching)",
                 f"{elapsed - accounted:.2f}", f"{(elapsed - accounted) / games * 1e3:.3f}"])
    rows.append(["the whole import (wall)", f"{elapsed:.2f}", f"{elapsed / games * 1e3:.3f}"])
    rows.append(["  of which this process's CPU", f"{cpu:.2f}", f"{cpu / games * 1e3:.3f}"])
    rows.append(["check_record alone, for comparison", f"{games / check_rate:.2f}",
                 f"{1e3 / check_rate:.3f}"])
    out = [f"Phases of one import with the statistics hook, {games:,} rounds (timers):", "",
           table(["phase", "s", "ms per game"], rows)]
    fresh()
    profiler = cProfile.Profile()
    profiler.enable()
    timed_import(path, announce=True)
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(25)
    out += ["", "cProfile of one more import (top 25 by own time):", text.getvalue()]
    return "\n".join(out)
