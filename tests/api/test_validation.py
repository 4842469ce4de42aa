"""The same parameters get the same answers on every endpoint: `since` after `until` is an empty
range (200, nothing selected or counted); bad page numbers are 400s naming the parameter; a
method an endpoint does not have is a 405 whoever asks."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)

BACKWARDS = {"since": "2026-02-01", "until": "2026-01-01"}


def paths(archive: Archive) -> dict[str, str]:
    game = archive.match[0]
    player = archive.games()[0].seats.get(seat=1).player_id
    return {"game": str(game), "player": str(player)}


@pytest.mark.django_db
@pytest.mark.parametrize("path", [
    "/api/v1/games/", "/api/v1/games/export/", "/api/v1/players/{player}/games/",
    "/api/v1/players/{player}/stats/", "/api/v1/stats/global/", "/api/v1/stats/leaderboard/",
])
def test_since_after_until_is_an_empty_range_everywhere(
    api: APIClient, archive: Archive, path: str
) -> None:
    response = api.get(path.format(**paths(archive)), BACKWARDS)

    assert response.status_code == 200, response.content
    if path.endswith("export/"):
        assert b"".join(response.streaming_content) == b""
        return
    body = response.json()
    if "results" in body:
        assert body["results"] == []
    elif "rows" in body:
        assert body["rows"] == []
    else:
        assert body["rounds"] == 0


PAGED = ["/api/v1/games/", "/api/v1/players/", "/api/v1/players/{player}/games/"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGED)
@pytest.mark.parametrize(("params", "field"), [
    ({"page": "abc"}, "page"), ({"page": "0"}, "page"), ({"page": "-1"}, "page"),
    ({"page": "1.5"}, "page"), ({"page_size": "abc"}, "page_size"),
    ({"page_size": "0"}, "page_size"),
])
def test_bad_page_parameters_are_400s_naming_them(
    api: APIClient, archive: Archive, path: str, params: dict[str, str], field: str
) -> None:
    response = api.get(path.format(**paths(archive)), params)

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == [field]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PAGED)
def test_a_page_past_the_end_is_an_empty_page(
    api: APIClient, archive: Archive, path: str
) -> None:
    url = path.format(**paths(archive))
    count = api.get(url).json()["count"]

    body = api.get(url, {"page": "99", "page_size": "1"}).json()

    assert body["count"] == count and body["results"] == [] and body["next"] is None
    last = api.get(body["previous"]).json()
    assert len(last["results"]) == 1 and last["next"] is None


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path"), [
    ("put", "/api/v1/games/{game}/"), ("patch", "/api/v1/games/{game}/"),
    ("post", "/api/v1/games/"), ("post", "/api/v1/players/"),
    ("delete", "/api/v1/players/{player}/"), ("get", "/api/v1/uploads/"),
    ("put", "/api/v1/stats/global/"),
])
@pytest.mark.parametrize("who", ["anonymous", "user"])
def test_a_method_an_endpoint_does_not_have_is_405_for_everyone(
    api: APIClient, client_for: Any, user: Any, archive: Archive, method: str, path: str,
    who: str,
) -> None:
    client = api if who == "anonymous" else client_for(user)

    response = getattr(client, method)(path.format(**paths(archive)), {}, format="json")

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert method.upper() not in response["Allow"]
