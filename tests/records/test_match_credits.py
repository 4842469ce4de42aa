"""records.services.match_credits: a match's rounds in order with running credits."""

from __future__ import annotations

import pytest

from records.models import Match
from records.services import import_records, match_credits
from tests.records.conftest import fcn_file, match_texts

pytestmark = pytest.mark.django_db


def test_it_orders_rounds_by_the_round_tag_and_runs_the_credits() -> None:
    texts = match_texts("credits", rounds=4, names=["Lan", "Олег", "陳"])
    # Uploaded out of order: round 3 first, then 1, 4, 2.
    import_records(fcn_file([texts[2], texts[0], texts[3], texts[1]]))
    match = Match.objects.get(tag="credits")
    rounds = match_credits(match)
    assert [r.game.round_number for r in rounds] == [1, 2, 3, 4]
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    running = {"Lan": 0, "Олег": 0, "陳": 0}
    for r in rounds:
        settlement = r.game.settlement
        expected = {name: int(settlement[str(seat)]) for seat, name in
                    enumerate(["Lan", "Олег", "陳"], start=1)}
        assert r.deltas == expected
        for name, delta in expected.items():
            running[name] += delta
        assert r.credits == running
    assert sum(rounds[-1].credits.values()) == 0


def test_it_gives_an_empty_list_for_a_match_without_games() -> None:
    assert match_credits(Match.objects.create(tag="empty")) == []
