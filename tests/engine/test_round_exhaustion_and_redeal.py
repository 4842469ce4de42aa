"""The round's rules when the pile runs out and when a deal is voided (RULES.md §8, §9),
case by case, on small records built by `tests.engine.helpers` (moved out of test_round.py).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from fourcolor.deal import pile_size, qualifies_for_redeal
from fourcolor.game import validate
from fourcolor.generate import generate_record
from fourcolor.moves import meld_claims
from fourcolor.notation import Event, Record
from fourcolor.round import Round
from fourcolor.rulesets import Ruleset, get_ruleset, with_switches
from tests.engine.helpers import counts, fault, play, verdict

CLASSIC = get_ruleset("classic")
BGA = get_ruleset("bga")

# ---------------------------------------------------------------------- exhaustion


def _exhausted(ruleset: str, players: int) -> Record:
    """The first generated round (random bots) that ends exhausted."""
    for seed in range(400):
        record = generate_record(ruleset, players, seed, bot="random")
        if record.tags["Result"] == "-":
            return record
    raise AssertionError("no exhausted round in 400 seeds")


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("bga", 4), ("bga", 3)])
def test_it_exhausts_a_round_when_nobody_claims_the_last_discard(
    ruleset: str, players: int
) -> None:
    record = _exhausted(ruleset, players)
    game = validate(record)
    events = record.events
    finish = game.finish
    assert (finish.outcome, finish.result_tag, finish.seat, finish.points) == (
        "exhausted", "-", None, None)
    assert game.finish.settlement == dict.fromkeys(range(1, players + 1), 0)
    assert sum(1 for e in events if e.verb == "d") == pile_size(players)
    assert events[-1].verb == "x"
    assert game.round.pile_left == 0


def test_it_refuses_a_draw_from_the_empty_pile() -> None:
    record = _exhausted("classic", 4)
    last = record.events[-1]
    drawer = last.seat % 4 + 1
    extra = replace(record, events=[*record.events, Event(drawer, "d", last.cards)])
    extra.tags = {k: v for k, v in record.tags.items() if k != "Result"}
    assert verdict(extra) == ("empty-pile", len(extra.events))


def test_it_calls_a_round_without_its_last_discard_truncated() -> None:
    record = _exhausted("classic", 4)
    cut = replace(record, events=record.events[:-1])
    assert verdict(cut) == ("truncated", len(cut.events) + 1)
    cut.tags = {**record.tags, "Result": "*"}
    assert validate(cut).finish.outcome == "unfinished"


def test_it_lets_a_seat_claim_the_last_discard() -> None:
    """Nobody claimed the last discard in these rounds, but someone could have: the claim is
    legal with an empty pile, and the claimant then discards."""
    for seed in range(400):
        record = generate_record("bga", 4, seed, bot="random")
        if record.tags["Result"] != "-":
            continue
        rnd = validate(record).round
        assert rnd.live is not None and rnd.live.source == "discard" and rnd.pile_left == 0
        for seat in range(1, 5):
            for meld, _right in meld_claims(rnd.ruleset, 4, rnd.live, seat, rnd.hands[seat]):
                after = rnd.copy()
                after.push(Event(seat, "m", meld.cards))
                if after.phase == "must-discard":
                    assert (after.actor, after.pile_left, after.live) == (seat, 0, None)
                    return
    raise AssertionError("no exhausted round whose last discard anyone could claim")


# ---------------------------------------------------------------------- redeal

PAIRS_RY = "rA rA rE rE rR rR rH rH rC rC yA yA yE yE yR yR yH yH yC yC"
PAIRS_GW = "gA gA gE gE gR gR gH gH gC gC gP gP wA wA wE wE wR wR wH wH wC"


@pytest.mark.parametrize(
    "hand,classic,soldiers_only",
    [
        (PAIRS_RY, True, True),
        (PAIRS_GW, True, True),
        (PAIRS_RY.replace("rA rA", "rA rK"), False, False),  # a general
        (PAIRS_RY.replace("rE rE", "rA rE"), False, False),  # a triple of rA
        (PAIRS_RY.replace("rE rE rR", "rA rA rR"), False, False),  # a quad
        (PAIRS_RY.replace("yE yE", "gA wA"), False, True),  # rA yA gA wA: four colours
        (PAIRS_RY.replace("yE yE", "gA gA"), True, True),  # only three colours of A
        (PAIRS_GW.replace("gA gA", "rP yP").replace("wA wA", "wP rA"), False, False),
    ],
)
def test_it_qualifies_dealt_hands_for_a_redeal(
    hand: str, classic: bool, soldiers_only: bool
) -> None:
    assert qualifies_for_redeal(counts(hand), CLASSIC) is classic
    switched = with_switches(CLASSIC, color_groups="soldiers")
    assert qualifies_for_redeal(counts(hand), switched) is soldiers_only


@pytest.mark.parametrize("seat", [1, 2])
def test_it_voids_the_round_on_a_redeal(seat: int) -> None:
    game = play({1: PAIRS_GW, 2: PAIRS_RY}, f"{seat}r", result="R")
    assert (game.finish.outcome, game.finish.seat, game.finish.result_tag) == ("redeal", seat, "R")
    assert game.finish.settlement == {1: 0, 2: 0}


@pytest.mark.parametrize(
    "hands,events,rules,want",
    [
        ({1: PAIRS_GW, 2: PAIRS_RY.replace("rA rA", "rA rK")}, "2r", CLASSIC, ("redeal", 1)),
        ({1: PAIRS_GW, 2: PAIRS_RY.replace("rE rE", "rA rE")}, "2r", CLASSIC, ("redeal", 1)),
        ({1: PAIRS_GW, 2: PAIRS_RY.replace("yE yE", "gA wA")}, "2r", CLASSIC, ("redeal", 1)),
        (
            {1: PAIRS_GW, 2: PAIRS_RY.replace("yE yE", "gA wA")},
            "2r",
            with_switches(CLASSIC, color_groups="soldiers"),
            None,
        ),
        ({1: PAIRS_GW, 2: PAIRS_RY}, "2r", BGA, ("redeal", 1)),  # bga has no redeal
        ({1: PAIRS_GW, 2: PAIRS_RY}, "1x gA 2r", CLASSIC, ("redeal", 2)),  # after the opening
        ({1: PAIRS_GW, 2: PAIRS_RY}, "2r 1x gA", CLASSIC, ("after-end", 2)),
        ({1: PAIRS_GW, 2: PAIRS_RY}, "2r 1r", CLASSIC, ("after-end", 2)),
    ],
)
def test_it_refuses_a_redeal_that_is_not_allowed(
    hands: dict[int, str], events: str, rules: Ruleset, want: tuple[str, int] | None
) -> None:
    assert fault(hands, events, rules=rules, pad=False) == want


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("bga", 3)])
def test_it_closes_an_exhausted_round_where_its_record_stops(ruleset: str, players: int) -> None:
    record = _exhausted(ruleset, players)
    rnd = Round.from_record(record)
    for event in record.events:
        rnd.push(event)
    assert not rnd.ended and rnd.live is not None  # the last discard could still be claimed
    finish = rnd.close()
    assert finish.outcome == "exhausted" and rnd.ended and rnd.finish is finish
    assert rnd.turn is None and rnd.legal_events() == [] and rnd.live is None
