"""The bots that play by fixed rules: ``random`` picks uniformly among the legal choices
(claims it may decline, melds, discards); ``greedy`` values points: it always wins when it can
(taking the best-scoring win), claims the meld worth most (in a ruleset with a threshold, never
one that ends the round by a forced finish under it while it has another choice), and discards
the card that helps its hand least; ``patient`` plays as ``greedy`` but keeps a ready hand
ready: it discards among the cards whose discard leaves the hand ready, and lets a live card go
rather than make a meld after which it would not be. The table that seats them
(`fourcolor.generate`) enforces the rules and offers them only legal choices."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .cards import CARDS, Card
from .claims import ClaimRight, must_meld
from .melds import Meld
from .notation import Event
from .hands import partners, ready, ready_discards, stays_ready
from .round import LIVE, Round
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
        self.state: Round | None = None

    def sit(self, state: Round, seat: int) -> None:
        """Told its seat, and the round it plays in, before the play starts (the bots look at
        the round only for what their seat may see: its hand, its display, the live card)."""
        self.state, self.seat = state, seat

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
    """How much a card works with the rest of the hand (higher: keep it): `hands.partners`
    with the ruleset's switches for the card's rank. `careful=False`: every rank as if its
    pairs were melds (the greedy bot before its soldier rule, `GreedyBot`)."""
    return partners(card.index, hand, rs.allows("three_colour", card.rank),
                    rs.allows("pair", card.rank) or not careful)


class GreedyBot(Bot):
    def __init__(
        self, rng: random.Random, *, careful: bool = True, patient: bool = False
    ) -> None:
        # careful=False: the greedy bot without its two bga rules, the forced-finish rule
        # (`Bot.careful`) and the soldier discards (`hand_partners`), for comparisons
        # (bench/analysis.py) and the records played by it (the demo, fixtures).
        # patient=True: the patient bot (module docstring).
        super().__init__(rng)
        self.careful = careful
        self.patient = patient

    def redeal(self) -> bool:
        return True

    def _mine(self) -> tuple[Round, int, list[int] | None]:
        """The round, the seat's exposed points and its locked dealt sets (None: not locked)."""
        state = self.state
        assert state is not None, "the table seats every bot"
        locked = state.locked[self.seat] if state.ruleset.dealt_sets_locked else None
        return state, state.exposed_points(self.seat), locked

    def choose_meld(self, options: list[Option], hand: list[int], rs: Ruleset) -> Option | None:
        if not options:
            return None
        pick = max(options, key=lambda o: o.meld.greedy_rank(rs))
        if self.patient:
            state, exposed, locked = self._mine()
            live = state.live
            assert state.phase == LIVE and live is not None
            card = CARDS[live.card_index]
            if (
                not must_meld(live, self.seat)
                and ready(list(hand), exposed, rs, state.copies, locked)
                and not stays_ready(hand, exposed, pick.meld, card, rs, state.copies, locked)
            ):
                return None
        return pick

    def choose_discard(self, hand: list[int], legal: list[Card], rs: Ruleset) -> Card:
        keys = {c: (hand_partners(c, hand, rs, self.careful), self.rng.random()) for c in legal}
        if self.patient:
            state, exposed, locked = self._mine()
            kept = ready_discards(list(hand), exposed, rs, state.copies, locked)
            if kept:
                legal = [c for c in legal if c.index in kept]
        return min(legal, key=keys.__getitem__)
