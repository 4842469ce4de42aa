"""Streaming a multi-record FCN file: parse + validate speed and peak memory.

    .venv/bin/python bench/notation_file.py [--sizes 1000,10000,50000] [--dir DIR --keep]

Each file (seeded mixed rounds, each a prefix of the next) is read as the importer reads it
(`iter_records` + `check_record`, counters only): a timed pass, then a pass under
`tracemalloc` (see `traced_working_set`). A streaming reader's peak depends on the largest
record: larger files may peak at 1.5 times the smallest's. Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from _common import header, mixed_record, table

from fourcolor import check_record
from fourcolor.notation import iter_records, write_fcn

TARGET_US_PER_EVENT = 5.0
WARMUP_RECORDS = 2_000
PEAK_RATIO_LIMIT = 1.5
RULESETS = ("classic", "bga")


def record_text(index: int) -> str:
    """Record `index` of the file: rulesets alternate, each with its own seeded stream."""
    return write_fcn(mixed_record(RULESETS[index % 2], index // 2, salt="notation-file"))


def write_files(sizes: Sequence[int], folder: Path, workers: int) -> dict[int, Path]:
    """One file per size, each a prefix of the next, written while the rounds are generated."""
    paths = {n: folder / f"rounds-{n}.fcn" for n in sizes}
    handles = {n: paths[n].open("w", encoding="utf-8", newline="\n") for n in sizes}
    try:
        with multiprocessing.Pool(workers) as pool:
            texts = pool.imap(record_text, range(max(sizes)), chunksize=200)
            for index, text in enumerate(texts):
                for n, handle in handles.items():
                    if index < n:
                        if index:
                            handle.write("\n")
                        handle.write(text)
    finally:
        for handle in handles.values():
            handle.close()
    return paths


def stream_check(path: Path, limit: int | None = None) -> tuple[int, int, int]:
    """Records, events and the largest record (characters) of a file, or of its first `limit`
    records; exits on a refusal (every generated record is legal)."""
    records = events = largest = 0
    with path.open(encoding="utf-8") as f:
        for rt in iter_records(f):
            if records == limit:
                break
            check = check_record(rt.text, rt.line, oversize=rt.oversize)
            if check.record is None or check.error is not None:
                raise SystemExit(
                    f"{path}: record {rt.index} (line {rt.line}) refused: {check.error}"
                )
            records += 1
            events += len(check.record.events)
            largest = max(largest, len(rt.text))
    return records, events, largest


def timed(path: Path) -> tuple[float, float, int, int, int]:
    """CPU and wall seconds of a pass (the machine is shared: targets are judged on CPU time,
    which does not count the time other processes held the cores), and what it read."""
    c0, w0 = time.process_time(), time.perf_counter()
    records, events, largest = stream_check(path)
    return time.process_time() - c0, time.perf_counter() - w0, records, events, largest


def traced_working_set(path: Path, warmup: Path) -> tuple[int, int]:
    """Peak and left-over bytes of a pass under tracemalloc, CPython's free lists aside.

    CPython keeps freed tuples, lists, dicts... on free lists (up to 2,000 tuples of each
    size), and tracemalloc counts a parked object as still allocated; every full garbage
    collection empties the lists. Traced naively, the peak therefore climbs by however much
    the lists refill, by chance of when collections fall. So: an untraced warm-up builds the
    engine's tables and caches, `fill_free_lists` fills the lists to their caps, and the
    collector stays off during the traced pass so nothing empties them. The engine makes no
    reference cycles per record (which the collector would be needed for); if it ever did,
    they would pile up here and show as a peak growing with the length.
    """
    gc.collect()
    gc.disable()
    try:
        stream_check(warmup, limit=WARMUP_RECORDS)
        fill_free_lists()
        tracemalloc.start()
        try:
            stream_check(path)
            current, peak = tracemalloc.get_traced_memory()
            return peak, current
        finally:
            tracemalloc.stop()
    finally:
        gc.enable()


def fill_free_lists() -> None:
    """Fill CPython 3.11's free lists to their caps with untraced objects: 2,000 tuples of
    each size up to 20, 80 lists and 80 dicts. A warm-up alone leaves some lists part-filled
    (the 4-tuples `best_split` iterates with, for one), and they then fill slowly with traced
    objects: a bounded creep that looks like growth with the length."""
    hold: list[object] = [tuple([None] * n) for n in range(1, 21) for _ in range(2_000)]
    hold += [[None] for _ in range(80)] + [{0: None} for _ in range(80)]
    del hold


def progress(message: str) -> None:
    print(f"  ... {message}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        default="1000,10000",
        help="record counts, comma-separated (default 1000,10000; add 50000 for the long run)",
    )
    parser.add_argument("--dir", type=Path, help="where to write the files (default: a temp dir)")
    parser.add_argument("--keep", action="store_true", help="keep the files afterwards")
    parser.add_argument("--workers", type=int, default=2, help="processes generating rounds")
    args = parser.parse_args(argv)
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        parser.error("--sizes takes record counts such as 1000,10000")
    if not sizes or sizes[0] < 1:
        parser.error("--sizes needs positive record counts")
    folder = args.dir or Path(tempfile.mkdtemp(prefix="fourcolor-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    print(header("fourcolor FCN file benchmark"))
    try:
        t0 = time.perf_counter()
        paths = write_files(sizes, folder, max(1, args.workers))
        print(
            f"files: {', '.join(f'{n:,}' for n in sizes)} records, each a prefix of the next, "
            f"written in {time.perf_counter() - t0:.0f} s ({args.workers} generating processes)"
        )
        # Warm-up, untraced: builds the lazily made split tables (about 0.5 MB, once per
        # process) so that no traced pass counts them.
        stream_check(paths[sizes[-1]], limit=WARMUP_RECORDS)
        rows = []
        peaks: dict[int, int] = {}
        per_event: dict[int, float] = {}
        for n in sizes:
            seconds, wall, records, events, largest = timed(paths[n])
            if records != n:
                raise SystemExit(f"{paths[n]}: read {records} records, wrote {n}")
            progress(f"{n:,} records: {wall:.1f} s; now the traced passes")
            t0 = time.perf_counter()
            peaks[n], current = traced_working_set(paths[n], paths[sizes[-1]])
            traced_seconds = time.perf_counter() - t0
            per_event[n] = seconds / events * 1e6
            rows.append(
                (
                    f"{n:,}",
                    f"{paths[n].stat().st_size / 2**20:.1f} MiB",
                    f"{events:,}",
                    f"{seconds:.2f} s (wall {wall:.2f})",
                    f"{per_event[n]:.2f}",
                    f"{largest:,}",
                    f"{peaks[n] / 1024:,.0f} KiB",
                    f"{current / 1024:,.0f} KiB",
                    f"{traced_seconds:.0f} s",
                )
            )
        print()
        print(
            table(
                (
                    "records",
                    "file",
                    "events",
                    "parse+validate, CPU",
                    "µs/event",
                    "largest record (chars)",
                    "peak",
                    "left at end",
                    "traced passes",
                ),
                rows,
                right=0,
            )
        )
        checks = []
        ten = 10_000 if 10_000 in per_event else max(per_event)
        checks.append(
            (
                f"parse + validate, {ten:,}-record file",
                f"{per_event[ten]:.2f} µs/event",
                f"≤ {TARGET_US_PER_EVENT:.0f} µs/event",
                "PASS" if per_event[ten] <= TARGET_US_PER_EVENT else "FAIL",
            )
        )
        if len(sizes) > 1:
            ratio = max(peaks[n] for n in sizes[1:]) / peaks[sizes[0]]
            checks.append(
                (
                    f"peak memory, larger files vs the {sizes[0]:,}-record file",
                    f"{ratio:.2f}x",
                    f"≤ {PEAK_RATIO_LIMIT}x (independent of length)",
                    "PASS" if ratio <= PEAK_RATIO_LIMIT else "FAIL",
                )
            )
        print()
        print(table(("check", "figure", "target", "result"), checks, right=4))
        print(f"\n{time.perf_counter() - started:.0f} s in all")
        return 0 if all(c[-1] == "PASS" for c in checks) else 1
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
