"""The bots that play by fixed rules: ``random`` picks uniformly among the legal choices
(claims it may decline, melds, discards); ``greedy`` values points: it always wins when it can
(taking the best-scoring win), claims the meld worth most (in a ruleset with a threshold, never
one that ends the round by a forced finish under it while it has another choice), and discards
the card that helps its hand least. The table that seats them (`fourcolor.generate`) enforces
the rules and offers them only legal choices."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .cards import Card
from .claims import ClaimRight
from .melds import Meld
from .notation import Event
from .playout import partners
from .round import Round
from .rulesets import Ruleset


@dataclass
class Option:
    seat: int
    right: ClaimRight
    meld: Meld
    points: int  # for wins
    event: Event  # the listed event


class Bot(ABC):
    """Decisions for one seat. Subclasses pick; the table enforces the rules."""

    # Whether the table offers `choose_meld` only the melds that do not end the round by a
    # forced finish under the ruleset's threshold (when there are any): such a finish pays
    # every other seat T + B (RULES.md §7), the worst result a seat can bring on itself.
    careful = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seat = 0

    def sit(self, state: Round, seat: int) -> None:
        """Told its seat, and the round it plays in, before the play starts (only the analyst
        looks at the round, and only at what its seat may see)."""
        self.seat = seat

    def redeal(self) -> bool:
        return self.rng.random() < 0.5

    def take_win(self, option: Option) -> bool:
        return True

    @abstractmethod
    def choose_meld(self, options: list[Option], hand: list[int], rs: Ruleset) -> Option | None:
        """The meld to claim among `options`, or None to decline."""

    @abstractmethod
    def choose_discard(self, hand: list[int], legal: list[Card], rs: Ruleset) -> Card:
        """The card to discard among `legal`."""


class RandomBot(Bot):
    def take_win(self, option: Option) -> bool:
        return self.rng.random() < 0.95

    def choose_meld(self, options: list[Option], hand: list[int], rs: Ruleset) -> Option | None:
        if not options or self.rng.random() < 0.3:
            return None
        return self.rng.choice(options)

    def choose_discard(self, hand: list[int], legal: list[Card], rs: Ruleset) -> Card:
        return self.rng.choice(legal)


def hand_partners(card: Card, hand: list[int], rs: Ruleset, careful: bool = True) -> float:
    """How much a card works with the rest of the hand (higher: keep it): `playout.partners`
    with the ruleset's switches for the card's rank. `careful=False`: every rank as if its
    pairs were melds (the greedy bot before its soldier rule, `GreedyBot`)."""
    return partners(card.index, hand, rs.allows("three_colour", card.rank),
                    rs.allows("pair", card.rank) or not careful)


class GreedyBot(Bot):
    def __init__(self, rng: random.Random, *, careful: bool = True) -> None:
        # careful=False: the greedy bot as it was before it learnt its two bga rules, the
        # forced-finish rule (`Bot.careful`) and the soldier discards (`hand_partners`), kept
        # for comparisons (bench/analysis.py) and for records pinned to it (the demo, fixtures).
        super().__init__(rng)
        self.careful = careful

    def redeal(self) -> bool:
        return True

    def choose_meld(self, options: list[Option], hand: list[int], rs: Ruleset) -> Option | None:
        if not options:
            return None
        return max(
            options,
            key=lambda o: (
                o.meld.points(rs, exposed=True),
                len(o.meld.cards),
                -o.meld.cards[0].index,
            ),
        )

    def choose_discard(self, hand: list[int], legal: list[Card], rs: Ruleset) -> Card:
        return min(
            legal, key=lambda c: (hand_partners(c, hand, rs, self.careful), self.rng.random())
        )
