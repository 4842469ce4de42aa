"""GET /api/v1/stats/leaderboard/, /stats/ratings/ and /stats/global/: the archive-wide
figures of ratings.stats."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.global_stats import global_stats
from ratings.leaderboards import leaderboard
from records.models import Game

from .conftest import SHARED, Archive

# The tests only read the archive; an empty archive's answers: tests/api/test_empty_archive.py.
pytestmark = pytest.mark.usefixtures(SHARED)


# Every statistics answer also says whether the figures still catch up with uploads: these
# archives are counted as they are imported.
FRESH = {"ratings_updating": False}


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "params",
    [
        {"min_rounds": "1"},
        {"metric": "net_total", "min_rounds": "1", "limit": "2"},
        {"metric": "deal_in_rate", "min_rounds": "2", "ruleset": "classic"},
        {"metric": "wins", "min_rounds": "1", "since": "2026-01-01", "players": "3"},
    ],
)
def test_it_gives_the_leaderboard_of_the_stats_module(
    api: APIClient, archive: Archive, params: dict[str, str]
) -> None:
    expected = dict(params)
    metric = expected.pop("metric", "win_rate")
    kwargs: dict[str, Any] = {
        key: int(value) if key in ("min_rounds", "limit", "players") else value
        for key, value in expected.items()
    }

    response = api.get("/api/v1/stats/leaderboard/", params)

    assert response.status_code == 200
    assert response.json() == as_json(leaderboard(metric, **kwargs)) | FRESH


@pytest.mark.django_db
def test_it_ranks_by_a_dated_count_worked_out_from_the_games(
    api: APIClient, archive: Archive
) -> None:
    # A date range reads the seats themselves: the ranking follows the stored games.
    rounds: dict[str, int] = {}
    for game in Game.objects.exclude(date=None):
        for seat in game.seats.select_related("player"):
            rounds[seat.player.name] = rounds.get(seat.player.name, 0) + 1

    rows = api.get("/api/v1/stats/leaderboard/",
                   {"metric": "rounds", "min_rounds": "1", "since": "2000-01-01"}).json()["rows"]

    assert {r["player"]["name"]: r["value"] for r in rows} == rounds
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert [r["value"] for r in rows] == sorted(rounds.values(), reverse=True)


@pytest.mark.django_db
def test_it_gives_the_rating_leaderboard_of_one_ruleset(api: APIClient, archive: Archive) -> None:
    response = api.get("/api/v1/stats/ratings/", {"ruleset": "classic", "min_rounds": "1"})

    assert response.status_code == 200
    expected = as_json(leaderboard("rating", ruleset="classic", min_rounds=1))
    assert response.json() == expected | FRESH


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "params", "field"),
    [
        ("/api/v1/stats/leaderboard/", {"metric": "luck"}, "metric"),
        ("/api/v1/stats/leaderboard/", {"metric": "rating"}, "metric"),  # see /stats/ratings/
        ("/api/v1/stats/leaderboard/", {"min_rounds": "0"}, "min_rounds"),
        ("/api/v1/stats/leaderboard/", {"limit": "100000"}, "limit"),
        ("/api/v1/stats/ratings/", {}, "ruleset"),
        ("/api/v1/stats/ratings/", {"ruleset": "go"}, "ruleset"),
        ("/api/v1/stats/global/", {"players": "1"}, "players"),
    ],
)
def test_it_refuses_invalid_parameters(
    api: APIClient, archive: Archive, url: str, params: dict[str, str], field: str
) -> None:
    response = api.get(url, params)

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize("params", [{}, {"ruleset": "bga"}, {"players": "4"},
                                    {"since": "2026-01-01", "until": "2026-01-31"}])
def test_it_gives_the_global_figures_of_the_stats_module(
    api: APIClient, archive: Archive, params: dict[str, str]
) -> None:
    response = api.get("/api/v1/stats/global/", params)

    assert response.status_code == 200
    assert response.json() == as_json(global_stats(**params)) | FRESH


@pytest.mark.django_db
def test_it_counts_every_round_and_outcome_in_the_global_figures(
    api: APIClient, archive: Archive
) -> None:
    body = api.get("/api/v1/stats/global/").json()

    assert body["rounds"] == len(archive.all)
    outcomes: dict[tuple[str, int, str], int] = {}
    for game in archive.games():
        key = (game.ruleset, game.players, game.outcome)
        outcomes[key] = outcomes.get(key, 0) + 1
    got = {(g["ruleset"], g["players"], outcome): count
           for g in body["groups"] for outcome, count in g["outcomes"].items()}
    assert got == outcomes
