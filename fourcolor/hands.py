"""What the bots judge of a hand (its counts by card kind): what a card is worth to the rest
of it (`partners`, the greedy bot's discard value), whether it is ready to win (`ready`), which
discards keep it ready and whether a claim does (the patient bot: `ready_discards`,
`stays_ready`), and whether a meld forces a finish under the threshold (the careful bots).

The bots of fourcolor/bots.py and the fast playouts of fourcolor/playout.py ask the same
functions, so that the two play alike; the rules themselves are the round's (fourcolor/moves.py,
fourcolor/split.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from .cards import CARDS, KINDS, RANKS, Card
from .melds import Meld
from .moves import best_completing_win, rest_after, unlock
from .rulesets import Ruleset
from .scoring import split_hidden
from .split import splits_with

_O = TypeVar("_O")

# The kinds a seat may discard: every kind but the generals.
DISCARDABLE = tuple(i for i in range(KINDS) if i % 7)
# Hands whose ready discards a ruleset keeps (`RulesetCaches.ready_discards`): past that
# many it forgets them all and starts again.
READY_CACHE_SIZE = 100_000


def rank_rules(rs: Ruleset) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Per rank (K A E R H C P), whether its colour groups (three colours) are melds of `rs`
    and whether its pairs are: what `partners` asks of the ruleset, kept on it (a playout
    starts with them)."""
    known = rs.caches.rank_rules
    if known is None:
        known = rs.caches.rank_rules = (
            tuple(rs.allows("three_colour", r) for r in RANKS),
            tuple(rs.allows("pair", r) for r in RANKS),
        )
    return known


def partners(i: int, hand: list[int], colour_groups: bool, pairs: bool) -> float:
    """How much card `i` works with the rest of the hand (its counts; higher: keep it), the
    greedy bot's discard value: 2 per other copy, 1 per command or field partner held, 0.7 per
    other colour of its rank held where colour groups of the rank are melds (`colour_groups`).

    Where a pair of the rank is no meld (`pairs` False: bga soldiers), another copy is worth
    0.5 only (it helps toward a triple alone, with two copies left), and the other colours
    count only for a single copy: letting one of two copies go keeps the colour for a colour
    group, the rank's best meld there (a bga three-colour soldier group scores 3)."""
    colour, rank = divmod(i, 7)
    score = (2.0 if pairs else 0.5) * (hand[i] - 1)
    if rank < 6:
        first = colour * 7 + (0 if rank < 3 else 3)
        score += float((hand[first] > 0) + (hand[first + 1] > 0) + (hand[first + 2] > 0) - 1)
    if colour_groups and (pairs or hand[i] == 1):
        same = (
            (hand[rank] > 0) + (hand[rank + 7] > 0) + (hand[rank + 14] > 0) + (hand[rank + 21] > 0)
        )
        score += 0.7 * (same - 1)
    return score


def ready(
    hand: list[int],
    exposed: int,
    rs: Ruleset,
    copies: int,
    locked: Sequence[int] | None = None,
    known: list[bool | None] | None = None,
) -> bool:
    """Whether a hand (counts) with `exposed` points on display would win with some card.
    `known`: whether each rank block of the hand splits, as `splits_with` keeps it."""
    known = [None, None, None] if known is None else known
    for i in range(KINDS):
        if splits_with(hand, i, known, rs, copies):
            if best_completing_win(hand, CARDS[i], rs, exposed, locked) is not None:
                return True
    return False


def ready_discards(
    hand: list[int], exposed: int, rs: Ruleset, copies: int, locked: Sequence[int] | None
) -> tuple[int, ...]:
    """The kinds a seat holding `hand` (counts, before its discard) may discard and still hold
    a ready hand (`ready`): the patient bot discards among them when there are any. Without
    locked sets the answer is kept on the ruleset (`RulesetCaches.ready_discards`)."""
    cache = rs.caches.ready_discards if locked is None else None
    key = (tuple(hand), exposed, copies)
    if cache is not None:
        known_kept = cache.get(key)
        if known_kept is not None:
            return known_kept
    kept = _ready_discards(hand, exposed, rs, copies, locked)
    if cache is not None:
        if len(cache) >= READY_CACHE_SIZE:
            cache.clear()
        cache[key] = kept
    return kept


