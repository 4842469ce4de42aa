"""What a seat can do now: melds with a card, wins, claims (for bots, review and replays)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import CARDS, COPIES, Card
from .claims import ClaimRefused, ClaimRight, Live, claim_right, may_claim
from .melds import Meld, classify
from .rulesets import Ruleset
from .split import best_points

NRANKS = 7
# Per kind, the parts of `melds_with`'s cache key: (1 << colour, kind) of each other colour
# of its rank, and its two command or field partners (None for a soldier, which has none).
_OTHER_COLOURS = tuple(
    tuple((1 << c, c * NRANKS + i % NRANKS) for c in range(4) if c != i // NRANKS)
    for i in range(len(CARDS))
)
_PARTNERS = tuple(
    None
    if i % NRANKS == 6
    else tuple(
        j
        for j in range(i // NRANKS * NRANKS, i // NRANKS * NRANKS + NRANKS - 1)
        if j != i and (j % NRANKS < 3) == (i % NRANKS < 3)
    )
    for i in range(len(CARDS))
)


def melds_with(card: Card, hand: list[int], ruleset: Ruleset) -> tuple[Meld, ...]:
    """Every meld of `ruleset` made of `card` plus cards from `hand` (counts), in a fixed order:
    lone general, identical cards by size, command or field, colour groups."""
    i = card.index
    colour, rank = divmod(i, NRANKS)
    # Which melds exist depends on few facts about the hand: the copies of the card held (up
    # to 3), which other colours of its rank are held, whether its command or field partners
    # are. Those make the key of the ruleset's cache.
    colours = 0
    for bit, other in _OTHER_COLOURS[i]:
        if hand[other]:
            colours |= bit
    pair = _PARTNERS[i]
    partners = pair is not None and hand[pair[0]] > 0 and hand[pair[1]] > 0
    held = hand[i]
    key = (i, held if held < 3 else 3, colours, partners)
    cache = ruleset.caches.melds_with
    known = cache.get(key)
    if known is not None:
        return known
    candidates: list[list[Card]] = []
    if card.rank == "K":
        candidates.append([card])
    for extra in range(1, min(hand[i], 3) + 1):
        candidates.append([card] * (extra + 1))
    if partners:
        first = colour * NRANKS + (0 if rank < 3 else 3)
        candidates.append([card, *(CARDS[first + r] for r in range(3) if first + r != i)])
    other_colours = [c for c in range(4) if colours >> c & 1]
    for size in (2, 3):
        for chosen in combinations(other_colours, size):
            candidates.append([card, *(CARDS[c * NRANKS + rank] for c in chosen)])
    melds = []
    for cards in candidates:
        meld = classify(cards, ruleset)
        if meld is not None:
            melds.append(meld)
    found = tuple(melds)
    cache[key] = found  # at most 28 * 4 * 8 * 2 keys
    return found


@dataclass(frozen=True, slots=True)
class WinOption:
    meld: Meld  # the meld that takes the winning card (exposed)
    points: int  # the finisher's total P (display + meld exposed + best hidden split)

    def __reduce__(self) -> tuple[type[WinOption], tuple[Meld, int]]:
        return (WinOption, (self.meld, self.points))  # as `Meld.__reduce__`


def rest_after(hand: list[int], meld: Meld, card: Card) -> list[int]:
    rest = list(hand)
    skipped = False
    for c in meld.cards:
        if c is card and not skipped:
            skipped = True
            continue
        rest[c.index] -= 1
    return rest


def can_complete(
    hand: Sequence[int], card: Card, ruleset: Ruleset, copies: int = COPIES
) -> bool:
    """Whether hand + card splits into melds: necessary and sufficient for a win with the card
    (before the bga threshold), since a win may use any meld of the ruleset. A seat holding
    every copy of the card (`copies` in the deck) cannot be given another (the review asks
    about every kind)."""
    if hand[card.index] >= copies:
        return False
    counts = list(hand)
    counts[card.index] += 1
    return best_points(counts, ruleset) is not None


def locked_copies(n: int, rank: str, ruleset: Ruleset) -> int:
    """How many of `n` dealt copies of a kind `dealt_sets_locked` locks (RULES.md §8a): quads
    first, then a triple from a remainder of three (5 or 6 copies: a quad; 7: a quad and a
    triple; 8: two quads), each only when it is a meld of the ruleset."""
    quads, rest = divmod(n, 4)
    locked = 4 * quads if quads and ruleset.allows("quad", rank) else 0
    if rest == 3 and ruleset.allows("triple", rank):
        locked += 3
    return locked


def locked_sets(n: int) -> tuple[int, ...]:
    """The sizes of the sets `n` locked copies of a kind make: (3,), (4,), (4, 3) or (4, 4)."""
    return (4,) * (n // 4) + ((3,) if n % 4 == 3 else ())


def locked_after(locked: int, left: int) -> int:
    """The copies still locked when a meld has left `left` of a kind in the hand: a set the
    meld took cards from is unlocked (and a kind the meld took no locked card of, wholly)."""
    if left >= locked:
        return 0
    sets = list(locked_sets(locked))
    while sets and sum(sets) > left:
        sets.pop()
    return sum(sets)


def unlock(locked: list[int], hand: Sequence[int], meld: Meld) -> None:
    """Unlock what a meld with a card of a locked kind breaks, `hand` being what it left:
    every kind of the meld (a quad of a locked triple and the live card, the usual case), but
    the sets a quad's copies of five or more leave whole."""
    for c in meld.cards:
        locked[c.index] = locked_after(locked[c.index], hand[c.index])


