"""The round: one state object with push/replay semantics (RULES.md §2-§9).

`Round` holds every hand (as counts), display, the discard pile, the live card, the pile and
whose move it is. `Round.push(event)` checks one event against the rules and applies it, or
raises `IllegalRecordError` with the rule's category and a message; nothing changes then.
`validate(record)` replays a whole record and returns a `Game` with everything derived from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import CARDS, COPIES, DECK_SIZE, KINDS, Card, format_cards
from .cards import cards_or_none, parse_card
from .claims import Claim, ClaimRefused, ClaimRight, Live, claim_right, next_seat, resolve_claims
from .errors import FcnError, IllegalRecordError
from .melds import Meld, classify, meld_shape
from .moves import (
    WinOption,
    best_completing_win,
    can_complete,
    hidden_points,
    locked_ok,
    meld_claims,
    melds_with,
    rest_after,
)
from .notation import Event, Record
from .rulesets import RULESETS, Ruleset, get_ruleset
from .split import best_split_counts

OPENING, LIVE, MUST_DISCARD, ENDED = "opening", "live", "must-discard", "ended"
WIN = ClaimRight.WIN


class ClaimRecord(NamedTuple):
    """A claim that took effect: at which ply, by whom, under which right, on which card."""

    ply: int
    seat: int
    right: ClaimRight
    meld: Meld
    live: Live


# Builds a named tuple from a plain tuple without the Python-level `__new__` the class
# generates (a few hundred nanoseconds per event on the validation path).
_new_named_tuple = tuple.__new__
# Every live card a discard or a draw can make, built once: [seat][card index], for the seats
# a record can name (one digit). A live card is an immutable value, and even `tuple.__new__`
# costs more than two list look-ups on every discard and draw.
_DISCARD_LIVES = [[Live(i, seat, "discard") for i in range(KINDS)] for seat in range(10)]
_DRAW_LIVES = [[Live(i, seat, "draw") for i in range(KINDS)] for seat in range(10)]
# (A round built by hand may have more seats: its live cards are made as they come.)
# The same for the events `legal_events` lists: a discard, a draw, a redeal per seat and card.
_DISCARD_EVENTS = [[Event(seat, "x", (card,)) for card in CARDS] for seat in range(10)]
_DRAW_EVENTS = [[Event(seat, "d", (card,)) for card in CARDS] for seat in range(10)]
_REDEAL_EVENTS = [Event(seat, "r") for seat in range(10)]


class Illegal(Exception):
    """A rule broken by one event; `validate` adds where (line, column, ply, event)."""

    def __init__(self, category: str, message: str) -> None:
        super().__init__(message)
        self.category = category
        self.message = message


def pile_size(players: int) -> int:
    """Cards left to draw after the deal: 112 - 20N - 1 (71, 51, 31)."""
    return DECK_SIZE - 20 * players - 1


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


def settle(
    ruleset: Ruleset, players: int, seat: int, points: int, lucky_bonus: int = 0
) -> dict[int, int]:
    """Payments per seat when `seat` finishes (a win or a forced finish) with `points` (§7).

    classic: every other seat pays the finisher P. bga: at P >= T every other seat pays
    P - T + B plus the lucky bonus; a forced finish under T pays every other seat T + B
    (``below_threshold = fixed``) or T - P + B (``shortfall``). The payments sum to zero.
    """
    if ruleset.threshold is None:
        each = points
    elif points >= ruleset.threshold:
        each = points - ruleset.threshold + ruleset.base + lucky_bonus
    elif ruleset.below_threshold == "fixed":
        each = -(ruleset.threshold + ruleset.base)
    else:
        each = -(ruleset.threshold - points + ruleset.base)
    payments = {s: -each for s in range(1, players + 1)}
    payments[seat] = each * (players - 1)
    return payments


class _Later:
    """A `Finish` field that also takes a function of no arguments, called when the field is
    first read (a dataclass field with a descriptor as its default).

    A win's hidden melds need a full split, about three times the cost of its points alone;
    validating a record needs only the points, so the melds are found when someone asks."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._key = "_" + name

    def __get__(self, obj: object | None, owner: type | None = None) -> tuple[Meld, ...]:
        if obj is None:
            return ()  # the field's default, as dataclasses read it
        value: tuple[Meld, ...] | Callable[[], tuple[Meld, ...]] = obj.__dict__[self._key]
        if callable(value):
            value = value()
            obj.__dict__[self._key] = value
        return value

    def __set__(
        self, obj: object, value: tuple[Meld, ...] | Callable[[], tuple[Meld, ...]]
    ) -> None:
        obj.__dict__[self._key] = value


@dataclass
class Finish:
    """How a round ended, with the finisher's score and the payments."""

    outcome: str  # win, forced, exhausted, redeal, unfinished
    seat: int | None = None
    on: str | None = None  # draw or discard: where the winning card came from
    points: int | None = None
    exposed_points: int | None = None
    hidden_points: int | None = None
    exposed_melds: tuple[Meld, ...] = ()
    hidden_melds: _Later = _Later()  # a tuple of melds when read
    declared_split: bool = False
    best_hidden_points: int | None = None  # the maximum, shown beside a declared split
    lucky_card: Card | None = None
    lucky_bonus: int = 0
    settlement: dict[int, int] = field(default_factory=dict)
    lucky_error: Illegal | None = None

    @property
    def result_tag(self) -> str:
        if self.outcome in ("win", "forced"):
            return f"{self.seat}:{self.points}"
        return {"exhausted": "-", "redeal": "R", "unfinished": "*"}[self.outcome]


