"""GET /api/v1/players/, /players/{id}/ and /players/{id}/games/: list and search, detail,
a player's games with the archive's filters."""

from __future__ import annotations

import pytest
from django.db.models import F
from rest_framework.test import APIClient

from records.models import Game, GameSeat, Player

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)

URL = "/api/v1/players/"


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def rounds_of(p: Player) -> int:
    return GameSeat.objects.filter(player=p).count()


@pytest.mark.django_db
def test_it_lists_every_player_by_name_with_their_rounds(api: APIClient, archive: Archive) -> None:
    body = api.get(URL, {"page_size": 100}).json()

    expected = sorted(Player.objects.all(), key=lambda p: (p.name_key, p.pk))
    assert body["count"] == len(expected)
    assert [(p["id"], p["name"], p["rounds"]) for p in body["results"]] == [
        (p.pk, p.name, rounds_of(p)) for p in expected
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("search", "found"),
    [("an", ["An"]), ("BÌ", ["Bình"]), ("bi\u0300nh", ["Bình"]), ("  chi ", ["Chi"]),
     ("zzz", [])],
)
def test_it_searches_by_part_of_the_name_like_the_archive_matches_names(
    api: APIClient, archive: Archive, search: str, found: list[str]
) -> None:
    names = [p["name"] for p in api.get(URL, {"search": search}).json()["results"]]

    assert names == found


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "found"),
    [("Bình", ["Bình"]), ("bình", ["Bình"]), ("bi\u0300nh", ["Bình"]), (" An ", ["An"]),
     ("Bìn", []), ("A", []), ("zzz", [])],
)
def test_it_finds_a_player_by_the_whole_name(
    api: APIClient, archive: Archive, name: str, found: list[str]
) -> None:
    response = api.get(URL, {"name": name})

    assert response.status_code == 200, response.content
    assert [p["name"] for p in response.json()["results"]] == found


@pytest.mark.django_db
def test_it_orders_by_rounds_played(api: APIClient, archive: Archive) -> None:
    body = api.get(URL, {"ordering": "-rounds", "page_size": 100}).json()

    rounds = [p["rounds"] for p in body["results"]]
    assert rounds == sorted(rounds, reverse=True)
    assert body["results"][0]["name"] in ("An", "Bình", "Chi")


@pytest.mark.django_db
@pytest.mark.parametrize("params", [{"ordering": "age"}, {"search": "x" * 101}])
def test_it_refuses_invalid_parameters(
    api: APIClient, archive: Archive, params: dict[str, str]
) -> None:
    response = api.get(URL, params)

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == list(params)


@pytest.mark.django_db
def test_it_shows_a_player_with_links(api: APIClient, archive: Archive) -> None:
    an = player("An")

    body = api.get(f"{URL}{an.pk}/").json()

    assert body["name"] == "An" and body["rounds"] == rounds_of(an)
    assert body["links"] == {
        "games": f"http://testserver/api/v1/players/{an.pk}/games/",
        "stats": f"http://testserver/api/v1/players/{an.pk}/stats/",
        "ratings": f"http://testserver/api/v1/players/{an.pk}/ratings/",
        "export": "http://testserver/api/v1/games/export/?player=An",
    }


@pytest.mark.django_db
def test_it_lists_a_players_games_newest_first(api: APIClient, archive: Archive) -> None:
    chi = player("Chi")

    body = api.get(f"{URL}{chi.pk}/games/").json()

    # Newest played first, undated games last (on every database), then newest uploaded.
    expected = list(
        Game.objects.filter(seats__player=chi).distinct()
        .order_by(F("date").desc(nulls_last=True), "-uploaded_at", "-pk")
    )
    assert [g["id"] for g in body["results"]] == [g.pk for g in expected]
    assert body["count"] == len(archive.match) + 1


@pytest.mark.django_db
def test_it_applies_the_archive_filters_to_a_players_games(
    api: APIClient, archive: Archive
) -> None:
    an = player("An")

    bga = api.get(f"{URL}{an.pk}/games/", {"ruleset": "bga"}).json()
    with_chi = api.get(f"{URL}{an.pk}/games/", {"opponent": "Chi"}).json()
    bad = api.get(f"{URL}{an.pk}/games/", {"players": "9"})

    assert sorted(g["id"] for g in bga["results"]) == sorted(archive.bga)
    assert sorted(g["id"] for g in with_chi["results"]) == sorted(archive.match)
    assert bad.status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["999999/", "999999/games/", "x/", "999999/stats/"])
def test_it_answers_404_for_a_player_that_does_not_exist(
    api: APIClient, archive: Archive, path: str
) -> None:
    response = api.get(URL + path)

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_it_is_read_only(client_for: object, user: object, archive: Archive) -> None:
    client = client_for(user)  # type: ignore[operator]
    an = player("An")

    assert client.post(URL, {"name": "Mallory"}).status_code == 405
    assert client.delete(f"{URL}{an.pk}/").status_code == 405
