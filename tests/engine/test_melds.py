"""Melds and their points in both rulesets (RULES.md §4), the `color_groups` switch, and house
rulesets built from plain mappings."""

from __future__ import annotations

from typing import Any

import pytest

from fourcolor.melds import Meld, classify
from fourcolor.messages import MELD_LABELS
from fourcolor.rulesets import (
    BGA,
    CLASSIC,
    MELD_KINDS,
    Ruleset,
    RulesetError,
    get_ruleset,
    with_switches,
)
from fourcolor.split import best_split
from tests.engine.helpers import cards

Points = tuple[int, int] | None


def _pts(rs: Ruleset, text: str) -> Points:
    """(hidden, exposed) points of the cards as a meld of `rs`, None when they are not one."""
    meld = classify(cards(text), rs)
    if meld is None:
        return None
    return meld.points(rs, exposed=False), meld.points(rs, exposed=True)


# cards, kind, classic (hidden, exposed), bga (hidden, exposed); None: not a meld there.
MELD_TABLE: list[tuple[str, str, Points, Points]] = [
    ("rK", "lone", (1, 1), (1, 1)),
    ("wK", "lone", (1, 1), (1, 1)),
    ("yA yA", "pair", (0, 0), (0, 0)),
    ("wC wC", "pair", (0, 0), (0, 0)),
    ("gE gE", "pair", (0, 0), (0, 0)),
    ("rK rK", "pair", (0, 0), None),
    ("gP gP", "pair", (0, 0), None),
    ("rK rA rE", "command", (1, 1), (2, 2)),
    ("wE wK wA", "command", (1, 1), (2, 2)),
    ("gR gH gC", "field", (1, 1), (1, 1)),
    ("yC yR yH", "field", (1, 1), (1, 1)),
    ("yR yR yR", "triple", (3, 1), (3, 1)),
    ("wA wA wA", "triple", (3, 1), (3, 1)),
    ("rP rP rP", "triple", (3, 1), (3, 1)),
    ("gK gK gK", "triple", (3, 3), None),
    ("wH wH wH wH", "quad", (8, 6), (8, 6)),
    ("rP rP rP rP", "quad", (8, 6), (8, 6)),
    ("rK rK rK rK", "quad", (8, 6), (6, 8)),
    ("rA yA gA", "three_colour", (1, 1), None),
    ("yC gC wC", "three_colour", (1, 1), None),
    ("rK gK wK", "three_colour", (1, 1), None),
    ("rP yP wP", "three_colour", (1, 1), (3, 3)),
    ("rH yH gH wH", "four_colour", (4, 4), None),
    ("yK gK wK rK", "four_colour", (4, 4), None),
    ("rP yP gP wP", "four_colour", (4, 4), (5, 5)),
]


@pytest.mark.parametrize("ruleset", ["classic", "bga"])
@pytest.mark.parametrize(
    "text,kind,classic,bga", MELD_TABLE, ids=[row[0].replace(" ", "-") for row in MELD_TABLE]
)
def test_it_scores_every_meld_kind_hidden_and_exposed(
    ruleset: str, text: str, kind: str, classic: Points, bga: Points
) -> None:
    rs = get_ruleset(ruleset)
    want = classic if ruleset == "classic" else bga
    meld = classify(cards(text), rs)
    if want is None:
        assert meld is None
        return
    assert meld is not None
    assert meld.kind == kind
    assert (meld.points(rs, exposed=False), meld.points(rs, exposed=True)) == want
    assert sorted(c.index for c in meld.cards) == [c.index for c in meld.cards]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "rA",
        "wP",
        "rA yA",
        "rK yK",
        "rK rA",
        "rK rA yE",
        "rR rH gC",
        "rR rH rP",
        "rK rA rE rR",
        "rR rH rC rC",
        "rP rP yP",
        "rP rP yP yP",
        "rA yA gA gA",
        "rA yA gA wA rA",
        "rH rH rH rH rH",
        "rA rE rR",
    ],
)
@pytest.mark.parametrize("ruleset", ["classic", "bga"])
def test_it_classifies_non_melds_as_none(ruleset: str, text: str) -> None:
    assert classify(cards(text), get_ruleset(ruleset)) is None


def test_it_refuses_to_score_a_meld_its_ruleset_lacks() -> None:
    meld = Meld("pair", tuple(cards("rK rK")))
    with pytest.raises(ValueError, match="pair of K is not a meld of bga"):
        meld.points(BGA, exposed=False)


def test_it_names_meld_kinds_and_their_rank() -> None:
    meld = classify(cards("wA wE wK"), CLASSIC)
    assert meld is not None
    assert (meld.kind, meld.rank, str(meld)) == ("command", "K", "wK wA wE")
    group = classify(cards("rP yP gP"), CLASSIC)
    assert group is not None and MELD_LABELS[group.kind] == "three-colour"


