"""The club archive is what tests/stats/conftest.py says it is: the hand-worked figures of the
other tests rest on these per-seat facts."""

from __future__ import annotations

import fourcolor
import pytest

from records.models import Game
from tests.stats.conftest import (
    FACTS,
    OUTCOMES,
    club_texts,
    engine_facts,
    one_player_may_hold_two_seats,
)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("label", sorted(FACTS))
def test_it_builds_rounds_whose_engine_facts_are_the_tables(label: str) -> None:
    text = club_texts()[label]
    assert engine_facts(text) == FACTS[label]
    with one_player_may_hold_two_seats():  # A2 (see the conftest)
        check = fourcolor.check_record(text)
    assert check.game is not None and check.game.finish.outcome == OUTCOMES[label]


def test_it_stores_the_facts_as_seat_rows(club: dict[str, int]) -> None:
    for label, game_id in club.items():
        seats = Game.objects.get(pk=game_id).seats.order_by("seat")
        stored = [(s.name, s.is_dealer, s.won, s.delta, s.missed_wins) for s in seats]
        assert stored == [(f[0], f[1], f[2], f[7], f[18]) for f in FACTS[label]]
