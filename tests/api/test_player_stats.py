"""GET /api/v1/players/{id}/stats/ and /players/{id}/head-to-head/{other}/: the figures of
ratings.stats (docs/stats.md), with their filters."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings import stats
from records.models import Player

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def player(name: str) -> Player:
    return Player.objects.get(name=name)


# Every statistics answer also says whether the figures still catch up with uploads: these
# archives are counted as they are imported.
FRESH = {"ratings_updating": False}


def as_json(data: Any) -> Any:
    return json.loads(json.dumps(data))


FILTERS = [
    {},
    {"ruleset": "classic"},
    {"players": "2"},
    {"since": "2026-02-01"},
    {"since": "2026-01-01", "until": "2026-01-31", "ruleset": "classic", "players": "3"},
]


@pytest.mark.django_db
@pytest.mark.parametrize("params", FILTERS)
def test_it_gives_the_stats_modules_figures(
    api: APIClient, archive: Archive, params: dict[str, str]
) -> None:
    an = player("An")

    response = api.get(f"/api/v1/players/{an.pk}/stats/", params)

    assert response.status_code == 200
    assert response.json() == as_json(stats.player_stats(an, **params)) | FRESH


@pytest.mark.django_db
def test_it_counts_a_players_rounds_and_wins_from_the_games(
    api: APIClient, archive: Archive
) -> None:
    # Independent of the stats module: what the archive's games say.
    an = player("An")
    games = [g for g in archive.games() if "An" in g.tags.values()]
    wins = sum(1 for g in games for s in g.seats.all() if s.player_id == an.pk and s.won)

    body = api.get(f"/api/v1/players/{an.pk}/stats/", {"since": "2000-01-01"}).json()

    assert body["rounds"] == len(games) and body["wins"] == wins
    assert body["player"] == {"id": an.pk, "name": "An"}


@pytest.mark.django_db
def test_it_lists_as_many_frequent_opponents_as_asked(api: APIClient, archive: Archive) -> None:
    bình = player("Bình")

    body = api.get(f"/api/v1/players/{bình.pk}/stats/", {"opponents": 1, "since": "2000-01-01"})

    assert len(body.json()["frequent_opponents"]) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"ruleset": "chess"}, "ruleset"),
        ({"players": "9"}, "players"),
        ({"since": "soon"}, "since"),
        ({"opponents": "-1"}, "opponents"),
        ({"opponents": str(stats.MAX_LIMIT + 1)}, "opponents"),
    ],
)
def test_it_refuses_invalid_filters(
    api: APIClient, archive: Archive, params: dict[str, str], field: str
) -> None:
    response = api.get(f"/api/v1/players/{player('An').pk}/stats/", params)

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]


@pytest.mark.django_db
@pytest.mark.parametrize("params", [{}, {"since": "2026-01-01"}, {"ruleset": "bga"}])
def test_it_gives_head_to_head_from_the_stats_module(
    api: APIClient, archive: Archive, params: dict[str, str]
) -> None:
    an, dũng = player("An"), player("Dũng")

    response = api.get(f"/api/v1/players/{an.pk}/head-to-head/{dũng.pk}/", params)

    assert response.status_code == 200
    assert response.json() == as_json(stats.head_to_head(an, dũng, **params)) | FRESH


@pytest.mark.django_db
def test_it_counts_the_rounds_two_players_shared(api: APIClient, archive: Archive) -> None:
    an, dũng = player("An"), player("Dũng")

    body = api.get(f"/api/v1/players/{an.pk}/head-to-head/{dũng.pk}/",
                   {"since": "2000-01-01"}).json()

    assert body["rounds"] == len(archive.bga)
    assert body["a"]["id"] == an.pk and body["b"]["id"] == dũng.pk
    assert body["a"]["net"] == -body["b"]["net"]
    assert body["a"]["wins"] + body["b"]["wins"] + body["other_rounds"] == body["rounds"]


@pytest.mark.django_db
def test_there_is_no_head_to_head_of_a_player_with_themself(
    api: APIClient, archive: Archive
) -> None:
    an = player("An")

    response = api.get(f"/api/v1/players/{an.pk}/head-to-head/{an.pk}/")

    # A pair that does not exist, as a player that does not exist: 404 (the schema cannot say
    # "two different ids", so a 400 would refuse a request it calls valid).
    assert response.status_code == 404
    assert "themself" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_it_answers_404_when_either_player_does_not_exist(
    api: APIClient, archive: Archive
) -> None:
    an = player("An")

    assert api.get(f"/api/v1/players/{an.pk}/head-to-head/999999/").status_code == 404
    assert api.get(f"/api/v1/players/999999/head-to-head/{an.pk}/").status_code == 404
