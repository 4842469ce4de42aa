"""The reviewer's inferred deals (fourcolor/inference.py) agree with everything the seat under
review can see, whatever the round, the seat and the moment, and come from the seed alone."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fourcolor.analysis import deal_chains
from fourcolor.cards import KINDS
from fourcolor.generate import generate_record
from fourcolor.inference import HandSampler, History
from fourcolor.notation import Record
from fourcolor.playout import greedy_playout
from fourcolor.round import ENDED, OPENING, Round


def _rounds(record: Record) -> list[Round]:
    state = Round.from_record(record)
    rounds = [state.copy()]
    for event in record.events:
        state.push(event)
        rounds.append(state.copy())
    return rounds


def _draws(
    record: Record, rounds: list[Round], before: int, seat: int, seed: str
) -> list[list[list[int]]]:
    sampler = HandSampler(
        History(rounds, record.events), rounds[before], before, seat, random.Random(seed)
    )
    return [sampler.hands() for _ in range(6)]


@settings(max_examples=40)
@given(
    ruleset=st.sampled_from(["classic", "bga"]),
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    at=st.floats(0.0, 1.0),
    seat=st.integers(1, 4),
)
def test_it_deals_only_what_the_seat_cannot_see(
    ruleset: str, players: int, seed: int, at: float, seat: int
) -> None:
    record = generate_record(ruleset, players, seed, bot=["greedy", "random"] * 2)
    rounds = _rounds(record)
    before = min(int(at * len(record.events)), len(record.events) - 1)
    state = rounds[before]
    seat = (seat - 1) % players + 1
    if state.phase == ENDED:
        return
    others = [s for s in range(1, players + 1) if s != seat]
    sampler = HandSampler(History(rounds, record.events), state, before, seat, random.Random(seed))
    for _ in range(5):
        *hands, rest = sampler.hands()
        assert [sum(h) for h in hands] == [sum(state.hands[s]) for s in others]
        assert len(rest) == state.pile_left
        dealt = [sum(h[k] for h in hands) + rest.count(k) for k in range(KINDS)]
        assert dealt == state.unseen(seat)  # every unseen copy once, nothing the seat sees
        world = sampler.world()
        assert world.hands[seat] == state.hands[seat]
        assert world.displays == state.displays and world.discards == state.discards
        assert world.pile is not None and len(world.pile) - world.drawn == state.pile_left
        if state.phase != OPENING:
            greedy_playout(world, random.Random(seed))  # a deal the policy plays to the end


def test_a_sighted_sampler_deals_the_other_hands_as_they_are_and_shuffles_the_pile() -> None:
    record = generate_record("bga", 4, 3)
    rounds = _rounds(record)
    before = len(record.events) // 2
    state = rounds[before]
    (chain,) = deal_chains(History(rounds, record.events), state, before, 2, random.Random(1),
                           sighted=True)
    piles = set()
    for _ in range(4):
        world = chain.world()
        assert world.hands == state.hands and world.displays == state.displays
        assert world.pile is not None and state.pile is not None
        pile = world.pile[world.drawn:]
        assert sorted(pile) == sorted(state.pile[state.drawn:])  # the pile's cards, reordered
        piles.add(tuple(pile))
    assert len(piles) > 1  # only the pile's order is drawn


def test_it_draws_the_same_deals_from_the_same_seed() -> None:
    record = generate_record("classic", 4, 7)
    rounds = _rounds(record)
    before = len(record.events) // 2
    first = _draws(record, rounds, before, 2, "a")
    assert first == _draws(record, rounds, before, 2, "a")
    assert first != _draws(record, rounds, before, 2, "b")


def test_its_deals_hold_many_different_hands_late_in_a_round() -> None:
    # Three quarters into a round the posterior is narrow and most moves are refused: with one
    # move between deals, 64 deals held 3 to 23 different hands, and two seeds' deals differed
    # by more than either's error. In each of six rounds, 64 deals hold 20 different hands.
    for seed in range(6):
        record = generate_record("classic", 4, seed, bot=["greedy", "random"] * 2)
        rounds = _rounds(record)
        before = len(record.events) * 3 // 4
        sampler = HandSampler(
            History(rounds, record.events), rounds[before], before, 1, random.Random("mix")
        )
        draws = {tuple(map(tuple, sampler.hands()[:-1])) for _ in range(64)}
        assert len(draws) >= 20, seed


def test_a_decision_burns_in_a_chain_for_every_sixteen_deals_up_to_four() -> None:
    # Each chain's burn-in costs about a hundred deals' moves: four at 2 or 8 samples (the tests',
    # the demo's) doubled an analysis's CPU for deals that one chain gives as well.
    record = generate_record("classic", 4, 0)
    rounds = _rounds(record)
    history = History(rounds, record.events)
    counts = {
        samples: len(deal_chains(history, rounds[20], 20, 1, random.Random("n"), samples))
        for samples in (2, 8, 16, 32, 48, 64, 128, 1000)
    }
    assert counts == {2: 1, 8: 1, 16: 1, 32: 2, 48: 3, 64: 4, 128: 4, 1000: 4}


def test_each_chain_of_a_decision_starts_from_a_shuffle_of_its_own() -> None:
    # Late in a round a chain seldom leaves the hands its start found: chains sharing one start
    # would judge a decision on one guess of the hands, whatever their number.
    record = generate_record("classic", 4, 3)
    rounds = _rounds(record)
    before = len(record.events) // 2
    chains = deal_chains(
        History(rounds, record.events), rounds[before], before, 1, random.Random("own"), 64
    )
    assert len(chains) == 4
    assert len({repr(chain.found) for chain in chains}) == 4
