"""The deal (RULES.md §8, §9): the pile's size, the copies rule over the deal and the Pile tag,
and which dealt hands may ask for a redeal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .cards import CARDS, KINDS, Card, cards_or_none, deck_copies, parse_card
from .errors import IllegalRecordError
from .notation import Record
from .rulesets import Ruleset


def pile_size(players: int) -> int:
    """Cards left to draw after the deal: 112 - 20N - 1 (71, 51, 31), and 8N - 1 from a deck
    of N copies with N > 4 players (39, 47, 55, 63)."""
    return KINDS * deck_copies(players) - 20 * players - 1


def qualifies_for_redeal(counts: Sequence[int], ruleset: Ruleset) -> bool:
    """A dealt hand with no general, no triple or quad, and no four-colour group (§8)."""
    for index, n in enumerate(counts):
        card = CARDS[index]
        if n and card.rank == "K":
            return False
        if n >= 3 and (ruleset.allows("triple", card.rank) or ruleset.allows("quad", card.rank)):
            return False
    for r, rank in enumerate("KAERHCP"):
        if ruleset.allows("four_colour", rank) and all(counts[c * 7 + r] for c in range(4)):
            return False
    return True


def pile_cards(tag: str) -> tuple[Card, ...]:
    """The cards of a Pile tag, in order; `BadCardToken` for a word that names none."""
    cards = cards_or_none(tag)
    if cards is not None:
        return cards
    return tuple(parse_card(t) for t in tag.split())  # raises for the first bad word


def check_deal(record: Record, pile: Sequence[Card] | None) -> None:
    """The first fault of the deal and the Pile tag, in seat and card order (ply 0)."""

    def fail(code: str, key: str, **params: Any) -> IllegalRecordError:
        line, col = record.position(key)
        return IllegalRecordError(code, line=line, col=col, ply=0, **params)

    for seat in range(1, record.players + 1):
        want = 21 if seat == record.dealer else 20
        got = len(record.deal[seat])
        if got != want:
            raise fail("deal.size", f"deal {seat}", seat=seat, n=got, m=want)
    counts = [0] * KINDS
    copies = deck_copies(record.players)
    for seat in range(1, record.players + 1):
        for card in record.deal[seat]:
            counts[card.index] += 1
            if counts[card.index] > copies:
                raise fail(
                    "copies.dealt", f"deal {seat}", n=counts[card.index], card=card.token
                )
    if pile is not None:
        size = pile_size(record.players)
        if len(pile) != size:
            raise fail("pile.size", "Pile", n=len(pile), m=size)
        for card in pile:
            counts[card.index] += 1
            if counts[card.index] > copies:
                raise fail("copies.pile", "Pile", n=counts[card.index], card=card.token)
