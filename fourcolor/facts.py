"""Per-seat facts of a validated round: what player statistics are computed from.

One forward pass over the events (no per-ply copies), so the archive can store these rows at
import time and aggregate them in SQL. Definitions are in docs/stats.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import KINDS, Card, counts_of
from .claims import (
    DISCARD,
    DRAW,
    SELF_DRAW,
    TAKEN_FROM,
    ClaimRight,
    Live,
    skipped_seats,
    taken_from,
)
from .game import Game
from .round import ClaimRecord, Round
from .moves import WinOption
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
    """`Round.best_win` for every seat on every live card of one valid round, without a
    `Round` kept in step with every event.

    The caller follows the hands itself (`hands`, `ply`: the events applied so far). A hand
    plus a card splits into melds only when each of its three rank blocks does, and the card
    changes one block only: while a seat's hand stays the same (it does between the seat's own
    moves, over several live cards) whether each block splits is worked out once, and a card
    is refused at once when a block other than its own does not split, or its own block does
    not split with it. Only a hand that splits with the card (a win, but for the locked sets
    and the bga threshold) is asked of a `Round`, replayed then up to the same event (few
    rounds ever get there, and late), whose `best_win` gives the answer."""

    def __init__(self, game: Game, hands: list[list[int]]) -> None:
        self.game = game
        self.hands = hands
        self.ply = 0
        # Per seat, whether each rank block of its hand splits (None: not worked out yet),
        # until the hand changes (`forget`).
        self.known: dict[int, list[bool | None]] = {}
        self.round: Round | None = None
        self.pushed = 0

    def forget(self, seat: int) -> None:
        """The seat's hand changed."""
        self.known.pop(seat, None)

    def __call__(self, seat: int, card: Card) -> WinOption | None:
        hand = self.hands[seat]
        known = self.known.get(seat)
        if known is None:
            known = self.known[seat] = [None, None, None]
        own = _BLOCK_OF[card.index]
        for block in (2, 0, 1):  # the soldiers' look-up is the cheapest: first
            if block == own:
                continue
            ok = known[block]
            if ok is None:
                ok = known[block] = block_splits(hand, block, self.game.ruleset)
            if not ok:
                return None
        with_card = list(hand)
        with_card[card.index] += 1
        if not block_splits(with_card, own, self.game.ruleset):
            return None
        return self._round().best_win(seat, card)

    def _round(self) -> Round:
        """The round after the first `ply` events (replayed as far as needed, once)."""
        rnd = self.round
        if rnd is None:
            rnd = self.round = Round.from_record(self.game.record, self.game.ruleset)
        events = self.game.record.events
        while self.pushed < self.ply:
            rnd.push(events[self.pushed])
            self.pushed += 1
        assert rnd.hands == self.hands, "the hands followed by seat_facts went astray"
        return rnd


def seat_facts(game: Game) -> list[SeatFacts]:
    record = game.record
    rs = game.ruleset
    players = record.players
    finish = game.finish
    draws = dict.fromkeys(range(1, players + 1), 0)
    turns = dict.fromkeys(range(1, players + 1), 0)
    turns[record.dealer] = 1  # the dealer's opening discard is its first turn
    missed = dict.fromkeys(range(1, players + 1), 0)
    win_turn: int | None = None
    dealt_in_seat: int | None = None
    # The hands as the events change them (the record is valid: no rule is checked again),
    # and the live card: what a discard or a draw makes live, a meld or win takes; calls leave
    # it live. As `Round.push` does: a discard comes from the hand, except the drawer's
    # discard of the card it drew (never in the hand); a meld takes its cards from the hand
    # but the live one.
    hands = [[0] * KINDS] + [counts_of(record.deal.get(s, ())) for s in range(1, players + 1)]
    wins = _Wins(game, hands)
    live: Live | None = None
    events = record.events
    after_call = False  # the event before was a call (c or h): the live card was judged then
    for ply, event in enumerate(events):
        seat, verb = event.seat, event.verb
        if live is not None:
            if not after_call:
                wins.ply = ply
                for s, _card, _points in missed_on_live(live, players, events, ply, wins):
                    missed[s] += 1
            if verb in "mw" and not (seat == live.owner and live.source == "draw"):
                turns[seat] += 1
            if verb == "w" and seat != live.owner:
                dealt_in_seat = live.owner
        if verb == "x":
            index = event.cards[0].index
            if live is None or live.source != "draw":
                hands[seat][index] -= 1
                wins.forget(seat)
            live = Live(index, seat, "discard")
        elif verb == "d":
            draws[seat] += 1
            turns[seat] += 1
            live = Live(event.cards[0].index, seat, "draw")
        elif verb in "mw":
            assert live is not None  # a valid record melds only on a live card
            hand = hands[seat]
            for card in event.cards:
                hand[card.index] -= 1
            hand[live.card_index] += 1
            wins.forget(seat)
            live = None
            if verb == "w":
                win_turn = turns[seat]
        after_call = verb in "ch"
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
    "finish_taken_from",
    "seat_facts",
    "skipped_seats",
    "taken_from",
]
