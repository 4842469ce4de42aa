"""Cards: 4 colours x 7 ranks, four copies of each of the 28 kinds (RULES.md §1).

A `Card` is a kind (colour and rank); copies are not told apart. The 28 kinds are created once
and interned: `Card("r", "A")`, `parse_card("rA")`, `CARDS[1]`, a copy and an unpickled card are
one object, so the engine compares cards with `is` and they hash by identity as cheaply as by
value. `Card.index` gives the canonical order used everywhere counts are kept in a flat list.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import total_ordering

COLOURS = "rygw"
RANKS = "KAERHCP"
# Red and yellow use the red side's xiangqi glyphs, green and white the black side's.
_GLYPHS_WARM = "帥仕相俥傌炮兵"
_GLYPHS_COOL = "將士象車馬包卒"
COPIES = 4
KINDS = len(COLOURS) * len(RANKS)  # 28
MAX_COPIES = 8  # the deck of eight players (RULES.md §2)


def deck_copies(players: int) -> int:
    """Copies of each kind at a table of `players`: 4, or one extra set per player over four
    (RULES.md §2: 5 to 8 copies, 140 to 224 cards)."""
    return players if players > COPIES else COPIES


@total_ordering
class Card:
    """One kind of card, e.g. ``rK`` (red general). Immutable and interned: ``Card("r", "K")``
    is the one red general (`CARDS[0]`), whichever way it is made."""

    __slots__ = ("colour", "rank", "index", "token", "glyph")

    colour: str
    rank: str
    index: int
    token: str
    glyph: str

    def __new__(cls, colour: str, rank: str) -> Card:
        token = colour + rank
        known = _BY_TOKEN.get(token)
        if known is not None and known.colour == colour:
            return known
        if len(colour) != 1 or len(rank) != 1 or colour not in COLOURS or rank not in RANKS:
            raise BadCardToken(token)
        # Only while the module builds `CARDS`: every later call finds its card above.
        card = object.__new__(cls)
        ci, ri = COLOURS.index(colour), RANKS.index(rank)
        object.__setattr__(card, "colour", colour)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", ci * len(RANKS) + ri)
        object.__setattr__(card, "token", colour + rank)
        glyphs = _GLYPHS_WARM if colour in "ry" else _GLYPHS_COOL
        object.__setattr__(card, "glyph", glyphs[ri])
        _BY_TOKEN[card.token] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.token,))

    def __repr__(self) -> str:
        return f"Card({self.token!r})"

    def __str__(self) -> str:
        return self.token

    # Ordered by `index` (the canonical order), like any other value: every comparison works
    # (`total_ordering` makes the others; equal cards are the same object).
    def __lt__(self, other: object) -> bool:
        return self.index < other.index if isinstance(other, Card) else NotImplemented


_BY_TOKEN: dict[str, Card] = {}  # filled by Card.__new__, once per kind
CARDS: tuple[Card, ...] = tuple(Card(c, r) for c in COLOURS for r in RANKS)


class BadCardToken(ValueError):
    """A token that names no card. The notation layer turns it into a positioned error."""

    def __init__(self, token: str) -> None:
        super().__init__(f"no such card {token!r}")
        self.token = token


def parse_card(token: str) -> Card:
    """The card a token like ``rK`` names; `BadCardToken` (a ValueError) otherwise."""
    card = _BY_TOKEN.get(token)
    if card is None:
        raise BadCardToken(token)
    return card


def card_or_none(token: str) -> Card | None:
    return _BY_TOKEN.get(token)


def cards_or_none(text: str) -> tuple[Card, ...] | None:
    """The cards of whitespace-separated card words (a Pile tag, a deal line's cards), or None
    when a word names no card."""
    try:
        return tuple(map(_BY_TOKEN.__getitem__, text.split()))
    except KeyError:  # a word that names no card
        return None


def full_deck(players: int = 4) -> list[Card]:
    """Every card of the deck of `players` in canonical order (112: four copies of each kind;
    N copies with N > 4 players)."""
    copies = deck_copies(players)
    return [card for card in CARDS for _ in range(copies)]


def counts_of(cards: Iterable[Card]) -> list[int]:
    """A 28-long list of how many copies of each kind `cards` holds."""
    counts = [0] * KINDS
    for card in cards:
        counts[card.index] += 1
    return counts


def _index(card: Card) -> int:
    return card.index


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_index)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.token for card in cards)
