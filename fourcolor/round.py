"""The round: one state object with push/replay semantics (RULES.md §2-§9).

`Round` holds every hand (as counts), display, the discard pile, the live card, the pile and
whose move it is. `Round.push(event)` checks one event against the rules and applies it, or
raises `IllegalMoveError` (an `IllegalRecordError`, see fourcolor/errors.py) with the rule's
category, a message, the ply and the event; nothing changes then. The events it
would accept next are `Round.legal_events()` (fourcolor/legal.py); how a round ends and pays is
fourcolor/scoring.py; a whole record is validated by `fourcolor.game.validate`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .cards import CARDS, KINDS, Card, deck_copies, parse_card
from .claims import (
    Claim,
    ClaimRefused,
    ClaimRight,
    Live,
    claim_right,
    discard_live,
    draw_live,
    next_seat,
    resolve_claims,
)
from .deal import pile_cards, pile_size, qualifies_for_redeal
from .errors import IllegalMoveError
from .messages import WAITING
from .legal import ENDED, LIVE, MUST_DISCARD, OPENING, legal_events
from .melds import Meld, classify, meld_shape
from .moves import (
    WinOption,
    best_completing_win,
    can_complete,
    locked_copies,
    meld_claims,
    unlock,
)
from .notation import Event, Record
from .rulesets import Ruleset, ruleset_for
from .scoring import Finish, forced_finish, no_payments, win_finish


class ClaimRecord(NamedTuple):
    """A claim that took effect: at which ply, by whom, under which right, on which card."""

    ply: int
    seat: int
    right: ClaimRight
    meld: Meld
    live: Live


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
        self.copies = deck_copies(players)  # of each kind: 4, or N with N > 4 players
        # Copies dealt or drawn, for the copies rule: every dealt card counted once.
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
                if max(hand) < 3:
                    continue  # no dealt set (a C-level scan instead of a Python loop)
                # Only sets that are melds of the ruleset lock (bga: three generals stay free).
                self.locked[s] = [
                    locked_copies(n, CARDS[i].rank, ruleset) if n >= 3 else 0
                    for i, n in enumerate(hand)
                ]
        self.claims_log: list[ClaimRecord] = []

    @classmethod
    def from_record(cls, record: Record, ruleset: Ruleset | None = None) -> Round:
        ruleset = ruleset or ruleset_for(record.ruleset_name, record.tag("Switches"))
        pile_tag = record.tag("Pile")
        lucky_tag = record.tag("Lucky")
        return cls(
            ruleset,
            record.players,
            record.dealer,
            record.deal,
            pile=pile_cards(pile_tag) if pile_tag is not None else None,
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

    def __repr__(self) -> str:
        turn = "ended" if self.turn is None else f"seat {self.turn} to play"
        live = self.live
        if live is not None and self.phase == LIVE:
            turn += f", {CARDS[live.card_index]} live from seat {live.owner}'s {live.source}"
        return f"<Round {self.ruleset.name}, {self.players} seats, ply {self.ply}, {turn}>"

    @property
    def ended(self) -> bool:
        return self.phase == ENDED

    @property
    def turn(self) -> int | None:
        """The seat whose move the round waits for, claims aside: the dealer or the seat that
        must discard; on a drawn card the drawer (its meld or discard); on a discard the next
        seat (its draw). None once the round has ended."""
        phase = self.phase
        if phase == ENDED:
            return None
        live = self.live
        if phase == LIVE and live is not None:
            return live.owner if live.source == "draw" else next_seat(live.owner, self.players)
        return self.actor

    def exposed_points(self, seat: int) -> int:
        return sum(meld.points(self.ruleset, exposed=True) for meld in self.displays[seat])

    def unseen(self, seat: int) -> list[int]:
        """Copies of each kind `seat` cannot see: not in its hand, any display, the discards or
        the live card."""
        out = [self.copies - n for n in self.hands[seat]]
        for display in self.displays[1:]:
            for meld in display:
                for card in meld.cards:
                    out[card.index] -= 1
        for _s, card in self.discards:
            out[card.index] -= 1
        live = self.live
        if live is not None and live.source == "draw":
            out[live.card_index] -= 1  # a drawn live card is in no display and no discard yet
        return out

    def best_win(self, seat: int, card: Card) -> WinOption | None:
        """The best win `seat` could make with `card` now (ignoring who may claim it)."""
        hand = self.hands[seat]
        ruleset = self.ruleset
        # Most hands do not split with the card: a split check (table look-ups) refuses them
        # before the display's points and every meld with the card are looked at.
        if not can_complete(hand, card, ruleset, self.copies):
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
        return any(n > locked[i] and i % 7 != 0 for i, n in enumerate(hand))

    def legal_events(self) -> list[Event]:
        """Every event `push` would accept next, for any seat, in canonical form (see
        `fourcolor.legal.legal_events`)."""
        return legal_events(self)

    def waiting(self) -> tuple[str, int | None]:
        """What the round waits for, as a code of `WAITING` and the seat it names (None when
        it names none): pages say it in their language from these."""
        if self.phase == OPENING:
            return "opening", self.dealer
        if self.phase == MUST_DISCARD:
            return "discard", self.actor
        if self.phase == LIVE and self.live is not None:
            if self.live.source == "draw":
                return "own_draw", self.live.owner
            if self.pile_left == 0:
                # Nobody can claim the last discard: the pile ran out, the round is over.
                return ("last_discard", None) if self.legal_events() else ("exhausted", None)
            return "draw", next_seat(self.live.owner, self.players)
        return "ended", None

    def expected(self) -> str:
        """What the round waits for, in English words (`waiting`, for replays and messages)."""
        code, seat = self.waiting()
        return WAITING[code].format(seat=seat)

    def push(self, event: Event) -> None:
        """Apply one event, or raise `IllegalMoveError` with the rule's category, the ply and
        the event's text and position (the state is unchanged then)."""
        try:
            if self.phase == ENDED:
                raise IllegalMoveError("round.ended")
            seat, verb, cards = event[0], event[1], event[2]
            if not 1 <= seat <= self.players:
                raise IllegalMoveError("turn.no_seat", n=seat, m=self.players)
            if self.calls and verb not in "mwch":
                raise IllegalMoveError("priority.claim_due")
            if verb == "x":
                self._discard(seat, cards[0])
            elif verb == "d":
                self._draw(seat, cards[0])
            elif verb in "mw":
                self._meld(seat, event, verb == "w")
            elif verb in "ch":
                self._call(seat, event, win=verb == "h")
            elif verb == "r":
                self._redeal(seat)
        except IllegalMoveError as err:
            err.locate(self.ply + 1, event.line, event.col, event.text())
            raise
        self.ply += 1

    def _discard(self, seat: int, card: Card) -> None:
        live = self.live
        phase = self.phase
        if phase == OPENING:
            if seat != self.dealer:
                raise IllegalMoveError("turn.dealer_opens", seat=seat, seat2=self.dealer)
            self._discard_from_hand(seat, card)
            self.opening_discard = card
        elif phase == MUST_DISCARD:
            if seat != self.actor:
                raise IllegalMoveError("turn.must_discard", seat=seat, seat2=self.actor)
            self._discard_from_hand(seat, card)
        elif live is not None and live.source == "draw":
            if seat != live.owner:
                raise IllegalMoveError("turn.drawer_discards", seat=live.owner)
            drawn = CARDS[live.card_index]
            if card.rank == "K":
                raise IllegalMoveError("discard.general")
            if card is not drawn:
                raise IllegalMoveError("live.drawn", card=drawn.token, card2=card.token)
        else:
            raise IllegalMoveError("turn.discard", seat=seat)
        self.discards.append((seat, card))
        self.live = discard_live(card.index, seat)
        self.phase = LIVE

    def _discard_from_hand(self, seat: int, card: Card) -> None:
        hand = self.hands[seat]
        index = card.index
        if hand[index] == 0:
            raise IllegalMoveError("hand.missing", seat=seat, cards=[card.token])
        if card.rank == "K":
            raise IllegalMoveError("discard.general")
        if hand[index] <= self.locked[seat][index]:
            raise IllegalMoveError("hand.locked", seat=seat, card=card.token)
        hand[index] -= 1

    def _draw(self, seat: int, card: Card) -> None:
        live = self.live
        if self.phase != LIVE or live is None or live.source != "discard":
            raise IllegalMoveError("turn.draw", seat=seat)
        drawer = next_seat(live.owner, self.players)
        if seat != drawer:
            raise IllegalMoveError("turn.drawer", seat=drawer, seat2=seat)
        if self.pile_left == 0:
            raise IllegalMoveError("pile.empty", seat=seat)
        pile = self.pile
        if pile is not None:
            expected = pile[self.drawn]
            if expected is not card:
                raise IllegalMoveError("pile.mismatch", card=expected.token, card2=card.token)
        index = card.index
        seen = self.seen
        if seen[index] >= self.copies:
            raise IllegalMoveError("copies.drawn", n=seen[index] + 1, card=card.token)
        seen[index] += 1
        self.drawn += 1
        self.pile_left -= 1
        self.live = draw_live(index, seat)

    def _check_meld(
        self, seat: int, event: Event, win: bool
    ) -> tuple[Meld, ClaimRight, tuple[tuple[int, int], ...]]:
        """The meld, the right it is claimed under and what it takes from the hand (kind,
        copies), or `IllegalMoveError` for the first rule it breaks."""
        live = self.live
        if self.phase != LIVE or live is None:
            raise IllegalMoveError("turn.no_live", seat=seat, verb="win" if win else "meld")
        live_card = CARDS[live.card_index]
        cards = event.cards
        if live_card not in cards:
            raise IllegalMoveError("live.not_in_meld", card=live_card.token)
        from_hand = list(cards)
        from_hand.remove(live_card)
        counts: dict[int, int] = {}
        for card in from_hand:
            counts[card.index] = counts.get(card.index, 0) + 1
        needs = tuple(counts.items())
        meld = classify(cards, self.ruleset)
        hand = self.hands[seat]
        for index, copies in needs:
            if hand[index] < copies:
                raise IllegalMoveError(
                    "hand.missing", seat=seat, cards=[c.token for c in from_hand]
                )
        if meld is None:
            shape = meld_shape(sorted(cards, key=lambda c: c.index))
            name = self.ruleset.name
            if shape:
                raise IllegalMoveError(
                    "meld.excluded", kind=shape, rank=live_card.rank, ruleset=name
                )
            raise IllegalMoveError("meld.invalid", cards=[c.token for c in cards], ruleset=name)
        try:
            right = claim_right(
                self.ruleset, self.players, live, seat, meld.kind, live_card.rank, win=win
            )
        except ClaimRefused as refused:
            raise IllegalMoveError(refused.code, **refused.params) from None
        if not self.ruleset.dealt_sets_locked:
            return meld, right, needs
        locked = self.locked[seat]
        for index, copies in needs:
            if hand[index] - copies < locked[index] and not (
                meld.kind == "quad"
                and right in (ClaimRight.GAN, ClaimRight.OWN_DRAW, ClaimRight.WIN)
            ):
                raise IllegalMoveError("hand.locked", seat=seat, card=CARDS[index].token)
        return meld, right, needs

    def _call(self, seat: int, event: Event, *, win: bool) -> None:
        """A competing call that did not take effect (extension): checked like the claim."""
        if any(claim.seat == seat for claim, _ in self.calls):
            raise IllegalMoveError("priority.called", seat=seat)
        meld, right, needs = self._check_meld(seat, event, win)
        if win:
            win_finish(self, seat, meld, event, needs)
        self.calls.append((Claim(seat, right, meld.kind), event))

    def _meld(self, seat: int, event: Event, win: bool) -> None:
        meld, right, needs = self._check_meld(seat, event, win)
        live = self.live
        assert live is not None
        if self.calls:
            if any(claim.seat == seat for claim, _ in self.calls):
                raise IllegalMoveError("priority.caller_melds", seat=seat)
            mine = Claim(seat, right, meld.kind)
            chosen = resolve_claims([c for c, _ in self.calls] + [mine], live, self.players)
            if chosen.seat != seat:
                raise IllegalMoveError(
                    "priority.outranked", seat=chosen.seat, right=chosen.right.label,
                    seat2=seat, right2=right.label,
                )
        finish = win_finish(self, seat, meld, event, needs) if win else None
        # Apply the meld: the hand gives the cards besides the live one.
        hand = self.hands[seat]
        for index, copies in needs:
            hand[index] -= copies
        live_card = CARDS[live.card_index]
        melded = meld.cards
        if self.ruleset.dealt_sets_locked:
            locked = self.locked[seat]
            if any(locked[card.index] for card in melded):
                unlock(locked, hand, meld)
        discards = self.discards
        if live.source == "discard" and discards and discards[-1][1] is live_card:
            discards.pop()  # a claimed discard leaves the discard pile
        self.displays[seat].append(meld)
        self.claims_log.append(ClaimRecord(self.ply + 1, seat, right, meld, live))
        if self.calls:
            self.calls = []
        self.live = None
        if finish is not None:
            self._end(finish)
            return
        if not self.can_discard(seat):
            # Nothing to discard (empty, all generals, or only locked sets): forced finish.
            self._end(forced_finish(self, seat, live))
            return
        self.phase = MUST_DISCARD
        self.actor = seat

    def _redeal(self, seat: int) -> None:
        if not self.ruleset.redeal:
            raise IllegalMoveError("redeal.none", ruleset=self.ruleset.name)
        if self.phase != OPENING:
            raise IllegalMoveError("redeal.late")
        if not qualifies_for_redeal(self.dealt[seat], self.ruleset):
            raise IllegalMoveError("redeal.hand", seat=seat)
        self._end(Finish("redeal", seat=seat, settlement=no_payments(self.players)))

    def _end(self, finish: Finish) -> None:
        self.finish = finish
        self.phase = ENDED
        self.live = None

    def close(self) -> Finish:
        """The record stops here: how the round stands (`end_of_record`), and an exhausted
        round is then over (ended, with its finish), which its events alone do not say: the
        last discard went unclaimed with the pile used up."""
        finish = self.end_of_record()
        if finish.outcome == "exhausted":
            self._end(finish)
        return finish

    def end_of_record(self) -> Finish:
        """How the round stands when the record stops: ended, exhausted or unfinished."""
        if self.finish is not None:
            if self.finish.lucky_error is not None:
                raise self.finish.lucky_error
            return self.finish
        live = self.live
        exhausted = not self.calls and self.phase == LIVE and self.pile_left == 0
        exhausted = exhausted and live is not None and live.source == "discard"
        outcome = "exhausted" if exhausted else "unfinished"
        return Finish(outcome, settlement=no_payments(self.players))


__all__ = [
    "ENDED",
    "LIVE",
    "MUST_DISCARD",
    "OPENING",
    "ClaimRecord",
    "Round",
]
