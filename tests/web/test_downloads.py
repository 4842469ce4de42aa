"""The replay page's downloads: the record as uploaded, in canonical FCN, and as JSON."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

import fourcolor
from records.models import Game
from records.services import import_records
from tests.web.conftest import FOUR, Archive, record_text

pytestmark = pytest.mark.django_db


def test_it_serves_the_original_record_byte_for_byte(client: Client, db: None) -> None:
    # Windows line endings, a turn number and extra blanks: kept verbatim.
    text = record_text("classic", 4, 3, FOUR).replace("\n", "\r\n").replace(" 2m", "  1. 2m", 1)
    report = import_records(text.encode("utf-8"), None)
    assert report.stored == 1, report.as_dict()
    game = Game.objects.get(pk=report.results[0].game_id)
    response = client.get(reverse("game-original", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="game-{game.pk}.fcn"'
    assert response.content.decode("utf-8") == game.original_text
    assert "\r\n" in game.original_text and "  1. 2m" in game.original_text


def test_it_serves_the_canonical_record(client: Client, archive: Archive) -> None:
    response = client.get(reverse("game-canonical", args=[archive.four.pk]))
    assert response.status_code == 200
    text = response.content.decode("utf-8")
    record = fourcolor.parse_record(text)
    assert fourcolor.write_fcn(record) == text == archive.four.canonical_text


def test_it_serves_the_game_as_json_with_the_record_and_result(
    client: Client, archive: Archive
) -> None:
    response = client.get(reverse("game-json", args=[archive.long.pk]), follow=True)
    assert response.redirect_chain == [(f"/api/v1/games/{archive.long.pk}/game.json", 302)]
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="game-{archive.long.pk}.json"'
    data = json.loads(response.content)
    # The API's game object, as `/api/v1/games/{id}/` and the exports give it.
    assert data == client.get(f"/api/v1/games/{archive.long.pk}/").json()
    assert data["id"] == archive.long.pk
    assert data["result"] == archive.long.result_tag
    events = fourcolor.record_to_json(fourcolor.parse_record(archive.long.canonical_text))["events"]
    assert data["events"] == events
    # Names are kept as written (not \\u-escaped, not HTML-escaped).
    assert '"Seat3": "<script>alert(\\"x\\")</script>"' in response.content.decode("utf-8")


def test_it_answers_404_for_downloads_of_a_missing_game(client: Client, db: None) -> None:
    for name in ("game-original", "game-canonical", "game-json"):
        assert client.get(reverse(name, args=[12345]), follow=True).status_code == 404
