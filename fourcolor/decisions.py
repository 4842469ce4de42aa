"""The decisions of a record the reviewer rates (fourcolor/analysis.py, docs/analysis.md, "The
decisions"): every point where a seat chose between two or more options of its own, with the
options (`Round.legal_events()`) and the one it played."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARDS, Card
from .claims import Claim, ClaimRight, claim_right, resolve_claims
from .melds import classify
from .notation import Event, Record
from .round import LIVE, MUST_DISCARD, OPENING, Round

PASS = "pass"


@dataclass(frozen=True)
class Option:
    """One option of a decision: the seat's own event, or (`event` None) letting the live card
    go, after which the other seats decide on it as the playout policy does."""

    label: str
    event: Event | None = None


@dataclass(frozen=True)
class Point:
    """A decision to rate: the round before it (`before` events applied), the seat, its
    options and the one it played; `ply` is the ply of the event that followed it."""

    before: int
    ply: int
    seat: int
    options: tuple[Option, ...]
    played: str | None  # None: no option was played (the reviewer's advice)


def _key(event: Event) -> tuple[int, str, tuple[Card, ...]]:
    return event.seat, event.verb, tuple(sorted(event.cards, key=lambda c: c.index))


def claim_of(state: Round, event: Event) -> Claim:
    """A listed or recorded claim (a meld or a win) on the live card, with its right."""
    live = state.live
    assert live is not None
    if event.verb == "w":
        return Claim(event.seat, ClaimRight.WIN)
    meld = classify(event.cards, state.ruleset)
    assert meld is not None
    card = CARDS[live.card_index]
    right = claim_right(
        state.ruleset, state.players, live, event.seat, meld.kind, card.rank, win=False
    )
    return Claim(event.seat, right, meld.kind)


def outranks(state: Round, mine: Event, theirs: Event) -> bool:
    """Whether `mine` would have taken effect against `theirs`, a claim on the same card."""
    live = state.live
    assert live is not None
    claims = [claim_of(state, theirs), claim_of(state, mine)]
    return resolve_claims(claims, live, state.players).seat == mine.seat


def decision_points(
    record: Record, rounds: Sequence[Round], seats: set[int], *, exhausted: bool = False
) -> list[Point]:
    """Every decision of `seats` in the record, in ply order (seat order within a ply).
    `exhausted`: the round ended when nobody claimed its last discard, so the seats that could
    have claimed it let it go (at ply: the number of events + 1)."""
    events = record.events
    points: list[Point] = []
    judged = rounds if exhausted else rounds[:-1]
    for before, state in enumerate(judged):
        if before > 0 and events[before - 1].verb in "ch":
            continue  # the same live card was judged before the calls
        if state.phase in (OPENING, MUST_DISCARD):
            event = events[before]
            if event.verb != "x" or event.seat not in seats:
                continue  # a redeal is not rated (docs/analysis.md)
            listed = [e for e in state.legal_events() if e.verb == "x" and e.seat == event.seat]
            if len(listed) >= 2:
                options = tuple(Option(e.text(), e) for e in listed)
                points.append(Point(before, before + 1, event.seat, options, event.text()))
        elif state.phase == LIVE and state.live is not None:
            points += _live_points(state, events, before, seats)
    return points


def _live_points(
    state: Round, events: Sequence[Event], before: int, seats: set[int]
) -> list[Point]:
    """The decisions on one live card: each seat that could claim it (or, for its drawer,
    meld it) chose among its claims and letting it go (the drawer: discarding it)."""
    live = state.live
    assert live is not None
    at = before
    callers: set[int] = set()
    while at < len(events) and events[at].verb in "ch":
        callers.add(events[at].seat)
        at += 1
    follow = events[at] if at < len(events) else None
    listed = state.legal_events()
    out = []
    for seat in sorted(seats - callers):  # a caller claimed and lost on priority: no choice
        claims = [e for e in listed if e.seat == seat and e.verb in "mw"]
        if not claims:
            continue
        drawer = live.source == "draw" and seat == live.owner
        taken = follow is not None and follow.verb in "mw" and follow.seat != seat
        if taken:
            # Another seat's claim took the card: only the options that would have outranked
            # it were choices.
            assert follow is not None
            claims = [e for e in claims if outranks(state, e, follow)]
        options = tuple(Option(e.text(), e) for e in claims)
        if drawer and not taken:
            # The drawer lets its draw go by discarding it (never a general: that is melded).
            options += tuple(
                Option(e.text(), e) for e in listed if e.seat == seat and e.verb == "x"
            )
        else:
            options += (Option(PASS),)
        if follow is not None and follow.seat == seat and follow.verb in "mwx":
            played = next((o.label for o in options if o.event and _key(o.event) == _key(follow)))
        else:
            played = PASS
        if len(options) >= 2:
            out.append(Point(before, at + 1, seat, options, played))
    return out
