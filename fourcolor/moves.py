"""What a seat can do now: melds with a card, wins, claims (for bots, review and replays)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import CARDS, Card
from .claims import ClaimRefused, ClaimRight, Live, claim_right
from .melds import Meld, classify
from .rulesets import Ruleset
from .split import best_points

NRANKS = 7


def melds_with(card: Card, hand: Sequence[int], ruleset: Ruleset) -> Iterator[Meld]:
    """Every meld of `ruleset` made of `card` plus cards from `hand` (counts)."""
    i = card.index
    colour, rank = divmod(i, NRANKS)
    candidates: list[list[Card]] = []
    if card.rank == "K":
        candidates.append([card])
    for extra in range(1, min(hand[i], 3) + 1):
        candidates.append([card] * (extra + 1))
    for block in ((0, 1, 2), (3, 4, 5)):
        if rank in block:
            others = [colour * NRANKS + r for r in block if r != rank]
            if all(hand[o] for o in others):
                candidates.append([card, *(CARDS[o] for o in others)])
    other_colours = [c for c in range(4) if c != colour and hand[c * NRANKS + rank]]
    for size in (2, 3):
        for chosen in combinations(other_colours, size):
            candidates.append([card, *(CARDS[c * NRANKS + rank] for c in chosen)])
    for cards in candidates:
        meld = classify(cards, ruleset)
        if meld is not None:
            yield meld


@dataclass(frozen=True, slots=True)
class WinOption:
    meld: Meld  # the meld that takes the winning card (exposed)
    points: int  # the finisher's total P (display + meld exposed + best hidden split)


def rest_after(hand: Sequence[int], meld: Meld, card: Card) -> list[int]:
    rest = list(hand)
    skipped = False
    for c in meld.cards:
        if c is card and not skipped:
            skipped = True
            continue
        rest[c.index] -= 1
    return rest


def can_complete(hand: Sequence[int], card: Card, ruleset: Ruleset) -> bool:
    """Whether hand + card splits into melds: necessary and sufficient for a win with the card
    (before the bga threshold), since a win may use any meld of the ruleset."""
    counts = list(hand)
    counts[card.index] += 1
    return best_points(counts, ruleset) is not None


def best_win(
    hand: Sequence[int], card: Card, ruleset: Ruleset, display_points: int
) -> WinOption | None:
    """The highest-scoring win with `card` for a seat holding `hand` (counts), or None (also
    when the best falls under a bga threshold)."""
    if not can_complete(hand, card, ruleset):
        return None
    best: WinOption | None = None
    for meld in melds_with(card, hand, ruleset):
        hidden = best_points(rest_after(hand, meld, card), ruleset)
        if hidden is None:
            continue
        points = display_points + meld.points(ruleset, exposed=True) + hidden
        if best is None or points > best.points:
            best = WinOption(meld, points)
    if best is None or (ruleset.threshold is not None and best.points < ruleset.threshold):
        return None
    return best


def meld_claims(
    ruleset: Ruleset, players: int, live: Live, seat: int, hand: Sequence[int]
) -> list[tuple[Meld, ClaimRight]]:
    """The plain melds (not wins) `seat` may make with the live card, with their rights."""
    card = CARDS[live.card_index]
    out: list[tuple[Meld, ClaimRight]] = []
    if seat == live.owner and live.source == "discard":
        return out
    for meld in melds_with(card, hand, ruleset):
        try:
            right = claim_right(ruleset, players, live, seat, meld.kind, card.rank, win=False)
        except ClaimRefused:
            continue
        out.append((meld, right))
    return out