def _split_hidden(
    rest: Sequence[int], locked: Sequence[int], ruleset: Ruleset
) -> tuple[int, tuple[Meld, ...]] | None:
    """The best split of a finisher's hidden cards (counts) with its points; dealt sets still
    locked score as hidden triples/quads, unsplit. None when the cards do not split."""
    rest = list(rest)
    melds: list[Meld] = []
    points = 0
    for i, n in enumerate(locked):
        if n and rest[i] >= n:
            kind = "triple" if n == 3 else "quad"
            value = ruleset.points(kind, CARDS[i].rank)
            if value is None:
                continue  # not a meld of the ruleset (bga triple of generals): not locked
            rest[i] -= n
            melds.append(Meld(kind, (CARDS[i],) * n))
            points += value[0]
    split = best_split_counts(rest, ruleset)
    if split is None:
        return None
    ordered = sorted(melds + list(split.melds), key=lambda m: [c.index for c in m.cards])
    return split.points + points, tuple(ordered)


class _HiddenSplit:
    """The hidden melds of a win, found when first read (see `_Later`)."""

    __slots__ = ("rest", "locked", "ruleset")

    def __init__(self, rest: Sequence[int], locked: Sequence[int], ruleset: Ruleset) -> None:
        self.rest = tuple(rest)
        self.locked = tuple(locked)
        self.ruleset = ruleset

    def __call__(self) -> tuple[Meld, ...]:
        split = _split_hidden(self.rest, self.locked, self.ruleset)
        assert split is not None  # its points were found when the win was checked
        return split[1]


# What a meld takes from the hand (the cards besides the live one, and per kind the copies),
# and the meld the cards make under the round's ruleset (None: no meld).
_MeldPlan = tuple[tuple[Card, ...], tuple[tuple[int, int], ...], Meld | None]
# (meld cards, live card) -> its plan, per ruleset. Few melds recur; and finding the live card
# among the cards with `in`, `remove` and `count` compares Cards with ==, which goes through
# Python. The shipped rulesets keep theirs for the process (by name: only the shipped objects
# themselves use them); any other ruleset's round keeps its own.
_PLANS: dict[str, dict[tuple[tuple[Card, ...], Card], _MeldPlan]] = {}
_PLANS_SIZE = 20_000


def _plans_for(ruleset: Ruleset) -> dict[tuple[tuple[Card, ...], Card], _MeldPlan]:
    if ruleset is RULESETS.get(ruleset.name):
        return _PLANS.setdefault(ruleset.name, {})
    return {}


def _meld_plan(
    cards: tuple[Card, ...],
    live_card: Card,
    ruleset: Ruleset,
    plans: dict[tuple[tuple[Card, ...], Card], _MeldPlan],
) -> _MeldPlan | None:
    """The plan of a meld made with the live card (kept in `plans` for next time); None when
    the live card is not among the cards."""
    if live_card not in cards:
        return None
    from_hand = list(cards)
    from_hand.remove(live_card)
    needs: dict[int, int] = {}
    for card in from_hand:
        needs[card.index] = needs.get(card.index, 0) + 1
    plan = (tuple(from_hand), tuple(needs.items()), classify(cards, ruleset))
    if len(plans) < _PLANS_SIZE:
        plans[(cards, live_card)] = plan
    return plan


def _pile_cards(tag: str) -> tuple[Card, ...]:
    """The cards of a Pile tag, in order; `BadCardToken` for a word that names none."""
    cards = cards_or_none(tag)
    if cards is not None:
        return cards
    return tuple(parse_card(t) for t in tag.split())  # raises for the first bad word


