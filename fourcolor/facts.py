"""Per-seat facts of a validated round: what player statistics are computed from.

Counted while the round is validated (`validate(record, observer=SeatFactsObserver(record))`,
the import's one pass) or by `seat_facts(game)` on a validated round: the round's own state, no
copy of its rules. The archive stores these rows at import time and aggregates them in SQL.
Definitions are in docs/stats.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import KINDS, Card
from .claims import (
    DISCARD,
    DRAW,
    SELF_DRAW,
    TAKEN_FROM,
    ClaimRight,
    skipped_seats,
    taken_from,
)
from .game import Game
from .round import ClaimRecord, Round
from .moves import WinOption
from .notation import Event, Record
from .replay import missed_on_live
from .split import RANK_BLOCK, block_splits


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    name: str
    is_dealer: bool
    finisher: bool
    won: bool
    forced: bool
    won_on: str | None  # one of TAKEN_FROM when the seat won
    dealt_in: bool
    points: int | None
    delta: int
    below_threshold: bool
    pongs: int
    gans: int
    chis: int
    own_draw_melds: int
    steals: int
    turns_lost: int
    draws: int
    win_turn: int | None
    redeal_declared: bool
    missed_wins: int
    win_melds: tuple[str, ...]


def finish_taken_from(game: Game) -> str | None:
    """Whose card ended the round, for a win or a forced finish (the card the finisher's last
    meld took): `self_draw`, `draw` or `discard`; None for any other outcome."""
    if game.finish.outcome not in ("win", "forced") or not game.claims:
        return None
    last: ClaimRecord = game.claims[-1]
    return taken_from(last.live, last.seat)


# The rank block of each card index (index = colour * 7 + rank): a split never mixes blocks.
_BLOCK_OF = tuple(RANK_BLOCK[i % 7] for i in range(KINDS))


class _Wins:
    """`Round.best_win` for every seat on a live card, asked on the round being validated.

    A hand plus a card splits into melds only when each of its three rank blocks does, and the
    card changes one block only: while a seat's hand stays the same (it does between the seat's
    own moves, over several live cards) whether each block splits is worked out once, and a
    card is refused at once when a block other than its own does not split, or its own block
    does not split with it. Only a hand that splits with the card (a win, but for the locked
    sets and the bga threshold) is asked of the round itself."""

    def __init__(self) -> None:
        self.state: Round | None = None  # the round at the live card (set before each ask)
        # Per seat, whether each rank block of its hand splits (None: not worked out yet),
        # until the hand changes (`forget`).
        self.known: dict[int, list[bool | None]] = {}

    def forget(self, seat: int) -> None:
        """The seat's hand changed."""
        self.known.pop(seat, None)

    def __call__(self, seat: int, card: Card) -> WinOption | None:
        state = self.state
        assert state is not None
        hand = state.hands[seat]
        known = self.known.get(seat)
        if known is None:
            known = self.known[seat] = [None, None, None]
        own = _BLOCK_OF[card.index]
        for block in (2, 0, 1):  # the soldiers' look-up is the cheapest: first
            if block == own:
                continue
            ok = known[block]
            if ok is None:
                ok = known[block] = block_splits(hand, block, state.ruleset)
            if not ok:
                return None
        with_card = list(hand)
        with_card[card.index] += 1
        if not block_splits(with_card, own, state.ruleset):
            return None
        return state.best_win(seat, card)


