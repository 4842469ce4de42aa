"""The perft-style brute force for `Round.legal_events()` (tests/engine/test_legal.py and
bench/legal.py): candidate events built from the rules' shapes, each pushed on a copy.

For a state, every verb for every seat with every card or group of cards that could apply: a
discard of any kind the seat holds or of the drawn card; a draw of the pile's next card (of
every kind without a Pile tag or once it is used up); a redeal; a meld and a win of every group
of the live card and the seat's cards that has the shape of a meld (RULES.md §4). They come from
the rules, not from the engine's meld generator, so a meld the generator forgot shows up as a
difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from fourcolor.cards import CARDS, Card
from fourcolor.errors import IllegalMoveError
from fourcolor.round import Round
from fourcolor.notation import Event, Record
from fourcolor.rulesets import Ruleset

RANKS = "KAERHCP"
BLOCKS = ("KAE", "RHC")


def _shaped_groups(live: Card, hand: list[int]) -> Iterator[tuple[Card, ...]]:
    """Every group of the live card and 0-3 held cards with the shape of a meld (RULES.md §4):
    1-4 identical cards, one rank in 3-4 colours, or K A E / R H C of one colour."""
    i = live.index
    colour, rank = divmod(i, 7)
    for extra in range(0, min(hand[i], 3) + 1):
        yield (live,) * (extra + 1)
    others = [CARDS[c * 7 + rank] for c in range(4) if c != colour and hand[c * 7 + rank]]
    for size in (2, 3):
        for chosen in combinations(others, size):
            yield (live, *chosen)
    for block in BLOCKS:
        if live.rank in block:
            partners = [CARDS[colour * 7 + RANKS.index(r)] for r in block if r != live.rank]
            if all(hand[p.index] for p in partners):
                yield (live, *partners)


def brute_force(state: Round) -> set[tuple[int, str, tuple[Card, ...]]]:
    """(seat, verb, cards) of every candidate `push` accepts, each pushed on a copy."""
    live = CARDS[state.live.card_index] if state.live is not None else None
    pile = state.pile
    if pile is not None and state.drawn < len(pile):
        draws: list[Card] = [pile[state.drawn]]
    else:
        draws = list(CARDS)
    accepted: set[tuple[int, str, tuple[Card, ...]]] = set()
    trial = state.copy()
    for seat in range(1, state.players + 1):
        hand = state.hands[seat]
        candidates = [Event(seat, "r")]
        discards = {c for c in CARDS if hand[c.index]} | ({live} if live is not None else set())
        candidates += [Event(seat, "x", (c,)) for c in sorted(discards, key=lambda c: c.index)]
        candidates += [Event(seat, "d", (c,)) for c in draws]
        if live is not None:
            for group in _shaped_groups(live, hand):
                cards = tuple(sorted(group, key=lambda c: c.index))
                candidates += [Event(seat, "m", cards), Event(seat, "w", cards)]
        for event in candidates:
            try:
                trial.push(event)  # a refused event leaves the round unchanged
            except IllegalMoveError:
                continue
            accepted.add((event.seat, event.verb, event.cards))
            trial = state.copy()
    return accepted


def check_state(state: Round) -> int:
    """Compare one state's legal events with the brute force; the number of events."""
    listed = state.legal_events()
    keys = [(e.seat, e.verb, e.cards) for e in listed]
    assert len(keys) == len(set(keys)), f"an event is listed twice: {keys}"
    assert set(keys) == brute_force(state), state.expected()
    for event in listed:
        assert event == event.canonical()
        if event.verb == "w":
            # The declared split is accepted and is a best one.
            after = state.copy()
            after.push(event)
            assert after.finish is not None
            assert after.finish.declared_split == bool(event.groups)
            assert after.finish.hidden_points == after.finish.best_hidden_points
    return len(listed)


def check_record(record: Record, ruleset: Ruleset | None = None) -> int:
    state = Round.from_record(record, ruleset)
    states = 0
    for event in record.events:
        check_state(state)
        state.push(event)
        states += 1
    check_state(state)
    return states + 1
