"""Which option the reviewer names the best between near-equal options (issue 13 §2,
stability): the same deals re-judged under other naming rules (docs/analysis.md, "Latest").

    taskset -c 0 .venv/bin/python bench/analysis_naming.py --rounds 24 --ruleset classic

The rounds are bench/analysis.py's (4 seats, greedy,random,greedy,random, every seat analysed
with seeds 0 and 1 at the default sample count). Each decision's final deals (every option's
value on every deal the reviewer played, after its screening and extra deals) are kept, and
each rule below names the best option and the verdict from those same deals. That is exact:
which deals a decision gets, and which options get them, does not depend on the option named
(`_judge`'s `unclear` and `racing` use the top option only), so each rule's figure is what a
run of the reviewer with that rule would print. `current` must match the reviewer's own
verdicts (checked).

Rules:
- `current`: the first in the engine's order among the options sampling cannot tell from the
  top (a gap of at most `Z` standard errors), docs/analysis.md step 6.
- `band B`: the same with a band of B standard errors (B = 0: the top itself).
- `band 3 or C pt`: the current band, also holding every option whose mean is at most C
  points per other seat below the top's (C = 0.5: a shortfall the verdicts rate good).
- `policy`: among the same options, the one the playout policy would discard (the greedy
  bot's discard value, `partners`, lowest first; the engine's order between equal values and
  for the options of a live card).

The figure is bench/analysis.py's: of the decisions either seed rates a mistake or a blunder,
the share where both name the same best option.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from _common import header, table

import fourcolor.analysis as reviewer
from fourcolor.analysis import DEFAULT_SAMPLES, Z, _margin, _Option, verdict
from fourcolor.game import Round
from fourcolor.generate import generate_record
from fourcolor.playout import partners
from fourcolor.rulesets import get_ruleset

BOTS = ["greedy", "random", "greedy", "random"]
BAD = ("mistake", "blunder")


@dataclass(frozen=True)
class Deals:
    """One decision's final deals, as `_judge` last saw them."""

    judged: list[list[float]]
    active: list[int]
    options: Sequence[_Option]
    played: int
    players: int
    hand: list[int]
    best: str  # the reviewer's own naming and verdict, to check `current` against
    verdict: str


def record_deals(ruleset: str, rounds: int, seed: int, samples: int) -> dict[tuple, Deals]:
    """Every decision of the bench's rounds, analysed with `seed`, with its final deals."""
    last: dict[str, tuple] = {}
    judge, rate = reviewer._judge, reviewer._rate

    def keeping_judge(judged, active, options, played, players):  # type: ignore[no-untyped-def]
        last["args"] = ([list(r) for r in judged], list(active), options, played, players)
        return judge(judged, active, options, played, players)

    kept: dict[tuple, Deals] = {}
    k = 0

    def keeping_rate(point, state: Round, players, samples, seed):  # type: ignore[no-untyped-def]
        decision = rate(point, state, players, samples, seed)
        judged, active, options, played, players_ = last["args"]
        kept[(k, point.ply, point.seat)] = Deals(
            judged, active, options, played, players_, list(state.hands[point.seat]),
            decision.best, decision.verdict,
        )
        return decision

    reviewer._judge, reviewer._rate = keeping_judge, keeping_rate
    try:
        for k in range(rounds):
            record = generate_record(ruleset, 4, k, dealer=k % 4 + 1, bot=BOTS)
            reviewer.analyse(record, samples=samples, seed=seed)
    finally:
        reviewer._judge, reviewer._rate = judge, rate
    return kept


Namer = Callable[[Deals, int], int]  # (the decision's deals, its top option) -> the best


def name_first_within(band: float) -> Namer:
    def name(d: Deals, top: int) -> int:
        near = [
            k for k in d.active
            if k != d.played and (k == top or _margin(d.judged[top], d.judged[k]) <= band)
        ]
        return min(near) if near else top

    return name


def name_first_within_points(per_seat: float) -> Namer:
    """As `current`, the band also holding every option at most `per_seat` points per other
    seat below the top in mean value: a shortfall the verdicts would rate good at
    `per_seat` = 0.5 (docs/analysis.md, Thresholds), however many deals tell it apart."""

    def name(d: Deals, top: int) -> int:
        floor = per_seat * max(d.players - 1, 1)
        mean = [sum(r) / len(r) for r in d.judged]
        near = [
            k for k in d.active
            if k != d.played and (k == top or _margin(d.judged[top], d.judged[k]) <= Z
                                  or mean[top] - mean[k] <= floor)
        ]
        return min(near) if near else top

    return name


def name_by_policy(ruleset: str) -> Namer:
    rs = get_ruleset(ruleset)
    groups = [rs.allows("three_colour", r) for r in "KAERHCP"]
    pairs = [rs.allows("pair", r) for r in "KAERHCP"]

    def preference(d: Deals, k: int) -> tuple[float, int]:
        event = d.options[k].event
        if event is None or event.verb != "x":
            return (float("inf"), k)
        i = event.cards[0].index
        return (partners(i, d.hand, groups[i % 7], pairs[i % 7]), k)

    def name(d: Deals, top: int) -> int:
        near = [
            k for k in d.active
            if k != d.played and (k == top or _margin(d.judged[top], d.judged[k]) <= Z)
        ]
        return min(near, key=lambda k: preference(d, k)) if near else top

    return name


def judge(d: Deals, name: Namer) -> tuple[str, str]:
    """The best option's label and the verdict: the reviewer's own `_judge` on the kept deals,
    with its naming step (`_name_best`) replaced by `name`."""
    own = reviewer._name_best
    reviewer._name_best = lambda judged, active, played, top: name(d, top)
    try:
        judgement = reviewer._judge(d.judged, d.active, d.options, d.played, d.players)
    finally:
        reviewer._name_best = own
    return d.options[judgement.best].label, verdict(judgement.loss, d.players)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=24)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    args = parser.parse_args()
    print(header(f"analysis naming: {args.ruleset}, {args.rounds} rounds, seeds 0 and 1"))
    first = record_deals(args.ruleset, args.rounds, 0, args.samples)
    second = record_deals(args.ruleset, args.rounds, 1, args.samples)
    rules: list[tuple[str, Namer]] = [("current (band 3)", name_first_within(Z))]
    rules += [(f"band {b:g}", name_first_within(b)) for b in (0, 0.5, 1, 1.5, 2, 2.5, 4)]
    rules += [(f"band 3 or {c:g} pt per other seat", name_first_within_points(c))
              for c in (0.25, 0.5, 1.0)]
    rules.append(("policy", name_by_policy(args.ruleset)))
    rows = []
    for label, name in rules:
        agree = bad = 0
        for key, a in first.items():
            best_a, verdict_a = judge(a, name)
            best_b, verdict_b = judge(second[key], name)
            if name is rules[0][1] and (best_a, verdict_a) != (a.best, a.verdict):
                print(f"{key}: re-judged {best_a} {verdict_a}, reviewer {a.best} {a.verdict}")
                return 1
            if verdict_a in BAD or verdict_b in BAD:
                bad += 1
                agree += best_a == best_b
        rows.append([label, f"{agree}/{bad}", f"{agree / bad:.1%}" if bad else "-"])
    print(table(["naming rule", "same best, mistake+", "share (>= 90%)"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
