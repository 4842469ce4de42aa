"""The reviewer's fast playouts (fourcolor/playout.py) play exactly as the greedy bot does
(the patient bot at patient seats) through `Round.legal_events()` and `Round.push`
(fourcolor/generate.py): the same settlement from the same deal and the same random numbers, on
every decision of many rounds."""

from __future__ import annotations

import random

import pytest

from fourcolor.decisions import decision_points
from fourcolor.inference import HandSampler
from fourcolor.round import Round
from fourcolor.bots import GreedyBot
from fourcolor.generate import generate_record, play_out
from fourcolor.cards import CARDS
from fourcolor.melds import classify
from fourcolor.hands import ready, ready_discards, stays_ready
from fourcolor.playout import greedy_playout
from fourcolor.round import LIVE, MUST_DISCARD, OPENING
from fourcolor.rulesets import Ruleset, get_ruleset, with_switches
from tests.sizes import sweep


def _slow(
    world: Round,
    seat_declining: int | None,
    seed: str,
    *,
    careful: bool = True,
    patient: frozenset[int] = frozenset(),
) -> dict[int, int]:
    rng = random.Random(seed)
    bots = [
        GreedyBot(rng, careful=careful, patient=s in patient)
        for s in range(1, world.players + 1)
    ]
    play_out(world, bots, declining=seat_declining)
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
    # Every decision of the seeds' rounds: one round a case at the CI size.
    _compare(rules, players, careful=True,
             seeds=sweep(full=3, ci=1) if players == 4 else sweep(full=2, ci=1))


@pytest.mark.parametrize("rules", RULES[1::2], ids=lambda r: f"{r.name}-{r.dealt_sets_locked}")
def test_its_reckless_seats_play_exactly_as_the_greedy_bot_did(rules: Ruleset) -> None:
    # `reckless` seats: the greedy bot before it learnt to avoid forced finishes under a
    # threshold (GreedyBot(careful=False)), kept for the bench's comparison.
    _compare(rules, 4, careful=False, seeds=sweep(full=2, ci=1))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: f"{r.name}-{r.dealt_sets_locked}")
def test_its_patient_seats_play_exactly_as_the_patient_bot(rules: Ruleset) -> None:
    _compare(rules, 4, careful=True, seeds=2, patient=frozenset({1, 3}))


def _compare(
    rules: Ruleset,
    players: int,
    *,
    careful: bool,
    seeds: int,
    patient: frozenset[int] = frozenset(),
) -> None:
    compared = 0
    for seed in range(seeds):
        record = generate_record(rules, players, seed, bot=["random", "greedy"] * 2)
        state = Round.from_record(record, rules)
        rounds = [state.copy()]
        for event in record.events:
            state.push(event)
            rounds.append(state.copy())
        seats = set(range(1, players + 1))
        for point in decision_points(record, rounds, seats):
            before = rounds[point.before]
            rng = random.Random(f"{seed}:{point.before}")
            world = HandSampler(None, before, point.before, point.seat, rng).world()
            for option in point.options:
                seed_text = f"{seed}:{point.before}:{option.label}"
                slow, fast = world.copy(), world.copy()
                if option.event is not None:
                    slow.push(option.event)
                    fast.push(option.event)
                declining = point.seat if option.event is None else None
                expected = _slow(slow, declining, seed_text, careful=careful, patient=patient)
                reckless = () if careful else range(1, players + 1)
                got = greedy_playout(
                    fast,
                    random.Random(seed_text),
                    declining=declining,
                    reckless=reckless,
                    patient=patient,
                )
                assert got == expected, (record, point, option)
                compared += 1
    assert compared > 20


def _opened(rules: Ruleset, seed: int) -> Round:
    """A fresh 4-seat deal after the greedy bot's opening discard."""
    record = generate_record(rules, 4, seed)
    state = Round.from_record(record, rules)
    state.push(record.events[0])
    return state


def test_its_careful_seats_stop_forcing_finishes_under_the_threshold() -> None:
    # The greedy bot's rule (docs/analysis.md): in bga it never makes a plain meld that ends
    # the round by a forced finish under T (every other seat is paid T + B = 11); only a drawn
    # general with nothing but such melds still forces one. Reckless seats (the bot before the
    # rule) do. In classic (no threshold) the rule changes nothing.
    bga, classic = get_ruleset("bga"), get_ruleset("classic")
    everyone = (1, 2, 3, 4)
    reckless_forced = careful_forced = 0
    for seed in range(200):
        state = _opened(bga, seed)
        reckless = greedy_playout(state, random.Random(seed), reckless=everyone)
        careful = greedy_playout(state, random.Random(seed))
        reckless_forced += min(reckless.values()) == -33 and sorted(reckless.values())[1] == 11
        careful_forced += min(careful.values()) == -33 and sorted(careful.values())[1] == 11
        if seed < 30:
            plain = _opened(classic, seed)
            assert greedy_playout(plain, random.Random(seed), reckless=everyone) == greedy_playout(
                plain, random.Random(seed)
            )
    assert reckless_forced >= 3
    assert careful_forced < reckless_forced / 2


@pytest.mark.parametrize("ruleset", ["classic", "bga"])
def test_a_patient_seat_keeps_a_ready_hand_ready(ruleset: str) -> None:
    # The patient bot (seats 1 and 3) discards a card that leaves its hand ready whenever one
    # does, and makes no meld after which a ready hand would not be; the greedy bot (seats 2
    # and 4) lets readiness go.
    rules = get_ruleset(ruleset)
    kept = broken = 0
    for seed in range(12):
        record = generate_record(rules, 4, seed, bot=["patient", "greedy"] * 2)
        state = Round.from_record(record, rules)
        for event in record.events:
            seat, hand = event.seat, state.hands[event.seat]
            exposed = state.exposed_points(seat)
            if state.phase in (OPENING, MUST_DISCARD) and event.verb == "x":
                ready_ones = ready_discards(list(hand), exposed, rules, state.copies, None)
                if ready_ones and seat % 2:
                    assert event.cards[0].index in ready_ones, (seed, event)
                    kept += 1
                broken += bool(ready_ones) and event.cards[0].index not in ready_ones
            live = state.live
            if state.phase == LIVE and live is not None and event.verb == "m" and seat % 2:
                card = CARDS[live.card_index]
                drawn_general = live.source == "draw" and live.owner == seat and card.rank == "K"
                meld = classify(event.cards, rules)
                assert meld is not None
                if not drawn_general and ready(list(hand), exposed, rules, state.copies):
                    assert stays_ready(hand, exposed, meld, card, rules, state.copies, None)
            state.push(event)
    assert kept >= 10 and broken >= 3