class Round:
    """The state of one round. Seats are 1-based; `hands[s]` are 28 counts for seat s."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        dealer: int,
        deal: Mapping[int, Sequence[Card]],
        *,
        pile: Sequence[Card] | None = None,
        lucky: Card | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.players = players
        self.dealer = dealer
        # Copies dealt or drawn, for the 4-copies rule: every dealt card counted once.
        seen = [0] * KINDS
        hands: list[list[int]] = [[0] * KINDS]
        for s in range(1, players + 1):
            hand = [0] * KINDS
            # One pass for both counts: adding whole lists with map(operator.add) costs more
            # per seat than the extra increment costs per card.
            for card in deal.get(s, ()):
                index = card.index
                hand[index] += 1
                seen[index] += 1
            hands.append(hand)
        self.hands = hands
        self.dealt: list[list[int]] = [list(h) for h in hands]
        self.displays: list[list[Meld]] = [[] for _ in range(players + 1)]
        self.discards: list[tuple[int, Card]] = []  # unclaimed discards, oldest first
        self.pile = list(pile) if pile is not None else None
        self.pile_left = pile_size(players)
        self.drawn = 0
        self.seen = seen
        self.lucky_tag = lucky
        self.phase = OPENING
        self.live: Live | None = None
        self.actor = dealer  # who must act in OPENING / MUST_DISCARD, the drawer in LIVE draw
        self.opening_discard: Card | None = None
        self.calls: list[tuple[Claim, Event]] = []
        self.finish: Finish | None = None
        self.ply = 0
        self.locked: list[list[int]] = [[0] * KINDS for _ in range(players + 1)]
        if ruleset.dealt_sets_locked:
            for s in range(1, players + 1):
                hand = hands[s]
                if 3 not in hand and 4 not in hand:
                    continue  # no dealt set (two C-level scans instead of a Python loop)
                # Only sets that are melds of the ruleset lock (bga: three generals stay free).
                self.locked[s] = [
                    n
                    if n >= 3 and ruleset.allows("triple" if n == 3 else "quad", CARDS[i].rank)
                    else 0
                    for i, n in enumerate(hand)
                ]
        self.claims_log: list[ClaimRecord] = []
        self._plans = _plans_for(ruleset)

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_record(cls, record: Record, ruleset: Ruleset | None = None) -> Round:
        ruleset = ruleset or get_ruleset(record.ruleset_name)
        pile_tag = record.tag("Pile")
        lucky_tag = record.tag("Lucky")
        return cls(
            ruleset,
            record.players,
            record.dealer,
            record.deal,
            pile=_pile_cards(pile_tag) if pile_tag is not None else None,
            lucky=parse_card(lucky_tag) if lucky_tag is not None else None,
        )

    def copy(self) -> Round:
        """An independent copy (cheap: the values inside are immutable or copied here)."""
        other = Round.__new__(Round)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.displays = [list(d) for d in self.displays]
        other.discards = list(self.discards)
        other.locked = [list(x) for x in self.locked]
        other.seen = list(self.seen)
        other.calls = list(self.calls)
        other.claims_log = list(self.claims_log)
        return other

    # ------------------------------------------------------------------ queries

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    def hand_cards(self, seat: int) -> list[Card]:
        cards: list[Card] = []
        for i, n in enumerate(self.hands[seat]):
            if n:
                cards += (CARDS[i],) * n
        return cards

    def exposed_points(self, seat: int) -> int:
        ruleset = self.ruleset
        points = 0
        for meld in self.displays[seat]:
            points += meld.points(ruleset, exposed=True)
        return points

    def best_win(self, seat: int, card: Card) -> WinOption | None:
        """The best win `seat` could make with `card` now (ignoring who may claim it)."""
        hand = self.hands[seat]
        ruleset = self.ruleset
        # Most hands do not split with the card: a split check (table look-ups) refuses them
        # before the display's points and every meld with the card are looked at.
        if not can_complete(hand, card, ruleset):
            return None
        locked = self.locked[seat] if ruleset.dealt_sets_locked else None
        return best_completing_win(hand, card, ruleset, self.exposed_points(seat), locked)

    def meld_claims(self, seat: int) -> list[tuple[Meld, ClaimRight]]:
        """The plain melds `seat` may claim on the live card now, with their rights."""
        if self.phase != LIVE or self.live is None:
            return []
        locked = self.locked[seat] if self.ruleset.dealt_sets_locked else None
        return meld_claims(self.ruleset, self.players, self.live, seat, self.hands[seat], locked)

    def can_discard(self, seat: int) -> bool:
        """Whether the seat holds a card it may discard: not a general, not a locked set."""
        hand = self.hands[seat]
        if not self.ruleset.dealt_sets_locked:
            # Any kind held between the generals (at i % 7 == 0): a hand after a meld nearly
            # always holds one in its first colour, so this stops early (sum(hand) reads all).
            return any(hand[1:7]) or any(hand[8:14]) or any(hand[15:21]) or any(hand[22:])
        locked = self.locked[seat]
        return any(n and i % 7 != 0 and not locked[i] for i, n in enumerate(hand))

    # ------------------------------------------------------------------ legal events

    def legal_events(self) -> list[Event]:
        """Every event `push` would accept next, for any seat, in canonical form: the
        redeals and the dealer's discards before the first discard; a discard of each kind
        the seat to discard may let go; on a live card the draw (or the drawer's discard of
        its draw), then seat by seat its wins (once per distinct winning meld, the rest of the
        hand declared as its best split) and its plain melds (each distinct meld once).

        Competing calls (``c``, ``h``, an extension for what did not take effect) are not
        moves and are not listed; after listed calls, only the claims that outrank them."""
        phase = self.phase
        if phase == MUST_DISCARD:
            return self._discard_events(self.actor)
        if phase == OPENING:
            out = []
            if self.ruleset.redeal:
                for seat in range(1, self.players + 1):
                    if qualifies_for_redeal(self.dealt[seat], self.ruleset):
                        out.append(_REDEAL_EVENTS[seat] if seat < 10 else Event(seat, "r"))
            return out + self._discard_events(self.dealer)
        live = self.live
        if phase != LIVE or live is None:
            return []
        out = [] if self.calls else self._moves_on(live)
        for seat in range(1, self.players + 1):
            out += self._claim_events(seat, live)
        return out

    def _discard_events(self, seat: int) -> list[Event]:
        """A discard of each kind `seat` holds and may let go (no general, no locked set)."""
        hand = self.hands[seat]
        locked = self.locked[seat]
        events = _DISCARD_EVENTS[seat] if seat < 10 else [Event(seat, "x", (c,)) for c in CARDS]
        return [events[i] for i, n in enumerate(hand) if n and i % 7 and not locked[i]]

    def _moves_on(self, live: Live) -> list[Event]:
        """What follows a live card nobody claims: the draw after a discard (the Pile tag's
        next card, or without one any kind not yet dealt or drawn four times), or the drawer's
        discard of its draw (never a general)."""
        if live.source == "draw":
            card = CARDS[live.card_index]
            if card.rank == "K":
                return []
            seat = live.owner
            return [_DISCARD_EVENTS[seat][card.index] if seat < 10 else Event(seat, "x", (card,))]
        if self.pile_left == 0:
            return []
        seat = live.owner % self.players + 1
        events = _DRAW_EVENTS[seat] if seat < 10 else [Event(seat, "d", (c,)) for c in CARDS]
        seen = self.seen
        if self.pile is not None:
            index = self.pile[self.drawn].index
            return [events[index]] if seen[index] < COPIES else []
        return [events[i] for i in range(KINDS) if seen[i] < COPIES]

    def _claim_events(self, seat: int, live: Live) -> list[Event]:
        """`seat`'s wins and plain melds on the live card (none on its own discard)."""
        if seat == live.owner and live.source == "discard":
            return []
        calls = self.calls
        if calls and any(claim.seat == seat for claim, _ in calls):
            return []
        card = CARDS[live.card_index]
        out = self._win_events(seat, card)
        if (
            seat != live.owner
            and (live.source == "draw" or seat != live.owner % self.players + 1)
            and self.hands[seat][live.card_index] < 2
        ):
            # Not the drawer, not the seat after the discarder: only a pong or a gan, which
            # needs a hidden pair or triple of the card (what `claim_right` says, without
            # building every meld of the card first).
            return out
        for meld, right in self.meld_claims(seat):
            if calls and not self._outranks_calls(seat, right, live):
                continue
            out.append(Event(seat, "m", meld.cards))
        if calls and out and out[0].verb == "w" and not self._outranks_calls(seat, WIN, live):
            out = [e for e in out if e.verb != "w"]
        return out

    def _outranks_calls(self, seat: int, right: ClaimRight, live: Live) -> bool:
        claims = [claim for claim, _ in self.calls] + [Claim(seat, right)]
        return resolve_claims(claims, live, self.players).seat == seat

    def _win_events(self, seat: int, card: Card) -> list[Event]:
        """One win per distinct meld of `card` that completes the seat's hand (and reaches a
        bga threshold), the rest of the hand declared as its best split."""
        hand = self.hands[seat]
        ruleset = self.ruleset
        if not can_complete(hand, card, ruleset):
            return []
        locked = self.locked[seat] if ruleset.dealt_sets_locked else None
        exposed = self.exposed_points(seat)
        threshold = ruleset.threshold
        out = []
        for meld in melds_with(card, hand, ruleset):
            if not locked_ok(meld, card, locked):
                continue
            split = _split_hidden(rest_after(hand, meld, card), self.locked[seat], ruleset)
            if split is None:
                continue
            points = exposed + meld.points(ruleset, exposed=True) + split[0]
            if threshold is not None and points < threshold:
                continue
            out.append(Event(seat, "w", meld.cards, tuple(m.cards for m in split[1])))
        return out

    def expected(self) -> str:
        """What the round waits for, in words (for replays and messages)."""
        if self.phase == OPENING:
            return f"seat {self.dealer} (the dealer) to discard"
        if self.phase == MUST_DISCARD:
            return f"seat {self.actor} to discard"
        if self.phase == LIVE and self.live is not None:
            if self.live.source == "draw":
                return f"claims on seat {self.live.owner}'s draw, or its meld or discard"
            if self.pile_left == 0:
                return "claims on the last discard"
            return f"claims, or seat {next_seat(self.live.owner, self.players)} to draw"
        return "nothing: the round has ended"

    # ------------------------------------------------------------------ events

    def push(self, event: Event) -> None:
        """Apply one event, or raise `Illegal` (the state is unchanged then)."""
        if self.phase == ENDED:
            raise Illegal("after-end", "event after the round ended")
        seat, verb, cards = event[0], event[1], event[2]
        if not 1 <= seat <= self.players:
            raise Illegal("turn", f"there is no seat {seat} in a {self.players}-player round")
        if self.calls and verb not in "mwch":
            raise Illegal(
                "priority",
                "calls were made on the live card, so a claim must take effect next",
            )
        if verb == "x":
            self._discard(seat, cards[0])
        elif verb == "d":
            self._draw(seat, cards[0])
        elif verb == "m":
            self._meld(seat, event, False)
        elif verb == "w":
            self._meld(seat, event, True)
        elif verb in "ch":
            self._call(seat, event, win=verb == "h")
        elif verb == "r":
            self._redeal(seat)
        self.ply += 1

    def _discard(self, seat: int, card: Card) -> None:
        live = self.live
        phase = self.phase
        if phase == MUST_DISCARD and seat == self.actor:
            # The usual discard, after a meld. Its card is held, no general and not locked
            # (the checks of `_discard_from_hand`, inline: this runs for every other event).
            hand = self.hands[seat]
            index = card.index
            if hand[index] and card.rank != "K" and not self.locked[seat][index]:
                hand[index] -= 1
            else:
                self._discard_from_hand(seat, card)  # raises for the first rule broken
        elif phase == OPENING:
            if seat != self.dealer:
                raise Illegal(
                    "turn", f"seat {seat} cannot discard now: the dealer (seat {self.dealer}) opens"
                )
            self._discard_from_hand(seat, card)
            self.opening_discard = card
        elif phase == MUST_DISCARD:
            if seat != self.actor:
                raise Illegal(
                    "turn", f"seat {seat} cannot discard now (seat {self.actor} must discard)"
                )
            self._discard_from_hand(seat, card)
        elif live is not None and live.source == "draw":
            if seat != live.owner:
                raise Illegal("turn", f"only the drawer (seat {live.owner}) may discard now")
            drawn = CARDS[live.card_index]
            if card.rank == "K":
                raise Illegal("discard-general", "generals are never discarded")
            if card is not drawn:
                raise Illegal(
                    "not-live",
                    f"the drawer must meld or discard the drawn {drawn}, not discard {card}",
                )
        else:
            raise Illegal("turn", f"seat {seat} cannot discard now (a claim or draw is due)")
        self.discards.append((seat, card))
        index = card.index
        self.live = _DISCARD_LIVES[seat][index] if seat < 10 else Live(index, seat, "discard")
        self.phase = LIVE

    def _discard_from_hand(self, seat: int, card: Card) -> None:
        hand = self.hands[seat]
        index = card.index
        if hand[index] == 0:
            raise Illegal("not-in-hand", f"seat {seat} does not hold {card}")
        if card.rank == "K":
            raise Illegal("discard-general", "generals are never discarded")
        if self.locked[seat][index]:
            raise Illegal(
                "locked", f"seat {seat}'s dealt set of {card} is locked (dealt_sets_locked)"
            )
        hand[index] -= 1

    def _draw(self, seat: int, card: Card) -> None:
        live = self.live
        if self.phase != LIVE or live is None or live.source != "discard":
            raise Illegal("turn", f"seat {seat} cannot draw now")
        drawer = live.owner % self.players + 1  # next_seat, inlined
        if seat != drawer:
            raise Illegal("turn", f"seat {drawer} draws, not seat {seat}")
        if self.pile_left == 0:
            raise Illegal("empty-pile", f"seat {seat} draws from an empty pile")
        pile = self.pile
        if pile is not None:
            expected = pile[self.drawn]
            if expected is not card:
                raise Illegal("pile-mismatch", f"the pile gives {expected}, not {card}")
        index = card.index
        seen = self.seen
        if seen[index] >= COPIES:
            raise Illegal("too-many-copies", f"{seen[index] + 1} copies of {card} dealt and drawn")
        seen[index] += 1
        self.drawn += 1
        self.pile_left -= 1
        self.live = _DRAW_LIVES[seat][index] if seat < 10 else Live(index, seat, "draw")

    def _check_meld(
        self, seat: int, event: Event, win: bool
    ) -> tuple[Meld, ClaimRight, tuple[tuple[int, int], ...]]:
        """The meld, the right it is claimed under and what it takes from the hand (kind,
        copies), or `Illegal` for the first rule it breaks."""
        live = self.live
        if self.phase != LIVE or live is None:
            verb = "win" if win else "meld"
            raise Illegal("turn", f"seat {seat} cannot {verb} now: no live card")
        live_card = CARDS[live.card_index]
        cards = event.cards
        plan = self._plans.get((cards, live_card)) or _meld_plan(
            cards, live_card, self.ruleset, self._plans
        )
        if plan is None:
            raise Illegal("not-live", f"the meld does not contain the live card {live_card}")
        from_hand, needs, meld = plan
        hand = self.hands[seat]
        for index, copies in needs:
            if hand[index] < copies:
                raise Illegal("not-in-hand", f"seat {seat} does not hold {format_cards(from_hand)}")
        if meld is None:
            shape = meld_shape(sorted(cards, key=lambda c: c.index))
            why = f"a {shape} of {live_card.rank}" if shape else format_cards(cards)
            raise Illegal("not-a-meld", f"{why} is not a meld of {self.ruleset.name}")
        try:
            right = claim_right(
                self.ruleset, self.players, live, seat, meld.kind, live_card.rank, win=win
            )
        except ClaimRefused as refused:
            raise Illegal("claim-right", str(refused)) from None
        if not self.ruleset.dealt_sets_locked:
            return meld, right, needs
        locked = self.locked[seat]
        for card in from_hand:
            if locked[card.index] and not (
                meld.kind == "quad"
                and right in (ClaimRight.GAN, ClaimRight.OWN_DRAW, ClaimRight.WIN)
            ):
                raise Illegal(
                    "locked", f"seat {seat}'s dealt set of {card} is locked (dealt_sets_locked)"
                )
        return meld, right, needs

    def _call(self, seat: int, event: Event, *, win: bool) -> None:
        """A competing call that did not take effect (extension): checked like the claim."""
        if any(claim.seat == seat for claim, _ in self.calls):
            raise Illegal("priority", f"seat {seat} has already called this card")
        meld, right, needs = self._check_meld(seat, event, win)
        if win:
            self._win_score(seat, meld, event, needs)
        self.calls.append((Claim(seat, right), event))

    def _meld(self, seat: int, event: Event, win: bool) -> None:
        meld, right, needs = self._check_meld(seat, event, win)
        live = self.live
        assert live is not None
        if self.calls:
            if any(claim.seat == seat for claim, _ in self.calls):
                raise Illegal(
                    "priority", f"seat {seat} called this card, so its call did not take effect"
                )
            claims = [c for c, _ in self.calls] + [Claim(seat, right)]
            chosen = resolve_claims(claims, live, self.players)
            if chosen.seat != seat:
                raise Illegal(
                    "priority",
                    f"seat {chosen.seat}'s {chosen.right.label} takes priority over seat "
                    f"{seat}'s {right.label}",
                )
        finish = self._win_score(seat, meld, event, needs) if win else None
        # Apply the meld: the hand gives the cards besides the live one.
        hand = self.hands[seat]
        for index, copies in needs:
            hand[index] -= copies
        live_card = CARDS[live.card_index]
        melded = meld.cards
        if self.ruleset.dealt_sets_locked:
            locked = self.locked[seat]
            for card in melded:
                if locked[card.index]:
                    for other in melded:
                        locked[other.index] = 0
                    break
        discards = self.discards
        if live.source == "discard" and discards and discards[-1][1] is live_card:
            discards.pop()  # a claimed discard leaves the discard pile
        self.displays[seat].append(meld)
        logged = _new_named_tuple(ClaimRecord, (self.ply + 1, seat, right, meld, live))
        self.claims_log.append(logged)
        if self.calls:
            self.calls = []
        self.live = None
        if finish is not None:
            self._end(finish)
            return
        if not self.can_discard(seat):
            # Nothing to discard (empty, all generals, or only locked sets): forced finish.
            self._end(self._forced_score(seat, live))
            return
        self.phase = MUST_DISCARD
        self.actor = seat

    def _redeal(self, seat: int) -> None:
        if not self.ruleset.redeal:
            raise Illegal("redeal", f"ruleset {self.ruleset.name} has no redeal")
        if self.phase != OPENING:
            raise Illegal("redeal", "redeal only before the dealer's first discard")
        if not qualifies_for_redeal(self.dealt[seat], self.ruleset):
            raise Illegal("redeal", f"seat {seat}'s dealt hand does not qualify for a redeal")
        self._end(Finish("redeal", seat=seat, settlement=self._zero()))

    # ------------------------------------------------------------------ scoring

    def _zero(self) -> dict[int, int]:
        return {s: 0 for s in range(1, self.players + 1)}

    def _hidden_split(self, seat: int, rest: list[int]) -> tuple[int, tuple[Meld, ...]] | None:
        return _split_hidden(rest, self.locked[seat], self.ruleset)

    def _win_score(
        self, seat: int, meld: Meld, event: Event, needs: tuple[tuple[int, int], ...]
    ) -> Finish:
        """The finish of a win with `meld`, which takes `needs` (kind, copies) from the hand
        besides the live card (see `_check_meld`)."""
        live = self.live
        assert live is not None
        rest = list(self.hands[seat])
        for index, copies in needs:
            rest[index] -= copies
        locked = self.locked[seat]
        best = hidden_points(rest, self.ruleset, locked)  # the melds only when asked for
        hidden: tuple[int, tuple[Meld, ...] | _HiddenSplit]
        if event.groups:
            hidden_melds = []
            declared = [0] * KINDS
            for group in event.groups:
                g = classify(group, self.ruleset)
                if g is None:
                    raise Illegal(
                        "bad-split", f"declared group ({format_cards(group)}) is not a meld"
                    )
                hidden_melds.append(g)
                for card in group:
                    declared[card.index] += 1
            if declared != rest:
                raise Illegal(
                    "bad-split",
                    "the declared split does not cover the rest of the hand "
                    f"({format_cards(CARDS[i] for i, n in enumerate(rest) for _ in range(n))})",
                )
            for i, n in enumerate(self.locked[seat]):
                if (
                    n
                    and rest[i] >= n
                    and not any(
                        m.cards[0].index == i
                        and len(m.cards) >= n
                        and meld_shape(m.cards) in ("triple", "quad")
                        for m in hidden_melds
                    )
                ):
                    raise Illegal("bad-split", f"the locked dealt set of {CARDS[i]} is split")
            declared_points = sum(m.points(self.ruleset, exposed=False) for m in hidden_melds)
            hidden = (declared_points, tuple(hidden_melds))
        else:
            if best is None:
                raise Illegal("no-win", f"seat {seat}'s hand does not split into melds")
            hidden = (best, _HiddenSplit(rest, tuple(locked), self.ruleset))
        exposed = tuple(self.displays[seat]) + (meld,)
        exposed_points = self.exposed_points(seat) + meld.points(self.ruleset, exposed=True)
        points = exposed_points + hidden[0]
        threshold = self.ruleset.threshold
        if threshold is not None and points < threshold:
            raise Illegal(
                "no-win",
                f"seat {seat}'s melds score {points}, under the {self.ruleset.name} threshold "
                f"{threshold}",
            )
        finish = Finish(
            "win",
            seat=seat,
            on=live.source,
            points=points,
            exposed_points=exposed_points,
            hidden_points=hidden[0],
            exposed_melds=exposed,
            hidden_melds=hidden[1],
            declared_split=bool(event.groups),
            best_hidden_points=best,
        )
        self._settle(finish, rest)
        return finish

    def _forced_score(self, seat: int, live: Live) -> Finish:
        hidden = self._hidden_split(seat, self.hands[seat])
        assert hidden is not None  # an empty or all-generals hand always splits
        exposed = tuple(self.displays[seat])
        exposed_points = self.exposed_points(seat)
        finish = Finish(
            "forced",
            seat=seat,
            on=live.source,
            points=exposed_points + hidden[0],
            exposed_points=exposed_points,
            hidden_points=hidden[0],
            exposed_melds=exposed,
            hidden_melds=hidden[1],
            best_hidden_points=hidden[0],
        )
        self._settle(finish, self.hands[seat])
        return finish

    def _lucky(self) -> Card:
        """The lucky card turned after a bga win (§7): the pile's next card, or the dealer's
        opening discard when the pile is used up; without a Pile tag, the Lucky tag."""
        if self.pile_left == 0:
            lucky = self.opening_discard
            assert lucky is not None
            if self.lucky_tag is not None and self.lucky_tag is not lucky:
                raise Illegal(
                    "lucky",
                    f"Lucky says {self.lucky_tag}, but the pile is used up "
                    f"and the dealer's opening discard {lucky} serves",
                )
            return lucky
        if self.pile is not None:
            lucky = self.pile[self.drawn]
            if self.lucky_tag is not None and self.lucky_tag is not lucky:
                raise Illegal("lucky", f"Lucky says {self.lucky_tag}, the pile gives {lucky}")
            return lucky
        if self.lucky_tag is None:
            raise Illegal("lucky", "a bga win needs its lucky card: a Lucky or Pile tag")
        # The copies rule counts the deal and the draws (§9), not the lucky card.
        return self.lucky_tag

    def _settle(self, finish: Finish, hidden: Sequence[int]) -> None:
        """Lucky card and payments; `hidden`: the counts of the finisher's hidden cards."""
        rs = self.ruleset
        assert finish.seat is not None and finish.points is not None
        if rs.threshold is not None and finish.points >= rs.threshold and rs.lucky_draw:
            try:
                lucky = self._lucky()
            except Illegal as err:
                # Reported when the record ends (ply N+1), like a disagreeing Result.
                finish.lucky_error = err
                lucky = None
            finish.lucky_card = lucky
            # The finisher's 21 cards are exactly its exposed melds and its hidden cards.
            finish.lucky_bonus = (0 if lucky is None else hidden[lucky.index]) + sum(
                1 for m in finish.exposed_melds for c in m.cards if c is lucky
            )
        finish.settlement = settle(rs, self.players, finish.seat, finish.points, finish.lucky_bonus)

    def _end(self, finish: Finish) -> None:
        self.finish = finish
        self.phase = ENDED
        self.live = None

    def end_of_record(self) -> Finish:
        """How the round stands when the record stops: ended, exhausted or unfinished."""
        if self.finish is not None:
            if self.finish.lucky_error is not None:
                raise self.finish.lucky_error
            return self.finish
        if self.calls:
            return Finish("unfinished", settlement=self._zero())
        if (
            self.phase == LIVE
            and self.live is not None
            and self.live.source == "discard"
            and self.pile_left == 0
        ):
            return Finish("exhausted", settlement=self._zero())
        return Finish("unfinished", settlement=self._zero())


