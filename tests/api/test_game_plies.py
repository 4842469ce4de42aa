"""GET /api/v1/games/{id}/plies/{n}/: the table at a ply, for everyone or one seat."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import fourcolor
from fourcolor.replay import Replay
from fourcolor.replay_json import state_json

from records.models import Game

from .conftest import SHARED, Archive, round_text, store

pytestmark = pytest.mark.usefixtures(SHARED)


def url(pk: int, ply: int | str) -> str:
    return f"/api/v1/games/{pk}/plies/{ply}/"


def replay_of(game: Game) -> Replay:
    return Replay(fourcolor.parse_record(game.original_text))


@pytest.mark.django_db
def test_it_gives_the_engine_state_at_every_ply(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.undated)
    replay = replay_of(game)

    for ply in range(game.event_count + 1):
        body = api.get(url(game.pk, ply)).json()
        says = body.pop("says")
        body.pop("links")  # tests/api/test_game_ply_range.py
        assert body == {"game": game.pk, **state_json(replay.state(ply))}, ply
        assert (says is None) is (ply == 0)


@pytest.mark.django_db
def test_it_hides_the_other_hands_in_a_seat_view(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.match[0])
    replay = replay_of(game)
    ply = game.event_count // 2

    for seat in range(1, game.players + 1):
        body = api.get(url(game.pk, ply), {"seat": seat}).json()
        body.pop("says")
        body.pop("links")
        assert body == {"game": game.pk, **state_json(replay.state(ply, seat))}
        assert body["view"] == seat
        for other in body["seats"]:
            shown = other["seat"] == seat
            assert (other["hand"] is not None) is shown
            whole = state_json(replay.state(ply))
            assert other["hand_count"] == len(whole["seats"][other["seat"] - 1]["hand"])


@pytest.mark.django_db
def test_it_shows_the_finish_at_the_last_ply(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.bga[0])

    body = api.get(url(game.pk, game.event_count)).json()

    assert body["phase"] == "ended"
    assert body["finish"]["outcome"] == game.outcome
    assert body["finish"]["settlement"] == game.settlement


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ply", "params", "status", "code"),
    [
        ("last+1", {}, 404, "not_found"),
        ("9999999999999", {}, 404, "not_found"),
        ("x", {}, 404, "not_found"),
        ("0", {"seat": "4"}, 404, "not_found"),  # a 3-player game has no seat 4
        ("0", {"seat": "0"}, 400, "invalid"),
        ("0", {"seat": "5"}, 404, "not_found"),  # a seat a larger table has
        ("0", {"seat": "9"}, 400, "invalid"),  # no table has nine seats
        ("0", {"seat": "north"}, 400, "invalid"),
    ],
)
def test_it_refuses_a_ply_or_seat_the_game_does_not_have(
    api: APIClient, archive: Archive, ply: str, params: dict[str, str], status: int, code: str
) -> None:
    game = Game.objects.get(pk=archive.match[0])
    assert game.players == 3
    ply = str(game.event_count + 1) if ply == "last+1" else ply

    response = api.get(url(game.pk, ply), params)

    assert response.status_code == status
    assert response.json()["error"]["code"] == code


@pytest.mark.django_db
@pytest.mark.parametrize("seat", [5, 8])
def test_it_shows_the_table_as_a_seat_of_an_eight_seat_round_sees_it(
    api: APIClient, seat: int
) -> None:
    [game] = store([round_text(3, players=8)])

    body = api.get(url(game, 1), {"seat": seat}).json()

    hidden = [s["seat"] for s in body["seats"] if s["hand"] is None]
    assert sorted(hidden) == [s for s in range(1, 9) if s != seat]


@pytest.mark.django_db
def test_it_answers_404_for_a_game_that_does_not_exist(api: APIClient, archive: Archive) -> None:
    assert api.get(url(10**9, 0)).status_code == 404


@pytest.mark.django_db
def test_it_answers_422_when_the_engine_cannot_replay_the_stored_text(
    api: APIClient, archive: Archive
) -> None:
    game = Game.objects.get(pk=archive.undated)
    lines = game.canonical_text.split("\n")
    # Keep the tags and the deal; the first event names a seat the round does not have.
    first_event = next(i for i, line in enumerate(lines) if line[:1].isdigit() and ":" not in line)
    lines[first_event] = "9" + lines[first_event][1:]
    broken = "\n".join(lines)
    Game.objects.filter(pk=game.pk).update(canonical_text=broken)
    with pytest.raises(fourcolor.FcnError) as raised:
        Replay(fourcolor.parse_record(broken))

    response = api.get(url(game.pk, 1))

    assert response.status_code == 422
    assert response.json()["error"]["record"] == raised.value.as_dict()
    assert response.json()["error"]["record"]["line"] == first_event + 1