@pytest.mark.parametrize(
    "text,classic_any,soldiers",
    [
        ("rA yA gA", (1, 1), None),
        ("rK gK wK", (1, 1), None),
        ("rH yH gH wH", (4, 4), None),
        ("rP yP wP", (1, 1), (1, 1)),
        ("rP yP gP wP", (4, 4), (4, 4)),
        ("rP rP", (0, 0), (0, 0)),
        ("rA rA rA", (3, 1), (3, 1)),
    ],
)
def test_it_limits_colour_groups_to_soldiers_with_the_color_groups_switch(
    text: str, classic_any: Points, soldiers: Points
) -> None:
    switched = with_switches(CLASSIC, color_groups="soldiers")
    for rs, want in ((CLASSIC, classic_any), (switched, soldiers)):
        assert _pts(rs, text) == want, rs.color_groups


def test_it_keeps_the_shipped_ruleset_untouched_by_a_switched_copy() -> None:
    hand = cards("rA yA gA wA")
    switched = with_switches(CLASSIC, color_groups="soldiers")
    assert best_split(hand, switched) is None
    split = best_split(hand, CLASSIC)
    assert split is not None and split.points == 4
    assert CLASSIC.color_groups == "any" and switched.color_groups == "soldiers"
    assert switched.name == "classic"


@pytest.mark.parametrize(
    "switches,message",
    [
        ({"colour_groups": "any"}, "unknown switch"),
        ({"color_groups": "all"}, "switch color_groups must be one of"),
        ({"steal_generals": "always"}, "switch steal_generals must be one of"),
        ({"below_threshold": "half"}, "switch below_threshold"),
        ({"lucky_draw": "yes"}, "switch lucky_draw"),
    ],
)
def test_it_refuses_bad_switches(switches: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesetError, match=message):
        with_switches(BGA, **switches)


# ---------------------------------------------------------------------- house rulesets


def test_it_builds_a_house_ruleset_extending_a_shipped_one() -> None:
    house = Ruleset.from_mapping({"extends": "bga", "name": "house", "threshold": 8})
    assert (house.name, house.threshold, house.base) == ("house", 8, 1)
    assert (house.lucky_draw, house.redeal, house.color_groups) == (True, False, "soldiers")
    assert house.match_rounds == 3
    assert _pts(house, "rK rA rE") == (2, 2)
    assert _pts(house, "rK rK rK rK") == (6, 8)
    assert _pts(house, "rP rP") is None
    assert BGA.threshold == 10  # the shipped ruleset is unchanged


def test_it_merges_house_meld_tables_kind_by_kind() -> None:
    house = Ruleset.from_mapping(
        {
            "extends": "classic",
            "name": "no soldier pairs",
            "melds": {"pair": {"P": None}, "command": {"*": [2, 3]}, "field": None},
        }
    )
    assert _pts(house, "rP rP") is None
    assert _pts(house, "rA rA") == (0, 0)  # the rest of the pair table is kept
    assert _pts(house, "rK rA rE") == (2, 3)
    assert _pts(house, "gR gH gC") is None  # the whole kind removed
    assert _pts(house, "gK gK gK") == (3, 3)  # untouched kinds keep their exceptions
    assert house.redeal is True
    split = best_split(cards("rK rA rE gR gH gC"), house)
    assert split is None  # no field: the R H C cards do not split


def test_it_builds_a_house_ruleset_from_nothing() -> None:
    bare = Ruleset.from_mapping(
        {"name": "bare", "melds": {"lone": {"K": [1, 1]}, "quad": {"*": [9, 9]}}}
    )
    assert _pts(bare, "gK") == (1, 1)
    assert _pts(bare, "gA gA gA gA") == (9, 9)
    assert _pts(bare, "gA gA") is None
    assert bare.threshold is None and bare.chi_melds == frozenset()


def test_it_allows_colour_groups_of_any_rank_in_a_house_bga() -> None:
    house = Ruleset.from_mapping(
        {
            "extends": "bga",
            "name": "bga any colours",
            "color_groups": "any",
            "melds": {"three_colour": {"*": [1, 1]}},
        }
    )
    assert _pts(house, "rA yA gA") == (1, 1)
    assert _pts(house, "rP yP gP") == (3, 3)
    # A table of soldiers only, switched to any rank: every rank at the soldiers' value (§8a).
    assert _pts(house, "rA yA gA wA") == (5, 5)
    strict = Ruleset.from_mapping(
        {**house.as_mapping(), "melds": {"four_colour": {"*": None, "P": [5, 5]}}}
    )
    assert _pts(strict, "rA yA gA wA") is None  # a table that excludes the other ranks