# ---------------------------------------------------------------------- validation


@dataclass
class Game:
    """A validated round: the record, its ruleset and everything derived by replaying it."""

    record: Record
    ruleset: Ruleset
    finish: Finish
    round: Round
    claims: list[ClaimRecord]

    @property
    def outcome(self) -> str:
        return self.finish.outcome

    @property
    def seat(self) -> int | None:
        return self.finish.seat

    @property
    def on(self) -> str | None:
        return self.finish.on

    @property
    def points(self) -> int | None:
        return self.finish.points

    @property
    def exposed_points(self) -> int | None:
        return self.finish.exposed_points

    @property
    def hidden_points(self) -> int | None:
        return self.finish.hidden_points

    @property
    def lucky_card(self) -> Card | None:
        return self.finish.lucky_card

    @property
    def lucky_bonus(self) -> int:
        return self.finish.lucky_bonus

    @property
    def settlement(self) -> dict[int, int]:
        return self.finish.settlement

    @property
    def result_tag(self) -> str:
        return self.finish.result_tag

    @property
    def event_count(self) -> int:
        return len(self.record.events)

    @property
    def winning_melds(self) -> list[tuple[Meld, bool]]:
        """The finisher's melds with whether each is exposed (display) or hidden."""
        return [(m, True) for m in self.finish.exposed_melds] + [
            (m, False) for m in self.finish.hidden_melds
        ]

    def summary(self) -> dict[str, Any]:
        """The verdict as plain data (the command line's and the API's `result`)."""
        f = self.finish
        return {
            "outcome": f.outcome,
            "seat": f.seat,
            "on": f.on,
            "points": f.points,
            "exposed_points": f.exposed_points,
            "hidden_points": f.hidden_points,
            "lucky_card": f.lucky_card.token if f.lucky_card else None,
            "lucky_bonus": f.lucky_bonus,
            "settlement": {str(s): d for s, d in sorted(f.settlement.items())},
            "result": f.result_tag,
        }


