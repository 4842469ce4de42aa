"""One identity per round (fourcolor.notation.identity): what was played, not how it is written."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.generate import generate_record
from fourcolor.notation.identity import Difference, differences, identity_text

SHAPES = [("classic", 2), ("classic", 4), ("bga", 3), ("bga", 4)]


def record(seed: int) -> fourcolor.Record:
    ruleset, players = SHAPES[seed % len(SHAPES)]
    return generate_record(ruleset, players, seed)


def with_tags(base: fourcolor.Record, **tags: str) -> fourcolor.Record:
    return dataclasses.replace(base, tags={**base.tags, **tags})


def reparsed(base: fourcolor.Record) -> fourcolor.Record:
    return fourcolor.parse_record(fourcolor.write_fcn(base))


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000), comment=st.text(
    alphabet=st.characters(blacklist_characters="{}\\", blacklist_categories=("Cs", "Cc")),
    max_size=20))
def test_descriptions_never_make_another_round(seed: int, comment: str) -> None:
    base = reparsed(record(seed))
    described = dataclasses.replace(
        with_tags(base, Event="Friday club", Site="Hà Nội", Date="2026.11.27", Match="Cup",
                  Round="3", Annotator="Mai"),
        comments=[comment], events=list(base.events),
    )
    if described.events:
        first = described.events[0]
        described.events[0] = first._replace(comments=(comment, "second"))
    assert identity_text(reparsed(described)) == identity_text(base)
    without_result = dict(base.tags)
    without_result.pop("Result", None)
    assert identity_text(dataclasses.replace(base, tags=without_result)) == identity_text(base)


@settings(max_examples=25)
@given(seed=st.integers(0, 10_000))
def test_what_was_played_makes_another_round(seed: int) -> None:
    base = reparsed(record(seed))
    other_dealer = str(base.dealer % base.players + 1)
    assert identity_text(with_tags(base, Dealer=other_dealer)) != identity_text(base)
    assert identity_text(with_tags(base, Seat1="Someone Else")) != identity_text(base)
    # The same player written in another case is the same player (the archive's player_key).
    assert identity_text(with_tags(base, Seat1=base.tags["Seat1"].upper())) == identity_text(
        with_tags(base, Seat1=base.tags["Seat1"].lower()))
    assert identity_text(with_tags(base, Switches="threshold=8")) != identity_text(base)
    if base.events:
        fewer = dataclasses.replace(base, events=base.events[:-1])
        assert identity_text(fewer) != identity_text(base)


def test_it_says_what_a_second_record_of_a_round_adds_or_changes() -> None:
    base = reparsed(record(1))
    plain = dict(base.tags)
    plain.pop("Result", None)
    stored = dataclasses.replace(base, tags={**plain, "Event": "Club"})
    new = dataclasses.replace(base, tags={**base.tags, "Event": "Friday club", "Site": "Huế"},
                              comments=["a", "b"], events=list(base.events))
    new.events[0] = new.events[0]._replace(comments=("c",))
    found = differences(stored, new)
    assert Difference("comments_added", {"count": 3}) in found
    assert Difference("tag_added", {"tag": "Site", "value": "Huế"}) in found
    assert Difference("tag_changed", {"tag": "Event", "old": "Club",
                                      "value": "Friday club"}) in found
    if "Result" in base.tags:
        assert Difference("tag_added", {"tag": "Result", "value": base.tags["Result"]}) in found
    assert differences(stored, stored) == []
    removed = differences(new, stored)
    assert Difference("comments_removed", {"count": 3}) in removed
    assert Difference("tag_removed", {"tag": "Site", "old": "Huế"}) in removed


def test_a_relaid_record_differs_in_nothing() -> None:
    base = reparsed(record(2))
    text = fourcolor.write_fcn(base)
    relaid = fourcolor.parse_record(text.replace("\n", "\r\n").replace(" ", "  "))
    assert identity_text(relaid) == identity_text(base)
    assert differences(base, relaid) == []


@pytest.mark.parametrize("seed", range(4))
def test_a_lucky_card_that_follows_from_the_pile_is_not_part_of_the_identity(seed: int) -> None:
    base = reparsed(record(seed))
    if "Pile" not in base.tags:
        pytest.skip("a record without a pile")
    lucky = dict(base.tags)
    lucky.pop("Lucky", None)
    assert identity_text(dataclasses.replace(base, tags=lucky)) == identity_text(base)
