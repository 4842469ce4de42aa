"""The reviewer's marks (fourcolor/analysis.py): from each option's values on the same deals, the
best option named, the loss of the option played and its verdict (docs/analysis.md, steps 5-8).

Values are the seat's settlements, option by option, on the same deals (common random numbers):
comparisons are paired, deal by deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .rulesets import Ruleset

VERDICTS = ("good", "inaccuracy", "mistake", "blunder")
# A decision's loss, divided by the number of other seats (what each of them would pay or be
# paid: a classic win of P points is P from each) and by the ruleset's `stake`, at or above
# these is an inaccuracy, a mistake, a blunder. See docs/analysis.md for how they were chosen.
THRESHOLDS = (0.5, 1.5, 4.0)
BGA_STAKE = 1 / 3
# Options valued on every deal besides the one played, when a decision has more (`screened`):
# the KEEP best of the screening deals and, when the option played looks like a mistake, every
# other option the screening cannot tell from the best (under SCREEN_Z standard errors below).
KEEP = 3
SCREEN_Z = 2.0
# Standard errors by which an option's mean gain over another must exceed zero to count as
# better (`judge`): below it, sampling cannot tell the two apart. Each option compared with the
# one played is a one-sided test (up to three per decision): a false "better" option once in 44
# comparisons at 2, once in 740 at 3 (the figures of both are in docs/analysis.md).
Z = 3.0
# Adaptive sampling (`analysis._rate`): an unclear decision gets up to EXTEND times the sample
# count, and it is clear once the top option's gain over the one played is SURE standard errors
# wide (above Z: a gain just past Z is still extended until it is plain).
EXTEND = 2
SURE = 3.5


def stake(ruleset: Ruleset) -> float:
    """What a ruleset's rounds are worth next to classic's, by which its thresholds are scaled:
    the median win pays each other seat 9 points in classic and 3 in bga (a minimal bga win
    pays the base 1 and the lucky bonus), in greedy self-play (docs/analysis.md, "Thresholds").
    Any ruleset settled with a threshold is scaled as bga."""
    return BGA_STAKE if ruleset.threshold is not None else 1.0


def unit(ruleset: Ruleset, players: int) -> float:
    """The points of a loss that make one unit of `THRESHOLDS`: one per other seat, scaled by
    the ruleset's `stake`."""
    return max(players - 1, 1) * stake(ruleset)


def verdict(loss: float, players: int, ruleset: Ruleset | None = None) -> str:
    """The verdict of a loss in points at a table of `players` of `ruleset` (default: classic
    stakes; see `THRESHOLDS`)."""
    per_seat = loss / (max(players - 1, 1) if ruleset is None else unit(ruleset, players))
    rated = VERDICTS[0]
    for name, threshold in zip(VERDICTS[1:], THRESHOLDS, strict=True):
        if per_seat >= threshold - 1e-9:
            rated = name
    return rated


def paired(a: Sequence[float], b: Sequence[float], chains: int = 1) -> tuple[float, float]:
    """The mean of the deal-by-deal differences a - b and its standard error. `chains`: deal j
    came from chain j mod `chains` of inferred hands (`analysis.deal_chains`), whose deals are
    not independent (a chain's consecutive deals hold nearly the same hands): the error is then
    the larger of the deals' as if independent and the chains' (each chain's deals one cluster:
    the spread of its gains' sum about the mean, docs/analysis.md, step 6)."""
    gains = [x - y for x, y in zip(a, b, strict=True)]
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    var = sum((g - mean) ** 2 for g in gains) / (n - 1) / n
    groups = min(chains, n)
    if groups > 1:
        sums = [sum(g - mean for g in gains[c::groups]) for c in range(groups)]
        var = max(var, sum(s * s for s in sums) * groups / (groups - 1) / (n * n))
    return mean, math.sqrt(var)


def margin(a: Sequence[float], b: Sequence[float], chains: int = 1) -> float:
    """How far a's paired mean gain over b is above zero, in standard errors (`paired`)."""
    mean, se = paired(a, b, chains)
    if se == 0.0:
        return math.inf if mean > 0 else (-math.inf if mean < 0 else 0.0)
    return mean / se


