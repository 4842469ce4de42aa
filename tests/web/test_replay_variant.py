"""The replay page names a game's variant in words: its ruleset, each switch its record's
Switches tag changes, and the table's size; five to eight seats are laid out like four."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import fourcolor
from fourcolor.generate import generate_record
from records.models import Game
from records.services import import_records
from records.variants import describe

pytestmark = pytest.mark.django_db


def store(record: fourcolor.Record) -> Game:
    report = import_records(fourcolor.write_fcn(record), None)
    assert report.stored == 1, report.as_dict()
    return Game.objects.get(pk=report.results[0].game_id)


def test_it_stores_and_shows_a_five_player_house_variant(client: Client) -> None:
    record = generate_record("classic", 5, 2, switches={"steal_generals": "never"})
    game = store(record)
    assert (game.ruleset, game.switches, game.players) == ("classic", "steal_generals=never", 5)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "classic, generals never stolen, 5 players" in html
    for name in record.seats:
        assert name in html


def test_it_shows_a_shipped_ruleset_without_switches(client: Client) -> None:
    game = store(generate_record("bga", 3, 4))
    assert game.switches == ""
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "bga, 3 players" in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "bga, generals never stolen, threshold 8, 4 players"),
        ("vi", "bga, không bao giờ cướp tướng, ngưỡng 8, 4 người chơi"),
        ("zh-hant", "bga, 將帥永不可搶, 門檻 8, 4 位玩家"),
    ],
)
def test_it_describes_a_variant_in_the_readers_language(language: str, words: str) -> None:
    with translation.override(language):
        assert describe("bga", "threshold=8 steal_generals=never", 4) == words
