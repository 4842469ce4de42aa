"""GET /api/v1/games/: the archive's filters (the web's GameFilter), ordering, pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import fourcolor
from records.models import Game, GameAnalysis, player_key

from .conftest import SHARED, Archive

# The tests only read the archive; the house variants have their own:
# tests/api/test_games_by_variant.py.
pytestmark = pytest.mark.usefixtures(SHARED)

URL = "/api/v1/games/"


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


def names(game: Game) -> set[str]:
    return {game.tags[f"Seat{n}"] for n in range(1, game.players + 1)}


# Each filter with a predicate over the stored games that says which must come back.
def seated(part: str) -> Callable[[Game], bool]:
    """A seat's name contains `part` (the player filters match parts of names)."""
    return lambda g: any(player_key(part) in player_key(name) for name in names(g))


FILTERS: list[tuple[dict[str, str], Callable[[Game], bool]]] = [
    ({"player": "an"}, seated("an")),
    ({"player": "BÌNH"}, seated("Bình")),
    ({"player": "Bì"}, seated("Bình")),
    ({"player": "An", "opponent": "Dũng"}, lambda g: seated("An")(g) and seated("Dũng")(g)),
    ({"player": "Nobody"}, lambda g: False),
    ({"ruleset": "bga"}, lambda g: g.ruleset == "bga"),
    ({"players": "3"}, lambda g: g.players == 3),
    ({"outcome": "forced"}, lambda g: g.outcome == "forced"),
    ({"outcome": "win"}, lambda g: g.outcome == "win"),
    ({"since": "2026-02-01"}, lambda g: g.date is not None and g.date.isoformat() >= "2026-02-01"),
    ({"until": "2026-01-31"}, lambda g: g.date is not None and g.date.isoformat() <= "2026-01-31"),
    ({"min_points": "10"}, lambda g: g.points is not None and g.points >= 10),
    ({"ruleset": "classic", "players": "4"}, lambda g: g.ruleset == "classic" and g.players == 4),
    ({"uploaded_by": "uploader"}, lambda g: g.uploaded_by_id is not None
     and g.uploaded_by.username == "uploader"),
    ({"uploaded_by": "someone-else", "players": "4"}, lambda g: g.uploaded_by_id is not None
     and g.uploaded_by.username == "someone-else" and g.players == 4),
    # As typed: any case, the start of a word; a whole username is that account alone.
    ({"uploaded_by": "Uploader"}, lambda g: g.uploaded_by_id is not None
     and g.uploaded_by.username == "uploader"),
    ({"uploaded_by": "some"}, lambda g: g.uploaded_by_id is not None
     and g.uploaded_by.username == "someone-else"),
    ({"uploaded_by": "nobody"}, lambda g: False),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "wanted"), FILTERS, ids=[str(p) for p, _ in FILTERS])
def test_it_filters_like_the_web_archive(
    api: APIClient, archive: Archive, params: dict[str, str], wanted: Callable[[Game], bool]
) -> None:
    expected = {game.pk for game in archive.games() if wanted(game)}

    assert set(ids(api.get(URL, params))) == expected


@pytest.mark.django_db
def test_it_filters_by_whether_a_game_is_analysed(api: APIClient, archive: Archive) -> None:
    analysed = archive.bga[0]
    GameAnalysis.objects.create(game_id=analysed, engine_version=fourcolor.__version__,
                                samples=4, seed=0, result={})

    assert ids(api.get(URL, {"analysed": "true"})) == [analysed]
    assert sorted(ids(api.get(URL, {"analysed": "false"}))) == sorted(
        pk for pk in archive.all if pk != analysed)
    refused = api.get(URL, {"analysed": "yes"})
    assert refused.status_code == 400 and "analysed" in refused.json()["error"]["fields"]


@pytest.mark.django_db
def test_it_filters_by_match(api: APIClient, archive: Archive) -> None:
    tag = Game.objects.get(pk=archive.match[0]).match.tag

    assert sorted(ids(api.get(URL, {"match": tag}))) == sorted(archive.match)
    assert sorted(ids(api.get(URL, {"match": tag.split()[0].upper()}))) == sorted(archive.match)


