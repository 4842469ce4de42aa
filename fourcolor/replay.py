"""Replays and review: the complete state at any ply, and what each seat could have won.

`Replay(record)` replays a valid record once, keeping a copy of the round after every ply, so
any ply's state is a list index (a round has at most a few hundred plies of a few KiB each).
`Replay.state(ply, seat=None)` is the table at that ply (a `PlyState`), optionally as one seat
sees it; `Replay.review()` gives, for every ply, each seat's waits (the cards that would let it
win right now, with the points) and the missed wins (a seat could have won on the live card and
did not take it), as `PlyReview`s.

These are values (frozen dataclasses, cards as `Card`s); `fourcolor.replay_json` writes them as
JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, repeat
from typing import TypeVar

from .cards import CARDS, Card
from .claims import (
    CLAIM_KINDS,
    Live,
    claim_order,
    may_claim,
    skipped_seats,
    taken_from,
)
from .game import Game, validate
from .round import ENDED, LIVE, ClaimRecord, Round
from .melds import Meld
from .moves import WinOption
from .notation import Event, Record
from .rulesets import Ruleset


@dataclass(frozen=True, slots=True)
class MeldShown:
    """A meld on the table (or in a finisher's hand) with the points it scores there."""

    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class FinishMeld(MeldShown):
    """One of the finisher's melds: `exposed` on the display, else hidden in the hand."""

    exposed: bool


@dataclass(frozen=True, slots=True)
class LiveCard:
    """The card on offer: who discarded or drew it (`owner`), and `source` (draw, discard)."""

    card: Card
    owner: int
    source: str


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat at a ply. `hand` and `can_claim` are None when hidden from the view asked for
    (the seat count and the display are public)."""

    seat: int
    name: str
    dealer: bool
    hand: tuple[Card, ...] | None
    hand_count: int
    display: tuple[MeldShown, ...]
    exposed_points: int
    can_claim: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class ClaimMade:
    """A claim that took effect, in the words players use: `kind` (win, pong, gan, chi: a meld
    on one's own draw is a chi), the claimant `seat`, the card's `owner`, `taken` (self_draw,
    draw or discard: whose card it was) and the `skipped` seats, whose turn the claim took."""

    kind: str
    seat: int
    owner: int
    taken: str
    skipped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """The end of a round: the outcome, the finisher's melds with points, the settlement
    (seat -> points received, negative when paid)."""

    outcome: str
    seat: int | None
    on: str | None
    points: int | None
    exposed_points: int | None
    hidden_points: int | None
    lucky_card: Card | None
    lucky_bonus: int
    settlement: Mapping[int, int]
    result: str
    melds: tuple[FinishMeld, ...]
    declared_split: bool
    best_hidden_points: int | None


@dataclass(frozen=True, slots=True)
class PlyState:
    """The table after `ply` events (0: the deal) as `view` sees it (None: every hand open).
    `finish` is the round's end at the last ply, None before it."""

    ply: int
    plies: int
    event: str | None
    claim: ClaimMade | None
    comments: tuple[str, ...]
    phase: str
    expected: str
    turn: int | None
    live: LiveCard | None
    pile_left: int
    discards: tuple[Discard, ...]
    seats: tuple[SeatState, ...]
    view: int | None
    finish: RoundEnd | None


_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


class _Made(dict[_K, _V]):
    """Values made once per key, on the first look-up (`make(key)`): a round's states show the
    same hands, displayed melds and discards ply after ply, and a state looks its parts up here
    with one C call (`map(table.__getitem__, keys)`) rather than building them again."""

    def __init__(self, make: Callable[[_K], _V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: _K) -> _V:
        made = self[key] = self.make(key)
        return made


def _shown(ruleset: Ruleset, meld: Meld) -> MeldShown:
    return MeldShown(meld.kind, meld.cards, meld.points(ruleset, exposed=True))


def _cards(counts: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(chain.from_iterable(map(repeat, CARDS, counts)))


# Discards are interned (there are at most 4 x 28 of them), keyed by the round's own
# (seat, card) pairs.
_DISCARDS: _Made[tuple[int, Card], Discard] = _Made(lambda pair: Discard(*pair))


@dataclass(frozen=True)
class Wait:
    card: Card
    points: int
    meld: Meld
    unseen: int  # copies the seat cannot see (not in its hand, any display or the discards)


@dataclass(frozen=True)
class MissedWin:
    ply: int  # the ply after which the card was live
    seat: int
    card: Card
    points: int

    def message(self) -> str:
        return (
            f"missed win: seat {self.seat} could have won on {self.card} for {self.points} "
            f"points after ply {self.ply}"
        )


@dataclass(frozen=True, slots=True)
class PlyReview:
    """The review of one ply: each seat's waits (best points first) and the wins missed on the
    card live after it, with the event and its comments."""

    ply: int
    event: str | None
    comments: tuple[str, ...]
    waits: Mapping[int, tuple[Wait, ...]]
    missed_wins: tuple[MissedWin, ...]


class Replay:
    """The round after each ply 0..N of a valid record."""

    def __init__(self, record: Record, game: Game | None = None) -> None:
        self.record = record
        self.game = game or validate(record)
        self.ruleset: Ruleset = self.game.ruleset
        state = Round.from_record(record, self.ruleset)
        self.rounds: list[Round] = [state.copy()]
        for event in record.events:
            state.push(event)
            self.rounds.append(state.copy())
        self.rounds[-1].close()  # an exhausted round's last state shows it over
        self._review: list[dict[int, list[Wait]]] | None = None
        # A displayed meld stays on the table for the rest of the round, and a hand changes
        # at its seat's moves only: one value for all the states that show it.
        self._melds_shown: _Made[Meld, MeldShown] = _Made(partial(_shown, self.ruleset))
        self._hands: _Made[tuple[int, ...], tuple[Card, ...]] = _Made(_cards)
        # The claim that took effect at each ply (melds and wins), by ply.
        self.claims: dict[int, ClaimRecord] = {claim.ply: claim for claim in self.game.claims}

    @property
    def plies(self) -> int:
        return len(self.record.events)

    def round_at(self, ply: int) -> Round:
        if not 0 <= ply <= self.plies:
            raise ValueError(f"ply must be between 0 and {self.plies}, not {ply}")
        return self.rounds[ply]

    # ------------------------------------------------------------------ states

    def state(self, ply: int, seat: int | None = None) -> PlyState:
        """The table at `ply`. With `seat`, other seats' hands (and what they may claim) are
        hidden: only their sizes show."""
        rnd = self.round_at(ply)
        players = rnd.players
        if seat is not None and not 1 <= seat <= players:
            raise ValueError(f"seat must be between 1 and {players}, not {seat}")
        event = self.record.events[ply - 1] if ply > 0 else None
        on = rnd.live
        live = None if on is None else LiveCard(CARDS[on.card_index], on.owner, on.source)
        ended = rnd.phase == ENDED
        names = self.record.seats
        shown = self._melds_shown.__getitem__
        seats = []
        for s in range(1, players + 1):
            visible = seat is None or seat == s or ended
            hand = rnd.hands[s]
            display = tuple(map(shown, rnd.displays[s]))
            seats.append(SeatState(
                seat=s, name=names[s - 1], dealer=s == rnd.dealer,
                hand=self._hands[tuple(hand)] if visible else None, hand_count=sum(hand),
                display=display, exposed_points=sum([m.points for m in display]),
                can_claim=self._can_claim(rnd, s) if visible else None,
            ))
        return PlyState(
            ply=ply, plies=self.plies, event=event.text() if event else None,
            claim=self.claim(ply), phase=rnd.phase, expected=rnd.expected(), turn=rnd.turn,
            comments=tuple(event.comments if event else self.record.comments), live=live,
            pile_left=rnd.pile_left, discards=tuple(map(_DISCARDS.__getitem__, rnd.discards)),
            seats=tuple(seats), view=seat,
            finish=round_end(self.game) if ply == self.plies else None,
        )

    def claim(self, ply: int) -> ClaimMade | None:
        """The claim the event at `ply` made (`ClaimMade`); None for any other event
        (discards, draws, calls, redeals)."""
        claim = self.claims.get(ply)
        if claim is None:
            return None
        live = claim.live
        return ClaimMade(
            kind=CLAIM_KINDS[claim.right],
            seat=claim.seat,
            owner=live.owner,
            taken=taken_from(live, claim.seat),
            skipped=tuple(
                skipped_seats(live.owner, live.source, claim.seat, self.record.players)
            ),
        )

    def _can_claim(self, rnd: Round, seat: int) -> tuple[str, ...]:
        live = rnd.live
        if rnd.phase != LIVE or live is None:
            return ()
        rights: list[str] = []
        card = CARDS[live.card_index]
        if may_claim(live, seat):
            if rnd.best_win(seat, card):
                rights.append("win")
        for _meld, right in rnd.meld_claims(seat):
            if right.label not in rights:
                rights.append(right.label)
        return tuple(rights)

    # ------------------------------------------------------------------ review

    def waits(self, ply: int) -> dict[int, list[Wait]]:
        """For each seat at `ply`: the cards that would let it win now, best points first."""
        if self._review is None:
            self._review = [self._waits_at(r) for r in self.rounds]
        return self._review[ply]

    def _waits_at(self, rnd: Round) -> dict[int, list[Wait]]:
        out: dict[int, list[Wait]] = {}
        if rnd.phase == ENDED:
            return {s: [] for s in range(1, rnd.players + 1)}
        seen = [0] * len(CARDS)
        for s in range(1, rnd.players + 1):
            for m in rnd.displays[s]:
                for c in m.cards:
                    seen[c.index] += 1
        for _s, c in rnd.discards:
            seen[c.index] += 1
        for s in range(1, rnd.players + 1):
            hand = rnd.hands[s]
            waits = []
            for card in CARDS:
                win = rnd.best_win(s, card)
                if win is not None:
                    unseen = max(rnd.copies - hand[card.index] - seen[card.index], 0)
                    waits.append(Wait(card, win.points, win.meld, unseen))
            waits.sort(key=lambda w: (-w.points, w.card.index))
            out[s] = waits
        return out

    def missed_wins(self) -> list[MissedWin]:
        """Each time a seat could have won on the live card and the round went on without its
        win. A win that another seat's claim took in priority order is not missed, nor is a
        win a seat called (``h``) that lost on priority."""
        missed: list[MissedWin] = []
        events = self.record.events
        for ply, rnd in enumerate(self.rounds):
            if rnd.phase != LIVE or rnd.live is None or ply >= len(events):
                continue
            if ply > 0 and events[ply - 1].verb in "ch":
                continue  # the same live card was judged at the ply before the calls
            for seat, card, points in missed_on_live(rnd.live, rnd.players, events, ply,
                                                     rnd.best_win):
                missed.append(MissedWin(ply, seat, card, points))
        return missed

    def review(self) -> list[PlyReview]:
        """Per ply: each seat's waits with points, the missed wins, and the record's comments."""
        by_ply: dict[int, list[MissedWin]] = {}
        for m in self.missed_wins():
            by_ply.setdefault(m.ply, []).append(m)
        self.waits(0)  # every ply's waits, once
        assert self._review is not None
        events = self.record.events
        out = []
        for ply, waits in enumerate(self._review):
            event = events[ply - 1] if ply else None
            out.append(
                PlyReview(
                    ply,
                    event.text() if event else None,  # event
                    tuple(event.comments if event else self.record.comments),  # comments
                    {s: tuple(ws) for s, ws in waits.items()},  # waits
                    tuple(by_ply.get(ply, ())),  # missed_wins
                )
            )
        return out


def missed_on_live(
    live: Live,
    players: int,
    events: Sequence[Event],
    ply: int,
    best_win: Callable[[int, Card], WinOption | None],
) -> list[tuple[int, Card, int]]:
    """Seats that could have won on the `live` card after `ply` events and did not: (seat,
    card, points). The claim that took effect is the first event after any listed calls; a
    seat whose win was outranked by it, or that called a win, missed nothing. `best_win` is
    each seat's best win on a card now (`Round.best_win`, or an equivalent: `fourcolor.facts`
    asks about every live card of a round without keeping a `Round` at each)."""
    card = CARDS[live.card_index]
    nxt = ply
    called: set[int] = set()
    n_events = len(events)
    while nxt < n_events and events[nxt].verb in "ch":
        if events[nxt].verb == "h":
            called.add(events[nxt].seat)
        nxt += 1
    winner = events[nxt].seat if nxt < n_events and events[nxt].verb == "w" else None
    # The winner and the seats after it in claim order (the tie-break) had no chance against
    # its win: only the seats before it are asked.
    order = claim_order(live, players)
    asked = set(order if winner is None else order[: order.index(winner)])
    out = []
    for s in range(1, players + 1):
        if not may_claim(live, s) or s not in asked or s in called:
            continue
        win = best_win(s, card)
        if win is not None:
            out.append((s, card, win.points))
    return out


def round_end(game: Game) -> RoundEnd:
    """The end of a round: outcome, the finisher's melds with points, the settlement."""
    f = game.finish
    rs = game.ruleset
    melds = [FinishMeld(m.kind, m.cards, m.points(rs, exposed=True), True)
             for m in f.exposed_melds]
    melds += [FinishMeld(m.kind, m.cards, m.points(rs, exposed=False), False)
              for m in f.hidden_melds]
    return RoundEnd(
        outcome=f.outcome, seat=f.seat, on=f.on, points=f.points,
        exposed_points=f.exposed_points, hidden_points=f.hidden_points,
        lucky_card=f.lucky_card, lucky_bonus=f.lucky_bonus,
        settlement=dict(sorted(f.settlement.items())), result=f.result_tag, melds=tuple(melds),
        declared_split=f.declared_split, best_hidden_points=f.best_hidden_points,
    )
