"""Melds: recognise a group of cards as a meld of a ruleset and score it (RULES.md §4)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, format_cards, sort_cards
from .rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld: its kind (``pair``, ``command``, ...) and its cards in canonical order."""

    kind: str
    cards: tuple[Card, ...]

    @property
    def rank(self) -> str:
        return self.cards[0].rank

    def points(self, ruleset: Ruleset, *, exposed: bool) -> int:
        value = ruleset.points(self.kind, self.cards[0].rank)  # self.rank, without a call
        if value is None:  # a Meld is only built for kinds the ruleset has
            raise ValueError(f"{self.kind} of {self.rank} is not a meld of {ruleset.name}")
        return value[1] if exposed else value[0]

    def greedy_rank(self, ruleset: Ruleset) -> tuple[int, int, int]:
        """The greedy bot's order among the melds it may claim, highest first: the most
        exposed points, then the most cards, then the lowest first card."""
        return (self.points(ruleset, exposed=True), len(self.cards), -self.cards[0].index)

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __reduce__(self) -> tuple[type[Meld], tuple[str, tuple[Card, ...]]]:
        # Pickled and copied through the constructor: compiled (fourcolor/compiled.py), a frozen
        # dataclass cannot be filled in field by field.
        return (Meld, (self.kind, self.cards))


def meld_shape(cards: Sequence[Card]) -> str | None:
    """The kind of meld these cards form by shape alone, ignoring what a ruleset allows."""
    n = len(cards)
    if n == 0 or n > 4:
        return None
    first = cards[0]
    if n == 1:
        return "lone" if first.rank == "K" else None
    if all(c is first for c in cards):
        return {2: "pair", 3: "triple", 4: "quad"}[n]
    if all(c.rank == first.rank for c in cards):
        if len({c.colour for c in cards}) == n and n >= 3:
            return "three_colour" if n == 3 else "four_colour"
        return None
    if n == 3 and all(c.colour == first.colour for c in cards):
        ranks = "".join(sorted(c.rank for c in cards))
        if ranks == "AEK":
            return "command"
        if ranks == "CHR":
            return "field"
    return None


_UNKNOWN = object()
_CLASSIFIED_SIZE = 100_000


def classify(cards: Iterable[Card], ruleset: Ruleset) -> Meld | None:
    """The meld these cards form under `ruleset`, or None when they are not one."""
    given = tuple(cards)
    # Few groups recur: the ruleset's cache keeps validation fast (one look-up).
    classified = ruleset.caches.classified
    known = classified.get(given, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    ordered = tuple(sort_cards(given))
    kind = meld_shape(ordered)
    meld = None
    if kind is not None and ruleset.allows(kind, ordered[0].rank):
        meld = Meld(kind, ordered)
    if len(classified) < _CLASSIFIED_SIZE:
        classified[given] = meld
    return meld