@pytest.mark.parametrize("name", ["classic", "bga"])
def test_it_round_trips_a_shipped_ruleset_through_its_mapping(name: str) -> None:
    shipped = get_ruleset(name)
    copy = Ruleset.from_mapping(shipped.as_mapping())
    for kind in MELD_KINDS:
        for rank in "KAERHCP":
            assert copy.points(kind, rank) == shipped.points(kind, rank), (kind, rank)
    assert copy.chi_melds == shipped.chi_melds
    for key in ("color_groups", "steal_generals", "threshold", "base", "below_threshold"):
        assert getattr(copy, key) == getattr(shipped, key)
    for key in ("lucky_draw", "redeal", "dealt_sets_locked", "match_rounds", "name"):
        assert getattr(copy, key) == getattr(shipped, key)


BAD_MAPPINGS: list[tuple[dict[str, Any], str]] = [
    ({"extends": "poker", "name": "x"}, "unknown ruleset 'poker'"),
    ({"melds": {}}, "non-empty 'name'"),
    ({"extends": "bga", "name": ""}, "non-empty 'name'"),
    ({"extends": "bga", "name": 7}, "non-empty 'name'"),
    ({"extends": "bga", "name": "x", "colour_groups": "any"}, "unknown ruleset keys"),
    ({"extends": "bga", "name": "x", "melds": {"run": {"*": [1, 1]}}}, "unknown meld kind"),
    ({"extends": "bga", "name": "x", "melds": {"pair": {"*": [1]}}}, "points must be"),
    ({"extends": "bga", "name": "x", "melds": {"pair": {"*": "1/1"}}}, "points must be"),
    ({"extends": "bga", "name": "x", "melds": {"pair": {"*": [True, 0]}}}, "points must be"),
    ({"extends": "bga", "name": "x", "melds": {"pair": {"*": [1.5, 0]}}}, "points must be"),
    ({"extends": "bga", "name": "x", "melds": {"pair": {"Q": [1, 1]}}}, "unknown rank"),
    ({"extends": "bga", "name": "x", "steal_generals": "always"}, "switch steal_generals"),
    ({"extends": "bga", "name": "x", "lucky_draw": "yes"}, "switch lucky_draw"),
    ({"extends": "bga", "name": "x", "color_groups": "none"}, "switch color_groups"),
    ({"extends": "bga", "name": "x", "chi_melds": ["pair", "run"]}, "chi_melds"),
    ({"extends": "bga", "name": "x", "threshold": "10"}, "threshold"),
    ({"extends": "bga", "name": "x", "threshold": True}, "threshold"),
    ({"extends": "bga", "name": "x", "base": 1.5}, "base must be an integer"),
    ({"extends": "bga", "name": "x", "match_rounds": True}, "match_rounds must be an integer"),
]


@pytest.mark.parametrize("mapping,message", BAD_MAPPINGS, ids=[m for _, m in BAD_MAPPINGS])
def test_it_refuses_bad_house_mappings_with_a_ruleset_error(
    mapping: dict[str, Any], message: str
) -> None:
    with pytest.raises(RulesetError, match=message):
        Ruleset.from_mapping(mapping)


@pytest.mark.parametrize(
    "mapping",
    [
        {"extends": "bga", "name": "x", "melds": {"pair": 5}},
        {"extends": "bga", "name": "x", "melds": {"pair": "P"}},
        {"extends": "bga", "name": "x", "melds": ["pair"]},
        {"extends": "bga", "name": "x", "chi_melds": 5},
    ],
)
def test_it_refuses_malformed_house_tables_with_a_ruleset_error(mapping: dict[str, Any]) -> None:
    with pytest.raises(RulesetError):
        Ruleset.from_mapping(mapping)


def test_it_never_answers_for_a_freed_copy_of_a_ruleset_with_the_same_name() -> None:
    # Copies made by with_switches keep the shipped name, and CPython gives a new copy the id
    # of one just freed: a cache keyed by name or id() would answer for the wrong copy. The
    # caches live on each ruleset (Ruleset.caches), so a new copy starts with its own.
    from fourcolor.cards import parse_card
    from fourcolor.melds import classify
    from fourcolor.rulesets import CLASSIC, with_switches

    advisors = [parse_card(t) for t in ("rA", "yA", "gA")]
    ids = []
    for _ in range(50):
        soldiers_only = with_switches(CLASSIC, color_groups="soldiers")
        ids.append(id(soldiers_only))
        assert soldiers_only.caches is not CLASSIC.caches and not soldiers_only.caches.classified
        assert classify(advisors, soldiers_only) is None
        del soldiers_only  # freed at once (no cycle): its id is free for the next copy
        any_rank = with_switches(CLASSIC, color_groups="any")
        ids.append(id(any_rank))
        meld = classify(advisors, any_rank)
        assert meld is not None and meld.kind == "three_colour"
        del any_rank
    assert len(set(ids)) < len(ids)  # ids were reused: the case the caches must survive
