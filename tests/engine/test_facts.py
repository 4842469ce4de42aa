"""Per-seat facts of a round (`fourcolor.facts.seat_facts`), as its docstrings define them:
draws are `d` events; turns start at 1 for the dealer and count draws and claims on other seats'
cards; steals are pongs, gans and wins that skip seats; those seats lose a turn; the dealt-in
seat owns the card another seat won on."""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, replace

import pytest

from fourcolor.claims import Live, skipped_seats, taken_from
from fourcolor.facts import SeatFacts, finish_taken_from, seat_facts
from fourcolor.deal import pile_size
from fourcolor.game import validate
from fourcolor.generate import generate_record
from tests.engine.helpers import (
    FORCED_EVENTS,
    FORCED_HAND,
    FORCED_RESERVE,
    WAITS,
    WIN_HAND,
    all_rights_game,
    play,
)


def by_seat(facts: list[SeatFacts], field: str) -> dict[int, object]:
    return {f.seat: getattr(f, field) for f in facts}


@pytest.fixture(scope="module")
def all_rights() -> list[SeatFacts]:
    return seat_facts(all_rights_game())


# The all-rights round (helpers): 1x rP, 3 pongs, 3x yC, 4 chis, 4x gA, 1d wE, 2 gans it, 2x gR,
# 3d yK, 3 melds it, 3x wC, 1 wins on it with a field (13 points).
@pytest.mark.parametrize(
    "field,want",
    [
        ("name", {1: "P1", 2: "P2", 3: "P3", 4: "P4"}),
        ("is_dealer", {1: True, 2: False, 3: False, 4: False}),
        ("finisher", {1: True, 2: False, 3: False, 4: False}),
        ("won", {1: True, 2: False, 3: False, 4: False}),
        ("forced", {1: False, 2: False, 3: False, 4: False}),
        ("won_on", {1: "discard", 2: None, 3: None, 4: None}),
        ("dealt_in", {1: False, 2: False, 3: True, 4: False}),  # seat 3 discarded the wC
        ("points", {1: 13, 2: None, 3: None, 4: None}),
        ("delta", {1: 39, 2: -13, 3: -13, 4: -13}),
        ("pongs", {1: 0, 2: 0, 3: 1, 4: 0}),
        ("gans", {1: 0, 2: 1, 3: 0, 4: 0}),
        ("chis", {1: 0, 2: 0, 3: 0, 4: 1}),
        ("own_draw_melds", {1: 0, 2: 0, 3: 1, 4: 0}),
        # seat 3's pong of seat 1's discard skips seat 2; seat 1's win on seat 3's discard skips
        # seat 4; seat 2's gan of seat 1's draw skips nobody (seat 2 comes next anyway).
        ("steals", {1: 1, 2: 0, 3: 1, 4: 0}),
        ("turns_lost", {1: 0, 2: 1, 3: 0, 4: 1}),
        ("draws", {1: 1, 2: 0, 3: 1, 4: 0}),
        # seat 1: the opening 1, its draw 2, its winning claim 3.
        ("win_turn", {1: 3, 2: None, 3: None, 4: None}),
        ("redeal_declared", {1: False, 2: False, 3: False, 4: False}),
        ("missed_wins", {1: 0, 2: 1, 3: 0, 4: 0}),  # seat 2 on seat 3's drawn yK (helpers)
        ("below_threshold", {1: False, 2: False, 3: False, 4: False}),
    ],
)
def test_it_counts_the_facts_of_a_round_with_every_claim(
    all_rights: list[SeatFacts], field: str, want: dict[int, object]
) -> None:
    assert by_seat(all_rights, field) == want


def test_it_lists_the_winners_melds(all_rights: list[SeatFacts]) -> None:
    assert Counter(all_rights[0].win_melds) == Counter({"field": 2, "command": 2, "triple": 3})
    assert [f.win_melds for f in all_rights[1:]] == [(), (), ()]


def test_it_counts_a_win_on_another_seats_draw() -> None:
    # Seat 2 draws wC (it could win on it itself: it has priority), seat 4 wins on it.
    game = play(WAITS, "1x rP 2d wC 4w wC wR wH", players=4, reserve="wC")
    facts = seat_facts(game)
    assert by_seat(facts, "dealt_in") == {1: False, 2: True, 3: False, 4: False}
    assert (facts[3].won, facts[3].won_on, facts[3].points, facts[3].win_turn) == (
        True,
        "draw",
        19,
        1,
    )
    assert finish_taken_from(game) == "draw"
    assert by_seat(facts, "steals") == {1: 0, 2: 0, 3: 0, 4: 1}  # seat 3 is skipped
    assert by_seat(facts, "turns_lost") == {1: 0, 2: 0, 3: 1, 4: 0}
    assert by_seat(facts, "draws") == {1: 0, 2: 1, 3: 0, 4: 0}
    assert (facts[1].missed_wins, facts[3].missed_wins) == (1, 0)


def test_it_counts_a_win_on_the_winners_own_draw() -> None:
    game = play({1: "rA", 2: WIN_HAND}, "1x rA 2d rC 2w rC rR rH", reserve="rC")
    facts = seat_facts(game)
    # `self_draw`, not `draw`: the winner drew the card itself.
    assert (facts[1].won, facts[1].won_on, facts[1].win_turn, facts[1].draws) == (
        True,
        "self_draw",
        1,
        1,
    )
    assert finish_taken_from(game) == "self_draw"
    assert by_seat(facts, "dealt_in") == {1: False, 2: False}
    assert by_seat(facts, "own_draw_melds") == {1: 0, 2: 0}  # a win is not an own-draw meld