class SeatFactsObserver:
    """Collects the per-seat facts of a round while `validate(record, observer=...)` replays
    it: called with the round before each event is pushed (the rules stay in `Round`; this
    only counts). `facts(game)` gives them once the record is valid."""

    def __init__(self, record: Record) -> None:
        players = record.players
        self.events = record.events
        self.players = players
        self.draws = dict.fromkeys(range(1, players + 1), 0)
        self.turns = dict.fromkeys(range(1, players + 1), 0)
        self.turns[record.dealer] = 1  # the dealer's opening discard is its first turn
        self.missed = dict.fromkeys(range(1, players + 1), 0)
        self.win_turn: int | None = None
        self.dealt_in_seat: int | None = None
        self.wins = _Wins()
        self.after_call = False  # the event before was a call (c or h): the card was judged

    def __call__(self, state: Round, event: Event) -> None:
        seat, verb = event.seat, event.verb
        live = state.live  # what a discard or a draw made live; calls leave it live
        wins = self.wins
        if live is not None:
            if not self.after_call:
                wins.state = state
                ply = state.ply
                for s, _card, _points in missed_on_live(live, self.players, self.events, ply, wins):
                    self.missed[s] += 1
            if verb in "mw" and not (seat == live.owner and live.source == "draw"):
                self.turns[seat] += 1
            if verb == "w" and seat != live.owner:
                self.dealt_in_seat = live.owner
        if verb == "x":
            # A discard comes from the hand, except the drawer's discard of its draw.
            if live is None or live.source != "draw":
                wins.forget(seat)
        elif verb == "d":
            self.draws[seat] += 1
            self.turns[seat] += 1
        elif verb in "mw":
            wins.forget(seat)
            if verb == "w":
                self.win_turn = self.turns[seat]
        self.after_call = verb in "ch"

    def facts(self, game: Game) -> list[SeatFacts]:
        """The facts of every seat, in seat order, of the validated round."""
        return _seat_facts(game, self)


def seat_facts(game: Game) -> list[SeatFacts]:
    """The facts of a validated round's seats, replaying it once more (the import has them
    from `validate` itself: `SeatFactsObserver`)."""
    record = game.record
    observer = SeatFactsObserver(record)
    state = Round.from_record(record, game.ruleset)
    for event in record.events:
        observer(state, event)
        state.push(event)
    return observer.facts(game)


def _seat_facts(game: Game, seen: SeatFactsObserver) -> list[SeatFacts]:
    record = game.record
    rs = game.ruleset
    players = record.players
    finish = game.finish
    draws, missed = seen.draws, seen.missed
    win_turn, dealt_in_seat = seen.win_turn, seen.dealt_in_seat
    by_right: dict[int, dict[ClaimRight, int]] = {s: {} for s in range(1, players + 1)}
    steals = dict.fromkeys(range(1, players + 1), 0)
    lost = dict.fromkeys(range(1, players + 1), 0)
    for claim in game.claims:
        counts = by_right[claim.seat]
        counts[claim.right] = counts.get(claim.right, 0) + 1
        if claim.right in (ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN):
            skipped = skipped_seats(claim.live.owner, claim.live.source, claim.seat, players)
            if skipped:
                steals[claim.seat] += 1
                for s in skipped:
                    lost[s] += 1
    below = (
        finish.outcome == "forced"
        and rs.threshold is not None
        and (finish.points or 0) < rs.threshold
    )
    win_melds = tuple(m.kind for m in finish.exposed_melds + finish.hidden_melds)
    won_on = finish_taken_from(game) if finish.outcome == "win" else None
    out = []
    for s in range(1, players + 1):
        is_finisher = finish.seat == s and finish.outcome in ("win", "forced")
        rights = by_right[s]
        out.append(
            SeatFacts(
                seat=s,
                name=record.seats[s - 1],
                is_dealer=s == record.dealer,
                finisher=is_finisher,
                won=is_finisher and finish.outcome == "win",
                forced=is_finisher and finish.outcome == "forced",
                won_on=won_on if is_finisher else None,
                dealt_in=dealt_in_seat == s,
                points=finish.points if is_finisher else None,
                delta=finish.settlement.get(s, 0),
                below_threshold=is_finisher and below,
                pongs=rights.get(ClaimRight.PONG, 0),
                gans=rights.get(ClaimRight.GAN, 0),
                chis=rights.get(ClaimRight.CHI, 0),
                own_draw_melds=rights.get(ClaimRight.OWN_DRAW, 0),
                steals=steals[s],
                turns_lost=lost[s],
                draws=draws[s],
                win_turn=win_turn if is_finisher and finish.outcome == "win" else None,
                redeal_declared=finish.outcome == "redeal" and finish.seat == s,
                missed_wins=missed[s],
                win_melds=win_melds if is_finisher else (),
            )
        )
    return out


__all__ = [
    "DISCARD",
    "DRAW",
    "SELF_DRAW",
    "TAKEN_FROM",
    "SeatFacts",
    "SeatFactsObserver",
    "finish_taken_from",
    "seat_facts",
    "skipped_seats",
    "taken_from",
]
