"""Per-seat facts of a validated round: what player statistics are computed from.

One forward pass over the events (no per-ply copies), so the archive can store these rows at
import time and aggregate them in SQL. Definitions are in docs/stats.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .claims import ClaimRight, next_seat
from .game import LIVE, Game, Round
from .replay import missed_on_live_card


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    name: str
    is_dealer: bool
    finisher: bool
    won: bool
    forced: bool
    won_on: str | None
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


def skipped_seats(owner: int, source: str, claimant: int, players: int) -> list[int]:
    """Seats that lose their turn when `claimant` takes the live card: those between the seat
    that would have moved next (after the discarder; after the drawer for a draw) and the
    claimant, in turn order."""
    if claimant == owner:
        return []  # the drawer melding or winning on its own draw skips nobody
    start = next_seat(owner, players)
    out = []
    s = start
    while s != claimant and s != owner:
        out.append(s)
        s = next_seat(s, players)
    return out if s == claimant else []


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
    state = Round.from_record(record, rs)
    events = record.events
    for ply, event in enumerate(events):
        live = state.live
        if state.phase == LIVE and live is not None:
            if not (ply > 0 and events[ply - 1].verb in "ch"):
                for s, _card, _points in missed_on_live_card(state, events, ply):
                    missed[s] += 1
            if event.verb in "mw" and not (event.seat == live.owner and live.source == "draw"):
                turns[event.seat] += 1
            if event.verb == "w" and event.seat != live.owner:
                dealt_in_seat = live.owner
        if event.verb == "d":
            draws[event.seat] += 1
            turns[event.seat] += 1
        state.push(event)
        if event.verb == "w":
            win_turn = turns[event.seat]
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
                won_on=finish.on if is_finisher and finish.outcome == "win" else None,
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


__all__ = ["SeatFacts", "seat_facts", "skipped_seats"]
