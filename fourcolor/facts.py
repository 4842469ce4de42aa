"""Per-seat facts of a validated round: what player statistics are computed from.

Counted while the round is validated (`validate(record, observer=SeatFactsObserver(record))`,
the import's one pass) or by `seat_facts(game)` on a validated round: the round's own state, no
copy of its rules. The archive stores these rows at import time and aggregates them in SQL.
Definitions are in docs/stats.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, Card
from .claims import ClaimRight, Live, skipped_seats, taken_from
from .game import Game
from .match import is_below_threshold
from .round import ClaimRecord, Round
from .moves import WinOption
from .notation import Event, Record
from .replay import missed_on_live
from .split import BLOCK_OF, splits_with


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    name: str
    is_dealer: bool
    finisher: bool
    won: bool
    forced: bool
    won_on: str | None  # one of claims.TAKEN_FROM when the seat won
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


class SeatFactsObserver:
    """Collects the per-seat facts of a round while `validate(record, observer=...)` replays
    it: called with the round before each event is pushed (the rules stay in `Round`; this
    only counts). `facts(game)` gives them once the record is valid.

    On each live card it asks the seats that had a chance at it whether they could win with it
    (the missed wins), cheaply: per seat it keeps whether each rank block of its hand splits
    (`split.splits_with`), forgotten when an event changes that block, so that most cards are
    refused by look-ups and only a hand that splits with the card is asked of `Round.best_win`.
    The other facts are counted from the events and the round's claims at the end."""

    def __init__(self, record: Record) -> None:
        players = record.players
        self.events = record.events
        self.players = players
        self.missed = [0] * (players + 1)
        self.judged: Live | None = None  # the live card last asked about
        # Per seat: per block, whether that block of its hand splits (None: not worked out
        # since the block last changed).
        self.splits: list[list[bool | None]] = [[None, None, None] for _ in range(players + 1)]

    def __call__(self, state: Round, event: Event) -> None:
        live = state.live
        # The same live card as at the event before: that event was a call (c or h), and the
        # card was judged then.
        if live is not None and live is not self.judged:
            self.judged = live
            self._judge(state, live)
        verb = event.verb
        # A discard comes from the hand, except the drawer's discard of its draw; a meld or a
        # win takes cards from it, all of one block (the live card's).
        if verb in "mw" or (verb == "x" and (live is None or live.source != "draw")):
            splits = self.splits[event.seat]
            for card in event.cards:
                splits[BLOCK_OF[card.index]] = None

    def _judge(self, state: Round, live: Live) -> None:
        """Count the missed wins on `live` (`replay.missed_on_live`)."""

        def best_win(seat: int, card: Card) -> WinOption | None:
            return self._best_win(state, seat, card.index)

        for s, _card, _points in missed_on_live(live, self.players, self.events, state.ply,
                                                best_win):
            self.missed[s] += 1

    def _best_win(self, state: Round, seat: int, index: int) -> WinOption | None:
        """`Round.best_win` of `seat` with card `index`, refusing most cards by rank block."""
        if not splits_with(state.hands[seat], index, self.splits[seat], state.ruleset,
                           state.copies):
            return None
        return state.best_win(seat, CARDS[index])

    def facts(self, game: Game) -> list[SeatFacts]:
        """The facts of every seat, in seat order, of the validated round."""
        return _seat_facts(game, self.missed)


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


def _seat_facts(game: Game, missed: list[int]) -> list[SeatFacts]:
    """The facts of every seat, given the missed wins (per seat; index 0 unused): the rest is
    counted from the events and the round's claims, once."""
    record = game.record
    players = record.players
    dealer = record.dealer
    names = record.seats
    finish = game.finish
    outcome = finish.outcome
    draws = [0] * (players + 1)
    for event in record.events:
        if event[1] == "d":  # an Event's verb, by index (cheaper than the named field)
            draws[event[0]] += 1
    # A seat's turns: the dealer's opening discard, each draw and each claim of a card that is
    # not the seat's own draw.
    turns = list(draws)
    turns[dealer] += 1
    pongs, gans, chis, own_draw, steals, lost = _count_claims(game, turns)
    dealt_in_seat = None
    if outcome == "win":
        # The win is the round's last claim: the seat that owned its card dealt in.
        last = game.claims[-1].live
        if last.owner != finish.seat:
            dealt_in_seat = last.owner
    below = is_below_threshold(game)
    win_melds = tuple(m.kind for m in finish.exposed_melds + finish.hidden_melds)
    won_on = finish_taken_from(game) if outcome == "win" else None
    settlement = finish.settlement
    out = []
    for s in range(1, players + 1):
        is_finisher = finish.seat == s and outcome in ("win", "forced")
        won = is_finisher and outcome == "win"
        out.append(SeatFacts(
            seat=s, name=names[s - 1], is_dealer=s == dealer, finisher=is_finisher, won=won,
            forced=is_finisher and outcome == "forced", won_on=won_on if is_finisher else None,
            dealt_in=dealt_in_seat == s, points=finish.points if is_finisher else None,
            delta=settlement.get(s, 0), below_threshold=is_finisher and below,
            pongs=pongs[s], gans=gans[s], chis=chis[s], own_draw_melds=own_draw[s],
            steals=steals[s], turns_lost=lost[s], draws=draws[s],
            win_turn=turns[s] if won else None,
            redeal_declared=outcome == "redeal" and finish.seat == s,
            missed_wins=missed[s], win_melds=win_melds if is_finisher else (),
        ))
    return out


def _count_claims(game: Game, turns: list[int]) -> tuple[list[int], ...]:
    """Per seat: pongs, gans, chis, own-draw melds, steals and turns lost to a steal; each
    claim of a card that is not the seat's own draw counted in `turns` too."""
    players = game.record.players
    # Claims per seat under each right, by identity (an Enum's hash is a Python call).
    pongs, gans, chis, own_draw, steals, lost = ([0] * (players + 1) for _ in range(6))
    for claim in game.claims:
        seat, right, live = claim[1], claim[2], claim[4]
        if seat != live.owner or live.source != "draw":
            turns[seat] += 1
        if right is _CHI:
            chis[seat] += 1
            continue  # a chi never skips a seat
        if right is _OWN_DRAW:
            own_draw[seat] += 1
            continue
        if right is _PONG:
            pongs[seat] += 1
        elif right is _GAN:
            gans[seat] += 1
        skipped = skipped_seats(live.owner, live.source, seat, players)
        if skipped:
            steals[seat] += 1
            for s in skipped:
                lost[s] += 1
    return pongs, gans, chis, own_draw, steals, lost


_CHI, _OWN_DRAW, _PONG, _GAN = ClaimRight.CHI, ClaimRight.OWN_DRAW, ClaimRight.PONG, ClaimRight.GAN
