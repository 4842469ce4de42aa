"""The `analyst` bot of fourcolor/generate.py plays the reviewer's best option
(`fourcolor.analysis.advise`) at every decision of its seat, and nothing the seat cannot see
changes its advice."""

from __future__ import annotations

import pytest

from fourcolor.analysis import advise
from fourcolor.decisions import PASS
from fourcolor.generate import generate_record
from fourcolor.inference import History
from fourcolor.round import LIVE, MUST_DISCARD, Round

SAMPLES = 3


@pytest.mark.parametrize("ruleset,seed,seat", [("classic", 1, 1), ("bga", 7, 3)])
def test_it_plays_the_reviewers_best_option(ruleset: str, seed: int, seat: int) -> None:
    bots = ["greedy"] * 4
    bots[seat - 1] = f"analyst:{SAMPLES}"
    record = generate_record(ruleset, 4, seed, bot=bots)
    state = Round.from_record(record)
    rounds = [state.copy()]
    advised = 0
    for ply, event in enumerate(record.events):
        # The bot reads the round so far (inferred hands): the same history here.
        history = History(rounds, record.events[:ply])
        decision = advise(state, seat, samples=SAMPLES, history=history)
        if decision is not None:
            advised += 1
            assert decision.played == decision.best and decision.loss == 0
            mine = event.seat == seat and event.verb in "mwx"
            if decision.best == PASS:
                assert state.phase == LIVE and not mine  # it let the card go
            elif mine:
                # Its discard or its claim (a win with the split the table declares: none).
                assert event.text().split(" (")[0] == decision.best.split(" (")[0]
            else:
                assert event.verb in "mw"  # its claim was outranked by another seat's
        state.push(event)
        rounds.append(state.copy())
    assert advised >= 5


def test_it_advises_only_from_what_the_seat_sees() -> None:
    record = generate_record("classic", 4, 4, bot="greedy")
    state = Round.from_record(record)
    for event in record.events:
        state.push(event)
        if state.ply > 8 and state.phase == MUST_DISCARD:
            break  # a seat to discard after a meld
    seat = state.actor
    advice = advise(state, seat, samples=SAMPLES)
    assert advice is not None  # the seat to discard has a choice
    # Two other seats' hidden hands of the same size, swapped.
    others = [s for s in range(1, 5) if s != seat]
    a, b = next((a, b) for a in others for b in others if a < b
                and sum(state.hands[a]) == sum(state.hands[b]) and state.hands[a] != state.hands[b])
    other = state.copy()
    other.hands[a], other.hands[b] = list(state.hands[b]), list(state.hands[a])
    assert advise(other, seat, samples=SAMPLES) == advice
