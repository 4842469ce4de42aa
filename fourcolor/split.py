"""`best_split`: the highest-scoring way to split a hand into melds (RULES.md §4).

The melds never mix the three rank blocks {K, A, E}, {R, H, C} and {P}: a command lives in the
first, a field in the second, and every other meld (lone general, pair, triple, quad, colour
group) uses one rank only. So a split is, per block, a number of commands (fields) per colour
and then, for each rank, an independent split of that rank's four colour counts. The per-rank
problem has 9**4 states (up to eight copies); its answers are kept per ruleset (`_RankTables`), and
a query is a handful of table look-ups per choice of commands and fields. Most hands admit one
or two such choices.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from .cards import CARDS, KINDS, MAX_COPIES, RANKS, Card, counts_of
from .melds import Meld
from .rulesets import Ruleset

NRANKS = len(RANKS)
# Four colour counts of one rank, 0..8 each (N copies of a kind with N > 4 players, RULES.md §2)
# as the digits of a base-9 key. The states of at most four copies (what a table of four or
# fewer players reaches) are tabulated when the tables are built, the others when first met.
_BASE = 9
_POW = (1, _BASE, _BASE**2, _BASE**3)
_STATES = _BASE**4
_UNSET = -2  # a state not yet worked out (-1: the cards do not split)
_IDENTICAL = {1: "lone", 2: "pair", 3: "triple", 4: "quad"}
# A rank meld as (kind, colour positions), e.g. ("pair", (2, 2)) or ("three_colour", (0, 1, 3)).
RankMeld = tuple[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Split:
    """A split of a hand: its points (hidden values) and its melds in canonical order."""

    points: int
    melds: tuple[Meld, ...]


class _RankTables:
    """For one ruleset: for each rank and each 4-colour count state, the best hidden points of
    splitting those cards with one-rank melds (-1: they do not split), and the melds."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.points: list[list[int]] = []
        self.melds: list[list[tuple[RankMeld, ...]]] = []
        self.moves: list[list[tuple[int, RankMeld, int]]] = []
        for r, rank in enumerate(RANKS):
            self.moves.append(self._moves(ruleset, rank))
            self.points.append([_UNSET] * _STATES)
            self.melds.append([()] * _STATES)
            self.points[r][0] = 0
            for digits in product(range(5), repeat=4):  # increasing keys: parts come first
                self._fill(r, sum(n * _POW[3 - k] for k, n in enumerate(digits)))
        command = ruleset.points("command", "K")
        field = ruleset.points("field", "R")
        self.command = None if command is None else command[0]
        self.field = None if field is None else field[0]

    @staticmethod
    def _moves(ruleset: Ruleset, rank: str) -> list[tuple[int, RankMeld, int]]:
        """The rank's melds as (first colour, meld, points) candidates."""
        moves: list[tuple[int, RankMeld, int]] = []
        for n, kind in _IDENTICAL.items():
            identical = ruleset.points(kind, rank)
            if identical is not None:
                for c in range(4):
                    moves.append((c, (kind, (c,) * n), identical[0]))
        three = ruleset.points("three_colour", rank)
        if three is not None:
            for skip in range(4):
                colours = tuple(c for c in range(4) if c != skip)
                moves.append((colours[0], ("three_colour", colours), three[0]))
        four = ruleset.points("four_colour", rank)
        if four is not None:
            moves.append((0, ("four_colour", (0, 1, 2, 3)), four[0]))
        return moves

    def value(self, r: int, state: int) -> int:
        """The points of a state of rank `r`, worked out when first asked for."""
        points = self.points[r][state]
        return self._fill(r, state) if points == _UNSET else points

    def _fill(self, r: int, state: int) -> int:
        if state == 0:
            return 0
        points = self.points[r]
        counts = [(state // _POW[c]) % _BASE for c in range(4)]
        first = next(c for c in range(4) if counts[c])
        best = -1
        best_melds: tuple[RankMeld, ...] = ()
        for lead, meld, value in self.moves[r]:
            # Every split covers the first colour's cards, so only melds with one of them.
            if lead != first and first not in meld[1]:
                continue
            if any(meld[1].count(c) > counts[c] for c in set(meld[1])):
                continue
            rest = state - sum(_POW[c] for c in meld[1])
            rest_points = points[rest]
            if rest_points == _UNSET:
                rest_points = self._fill(r, rest)
            if rest_points >= 0 and rest_points + value > best:
                best = rest_points + value
                best_melds = (meld, *self.melds[r][rest])
        points[state] = best
        self.melds[r][state] = best_melds
        return best


def _tables(ruleset: Ruleset) -> _RankTables:
    """The ruleset's rank tables, built on first use and kept on the ruleset."""
    caches = ruleset.caches
    tables = caches.split_tables
    if tables is None:
        tables = caches.split_tables = _RankTables(ruleset)
    return tables


def _best_block(
    counts: list[int], tables: _RankTables, ranks: tuple[int, int, int], bonus: int | None
) -> tuple[int, tuple[int, ...]] | None:
    """Best points of a three-rank block (K A E with commands, R H C with fields) and how many
    of the block's combined melds each colour takes; None when the block does not split."""
    r0, r1, r2 = ranks
    # Each rank's four colour counts (colour c at c * 7) and its state key in the rank tables.
    a0, a1, a2, a3 = counts[r0], counts[r0 + 7], counts[r0 + 14], counts[r0 + 21]
    b0, b1, b2, b3 = counts[r1], counts[r1 + 7], counts[r1 + 14], counts[r1 + 21]
    d0, d1, d2, d3 = counts[r2], counts[r2 + 7], counts[r2 + 14], counts[r2 + 21]
    k0 = a0 + 9 * a1 + 81 * a2 + 729 * a3
    k1 = b0 + 9 * b1 + 81 * b2 + 729 * b3
    k2 = d0 + 9 * d1 + 81 * d2 + 729 * d3
    p0, p1, p2 = tables.points[r0], tables.points[r1], tables.points[r2]
    if bonus is None or not (
        (a0 and b0 and d0) or (a1 and b1 and d1) or (a2 and b2 and d2) or (a3 and b3 and d3)
    ):
        # No colour holds all three ranks (the usual case; tested inline, as min() and slices
        # cost more): no combined meld, and the three ranks split independently.
        x, y, z = p0[k0], p1[k1], p2[k2]
        if x < 0 or y < 0 or z < 0:
            if _UNSET not in (x, y, z):
                return None
            x, y, z = tables.value(r0, k0), tables.value(r1, k1), tables.value(r2, k2)
            if x < 0 or y < 0 or z < 0:
                return None
        return x + y + z, _NONE
    best = -1
    best_take: tuple[int, ...] = _NONE
    # How many combined melds each colour could make: the fewest of its three ranks.
    most = map(min, (a0, a1, a2, a3), (b0, b1, b2, b3), (d0, d1, d2, d3))
    for take in product(*[range(n + 1) for n in most]):
        delta = take[0] + 9 * take[1] + 81 * take[2] + 729 * take[3]
        x, y, z = p0[k0 - delta], p1[k1 - delta], p2[k2 - delta]
        if x < 0 or y < 0 or z < 0:
            if _UNSET not in (x, y, z):
                continue
            x = tables.value(r0, k0 - delta)
            y = tables.value(r1, k1 - delta)
            z = tables.value(r2, k2 - delta)
            if x < 0 or y < 0 or z < 0:
                continue
        total = x + y + z + (bonus or 0) * sum(take)
        if total > best:
            best, best_take = total, take
    return None if best < 0 else (best, best_take)


_NONE = (0, 0, 0, 0)  # no combined meld in any colour
_KAE = (0, 1, 2)
_RHC = (3, 4, 5)
_P = 6


def best_points(counts: list[int], ruleset: Ruleset) -> int | None:
    """The best hidden points of splitting the counted cards, or None: `best_split` without
    building the melds (the hot path of validation and review). The counts must be real: at
    most `MAX_COPIES` of a kind (not checked here; `best_split` checks)."""
    tables = _tables(ruleset)
    key = counts[6] + 9 * counts[13] + 81 * counts[20] + 729 * counts[27]
    soldiers = tables.points[_P][key]
    if soldiers < 0:
        if soldiers != _UNSET:
            return None
        soldiers = tables.value(_P, key)
        if soldiers < 0:
            return None
    kae = _best_block(counts, tables, _KAE, tables.command)
    if kae is None:
        return None
    rhc = _best_block(counts, tables, _RHC, tables.field)
    if rhc is None:
        return None
    return soldiers + kae[0] + rhc[0]


# The rank block of each of the seven ranks: 0 for K A E (commands), 1 for R H C (fields),
# 2 for P (soldiers). A meld never mixes blocks.
RANK_BLOCK = (0, 0, 0, 1, 1, 1, 2)


def block_splits(counts: list[int], block: int, ruleset: Ruleset) -> bool:
    """Whether the counted cards of one rank block (`RANK_BLOCK`) split into melds. A hand
    splits when each of its three blocks does, so a caller asking about many hands that differ
    in one block (`fourcolor.facts`: a hand plus each live card) can work the others out once."""
    tables = _tables(ruleset)
    if block == 2:
        key = counts[_P] + 9 * counts[_P + 7] + 81 * counts[_P + 14] + 729 * counts[_P + 21]
        return tables.value(_P, key) >= 0
    if block == 0:
        return _best_block(counts, tables, _KAE, tables.command) is not None
    return _best_block(counts, tables, _RHC, tables.field) is not None


# The rank block of each kind (index = colour * 7 + rank), and its other two blocks, the
# soldiers' first (their test is one table look-up).
BLOCK_OF = tuple(RANK_BLOCK[i % NRANKS] for i in range(KINDS))
OTHER_BLOCKS = tuple(tuple(b for b in (2, 0, 1) if b != BLOCK_OF[i]) for i in range(KINDS))


def splits_with(hand: list[int], index: int, known: list[bool | None], ruleset: Ruleset,
                copies: int) -> bool:
    """Whether `hand` (28 counts) with one more card of kind `index`, at most `copies` of a
    kind, splits into melds: what a hand must pass to win with a live card. `known`: whether
    each of `hand`'s blocks splits (None: not asked yet), filled in as asked and kept by the
    caller until the hand changes, since most cards are refused by a block they leave alone."""
    for block in OTHER_BLOCKS[index]:
        ok = known[block]
        if ok is None:
            ok = known[block] = block_splits(hand, block, ruleset)
        if not ok:
            return False
    if hand[index] >= copies:
        return False
    hand[index] += 1
    ok = block_splits(hand, BLOCK_OF[index], ruleset)
    hand[index] -= 1
    return ok


def best_split_counts(counts: list[int], ruleset: Ruleset) -> Split | None:
    """`best_split` on a 28-long count list. ValueError when a kind is counted more times than
    the largest deck holds (`MAX_COPIES`: eight players' sets; the rank tables stop there)."""
    if max(counts) > MAX_COPIES:
        extra = CARDS[max(range(len(counts)), key=counts.__getitem__)]
        raise ValueError(
            f"{counts[extra.index]} copies of {extra.token}: the largest deck has {MAX_COPIES}"
        )
    tables = _tables(ruleset)
    blocks = (
        (_KAE, _best_block(counts, tables, _KAE, tables.command), "command"),
        (_RHC, _best_block(counts, tables, _RHC, tables.field), "field"),
    )
    soldiers_key = counts[6] + 9 * counts[13] + 81 * counts[20] + 729 * counts[27]
    total = tables.value(_P, soldiers_key)
    if total < 0:
        return None
    melds: list[Meld] = []
    per_rank_keys: dict[int, int] = {_P: soldiers_key}
    for ranks, found, kind in blocks:
        if found is None:
            return None
        total += found[0]
        take = found[1]
        for c, n in enumerate(take):
            for _ in range(n):
                melds.append(Meld(kind, tuple(CARDS[c * NRANKS + r] for r in ranks)))
        for r in ranks:
            per_rank_keys[r] = sum((counts[c * NRANKS + r] - take[c]) * _POW[c] for c in range(4))
    for r, key in per_rank_keys.items():
        for kind, colours in tables.melds[r][key]:
            melds.append(Meld(kind, tuple(CARDS[c * NRANKS + r] for c in colours)))
    melds.sort(key=lambda m: [x.index for x in m.cards])
    return Split(total, tuple(melds))


def best_split(cards: Iterable[Card], ruleset: Ruleset) -> Split | None:
    """The maximum hidden score over all ways to split `cards` into melds of `ruleset`, and a
    split that gives it; None when the cards do not split. No cards split into no melds (0)."""
    return best_split_counts(counts_of(cards), ruleset)
