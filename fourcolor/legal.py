"""The phases of a round and the events each admits: `legal_events(round)` lists every event
`Round.push` would accept next (the move generator of bots, the reviewer and the editor).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import CARDS, KINDS, Card
from .claims import Claim, ClaimRight, Live, may_claim, next_seat, pong_or_gan_only, resolve_claims
from .deal import qualifies_for_redeal
from .moves import can_complete, locked_ok, melds_with, rest_after
from .notation import Event
from .scoring import split_hidden

if TYPE_CHECKING:
    from .round import Round

# The phases: the dealer's opening discard is due; a card is live (claims, then a draw or the
# drawer's discard); a seat that melded must discard; the round has ended.
OPENING, LIVE, MUST_DISCARD, ENDED = "opening", "live", "must-discard", "ended"
WIN = ClaimRight.WIN
# The events `legal_events` lists, built once: a discard, a draw, a redeal per seat and card,
# for the seats a record can name (one digit).
_DISCARD_EVENTS = [[Event(seat, "x", (card,)) for card in CARDS] for seat in range(10)]
_DRAW_EVENTS = [[Event(seat, "d", (card,)) for card in CARDS] for seat in range(10)]
_REDEAL_EVENTS = [Event(seat, "r") for seat in range(10)]


def legal_events(rnd: Round) -> list[Event]:
    """Every event `Round.push` would accept next, for any seat, in canonical form: the
    redeals and the dealer's discards before the first discard; a discard of each kind
    the seat to discard may let go; on a live card the draw (or the drawer's discard of
    its draw), then seat by seat its wins (once per distinct winning meld, the rest of the
    hand declared as its best split) and its plain melds (each distinct meld once).

    Competing calls (``c``, ``h``, an extension for what did not take effect) are not
    moves and are not listed; after listed calls, only the claims that outrank them."""
    phase = rnd.phase
    if phase == MUST_DISCARD:
        return _discard_events(rnd, rnd.actor)
    if phase == OPENING:
        out = []
        if rnd.ruleset.redeal:
            for seat in range(1, rnd.players + 1):
                if qualifies_for_redeal(rnd.dealt[seat], rnd.ruleset):
                    out.append(_REDEAL_EVENTS[seat] if seat < 10 else Event(seat, "r"))
        return out + _discard_events(rnd, rnd.dealer)
    live = rnd.live
    if phase != LIVE or live is None:
        return []
    out = [] if rnd.calls else _moves_on(rnd, live)
    for seat in range(1, rnd.players + 1):
        out += _claim_events(rnd, seat, live)
    return out


def _discard_events(rnd: Round, seat: int) -> list[Event]:
    """A discard of each kind `seat` holds and may let go (no general, no locked set)."""
    hand = rnd.hands[seat]
    locked = rnd.locked[seat]
    events = _DISCARD_EVENTS[seat] if seat < 10 else [Event(seat, "x", (c,)) for c in CARDS]
    return [events[i] for i, n in enumerate(hand) if n > locked[i] and i % 7]


def _moves_on(rnd: Round, live: Live) -> list[Event]:
    """What follows a live card nobody claims: the draw after a discard (the Pile tag's
    next card, or without one any kind not yet dealt or drawn four times), or the drawer's
    discard of its draw (never a general)."""
    if live.source == "draw":
        card = CARDS[live.card_index]
        if card.rank == "K":
            return []
        seat = live.owner
        return [_DISCARD_EVENTS[seat][card.index] if seat < 10 else Event(seat, "x", (card,))]
    if rnd.pile_left == 0:
        return []
    seat = next_seat(live.owner, rnd.players)
    events = _DRAW_EVENTS[seat] if seat < 10 else [Event(seat, "d", (c,)) for c in CARDS]
    seen = rnd.seen
    if rnd.pile is not None:
        index = rnd.pile[rnd.drawn].index
        return [events[index]] if seen[index] < rnd.copies else []
    copies = rnd.copies
    return [events[i] for i in range(KINDS) if seen[i] < copies]


def _claim_events(rnd: Round, seat: int, live: Live) -> list[Event]:
    """`seat`'s wins and plain melds on the live card (none on its own discard)."""
    if not may_claim(live, seat):
        return []
    calls = rnd.calls
    if calls and any(claim.seat == seat for claim, _ in calls):
        return []
    card = CARDS[live.card_index]
    out = _win_events(rnd, seat, card)
    if rnd.hands[seat][live.card_index] < 2 and pong_or_gan_only(live, seat, rnd.players):
        # A pong or a gan needs a hidden pair or triple of the card: no meld to build.
        return out
    for meld, right in rnd.meld_claims(seat):
        if calls and not _outranks_calls(rnd, Claim(seat, right, meld.kind), live):
            continue
        out.append(Event(seat, "m", meld.cards))
    if calls and out and out[0].verb == "w" and not _outranks_calls(rnd, Claim(seat, WIN), live):
        out = [e for e in out if e.verb != "w"]
    return out


def _outranks_calls(rnd: Round, mine: Claim, live: Live) -> bool:
    claims = [claim for claim, _ in rnd.calls] + [mine]
    return resolve_claims(claims, live, rnd.players).seat == mine.seat


def _win_events(rnd: Round, seat: int, card: Card) -> list[Event]:
    """One win per distinct meld of `card` that completes the seat's hand (and reaches a
    bga threshold), the rest of the hand declared as its best split."""
    hand = rnd.hands[seat]
    ruleset = rnd.ruleset
    if not can_complete(hand, card, ruleset, rnd.copies):
        return []
    locked = rnd.locked[seat] if ruleset.dealt_sets_locked else None
    exposed = rnd.exposed_points(seat)
    threshold = ruleset.threshold
    out = []
    for meld in melds_with(card, hand, ruleset):
        if not locked_ok(meld, card, locked, hand):
            continue
        split = split_hidden(rest_after(hand, meld, card), rnd.locked[seat], ruleset)
        if split is None:
            continue
        points = exposed + meld.points(ruleset, exposed=True) + split[0]
        if threshold is not None and points < threshold:
            continue
        out.append(Event(seat, "w", meld.cards, tuple(m.cards for m in split[1])))
    return out