@dataclass(frozen=True)
class Judgement:
    values: list[float]
    best: int
    loss: float  # best - played when the best beats the played, else 0
    close: bool  # sampling cannot tell the best from another option: "about equal"
    unclear: bool  # more deals could change the best option named, or a mistake verdict
    racing: list[int]  # the options that more deals could still name the best, and the played


def judge(
    judged: Sequence[Sequence[float]],
    active: Sequence[int],
    wins: Sequence[bool],
    played: int | None,
    unit: float,
    z: float = Z,
    chains: int = 1,
) -> Judgement:
    """The best option from each option's values on the same deals (`wins[k]`: option k is a
    win; `played` None: no option was played, the reviewer's advice), the loss of the one
    played in points, and whether the decision is still unclear (docs/analysis.md, steps 6-8),
    an option counting as better than another when its gain is `z` standard errors clear
    (`paired`, the deals from `chains` chains):

    - the best is the highest estimate, but a win sampling cannot tell from it is named
      instead: it ends the round now with a known settlement, the others only on average;
    - the loss is the best's gain over the one played when some option beats it (a gain over
      `z` standard errors), else 0, sampling cannot tell the one played from the best;
    - `close` ("about equal") when sampling cannot tell the best from another option;
    - unclear when it might be a mistake or worse (the top option's gain over the one played,
      plus `z` standard errors, reaches the mistake threshold in points of `unit`) while that
      gain is not yet `SURE` standard errors clear. A near tie at the top is not unclear: the
      deals cannot tell its options apart, and it reads "about equal" whichever is named."""
    values = [round(sum(r) / len(r), 3) for r in judged]
    top = max(active, key=lambda k: (values[k], wins[k], -k))
    beats = [
        k for k in active if played is not None and margin(judged[k], judged[played], chains) > z
    ]
    # A win near the top, named instead: when nothing beats the one played, or it does too.
    near_wins = [
        k
        for k in active
        if wins[k] and k != top and margin(judged[top], judged[k], chains) <= z
        and (not beats or k in beats)
    ]
    best = top if wins[top] else max(near_wins, key=lambda k: (values[k], -k), default=top)
    loss = 0.0
    if played is not None and best != played and beats:
        loss = round(max(values[best] - values[played], 0.0), 3)
    close = any(margin(judged[best], judged[k], chains) <= z for k in active if k != best)
    unclear = False
    if played is not None and top != played:
        gain, se = paired(judged[top], judged[played], chains)
        unclear = (gain + z * se) / unit >= THRESHOLDS[1] and gain < SURE * se
    racing = [
        k for k in active if k in (top, played) or margin(judged[top], judged[k], chains) < SURE
    ]
    return Judgement(values, best, loss, close, unclear, racing)


def screened(
    results: Sequence[Sequence[float]],
    active: Sequence[int],
    played: int | None,
    unit: float,
    chains: int = 1,
) -> list[int]:
    """The options valued on the deals after the screening, from the screening deals'
    `results`: the option played, the `KEEP` best, and, when the option played looks like a
    mistake (the best's mean gain over it reaches the mistake threshold), every other option
    the screening cannot tell from the best (less than `SCREEN_Z` standard errors below it,
    the deals from `chains` chains: `paired`).
    An option dropped here can never be named the best, and which of several good options a
    quarter of the deals ranks third or fourth is chance: two seeds would name different ones
    (docs/analysis.md, step 5). Elsewhere the best option named does not show in a verdict,
    and the three best are enough."""
    ranked = sorted(active, key=lambda k: (-sum(results[k]), k))
    if played is None:
        return sorted(ranked[:KEEP])
    kept = set(ranked[:KEEP]) | {played}
    lead = results[ranked[0]]
    gain, _se = paired(lead, results[played])
    if ranked[0] != played and gain / unit >= THRESHOLDS[1]:
        kept |= {k for k in ranked[KEEP:] if margin(lead, results[k], chains) < SCREEN_Z}
    return sorted(kept)