def _where(record: Record, ply: int, event: Event | None) -> dict[str, Any]:
    if event is None:
        line = record.first_line
        last = record.events[-1] if record.events else None
        if last is not None:
            line = last.line
        return {"line": line, "col": 1, "ply": ply, "event": ""}
    return {"line": event.line, "col": event.col, "ply": ply, "event": event.text()}


def _deal_is_sound(record: Record, state: Round) -> bool:
    """Whether `_check_deal` would find nothing, decided with whole-list operations: the
    sizes first, then the copies (the round has counted the deal already)."""
    deal = record.deal
    dealer = state.dealer
    for seat in range(1, state.players + 1):
        if len(deal[seat]) != (21 if seat == dealer else 20):
            return False
    seen = state.seen
    if max(seen) > COPIES:
        return False
    pile = state.pile
    if pile is None:
        return True
    if len(pile) != pile_size(state.players):
        return False
    counts = list(seen)
    for card in pile:
        counts[card.index] += 1
    return max(counts) <= COPIES


def _check_deal(record: Record, ruleset: Ruleset, pile: Sequence[Card] | None) -> None:
    """The first fault of the deal and the Pile tag, in seat and card order (ply 0)."""

    def fail(category: str, message: str, key: str) -> IllegalRecordError:
        line, col = record.position(key)
        return IllegalRecordError(message, category=category, line=line, col=col, ply=0)

    for seat in range(1, record.players + 1):
        want = 21 if seat == record.dealer else 20
        got = len(record.deal[seat])
        if got != want:
            raise fail("deal", f"seat {seat} is dealt {got} cards, not {want}", f"deal {seat}")
    counts = [0] * KINDS
    for seat in range(1, record.players + 1):
        for card in record.deal[seat]:
            counts[card.index] += 1
            if counts[card.index] > COPIES:
                raise fail(
                    "too-many-copies",
                    f"{counts[card.index]} copies of {card} dealt",
                    f"deal {seat}",
                )
    if pile is not None:
        size = pile_size(record.players)
        if len(pile) != size:
            raise fail("pile-mismatch", f"the Pile tag holds {len(pile)} cards, not {size}", "Pile")
        for card in pile:
            counts[card.index] += 1
            if counts[card.index] > COPIES:
                raise fail(
                    "too-many-copies",
                    f"{counts[card.index]} copies of {card} in the deal and the Pile tag",
                    "Pile",
                )


