"""The move generator: `Round.legal_events()` checked against the tests' brute force
(tests/engine/perft.py) on every state of the seeded mixed rounds, and its speed per state.

    .venv/bin/python bench/legal.py [--rounds 2000] [--no-perft]   # default 20,000 rounds

Each call is timed alone (`perf_counter_ns`, its cost included) before the brute force touches
the round. Exits 1 on a mismatch or when the median exceeds 50 µs per state.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from _common import fmt_us, header, mixed_records, summary_us, table, timer_overhead_ns

sys.path.insert(1, str(Path(__file__).resolve().parent.parent))

from fourcolor.round import Round  # noqa: E402
from tests.engine.perft import check_state  # noqa: E402

TARGET_MEDIAN_US = 50.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds in all (both rulesets)")
    parser.add_argument("--no-perft", action="store_true", help="time only, skip the brute force")
    args = parser.parse_args()
    print(header("bench/legal.py: Round.legal_events()"))
    timings: dict[str, list[int]] = {"all": []}
    states = Counter[str]()
    listed = 0
    mismatches = 0
    perft_states = 0
    started = time.process_time()
    perft_cpu = 0.0
    for ruleset in ("classic", "bga"):
        for record in mixed_records(ruleset, args.rounds // 2, salt="legal"):
            state = Round.from_record(record)
            rounds = [state.copy()]
            for ply in range(len(record.events) + 1):
                t0 = time.perf_counter_ns()
                events = state.legal_events()
                took = time.perf_counter_ns() - t0
                live = state.live
                phase = state.phase if live is None else f"live {live.source}"
                timings["all"].append(took)
                timings.setdefault(phase, []).append(took)
                states[phase] += 1
                listed += len(events)
                if ply < len(record.events):
                    state.push(record.events[ply])
                    rounds.append(state.copy())
            if args.no_perft:
                continue
            c0 = time.process_time()
            for ply, before in enumerate(rounds):
                perft_states += 1
                try:
                    check_state(before)
                except AssertionError as err:
                    mismatches += 1
                    print(f"MISMATCH {ruleset} {record.tags.get('Round')} ply {ply}: {err}")
            perft_cpu += time.process_time() - c0
    total_cpu = time.process_time() - started
    rows = []
    for phase in ("all", "opening", "must-discard", "live discard", "live draw", "ended"):
        if phase not in timings:
            continue
        s = summary_us(timings[phase])
        count = f"{len(timings[phase]):,}"
        rows.append([phase, count, fmt_us(s["median"]), fmt_us(s["p90"]), fmt_us(s["p99"])])
    print(f"rounds: {args.rounds:,}  states: {len(timings['all']):,}  events listed: {listed:,}")
    print(f"timer overhead per call: {timer_overhead_ns()} ns (included)")
    print(table(["states", "count", "median µs", "p90 µs", "p99 µs"], rows))
    if not args.no_perft:
        print(
            f"perft: {perft_states:,} states checked against the brute force, "
            f"{mismatches} mismatches ({perft_cpu:.0f} s CPU)"
        )
    print(f"CPU in all: {total_cpu:.0f} s")
    median = summary_us(timings["all"])["median"]
    ok = mismatches == 0 and median <= TARGET_MEDIAN_US
    print(
        f"target: median <= {TARGET_MEDIAN_US:.0f} µs per state: {median:.1f} µs "
        f"{'PASS' if median <= TARGET_MEDIAN_US else 'FAIL'}; perft "
        f"{'PASS' if mismatches == 0 else 'FAIL'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