@pytest.mark.django_db
def test_it_lists_every_game_newest_played_first_by_default(
    api: APIClient, archive: Archive
) -> None:
    got = ids(api.get(URL))

    dated = [g for g in archive.games() if g.date is not None]
    assert sorted(got) == sorted(archive.all)
    # Newest played first, undated games last.
    assert got[: len(archive.bga)] == sorted(archive.bga, reverse=True)
    assert set(got[-2:]) == {archive.undated, archive.anonymous}
    assert len(dated) == len(archive.all) - 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ordering", "key", "reverse"),
    [
        ("points", lambda g: (g.points is None, g.points, g.pk), False),
        ("-plies", lambda g: (-g.event_count, -g.pk), False),
        ("players", lambda g: (g.players, g.pk), False),
        ("uploaded", lambda g: (g.uploaded_at, g.pk), False),
    ],
)
def test_it_orders_by_the_key_asked_for(
    api: APIClient, archive: Archive, ordering: str, key: Callable[[Game], Any], reverse: bool
) -> None:
    expected = [g.pk for g in sorted(archive.games(), key=key, reverse=reverse)]

    assert ids(api.get(URL, {"ordering": ordering})) == expected


@pytest.mark.django_db
def test_it_pages_without_repeating_or_skipping(api: APIClient, archive: Archive) -> None:
    first = api.get(URL, {"page_size": 3}).json()
    second = api.get(first["next"]).json()
    third = api.get(second["next"]).json()

    assert first["count"] == len(archive.all)
    assert first["previous"] is None
    seen = [g["id"] for page in (first, second, third) for g in page["results"]]
    assert sorted(seen) == sorted(archive.all)
    assert third["next"] is None


@pytest.mark.django_db
def test_it_describes_each_game_with_its_seats_and_verdict(
    api: APIClient, archive: Archive
) -> None:
    game = Game.objects.get(pk=archive.undated)

    item = next(g for g in api.get(URL).json()["results"] if g["id"] == game.pk)

    assert item["url"] == f"http://testserver/api/v1/games/{game.pk}/"
    assert item["ruleset"] == "classic" and item["players"] == 4 and item["date"] is None
    assert item["outcome"] == game.outcome and item["points"] == game.points
    assert item["result"] == game.result_tag and item["plies"] == game.event_count
    assert item["uploaded_by"] == "someone-else"
    assert [s["name"] for s in item["seats"]] == ["Bình", "Chi", "Eve", "Finn"]
    assert [s["delta"] for s in item["seats"]] == [game.settlement[str(n)] for n in (1, 2, 3, 4)]
    assert "original_text" not in item and "tags" not in item


@pytest.mark.django_db
def test_it_lists_in_a_fixed_number_of_queries(
    api: APIClient, archive: Archive, django_assert_max_num_queries: Any
) -> None:
    # count, games (with uploader), seats with their players: not one query per game; on
    # PostgreSQL the planner's estimate first (records.paging: it decides whether to count).
    from django.db import connection

    with django_assert_max_num_queries(3 + (connection.vendor == "postgresql")):
        assert api.get(URL).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"players": "9"}, "players"),
        ({"ruleset": "chess"}, "ruleset"),
        ({"outcome": "lost"}, "outcome"),
        ({"since": "yesterday"}, "since"),
        ({"min_points": "-1"}, "min_points"),
        ({"match": "x" * 1025}, "match"),
        ({"player": "x" * 101}, "player"),
    ],
)
def test_it_refuses_an_invalid_filter_with_the_error_body(
    api: APIClient, archive: Archive, params: dict[str, str], field: str
) -> None:
    response = api.get(URL, params)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["status"] == 400 and error["code"] == "invalid"
    assert list(error["fields"]) == [field]
    assert error["message"].startswith(f"Invalid input: {field}: ")


@pytest.mark.django_db
@pytest.mark.parametrize("size", ["0", "201", "-3", "2.5", "ten"])
def test_it_refuses_a_page_size_outside_1_to_200(
    api: APIClient, archive: Archive, size: str
) -> None:
    response = api.get(URL, {"page_size": size})

    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"page_size": ["A whole number from 1 to 200."]}


@pytest.mark.django_db
def test_it_takes_an_empty_parameter_as_not_given(api: APIClient, archive: Archive) -> None:
    # As the web archive's form sends them: `?player=&since=&page_size=`.
    params = {name: "" for name in ("player", "opponent", "ruleset", "players", "outcome",
                                     "since", "until", "match", "min_points", "analysed",
                                     "ordering",
                                     "page", "page_size")}

    assert ids(api.get(URL, params)) == ids(api.get(URL))


@pytest.mark.django_db
def test_it_refuses_writes_to_the_list(api: APIClient, client_for: Any, user: Any) -> None:
    # No such operation: 405 whoever asks (signing in would not help).
    assert api.post(URL, {}).status_code == 405
    assert client_for(user).post(URL, {}).status_code == 405
