"""GET /api/v1/players/{id}/ratings/: the rating after each rated round, per ruleset."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ratings.models import PlayerRating, RatingEvent
from records.models import Game, Player

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def url(player: Player) -> str:
    return f"/api/v1/players/{player.pk}/ratings/"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["An", "Bình", "Dũng"])
def test_it_lists_every_rated_round_ending_at_the_current_rating(
    api: APIClient, archive: Archive, name: str
) -> None:
    who = Player.objects.get(name=name)

    body = api.get(url(who)).json()

    assert body["player"] == {"id": who.pk, "name": name}
    current = {r.ruleset: r for r in PlayerRating.objects.filter(player=who)}
    assert [r["ruleset"] for r in body["rulesets"]] == sorted(current)
    for ruleset in body["rulesets"]:
        rating = current[ruleset["ruleset"]]
        history = ruleset["history"]
        rated = RatingEvent.objects.filter(player=who, ruleset=ruleset["ruleset"])
        assert sorted(p["game"] for p in history) == sorted(rated.values_list("game_id", flat=True))
        assert [p["number"] for p in history] == list(range(1, rating.rounds + 1))
        assert history[-1]["ordinal"] == pytest.approx(rating.ordinal)
        assert ruleset["pending"] is False
        for point in history:
            game = Game.objects.get(pk=point["game"])
            assert point["url"] == f"http://testserver/api/v1/games/{game.pk}/"
            assert game.seats.get(seat=point["seat"]).player_id == who.pk
            if game.date is not None:
                assert point["date"] == game.date.isoformat()


@pytest.mark.django_db
def test_it_filters_by_ruleset(api: APIClient, archive: Archive) -> None:
    an = Player.objects.get(name="An")

    body = api.get(url(an), {"ruleset": "bga"}).json()

    assert [r["ruleset"] for r in body["rulesets"]] == ["bga"]
    assert {p["game"] for p in body["rulesets"][0]["history"]} <= set(archive.bga)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "params", "status"),
    [
        ("players/{an}/ratings/", {"ruleset": "chess"}, 400),
        ("players/{an}/ratings/", {"rulset": "bga"}, 400),
        ("players/999999/ratings/", {}, 404),
    ],
)
def test_it_refuses_what_it_cannot_answer(
    api: APIClient, archive: Archive, path: str, params: dict[str, str], status: int
) -> None:
    an = Player.objects.get(name="An")

    response = api.get("/api/v1/" + path.format(an=an.pk), params)

    assert response.status_code == status
    assert response.json()["error"]["status"] == status


@pytest.mark.django_db
def test_it_is_linked_from_the_player(api: APIClient, archive: Archive) -> None:
    an = Player.objects.get(name="An")

    links = api.get(f"/api/v1/players/{an.pk}/").json()["links"]

    assert links["ratings"] == "http://testserver" + url(an)
