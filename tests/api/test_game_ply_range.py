"""GET /api/v1/games/{id}/plies/: every ply state (or a range) in one answer; next/previous
links on each ply state."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from records.models import Game

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def base(game: int) -> str:
    return f"/api/v1/games/{game}/plies/"


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "first", "last"), [
    ({}, 0, None), ({"from": "3"}, 3, None), ({"to": "4"}, 0, 4), ({"from": "2", "to": "2"}, 2, 2),
    ({"from": "1", "to": "5", "seat": "2"}, 1, 5),
])
def test_it_gives_the_same_states_as_one_request_per_ply(
    api: APIClient, archive: Archive, params: dict[str, str], first: int, last: int | None
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    last = game.event_count if last is None else last

    body = api.get(base(game.pk), params).json()

    assert (body["game"], body["plies"], body["from"], body["to"]) == (
        game.pk, game.event_count, first, last)
    seat = {"seat": params["seat"]} if "seat" in params else {}
    one_by_one = [api.get(f"{base(game.pk)}{n}/", seat).json() for n in range(first, last + 1)]
    assert body["states"] == one_by_one


@pytest.mark.django_db
def test_each_state_links_its_neighbours_in_the_same_view(
    api: APIClient, archive: Archive
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    url = f"http://testserver{base(game.pk)}"

    first = api.get(f"{base(game.pk)}0/", {"seat": "1"}).json()["links"]
    middle = api.get(f"{base(game.pk)}5/").json()["links"]
    end = api.get(f"{base(game.pk)}{game.event_count}/").json()["links"]

    assert first == {"next": f"{url}1/?seat=1", "previous": None}
    assert middle == {"next": f"{url}6/", "previous": f"{url}4/"}
    assert end == {"next": None, "previous": f"{url}{game.event_count - 1}/"}


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "status"), [
    ({"from": "-1"}, 400), ({"to": "x"}, 400),
    ({"seat": "9"}, 400), ({"seat": "4"}, 404), ({"seat": "8"}, 404),
    ({"to": "9999"}, 404), ({"from": "9999"}, 404),
    ({"ply": "3"}, 400), ({"from": "5", "to": "3"}, 400),
])
def test_it_refuses_a_bad_range(
    api: APIClient, archive: Archive, params: dict[str, str], status: int
) -> None:
    response = api.get(base(archive.match[0]), params)  # a 3-player game

    assert response.status_code == status
    assert response.json()["error"]["status"] == status
