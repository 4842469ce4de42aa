"""Shared helpers for the benchmark scripts: seeded mixed rounds, timing summaries, tables.

The scripts are run directly (``.venv/bin/python bench/engine.py``), so this module is imported
by its bare name: the script's folder is first on ``sys.path``.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

# Running from a checkout without `pip install -e .` still finds the engine.
_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(1, str(_ROOT))

from fourcolor.generate import RULE_BOTS, generate_record  # noqa: E402
from fourcolor.notation import Record  # noqa: E402


def mixed_record(ruleset: str, index: int, *, salt: str = "bench") -> Record:
    """Round `index` of a seeded mixed stream: 2, 3 or 4 players, any dealer, and each seat's
    bot (greedy or random) drawn from the seed, so every rule path gets exercised."""
    rng = random.Random(f"{salt}:{ruleset}:{index}")
    players = rng.choice((2, 3, 4))
    bots = [rng.choice(RULE_BOTS) for _ in range(players)]
    dealer = rng.randint(1, players)
    return generate_record(ruleset, players, index, dealer=dealer, bot=bots)


def mixed_records(
    ruleset: str, count: int, *, start: int = 0, salt: str = "bench"
) -> Iterator[Record]:
    for index in range(start, start + count):
        yield mixed_record(ruleset, index, salt=salt)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of already sorted values (nearest rank, as latency percentiles are)."""
    if not sorted_values:
        raise ValueError("no values")
    rank = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


def summary_us(ns: list[int]) -> dict[str, float]:
    """Median, p90 and p99 of per-call timings, in microseconds."""
    ordered = sorted(ns)
    return {
        "median": statistics.median(ordered) / 1000,
        "p90": quantile(ordered, 0.90) / 1000,
        "p99": quantile(ordered, 0.99) / 1000,
    }


def timer_overhead_ns(samples: int = 100_000) -> float:
    """Median cost of an empty `perf_counter_ns` pair: included in every per-call figure."""
    clock = time.perf_counter_ns
    out = []
    for _ in range(samples):
        t0 = clock()
        out.append(clock() - t0)
    return statistics.median(out)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_line() -> str:
    import os

    # The machine is shared: the load at the start says whether figures were taken on a busy
    # machine (contention inflates whole-pass times more than per-call medians).
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{cpu_model()}, {os.cpu_count()} CPUs, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}; "
        f"load average {load}"
    )


def code_state() -> str:
    """The commit the figures belong to, and whether the engine had uncommitted changes."""
    import subprocess

    def git(*args: str) -> str:
        try:
            return subprocess.run(
                ["git", *args], cwd=_ROOT, capture_output=True, text=True, timeout=10
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "fourcolor")
    return f"commit {head}" + (", fourcolor/ with uncommitted changes" if dirty else "")


def header(title: str) -> str:
    """The first lines of every script's output: what, when, where, which code."""
    return (
        f"{title}, {time.strftime('%Y-%m-%d %H:%M %Z')}\n"
        f"machine: {machine_line()}\n"
        f"code: {code_state()}"
    )


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], *, right: int = 1) -> str:
    """A plain-text table; columns from index `right` on are right-aligned (numbers)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        parts = [
            cell.ljust(widths[i]) if i < right else cell.rjust(widths[i])
            for i, cell in enumerate(row)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule, *(fmt(r) for r in cells[1:])])


def fmt_us(value: float) -> str:
    return f"{value:.1f}" if value < 1000 else f"{value:,.0f}"