def _ready_discards(
    hand: list[int], exposed: int, rs: Ruleset, copies: int, locked: Sequence[int] | None
) -> tuple[int, ...]:
    kept = []
    for d in DISCARDABLE:
        if hand[d] > (locked[d] if locked is not None else 0):
            hand[d] -= 1
            if ready(hand, exposed, rs, copies, locked):
                kept.append(d)
            hand[d] += 1
    return tuple(kept)


def stays_ready(
    hand: list[int],
    exposed: int,
    meld: Meld,
    card: Card,
    rs: Ruleset,
    copies: int,
    locked: Sequence[int] | None,
) -> bool:
    """Whether a seat holding `hand` still holds a ready hand after claiming `meld` on the live
    `card` and its discard (or the meld leaves nothing to discard: a forced finish). A ready
    patient seat lets the card go otherwise, and waits for its win."""
    rest = rest_after(hand, meld, card)
    if locked is not None and any(locked[c.index] for c in meld.cards):
        locked = list(locked)
        unlock(locked, rest, meld)
    if not any(rest[i] > (locked[i] if locked is not None else 0) and i % 7 for i in range(KINDS)):
        return True
    exposed += meld.points(rs, exposed=True)
    return bool(ready_discards(rest, exposed, rs, copies, locked))


def keeps_others(hand: list[int]) -> bool:
    """Whether `hand` (counts, no locked sets) keeps a card besides its generals after any meld
    of a live card (a meld takes at most three cards of the hand): no such meld forces a
    finish."""
    return sum(hand) - sum(hand[::7]) > 3  # [::7]: the generals' counts


def forces_finish_below_threshold(
    hand: list[int],
    exposed: int,
    meld: Meld,
    card: Card,
    locked: Sequence[int] | None,
    rs: Ruleset,
) -> bool:
    """Whether claiming `meld` on the live `card` leaves a seat (its hand's counts, its exposed
    points, its locked dealt sets or None) nothing to discard, a forced finish (RULES.md §5.6),
    with fewer points than the ruleset's threshold: every other seat is then paid T + B (§7).
    Always False without a threshold. The greedy bot never makes such a meld when it has another
    choice (fourcolor/generate.py)."""
    if rs.threshold is None:
        return False
    if locked is None and keeps_others(hand):
        return False
    rest = rest_after(hand, meld, card)
    if locked is not None and any(locked[c.index] for c in meld.cards):
        # Melding a card of a locked set unlocks the set (as `Round.push` does).
        locked = list(locked)
        unlock(locked, rest, meld)
    if any(rest[i] > (locked[i] if locked is not None else 0) and i % 7 for i in range(KINDS)):
        return False
    split = split_hidden(rest, locked or [0] * KINDS, rs)
    assert split is not None, "a hand of generals and locked sets always splits"
    return exposed + meld.points(rs, exposed=True) + split[0] < rs.threshold


def unforced(
    options: list[_O],
    melds: list[Meld],
    hand: list[int],
    exposed: int,
    card: Card,
    locked: Sequence[int] | None,
    rs: Ruleset,
    must: bool,
) -> list[_O]:
    """The options a careful bot chooses among: those whose meld (`melds[k]` of `options[k]`)
    does not force a finish under the threshold (`forces_finish_below_threshold`); all of them
    when none is left and the seat `must` meld the card (a general it drew)."""
    if rs.threshold is None:
        return options
    safe = [
        option
        for option, meld in zip(options, melds, strict=True)
        if not forces_finish_below_threshold(hand, exposed, meld, card, locked, rs)
    ]
    return safe if safe or not must else options
