"""?cursor= on the game lists: pages that do not drift, in any of the archive's orders."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from .conftest import SHARED, Archive, round_text, store

pytestmark = pytest.mark.usefixtures(SHARED)

URL = "/api/v1/games/"
ORDERINGS = ["", "points", "-points", "-plies", "date", "-date", "players,-uploaded",
             "-players,date,points"]


def walk(api: APIClient, url: str, params: dict[str, str]) -> list[list[int]]:
    pages = []
    response = api.get(url, params)
    while True:
        assert response.status_code == 200, response.content
        body = response.json()
        assert "count" not in body
        pages.append([game["id"] for game in body["results"]])
        if body["next"] is None:
            return pages
        response = api.get(body["next"])


@pytest.mark.django_db
@pytest.mark.parametrize("ordering", ORDERINGS)
@pytest.mark.parametrize("size", ["1", "2", "3"])
def test_it_walks_every_game_once_in_the_order_asked(
    api: APIClient, archive: Archive, ordering: str, size: str
) -> None:
    everything = api.get(URL, {"ordering": ordering, "page_size": "200"}).json()["results"]

    pages = walk(api, URL, {"ordering": ordering, "page_size": size, "cursor": ""})

    assert [i for page in pages for i in page] == [g["id"] for g in everything]
    assert all(len(page) == int(size) for page in pages[:-1])


@pytest.mark.django_db
@pytest.mark.parametrize("ordering", ORDERINGS)
def test_previous_links_walk_back_the_same_pages(
    api: APIClient, archive: Archive, ordering: str
) -> None:
    forward = walk(api, URL, {"ordering": ordering, "page_size": "2", "cursor": ""})
    response = api.get(URL, {"ordering": ordering, "page_size": "2", "cursor": ""})
    while response.json()["next"]:
        response = api.get(response.json()["next"])

    backward = [[g["id"] for g in response.json()["results"]]]
    while response.json()["previous"]:
        response = api.get(response.json()["previous"])
        backward.append([g["id"] for g in response.json()["results"]])

    assert backward[::-1] == forward


@pytest.mark.django_db
def test_a_new_game_does_not_shift_the_next_page(api: APIClient, archive: Archive) -> None:
    # Page numbers drift: after an upload page 2 begins with the last game of page 1.
    first = api.get(URL, {"page_size": "2", "cursor": ""}).json()
    paged_before = api.get(URL, {"page_size": "2", "page": "2"}).json()["results"]

    store([round_text(41, date="2030.01.01")])  # the newest played: first in the list

    second = api.get(first["next"]).json()
    paged_after = api.get(URL, {"page_size": "2", "page": "2"}).json()["results"]
    assert [g["id"] for g in second["results"]] == [g["id"] for g in paged_before]
    assert paged_after[0]["id"] == first["results"][-1]["id"]  # the drift cursors avoid


@pytest.mark.django_db
def test_it_sends_next_and_previous_in_a_link_header(api: APIClient, archive: Archive) -> None:
    first = api.get(URL, {"page_size": "2", "cursor": ""})
    second = api.get(first.json()["next"])

    assert first["Link"] == f'<{first.json()["next"]}>; rel="next"'
    assert second["Link"] == (
        f'<{second.json()["next"]}>; rel="next", <{second.json()["previous"]}>; rel="prev"'
    )
    assert api.get(URL, {"page_size": "2"})["Link"].endswith('page=2&page_size=2>; rel="next"')


@pytest.mark.django_db
def test_it_pages_a_players_games_by_cursor(api: APIClient, archive: Archive) -> None:
    player = archive.games()[0].seats.get(seat=1).player_id
    url = f"/api/v1/players/{player}/games/"
    everything = [g["id"] for g in api.get(url, {"page_size": "200"}).json()["results"]]

    pages = walk(api, url, {"page_size": "1", "cursor": ""})

    assert [i for page in pages for i in page] == everything and len(everything) > 1


@pytest.mark.django_db
@pytest.mark.parametrize(("cursor", "status"), [
    ("nonsense", 400), ("eyJvIjpbXX0", 400), ("0" * 300, 400), ("x" * 1001, 400), ("%%%", 400),
])
def test_it_refuses_a_cursor_that_is_not_one_of_its_own(
    api: APIClient, archive: Archive, cursor: str, status: int
) -> None:
    # Not ours, well formed or not: a bad parameter, as docs/api.md says.
    for url in (URL, "/api/v1/games/export/"):
        response = api.get(url, {"cursor": cursor})

        assert response.status_code == status
        assert response.json()["error"]["status"] == status


@pytest.mark.django_db
def test_it_refuses_a_cursor_made_for_another_ordering(api: APIClient, archive: Archive) -> None:
    following = api.get(URL, {"page_size": "2", "cursor": ""}).json()["next"]
    cursor = following.split("cursor=")[1].split("&")[0]

    response = api.get(URL, {"cursor": cursor, "ordering": "points", "page_size": "2"})

    assert response.status_code == 400
    assert "cursor" in response.json()["error"]["fields"]




@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/games/deleted/"])
@pytest.mark.parametrize("page", ["0", "x", str(2**31)])
def test_it_checks_the_page_beside_a_cursor(api: APIClient, path: str, page: str) -> None:
    """A cursor decides the page, but a bad `page` beside it is still the 400 it is alone."""
    response = api.get(path, {"cursor": "", "page": page})

    assert response.status_code == 400
    assert "page" in response.json()["error"]["fields"]
