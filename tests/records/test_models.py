"""The records models: player identity, match identity, and per-seat columns for statistics."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import IntegrityError

from fourcolor.facts import SeatFacts
from records.models import GameSeat, Match, Player, match_key, player_key
from records.services import SEAT_FACT_FIELDS


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Bình", "BÌNH"),
        ("Bình", "Bi\u0300nh"),  # decomposed: B i + combining grave + n h
        ("Straße", "STRASSE"),
        ("Σοφία", "ΣΟΦΊΑ"),
        ("  Nguyễn   Thị Lan ", "nguyễn thị lan"),
        ("Мария", "МАРИЯ"),
    ],
)
def test_it_gives_one_key_to_names_that_differ_in_case_form_or_spacing(a: str, b: str) -> None:
    assert player_key(a) == player_key(b)


def test_it_keeps_different_names_apart() -> None:
    assert player_key("Lan") != player_key("Lân")
    assert player_key("陳美玲") != player_key("陳美")


def test_it_has_a_column_for_every_seat_fact() -> None:
    columns = {f.name for f in GameSeat._meta.get_fields()}
    facts = {f.name for f in dataclasses.fields(SeatFacts)}
    assert facts == set(SEAT_FACT_FIELDS)
    assert facts <= columns


@pytest.mark.django_db
def test_it_refuses_a_second_player_with_the_same_key() -> None:
    Player.objects.create(name="Lan", name_key=player_key("Lan"))
    with pytest.raises(IntegrityError):
        Player.objects.create(name="LAN", name_key=player_key("LAN"))


@pytest.mark.django_db
def test_it_keys_a_match_by_the_hash_of_its_tag_whatever_its_length() -> None:
    long_tag = "月" * 1024
    match = Match.objects.create(tag=long_tag)
    assert match.key == match_key(long_tag) and len(match.key) == 64
    with pytest.raises(IntegrityError):
        Match.objects.create(tag=long_tag)
