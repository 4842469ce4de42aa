"""Calibration of the reviewer's inferred hands (fourcolor/inference.py, docs/analysis.md).

    .venv/bin/python bench/calibration.py          # 200 self-play rounds a ruleset + corpus
    .venv/bin/python bench/calibration.py --rounds 8 --deals 4    # a quick look

At every `--every`-th ply of each round (the seat under review turning with the ply), the
share of the other seats whose real hand is ready (some card would make it win) against the
share in the deals the reviewer samples, per ruleset and ply bucket (0-19, 20-39, 40+), on
greedy self-play rounds (classic and bga 4 seats, classic 3 seats) and on the public corpus
(`--corpus`, its records of those rulesets). The deals measured are `--deals` spread over the
`DEFAULT_SAMPLES` a decision is valued on; beside them, uniform deals. Target: inferred / real
within 0.8-1.25 in every bucket with at least 100 seats and 20 really ready (a share of fewer
is printed, not judged: its own sampling error is ±25 % or more). The ratio's standard error
is over the rounds (a round's real hands are one draw of what the deals sample). Also printed:
the sampler's CPU time per decision point (the burn-in and `DEFAULT_SAMPLES` draws). Exit
status 0 when the target holds. `--first`: the first self-play seed (other rounds).

`--round-cpu N`: instead, the CPU seconds of analysing N whole 4-seat rounds per ruleset (bots
greedy,random,greedy,random, every seat, default settings), with the inferred hands and with
uniform deals, in turn in the same process (a loaded machine slows both alike).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from _common import header, table

from fourcolor import iter_records
from fourcolor.analysis import DEFAULT_SAMPLES, deal_chains
from fourcolor.generate import generate_record
from fourcolor.inference import HandSampler, History
from fourcolor.notation import Record, parse_record
from fourcolor.hands import ready
from fourcolor.replay import Replay
from fourcolor.round import ENDED

CONFIGS = (("classic", 4), ("bga", 4), ("classic", 3))
BUCKETS = ((0, 19), (20, 39), (40, 10_000))
CORPUS = Path("/work/shared/corpus/valid.fcn")
LOW, HIGH, MIN_SEATS, MIN_READY = 0.8, 1.25, 100, 20

# (source, ruleset, players, bucket) -> [real ready, sampled ready, uniform ready, seats]
Tally = dict[tuple[str, str, int, int], list[float]]


def _bucket(ply: int) -> int:
    return next(k for k, (lo, hi) in enumerate(BUCKETS) if lo <= ply <= hi)


def _measure(record: Record, source: str, deals: int, every: int, tally: Tally) -> list[float]:
    """Add one record's points to `tally`; the sampler's CPU seconds per point."""
    rounds = Replay(record).rounds
    history = History(rounds, record.events)
    cpu = []
    for before in range(0, len(record.events), every):
        state = rounds[before]
        if state.phase == ENDED:
            continue
        seat = before % state.players + 1
        others = [s for s in range(1, state.players + 1) if s != seat]
        exposed = [state.exposed_points(s) for s in others]
        row = tally.setdefault(
            (source, state.ruleset.name, state.players, _bucket(before)), [0.0] * 4
        )
        row[0] += sum(
            ready(state.hands[s], e, state.ruleset, state.copies)
            for s, e in zip(others, exposed, strict=True)
        )
        row[3] += len(others)
        rng = random.Random(f"calibration:{before}:{seat}")
        t0 = time.process_time()
        chains = deal_chains(history, state, before, seat, rng)  # as the reviewer deals
        draws = [chains[k % len(chains)].hands()[:-1] for k in range(DEFAULT_SAMPLES)]
        cpu.append(time.process_time() - t0)
        uniform = HandSampler(None, state, before, seat, rng)
        step = DEFAULT_SAMPLES // deals
        for k, hands_of in (
            (1, draws[step - 1 :: step]),
            (2, [uniform.hands()[:-1] for _ in range(deals)]),
        ):
            for hands in hands_of:
                got = sum(
                    ready(h, e, state.ruleset, state.copies)
                    for h, e in zip(hands, exposed, strict=True)
                )
                row[k] += got / len(hands_of)
    return cpu


def _records(first: int, rounds: int, corpus: Path | None) -> Iterable[tuple[str, Record]]:
    for ruleset, players in CONFIGS:
        for seed in range(first, first + rounds):
            dealer = seed % players + 1
            yield "self-play", generate_record(ruleset, players, seed, dealer=dealer)
    if corpus is not None:
        with corpus.open(encoding="utf-8") as f:
            for text in iter_records(f):
                record = parse_record(text.text, text.line)
                if (record.ruleset_name, record.players) in CONFIGS:
                    yield "corpus", record


def round_cpu(rounds: int) -> None:
    from fourcolor import analysis

    inferred = analysis.History
    bots = ["greedy", "random", "greedy", "random"]
    rows = []
    for ruleset in ("classic", "bga"):
        for k in range(rounds):
            record = generate_record(ruleset, 4, k, dealer=k % 4 + 1, bot=bots)
            row: list[object] = [ruleset, k, len(record.events)]
            for history in (inferred, None):
                analysis.History = history or (lambda *_: None)  # type: ignore[assignment,misc]
                t0 = time.process_time()
                analysis.analyse(record)
                row.append(f"{time.process_time() - t0:.1f} s")
            analysis.History = inferred  # type: ignore[misc]
            rows.append(row)
    print(table(["ruleset", "seed", "events", "inferred", "uniform"], rows, right=1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200, help="self-play rounds per ruleset")
    parser.add_argument("--first", type=int, default=0, help="the first self-play seed")
    parser.add_argument("--deals", type=int, default=8, help="sampled deals per point")
    parser.add_argument("--every", type=int, default=3, help="a point every N plies")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="'' to skip it")
    parser.add_argument("--round-cpu", type=int, default=0, help="CPU of N whole rounds")
    args = parser.parse_args()
    if args.round_cpu:
        print(header("CPU per analysed round, inferred hands against uniform deals"))
        round_cpu(args.round_cpu)
        return 0
    corpus = args.corpus if args.corpus.is_file() else None
    print(header("Calibration of the inferred hands"))
    tally: Tally = {}
    spread: dict[tuple[str, str, int, int], list[float]] = {}  # each round's sampled - real
    cpu: list[float] = []
    for source, record in _records(args.first, args.rounds, corpus):
        one: Tally = {}
        cpu += _measure(record, source, args.deals, args.every, one)
        for key, row in one.items():
            tally[key] = [a + b for a, b in zip(tally.get(key, [0.0] * 4), row, strict=True)]
            spread.setdefault(key, []).append(row[1] - row[0])
    rows = []
    ok = True
    for key in sorted(tally, key=lambda k: (k[0] != "self-play", CONFIGS.index(k[1:3]), k[3])):
        real, sampled, uniform, seats = tally[key]
        ratio = sampled / real if real else float("nan")
        d = spread[key]
        se = statistics.stdev(d) * len(d) ** 0.5 / real if real and len(d) > 1 else float("nan")
        judged = seats >= MIN_SEATS and real >= MIN_READY
        met = LOW <= ratio <= HIGH if judged else None
        ok = ok and met is not False
        lo, hi = BUCKETS[key[3]]
        plies = f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
        shares = [f"{100 * n / seats:.1f} %" for n in (real, sampled, uniform)]
        verdict = {True: "met", False: "MISSED", None: "(few)"}[met]
        judged_ratio = f"{ratio:.2f} ± {se:.2f} {verdict}"
        rows.append([key[0], f"{key[1]} {key[2]}p", plies, int(seats), *shares, judged_ratio])
    headers = ["source", "ruleset", "plies", "seats", "real", "inferred", "uniform", "ratio"]
    print(table(headers, rows, right=3))
    cpu.sort()
    print(
        f"sampler CPU per decision point ({DEFAULT_SAMPLES} deals): median "
        f"{cpu[len(cpu) // 2] * 1000:.0f} ms, slowest {cpu[-1] * 1000:.0f} ms, {len(cpu)} points"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
