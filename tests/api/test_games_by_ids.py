"""`GET /api/v1/games/?ids=`: games by id in one request, every one on one page, with the ids
no stored game has named in `missing` (never stored, or deleted), not silently dropped."""

from __future__ import annotations

from typing import Any

import pytest

from api.filters import MAX_IDS
from records.deletion import delete_game
from records.models import Game
from tests.api.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

LIST = "/api/v1/games/"


def test_it_answers_the_games_asked_and_names_the_missing(archive: Archive, api: Any) -> None:
    first, second = archive.match[:2]
    gone = archive.bga[0]
    delete_game(Game.objects.get(pk=gone), None, reason="test")
    asked = [second, 999_999, first, gone, first]

    body = api.get(LIST, {"ids": ",".join(map(str, asked))}).json()

    assert sorted(game["id"] for game in body["results"]) == sorted([first, second])
    assert body["missing"] == [999_999, gone]


def test_it_puts_every_game_asked_on_one_page(archive: Archive, api: Any) -> None:
    ids = ",".join(map(str, archive.all))

    page = api.get(LIST, {"ids": ids}).json()
    cursor = api.get(LIST, {"ids": ids, "cursor": ""}).json()
    smaller = api.get(LIST, {"ids": ids, "page_size": "2"}).json()

    assert len(page["results"]) == len(cursor["results"]) == len(archive.all)
    assert page["missing"] == cursor["missing"] == []
    assert len(smaller["results"]) == 2 and smaller["next"]


def test_it_combines_ids_with_the_other_filters(archive: Archive, api: Any) -> None:
    ids = ",".join(map(str, archive.all))

    body = api.get(LIST, {"ids": ids, "ruleset": "bga"}).json()

    assert sorted(game["id"] for game in body["results"]) == sorted(archive.bga)
    assert body["missing"] == []  # filtered out is not missing: they exist


def test_it_leaves_missing_out_without_ids(archive: Archive, api: Any) -> None:
    response = api.get(LIST)

    assert response.status_code == 200
    assert response.json()["results"] and "missing" not in response.json()


@pytest.mark.parametrize("ids", [
    "0", "-1", "1,,2", "1, 2", "a", "1;2", "01", "9" * 19, ",".join(["1"] * (MAX_IDS + 1)),
])
def test_it_refuses_a_bad_list_with_a_400(archive: Archive, api: Any, ids: str) -> None:
    response = api.get(LIST, {"ids": ids})

    assert response.status_code == 400
    assert "ids" in response.json()["error"]["fields"]


def test_it_takes_as_many_as_a_page_holds(archive: Archive, api: Any) -> None:
    ids = ",".join(str(n) for n in range(1, MAX_IDS + 1))

    body = api.get(LIST, {"ids": ids}).json()

    assert len(body["results"]) + len(body["missing"]) == MAX_IDS
