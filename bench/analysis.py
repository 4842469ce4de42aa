"""The reviewer (issue 13 §2): what must hold of fourcolor/analysis.py, measured at the default
sample count (docs/analysis.md has the figures).

    .venv/bin/python bench/analysis.py                    # 8 rounds per ruleset (a few minutes)
    .venv/bin/python bench/analysis.py --rounds 2 --samples 16   # a quick look

- Strength: 4-seat rounds of each ruleset with the bots greedy,random,greedy,random (as
  `fourcolor generate --bots greedy,random,greedy,random` makes them: seed k dealt by seat
  k mod 4 + 1), every seat analysed; the random seats' mean loss per decision must be at least
  twice the greedy seats'.
- Stability: the same rounds analysed again with another seed; of the decisions either run
  rates a mistake or a blunder, the share where both name the same best option (target 90 %).
- Speed: the CPU time (`time.process_time`, one core) of analysing one whole 4-seat round, all
  four seats (target 20 s); median and slowest.
- Missed wins: the 40 missed wins of tests/data/corpus/missed_wins.fcn (the seat, the card and
  the line of the event that followed, from missed_wins.jsonl), each rated; how many are a
  mistake or a blunder with a win as the best option (the issue asks 95 %), and why the others
  are not (see docs/analysis.md).

The exit status is 0 when strength, stability and speed hold (the missed-win figure is
reported: docs/analysis.md explains why 95 % cannot hold under the rules' own scoring).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from _common import header, table

from fourcolor import iter_records, validate
from fourcolor.analysis import DEFAULT_SAMPLES, Analysis, analyse
from fourcolor.generate import generate_record
from fourcolor.notation import parse_record
from fourcolor.replay import Replay

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "corpus"
BOTS = ["greedy", "random", "greedy", "random"]
BAD = ("mistake", "blunder")


def strength_and_stability(rounds: int, samples: int) -> bool:
    ok = True
    rows = []
    for ruleset in ("classic", "bga"):
        loss: dict[str, list[float]] = {"greedy": [], "random": []}
        cpu: list[float] = []
        agree = rated_bad = 0
        verdicts: Counter[str] = Counter()
        for k in range(rounds):
            record = generate_record(ruleset, 4, k, dealer=k % 4 + 1, bot=BOTS)
            started = time.process_time()
            first = analyse(record, samples=samples, seed=0)
            cpu.append(time.process_time() - started)
            second = analyse(record, samples=samples, seed=1)
            for d in first.decisions:
                loss[BOTS[d.seat - 1]].append(d.loss)
                verdicts[d.verdict] += 1
            a, b = _by_decision(first), _by_decision(second)
            for key in a:
                if a[key][1] in BAD or b[key][1] in BAD:
                    rated_bad += 1
                    agree += a[key][0] == b[key][0]
        greedy = statistics.mean(loss["greedy"])
        random_ = statistics.mean(loss["random"])
        ratio = random_ / greedy if greedy else float("inf")
        stable = agree / rated_bad if rated_bad else 1.0
        slowest = max(cpu)
        ok &= ratio >= 2.0 and stable >= 0.9 and slowest <= 20.0
        rows.append(
            [
                ruleset,
                f"{len(loss['greedy'])} / {len(loss['random'])}",
                f"{greedy:.2f}",
                f"{random_:.2f}",
                f"{ratio:.2f} {'PASS' if ratio >= 2 else 'FAIL'}",
                f"{agree}/{rated_bad} = {stable:.0%} {'PASS' if stable >= 0.9 else 'FAIL'}",
                f"{statistics.median(cpu):.1f} / {slowest:.1f} "
                f"{'PASS' if slowest <= 20 else 'FAIL'}",
                " ".join(
                    f"{v[0]}{verdicts[v]}" for v in ("good", "inaccuracy", "mistake", "blunder")
                ),
            ]
        )
    print(
        table(
            [
                "ruleset",
                "decisions greedy / random",
                "mean loss greedy",
                "mean loss random",
                "ratio (>= 2)",
                "same best, mistake+ (>= 90%)",
                "CPU s per round median / max (<= 20)",
                "verdicts g i m b",
            ],
            rows,
        )
    )
    return ok


def _by_decision(result: Analysis) -> dict[tuple[int, int], tuple[str, str]]:
    return {(d.ply, d.seat): (d.best, d.verdict) for d in result.decisions}


def missed_wins(samples: int) -> None:
    with open(CORPUS / "missed_wins.fcn", encoding="utf-8", newline="") as f:
        texts = list(iter_records(f))
    rows = [json.loads(line) for line in (CORPUS / "missed_wins.jsonl").read_text().splitlines()]
    caught = 0
    why: Counter[str] = Counter()
    for row in rows:
        text = texts[row["index"]]
        record = parse_record(text.text, text.line)
        game = validate(record)
        [missed] = [
            m
            for m in Replay(record, game).missed_wins()
            if (m.seat, m.card.token, record.events[m.ply].line)
            == (row["seat"], row["card"], row["line"])
        ]
        ply = missed.ply + 1
        [d] = analyse(record, seats=[row["seat"]], plies=[ply], samples=samples).decisions
        if d.verdict in BAD and d.best[1] == "w":
            caught += 1
            continue
        values = {o.event: o.ev for o in d.options}
        win = max(v for e, v in values.items() if e[1] == "w")
        if game.finish.outcome == "forced" and ply == len(record.events):
            why["a plain meld ending the round by a forced finish, worth the win exactly"] += 1
        elif d.best[1] != "w":
            why[f"another option valued above the win ({d.verdict})"] += 1
        elif values[d.played] >= win - 1e-9:
            why["letting it go valued as much as the win"] += 1
        else:
            why[f"the win better by less than a mistake ({d.verdict})"] += 1
    print(
        f"missed wins rated a mistake or a blunder with a win best: {caught}/{len(rows)} "
        f"= {caught / len(rows):.0%} (the issue asks 95 %)"
    )
    for reason, n in why.most_common():
        print(f"  {n:>2} not: {reason}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds per ruleset")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    parser.add_argument("--no-missed", action="store_true", help="skip the missed wins")
    args = parser.parse_args()
    print(header(f"bench/analysis.py: the reviewer at {args.samples} samples (issue 13 §2)"))
    ok = strength_and_stability(args.rounds, args.samples)
    if not args.no_missed:
        missed_wins(args.samples)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
