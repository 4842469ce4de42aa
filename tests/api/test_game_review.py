"""GET /api/v1/games/{id}/review/: each seat's waits at every ply, the missed wins, comments."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import fourcolor
from fourcolor.replay import Replay
from fourcolor.replay_json import review_json

from records.models import Game

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def url(pk: int) -> str:
    return f"/api/v1/games/{pk}/review/"


@pytest.mark.django_db
def test_it_gives_the_engine_review_of_every_ply(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.anonymous)
    replay = Replay(fourcolor.parse_record(game.original_text))

    body = api.get(url(game.pk)).json()

    assert body["game"] == game.pk
    assert body["plies"] == review_json(replay.review())
    assert len(body["plies"]) == game.event_count + 1


@pytest.mark.django_db
def test_it_lists_every_missed_win_with_its_ply(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.anonymous)
    missed = Replay(fourcolor.parse_record(game.original_text)).missed_wins()
    assert missed, "the random bots' round of the fixture has a missed win"

    body = api.get(url(game.pk)).json()

    assert body["missed_wins"] == [
        {"seat": m.seat, "card": m.card.token, "points": m.points, "message": m.message(),
         "ply": m.ply}
        for m in missed
    ]
    # And the seat rows of the game agree with the review.
    assert sum(s["missed_wins"] for s in api.get(f"/api/v1/games/{game.pk}/").json()["seats"]) \
        == len(missed)


@pytest.mark.django_db
def test_it_answers_404_for_a_game_that_does_not_exist(api: APIClient, archive: Archive) -> None:
    response = api.get(url(10**9))

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_it_answers_422_when_the_stored_text_no_longer_reads(
    api: APIClient, archive: Archive
) -> None:
    Game.objects.filter(pk=archive.bga[0]).update(canonical_text="not a record")

    response = api.get(url(archive.bga[0]))

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "record_error"
