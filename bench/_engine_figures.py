"""What bench/engine.py measures with and reports: its sizes, targets and reference figures,
a table row, and a timed pass (the median or the fastest of several, in CPU time)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from _common import fmt_us

RULESETS = ("classic", "bga")
TARGET_RANDOM_MEDIAN_US = 25.0
TARGET_WINNING_MEDIAN_US = 50.0
TARGET_US_PER_EVENT = 5.0
# The reference figures the targets were set beside (the machines the targets were set on).
REF_MAHJONG_US = 25.0
REF_CHESS_US_PER_PLY = 29.0


@dataclass
class Row:
    measure: str
    sample: str
    figure: str
    target: str = ""
    status: str = "info"  # PASS, FAIL, ref (reference package) or info (no target)
    # The figure as a number (µs), for the rows that have a target or are a reference.
    value: float | None = None
    limit: float | None = None


@dataclass
class Sizes:
    random_hands: int
    winning_hands: int
    warmup_hands: int
    mahjong_hands: int
    rounds: int
    warmup_rounds: int
    chess_games: int
    warmup_games: int
    repeats: int


FULL = Sizes(20_000, 5_000, 2_000, 5_000, 2_000, 100, 300, 30, 3)
QUICK = Sizes(2_000, 1_000, 300, 1_000, 200, 20, 60, 10, 1)


def _latency(s: dict[str, float]) -> str:
    return f"median {fmt_us(s['median'])} µs, p90 {fmt_us(s['p90'])}, p99 {fmt_us(s['p99'])}"


def verdict(value: float, limit: float) -> str:
    return "PASS" if value <= limit else "FAIL"


def _median_pass(fn: Callable[[], int], repeats: int) -> tuple[float, float, int]:
    """Median CPU seconds and median wall seconds of `repeats` passes of `fn`, and the unit
    count it returns. The machine is shared: CPU time is what the code costs, wall time adds
    however long other processes held the cores, so targets are judged on CPU time."""
    cpu: list[float] = []
    wall: list[float] = []
    units = 0
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        units = fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall), units


def _per(seconds: float, wall: float, units: int, unit: str) -> str:
    return f"{seconds / units * 1e6:.2f} µs/{unit} (wall {wall / units * 1e6:.2f})"