def locked_ok(
    meld: Meld, card: Card, locked: Sequence[int] | None, hand: Sequence[int]
) -> bool:
    """Whether a meld respects `dealt_sets_locked`: a locked card only goes into a quad of its
    own kind (the locked triple plus the live fourth copy); copies beyond the locked sets
    (five or more copies) are free."""
    if locked is None or meld.kind == "quad":
        return True
    # The live card itself is never locked: skip one copy of it, not every copy (a locked
    # triple of the live card's kind may not make a plain triple with it).
    skipped = False
    for c in meld.cards:
        if c is card and not skipped:
            skipped = True
        elif locked[c.index] and hand[c.index] - _taken(meld, card, c) < locked[c.index]:
            return False
    return True


def _taken(meld: Meld, card: Card, kind: Card) -> int:
    """Copies of `kind` the meld takes from the hand (the live `card` aside)."""
    n = sum(1 for c in meld.cards if c is kind)
    return n - 1 if kind is card else n


def without_locked_sets(
    rest: Sequence[int], locked: Sequence[int], ruleset: Ruleset
) -> tuple[list[int], int, list[tuple[str, int, int]]]:
    """A finisher's hidden cards (counts) without its dealt sets still locked, which score as
    hidden triples or quads, unsplit: the other counts, the sets' points and the sets (kind,
    card index, copies). A dealt set that is no meld of the ruleset (bga: three generals) was
    never locked."""
    counts = list(rest)
    points = 0
    sets = []
    for i, n in enumerate(locked):
        if n and counts[i] >= n:
            for size in locked_sets(n):
                kind = "triple" if size == 3 else "quad"
                value = ruleset.points(kind, CARDS[i].rank)
                if value is not None:
                    counts[i] -= size
                    points += value[0]
                    sets.append((kind, i, size))
    return counts, points, sets


def hidden_points(
    rest: list[int], ruleset: Ruleset, locked: Sequence[int] | None = None
) -> int | None:
    """Best hidden points of `rest` (counts), keeping locked dealt sets whole."""
    if locked is None or not any(locked):
        return best_points(rest, ruleset)
    counts, points, _sets = without_locked_sets(rest, locked, ruleset)
    sub = best_points(counts, ruleset)
    return None if sub is None else sub + points


def best_completing_win(
    hand: list[int],
    card: Card,
    ruleset: Ruleset,
    display_points: int,
    locked: Sequence[int] | None = None,
) -> WinOption | None:
    """The highest-scoring win with `card` for a seat holding `hand` (counts) that is known to
    split with it (`can_complete`), or None (also when the best falls under a bga threshold).
    `locked`: the seat's locked dealt sets."""
    best: WinOption | None = None
    for meld in melds_with(card, hand, ruleset):
        if not locked_ok(meld, card, locked, hand):
            continue
        hidden = hidden_points(rest_after(hand, meld, card), ruleset, locked)
        if hidden is None:
            continue
        points = display_points + meld.points(ruleset, exposed=True) + hidden
        if best is None or points > best.points:
            best = WinOption(meld, points)
    if best is None or (ruleset.threshold is not None and best.points < ruleset.threshold):
        return None
    return best


def meld_claims(
    ruleset: Ruleset,
    players: int,
    live: Live,
    seat: int,
    hand: list[int],
    locked: Sequence[int] | None = None,
) -> list[tuple[Meld, ClaimRight]]:
    """The plain melds (not wins) `seat` may make with the live card, with their rights."""
    card = CARDS[live.card_index]
    out: list[tuple[Meld, ClaimRight]] = []
    if not may_claim(live, seat):
        return out
    for meld in melds_with(card, hand, ruleset):
        if not locked_ok(meld, card, locked, hand):
            continue
        try:
            right = claim_right(ruleset, players, live, seat, meld.kind, card.rank, win=False)
        except ClaimRefused:
            continue
        out.append((meld, right))
    return out