def validate(record: Record, ruleset: Ruleset | None = None) -> Game:
    """Replay a record under its ruleset; the `Game` on success, else an `FcnError` at the
    first fault in event order (tags and deal first, ply 0)."""
    if ruleset is None:
        try:
            ruleset = get_ruleset(record.ruleset_name)
        except ValueError:
            line, col = record.position("Ruleset")
            raise IllegalRecordError(
                f"unknown ruleset {record.ruleset_name!r}", category="tags", line=line, col=col
            ) from None
    state = Round.from_record(record, ruleset)  # reads the Pile tag once, for both
    if not _deal_is_sound(record, state):
        _check_deal(record, ruleset, state.pile)  # finds the fault to report
    push = state.push
    for ply, event in enumerate(record.events, start=1):
        try:
            push(event)
        except Illegal as err:
            raise IllegalRecordError(
                err.message, category=err.category, **_where(record, ply, event)
            ) from None
    if record.syntax_error is not None:
        raise record.syntax_error
    end = len(record.events) + 1
    try:
        finish = state.end_of_record()
    except Illegal as err:
        raise IllegalRecordError(
            err.message, category=err.category, **_where(record, end, None)
        ) from None
    stated = record.tag("Result")
    if finish.outcome == "unfinished":
        if stated != "*":
            raise IllegalRecordError(
                "the record stops before the round ends",
                category="truncated",
                **_where(record, end, None),
            )
    elif stated is not None and stated != finish.result_tag:
        raise IllegalRecordError(
            f"Result says {stated!r}, the round gives {finish.result_tag!r}",
            category="result-mismatch",
            **_where(record, end, None),
        )
    return Game(record, ruleset, finish, state, state.claims_log)


__all__ = [
    "FcnError",
    "Finish",
    "Game",
    "Round",
    "pile_size",
    "qualifies_for_redeal",
    "settle",
    "validate",
]
