"""`Round.legal_events()` against a brute force, like a chess move generator's perft table.

For every state of every round (the public sample's valid records, and 2,016 generated rounds of
both rulesets with 2-4 seats, 504 at the CI size), the test builds its own candidate events: every
verb, for every seat, with every card or group of cards that could apply (a discard of any kind
the seat holds or of the drawn card; a draw of the pile's next card, or of every kind without a
Pile tag; a redeal; a meld or a win of every group of the seat's cards that has the shape of a
meld with the live card). Each candidate is pushed on the round; those `push` accepts must be
exactly the events `legal_events()` lists. The candidates come from the rules' shapes (RULES.md
§4), not from the engine's meld generator, so a meld the generator forgot shows up as a difference.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.round import Round
from fourcolor.generate import generate_record
from fourcolor.notation import Record, parse_record
from fourcolor.rulesets import get_ruleset, with_switches

from tests.sizes import sweep

from .perft import check_record

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def _corpus(name: str) -> list[Record]:
    with open(CORPUS / name, encoding="utf-8", newline="") as f:
        texts = list(fourcolor.iter_records(f))
    out = []
    for text in texts:
        check = fourcolor.check_record(text.text, text.line)
        if check.ok:
            assert check.record is not None
            out.append(check.record)
    return out


@pytest.mark.parametrize("name", ["valid.fcn", "valid_mutants.fcn", "missed_wins.fcn"])
def test_it_lists_exactly_the_legal_events_of_every_sample_state(name: str) -> None:
    records = _corpus(name)
    assert records
    assert sum(check_record(r) for r in records) > len(records)


# 2,016 generated rounds (504 at the CI size): both rulesets, 2-4 seats, greedy and random bots
# (random bots decline claims and wins, so their rounds reach states a greedy table never does).
GENERATED = [
    (ruleset, players, bots)
    for ruleset in ("classic", "bga")
    for players in (2, 3, 4)
    for bots in ("greedy", "random", "mixed")
]


@pytest.mark.parametrize("ruleset,players,bots", GENERATED)
def test_it_lists_exactly_the_legal_events_of_generated_rounds(
    ruleset: str, players: int, bots: str
) -> None:
    rounds = sweep(full=112, ci=28)  # per case: 2,016 in all (504)
    kinds = {"mixed": ["greedy", "random"] * 2}.get(bots, [bots] * 4)[:players]
    for seed in range(rounds):
        record = generate_record(ruleset, players, seed, dealer=seed % players + 1, bot=kinds)
        check_record(record)


@pytest.mark.parametrize(
    "switches",
    [
        {"dealt_sets_locked": True},
        {"steal_generals": "never"},
        {"color_groups": "soldiers", "redeal": True},
        {"below_threshold": "shortfall", "threshold": 6},
    ],
)
def test_it_lists_exactly_the_legal_events_under_switched_rules(
    switches: dict[str, object],
) -> None:
    base = "bga" if "threshold" in switches else "classic"
    ruleset = with_switches(get_ruleset(base), **switches)
    for seed in range(25):
        record = generate_record(
            ruleset, 4, seed, dealer=seed % 4 + 1, bot=["random", "greedy"] * 2
        )
        check_record(record, ruleset)


@settings(max_examples=60)
@given(
    ruleset=st.sampled_from(["classic", "bga"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 10**9),
    plies=st.integers(0, 200),
)
def test_it_lists_only_events_push_accepts_on_a_random_walk(
    ruleset: str, players: int, seed: int, plies: int
) -> None:
    """A walk that always picks one of the listed events by a seeded choice (wins and redeals
    included) never meets an event `push` refuses, and ends only when nothing is listed."""
    import random

    rng = random.Random(seed)
    record = generate_record(ruleset, players, seed, bot="random")
    state = Round.from_record(record)
    for _ in range(plies):
        events = state.legal_events()
        if not events:
            assert state.ended or state.end_of_record().outcome == "exhausted"
            break
        state.push(rng.choice(events))


def _round(text: str) -> Round:
    """The round after the record's events."""
    record = parse_record(text)
    state = Round.from_record(record)
    for event in record.events:
        state.push(event)
    return state


def test_it_lists_a_win_per_distinct_meld_with_the_best_split_declared() -> None:
    from .helpers import WIN_HAND, fcn

    # Seat 2 waits on rC: with the field rR rH rC, or (classic) the three cannons rC yC gC.
    state = _round(fcn({1: "rC", 2: WIN_HAND}, "1x rC", result="*"))
    wins = [e.text() for e in state.legal_events() if e.verb == "w"]
    assert wins == [
        "2w rR rH rC (rA rA rA) (yA yA yA) (yR yH yC) (gE gE gE) (gR gH gC) (wE wE wE)",
        "2w rC yC gC (rA rA rA) (rR yR gR) (rH yH gH) (yA yA yA) (gE gE gE) (wE wE wE)",
    ]
    # In bga there is no three-colour group of cannons: one win.
    state = _round(fcn({1: "rC", 2: WIN_HAND}, "1x rC", result="*", ruleset="bga"))
    assert [e.text() for e in state.legal_events() if e.verb == "w"] == [wins[0]]


def test_it_lists_nothing_after_the_round_ended() -> None:
    record = generate_record("classic", 2, 1)
    state = Round.from_record(record)
    for event in record.events:
        state.push(event)
    assert state.legal_events() == [] or state.end_of_record().outcome == "exhausted"


def test_it_lists_the_dealers_discards_and_the_redeals_before_the_first_discard() -> None:
    from .helpers import fcn

    # Seat 2's dealt hand has no general, triple, quad or four-colour group: it may redeal.
    hand = "rA rA rE rR rH rC rP yA yE yE yR yH yC yP gA gE gR gH gC gP"
    state = _round(fcn({2: hand, 1: "rK"}, "", result="*"))
    events = [e.text() for e in state.legal_events()]
    assert events[0] == "2r"
    assert all(e.startswith("1x ") for e in events[1:])
    assert "1x rK" not in events  # generals are never discarded


def test_it_never_offers_a_locked_triple_in_a_plain_meld_of_its_own_kind() -> None:
    """Found by the brute force: `moves.locked_ok` skipped every copy of the live card's kind,
    so a locked dealt triple of rP was offered as a plain triple with a live rP (push refuses
    it: only the quad may extend a locked triple)."""
    from fourcolor.rulesets import with_switches

    from .helpers import fcn

    locked = with_switches(get_ruleset("classic"), dealt_sets_locked=True)
    record = parse_record(fcn({1: "rP", 2: "rP rP rP wA"}, "1x rP", result="*"))
    state = Round.from_record(record, locked)
    state.push(record.events[0])
    melds = [e.text() for e in state.legal_events() if e.seat == 2 and e.verb == "m"]
    assert melds == ["2m rP rP rP rP"]
    assert [str(m) for m, _ in state.meld_claims(2)] == ["rP rP rP rP"]
