"""ratings.history: a player's rating after each rated round, per ruleset, in play order."""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import pytest

from ratings.history import rating_histories, rating_history
from ratings.models import PlayerRating
from ratings.services import on_games_stored
from tests.stats.conftest import PLAY_ORDER, import_club, player

pytestmark = pytest.mark.django_db


def test_it_keeps_each_players_history_in_play_order(club: dict[str, int]) -> None:
    history = rating_history(player("Ann").pk)

    assert [(h.ruleset, h.game_id) for h in history] == [
        ("classic", club["A"]), ("bga", club["B1"]), ("bga", club["B2"]), ("bga", club["B3"]),
        ("classic", club["C"]),
    ]
    assert [h.date.isoformat() for h in history] == [
        "2026-11-27", "2026-11-28", "2026-11-28", "2026-11-28", "2026-11-29"
    ]
    assert [h.game_id for h in rating_history(player("Ann").pk, limit=2)] == [
        club["B3"], club["C"]
    ]


@pytest.mark.parametrize("name", ["Ann", "Bao", "Chi", "Dung"])
def test_it_ends_each_ruleset_at_the_current_rating(club: dict[str, int], name: str) -> None:
    histories = rating_histories(player(name).pk)

    current = PlayerRating.objects.filter(player=player(name)).order_by("ruleset")
    assert [h.ruleset for h in histories] == [r.ruleset for r in current]
    for history, rating in zip(histories, current, strict=True):
        assert [p.number for p in history.points] == list(range(1, rating.rounds + 1))
        assert history.points[-1].ordinal == rating.ordinal
        assert (history.points[-1].mu, history.points[-1].sigma) == (rating.mu, rating.sigma)
        # The deltas add up to the change from the starting ordinal (25 - 3 * 25/3 = 0).
        assert sum(p.delta for p in history.points) == pytest.approx(rating.ordinal, abs=1e-9)
        assert not history.pending


def test_it_gives_one_ruleset_when_asked(club: dict[str, int]) -> None:
    (bga,) = rating_histories(player("Ann").pk, "bga")

    assert bga.ruleset == "bga"
    assert [p.game_id for p in bga.points] == [club["B1"], club["B2"], club["B3"]]
    assert dataclasses.asdict(bga.points[0]) | {"mu": 0, "sigma": 0, "ordinal": 0, "delta": 0} == {
        "game_id": club["B1"], "ruleset": "bga", "date": datetime.date(2026, 11, 28),
        "number": 1, "seat": bga.points[0].seat, "rank": bga.points[0].rank,
        "mu": 0, "sigma": 0, "ordinal": 0, "delta": 0,
    }


def test_it_is_empty_for_an_unrated_ruleset(club: dict[str, int]) -> None:
    assert rating_histories(player("Ann").pk, "no-such-ruleset") == []
    assert rating_history(player("Ann").pk, "no-such-ruleset") == []


def test_it_says_when_a_replay_is_pending(empty: None, settings: Any) -> None:
    settings.RATINGS_REPLAY_LIMIT = 1
    import_club(tuple(label for label in PLAY_ORDER if label != "A"))
    on_games_stored([import_club(("A",), hook=False)["A"]])

    pending = {h.ruleset: h.pending for h in rating_histories(player("Ann").pk)}
    assert pending == {"bga": False, "classic": True}


def test_it_keeps_the_newest_points_of_each_ruleset_within_a_limit(club: dict[str, int]) -> None:
    whole = {h.ruleset: h.points for h in rating_histories(player("Ann").pk)}
    limited = {h.ruleset: h.points for h in rating_histories(player("Ann").pk, limit=2)}
    assert set(limited) == set(whole)
    assert all(limited[name] == whole[name][-2:] for name in whole)
