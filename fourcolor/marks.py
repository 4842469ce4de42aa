"""The reviewer's marks (fourcolor/analysis.py): from each option's values on the same deals, the
best option named, the loss of the option played and its verdict (docs/analysis.md, steps 5-8).

Values are the seat's settlements, option by option, on the same deals (common random numbers):
comparisons are paired, deal by deal.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

VERDICTS = ("good", "inaccuracy", "mistake", "blunder")
# A decision's loss, divided by the number of other seats (what each of them would pay or be
# paid: a classic win of P points is P from each), at or above these is an inaccuracy, a
# mistake, a blunder. See docs/analysis.md for how they were chosen.
THRESHOLDS = (0.5, 1.5, 4.0)
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
# count, and it is clear once the gaps that decide it are SURE standard errors wide (above Z: a
# gain just past Z is still extended until it is plain).
EXTEND = 4
SURE = 3.5


def verdict(loss: float, players: int) -> str:
    """The verdict of a loss in points at a table of `players` (see `THRESHOLDS`)."""
    per_seat = loss / max(players - 1, 1)
    rated = VERDICTS[0]
    for name, threshold in zip(VERDICTS[1:], THRESHOLDS, strict=True):
        if per_seat >= threshold - 1e-9:
            rated = name
    return rated


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of the deal-by-deal differences a - b and its standard error."""
    gains = [x - y for x, y in zip(a, b, strict=True)]
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    var = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean, math.sqrt(var / n)


def margin(a: Sequence[float], b: Sequence[float]) -> float:
    """How far a's paired mean gain over b is above zero, in standard errors."""
    mean, se = paired(a, b)
    if se == 0.0:
        return math.inf if mean > 0 else (-math.inf if mean < 0 else 0.0)
    return mean / se


@dataclass(frozen=True)
class Judgement:
    values: list[float]
    best: int
    loss: float  # best - played when the best beats the played, else 0
    unclear: bool  # more deals could change the best option named, or a mistake verdict
    racing: list[int]  # the options that more deals could still name the best, and the played


def name_best(
    judged: Sequence[Sequence[float]], active: Sequence[int], played: int, top: int
) -> int:
    """The option named the best once some option beats the one played: the first in the
    engine's order among every option sampling cannot tell from the `top` one (the option
    played aside), whether or not each alone beats the one played: an option as good as the
    best is as good an answer, and whether its own gain over the option played reaches `Z` is
    the noisiest test of all (two seeds then named different options of a tie,
    docs/analysis.md step 6; other rules measured no better)."""
    near = [
        k for k in active if k != played and (k == top or margin(judged[top], judged[k]) <= Z)
    ]
    return min(near) if near else top


def judge(
    judged: Sequence[Sequence[float]],
    active: Sequence[int],
    wins: Sequence[bool],
    played: int,
    players: int,
) -> Judgement:
    """The best option from the deals so far (`analysis._rate`'s rules; `wins[k]`: option k is
    a win), and whether the decision is still unclear: it might be a mistake or worse (the top
    option's gain over the one played, plus `Z` standard errors, reaches the mistake threshold)
    while that gain, or the gap between the top option and another near it, is not yet `SURE`
    standard errors clear."""
    values = [round(sum(r) / len(r), 3) for r in judged]
    top = max(active, key=lambda k: (values[k], -k))
    beats = [k for k in active if k != played and margin(judged[k], judged[played]) > Z]
    best = played
    if beats:
        best = name_best(judged, active, played, top)
        if values[best] <= values[played]:
            best = played
    loss = round(max(values[best] - values[played], 0.0), 3) if best != played else 0.0
    if not wins[best]:
        # Between options sampling cannot tell apart, a win is named the best: it ends the
        # round now with a known settlement, the others only on average. The loss stays that
        # of the option it replaces (0 when that is the one played).
        tied = [
            k
            for k in active
            if wins[k]
            and k != best
            and margin(judged[best], judged[k]) <= Z
            and (best == played or k in beats)
        ]
        if tied:
            best = tied[0]
            if loss:
                loss = round(max(values[best] - values[played], 0.0), 3)
    unclear = False
    if top != played:
        gain, se = paired(judged[top], judged[played])
        if (gain + Z * se) / max(players - 1, 1) >= THRESHOLDS[1]:
            # A near tie at the top is unclear too: which of two options a few deals call
            # the best is chance, and the verdict's loss is measured against the one named.
            unclear = gain < SURE * se or any(
                margin(judged[top], judged[k]) < SURE for k in active if k not in (top, played)
            )
    racing = [k for k in active if k in (top, played) or margin(judged[top], judged[k]) < SURE]
    return Judgement(values, best, loss, unclear, racing)


def screened(
    results: Sequence[Sequence[float]], active: Sequence[int], played: int, players: int
) -> list[int]:
    """The options valued on the deals after the screening, from the screening deals'
    `results`: the option played, the `KEEP` best, and, when the option played looks like a
    mistake (the best's mean gain over it reaches the mistake threshold), every other option
    the screening cannot tell from the best (less than `SCREEN_Z` standard errors below it).
    An option dropped here can never be named the best, and which of several good options a
    quarter of the deals ranks third or fourth is chance: two seeds would name different ones
    (docs/analysis.md, step 5). Elsewhere the best option named does not show in a verdict,
    and the three best are enough."""
    ranked = sorted(active, key=lambda k: (-sum(results[k]), k))
    kept = set(ranked[:KEEP]) | {played}
    lead = results[ranked[0]]
    gain, _se = paired(lead, results[played])
    if ranked[0] != played and gain / max(players - 1, 1) >= THRESHOLDS[1]:
        kept |= {k for k in ranked[KEEP:] if margin(lead, results[k]) < SCREEN_Z}
    return sorted(kept)
