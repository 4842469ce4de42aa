"""The archive's player search: part of a name finds the player's games,
the matching players link to their pages, and the inputs ask the player search for
suggestions as one types (the browser side is in browser/test_archive_suggestions.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from records.models import Game, GameSeat
from tests.web.conftest import SHARED, Archive
from tests.web.dom import parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def test_it_lists_the_games_of_a_player_found_by_part_of_the_name(
    client: Client, archive: Archive
) -> None:
    player = archive.player("Nguyễn Thị Bình")
    doc = parse(client.get(reverse("archive"), {"player": "thị b"}).content)
    rows = doc.find("table", "games").find("tbody").find_all("tr")
    shown = {int(r.find("a").attrs["href"].split("/")[2]) for r in rows}
    assert shown == set(GameSeat.objects.filter(player=player).values_list("game_id", flat=True))
    assert shown and len(shown) < Game.objects.count()


def test_it_links_the_matching_players_pages(client: Client, archive: Archive) -> None:
    # As typed: the start of any word, without accents ("an" starts "Ann", not "Bình").
    doc = parse(client.get(reverse("archive"), {"player": "an", "opponent": "binh"}).content)
    links = doc.find("p", data_field="matching-players").find_all("a")
    names = [a.text() for a in links]
    assert names == ["Ann", "Nguyễn Thị Bình"]
    ann = archive.player("Ann")
    assert links[names.index("Ann")].attrs["href"] == reverse("player", args=[ann.pk])
    doc = parse(client.get(reverse("archive"), {"player": "n"}).content)
    names = [a.text() for a in doc.find("p", data_field="matching-players").find_all("a")]
    assert "Nguyễn Thị Bình" in names and "Ann" not in names
    # Most rounds first.
    rounds = [GameSeat.objects.filter(player__name=n).values("game").distinct().count()
              for n in names]
    assert rounds == sorted(rounds, reverse=True)


def test_it_shows_no_player_links_without_a_player_filter(
    client: Client, archive: Archive
) -> None:
    doc = parse(client.get(reverse("archive")).content)
    assert not doc.find_all("p", "matching-players")


def test_it_marks_the_name_inputs_for_suggestions_from_the_player_search(
    client: Client, archive: Archive
) -> None:
    doc = parse(client.get(reverse("archive")).content)
    for name in ("player", "opponent"):
        box = doc.find("input", id=f"id_{name}")
        assert box.attrs["data-suggest"] == reverse("api:player-list")
        assert box.attrs["list"] == f"{name}-suggestions"
    # The search those suggestions come from answers names as typed (the start of any word,
    # without accents), most rounds first.
    body = client.get(reverse("api:player-list"),
                      {"search": "binh", "ordering": "-rounds", "page_size": 8}).json()
    names = [p["name"] for p in body["results"]]
    assert names == ["Nguyễn Thị Bình"]


def test_the_player_page_lists_only_that_players_games(client: Client, archive: Archive) -> None:
    ann = archive.player("Ann")
    doc = parse(client.get(reverse("player", args=[ann.pk])).content)
    rows = doc.find("table", "games").find("tbody").find_all("tr")
    shown = {int(r.find("a").attrs["href"].split("/")[2]) for r in rows}
    assert shown == set(GameSeat.objects.filter(player=ann).values_list("game_id", flat=True))