def test_it_counts_no_steal_for_a_win_on_the_winners_own_draw() -> None:
    game = play({1: "rA", 2: WIN_HAND}, "1x rA 2d rC 2w rC rR rH", reserve="rC")
    facts = seat_facts(game)
    assert by_seat(facts, "steals") == {1: 0, 2: 0}
    assert by_seat(facts, "turns_lost") == {1: 0, 2: 0}


@pytest.mark.parametrize(
    "owner,source,claimant,players,want",
    [
        (1, "discard", 2, 4, []),
        (1, "discard", 3, 4, [2]),
        (1, "discard", 4, 4, [2, 3]),
        (4, "discard", 3, 4, [1, 2]),
        (3, "discard", 2, 3, [1]),
        (1, "draw", 2, 4, []),
        (1, "draw", 3, 4, [2]),
        (2, "draw", 1, 4, [3, 4]),
        (1, "discard", 2, 2, []),
    ],
)
def test_it_names_the_seats_a_claim_skips(
    owner: int, source: str, claimant: int, players: int, want: list[int]
) -> None:
    assert skipped_seats(owner, source, claimant, players) == want


def test_it_counts_a_forced_finish_under_the_bga_threshold() -> None:
    game = play({1: "rC", 2: FORCED_HAND}, FORCED_EVENTS, ruleset="bga", reserve=FORCED_RESERVE)
    facts = seat_facts(game)
    seat2 = facts[1]
    assert (seat2.finisher, seat2.forced, seat2.won, seat2.below_threshold) == (
        True,
        True,
        False,
        True,
    )
    assert (seat2.points, seat2.delta, seat2.won_on, seat2.win_turn) == (9, -11, None, None)
    assert (seat2.chis, seat2.draws) == (6, 0)  # five fields and the pair, all chis
    assert Counter(seat2.win_melds) == Counter({"field": 5, "pair": 1, "lone": 4})
    assert (facts[0].delta, facts[0].draws, facts[0].dealt_in) == (11, 5, False)


def test_it_marks_the_seat_that_declared_a_redeal() -> None:
    hands = {
        1: "gA gA gE gE gR gR gH gH gC gC gP gP wA wA wE wE wR wR wH wH wC",
        2: "rA rA rE rE rR rR rH rH rC rC yA yA yE yE yR yR yH yH yC yC",
    }
    facts = seat_facts(play(hands, "2r", pad=False))
    assert by_seat(facts, "redeal_declared") == {1: False, 2: True}
    assert by_seat(facts, "finisher") == {1: False, 2: False}
    assert by_seat(facts, "delta") == {1: 0, 2: 0}


def test_it_counts_every_draw_of_an_exhausted_round() -> None:
    for seed in range(400):
        record = generate_record("bga", 4, seed, bot="random")
        if record.tags["Result"] == "-":
            break
    game = validate(record)
    facts = seat_facts(game)
    assert sum(f.draws for f in facts) == pile_size(4)
    assert not any(f.finisher or f.won or f.dealt_in for f in facts)
    assert [f.delta for f in facts] == [0, 0, 0, 0]


def test_it_counts_no_missed_win_for_a_winner_whose_claim_followed_calls() -> None:
    game = play(WAITS, "1x wC 4h wC wR wH 2w wC wR wH", players=4)
    assert by_seat(seat_facts(game), "missed_wins") == {1: 0, 2: 0, 3: 0, 4: 0}


@pytest.mark.parametrize(
    "owner,source,claimant,want",
    [
        (2, "draw", 2, "self_draw"),
        (2, "draw", 4, "draw"),
        (1, "discard", 2, "discard"),
        (3, "discard", 1, "discard"),
    ],
)
def test_it_names_whose_card_a_claim_takes(
    owner: int, source: str, claimant: int, want: str
) -> None:
    assert taken_from(Live(0, owner, source), claimant) == want


def test_it_says_whose_card_ended_a_forced_finish_and_only_a_win_sets_won_on() -> None:
    game = play({1: "rC", 2: FORCED_HAND}, FORCED_EVENTS, ruleset="bga", reserve=FORCED_RESERVE)
    # The forced finish comes with "2m yE yE" on seat 1's discarded yE.
    assert finish_taken_from(game) == "discard"
    assert [f.won_on for f in seat_facts(game)] == [None, None]


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("bga", 3), ("bga", 4)])
def test_check_record_counts_the_facts_in_the_pass_that_validates(
    ruleset: str, players: int
) -> None:
    # What the import stores, from one replay of the round.
    from fourcolor import check_record
    from fourcolor.notation import write_fcn

    for seed in range(8):
        record = generate_record(ruleset, players, seed, bot="random")
        text = write_fcn(record)
        check = check_record(text, facts=True)
        assert check.game is not None and check.facts == seat_facts(check.game)
        assert check_record(text).facts is None  # only when asked for
        stopped = write_fcn(replace(record, events=record.events[:-1]))
        refused = check_record(stopped, facts=True)
        assert refused.error is not None and refused.error.category == "truncated"
        assert refused.game is None and refused.facts is None


def test_it_builds_facts_equal_to_the_dataclass_s_own_with_the_fields_in_order() -> None:
    # The import copies a SeatFacts' vars() as the row: its attributes are the fields in
    # order, and the same value comes back from them.
    for facts in seat_facts(all_rights_game()):
        assert list(vars(facts)) == [f.name for f in fields(SeatFacts)]
        assert facts == SeatFacts(**vars(facts))
        assert hash(facts) == hash(SeatFacts(**vars(facts)))
