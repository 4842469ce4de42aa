"""The reviewer's fast playouts (fourcolor/playout.py) play exactly as the greedy bot does
through `Round.legal_events()` and `Round.push` (fourcolor/generate.py): the same settlement
from the same deal and the same random numbers, on every decision of many rounds."""

from __future__ import annotations

import random

import pytest

from fourcolor import analysis
from fourcolor.round import Round
from fourcolor.generate import GreedyBot, generate_record, play_out
from fourcolor.playout import greedy_playout
from fourcolor.rulesets import Ruleset, get_ruleset, with_switches


def _slow(world: Round, seat_declining: int | None, seed: str) -> dict[int, int]:
    rng = random.Random(seed)
    play_out(world, [GreedyBot(rng) for _ in range(world.players)], declining=seat_declining)
    return world.end_of_record().settlement


RULES = [
    get_ruleset("classic"),
    get_ruleset("bga"),
    with_switches(get_ruleset("classic"), dealt_sets_locked=True, steal_generals="never"),
    with_switches(get_ruleset("bga"), dealt_sets_locked=True, below_threshold="shortfall"),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.dealt_sets_locked}")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_it_plays_exactly_as_the_greedy_bot(rules: Ruleset, players: int) -> None:
    compared = 0
    for seed in range(3 if players == 4 else 2):
        record = generate_record(rules, players, seed, bot=["random", "greedy"] * 2)
        state = Round.from_record(record, rules)
        rounds = [state.copy()]
        for event in record.events:
            state.push(event)
            rounds.append(state.copy())
        seats = set(range(1, players + 1))
        for point in analysis._decision_points(record, rounds, seats):
            before = rounds[point.before]
            rng = random.Random(f"{seed}:{point.before}")
            world = analysis._world(before, point.seat, analysis._unseen(before, point.seat), rng)
            for option in point.options:
                seed_text = f"{seed}:{point.before}:{option.label}"
                slow, fast = world.copy(), world.copy()
                if option.event is not None:
                    slow.push(option.event)
                    fast.push(option.event)
                declining = point.seat if option.event is None else None
                expected = _slow(slow, declining, seed_text)
                got = greedy_playout(fast, random.Random(seed_text), declining=declining)
                assert got == expected, (record, point, option)
                compared += 1
    assert compared > 20
