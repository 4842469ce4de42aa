"""GET and DELETE /api/v1/games/{id}/: one game's tags, seats, verdict, settlement and events;
deletion by its uploader or staff only."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

import fourcolor
from fourcolor.replay import round_end
from fourcolor.replay_json import round_end_json

from records.models import Game, GameSeat

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def url(pk: int) -> str:
    return f"/api/v1/games/{pk}/"


@pytest.mark.django_db
def test_it_shows_what_the_engine_says_about_the_record(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.match[1])
    check = fourcolor.check_record(game.original_text)
    assert check.game is not None and check.record is not None
    twin = fourcolor.record_to_json(check.record)

    body = api.get(url(game.pk)).json()

    assert body["tags"] == check.record.tags
    finish = check.game.finish
    assert body["outcome"] == finish.outcome and body["finisher"] == finish.seat
    assert body["settlement"] == {str(s): d for s, d in check.game.finish.settlement.items()}
    assert body["deal"] == twin["deal"] and body["events"] == twin["events"]
    assert body["finish"] == round_end_json(round_end(check.game))
    assert body["match"] == game.match_id and body["round"] == 2
    assert body["content_hash"] == game.content_hash
    assert body["engine_version"] == fourcolor.__version__


@pytest.mark.django_db
def test_it_gives_every_seat_its_engine_facts(api: APIClient, archive: Archive) -> None:
    game = Game.objects.get(pk=archive.undated)

    seats = api.get(url(game.pk)).json()["seats"]

    stored = {s.seat: s for s in GameSeat.objects.filter(game=game).select_related("player")}
    assert [s["seat"] for s in seats] == [1, 2, 3, 4]
    for seat in seats:
        row = stored[seat["seat"]]
        assert seat["player"] == {"id": row.player_id, "name": row.player.name}
        for name in ("pongs", "gans", "chis", "steals", "turns_lost", "missed_wins", "delta",
                     "won", "dealt_in", "win_melds", "won_on", "draws"):
            assert seat[name] == getattr(row, name), name
        assert seat["dealer"] == row.is_dealer


@pytest.mark.django_db
def test_it_links_to_the_record_replay_and_review(api: APIClient, archive: Archive) -> None:
    pk = archive.bga[0]

    links = api.get(url(pk)).json()["links"]

    base = f"http://testserver/api/v1/games/{pk}"
    assert links == {
        "record": f"{base}/record/?format=fcn",
        "canonical": f"{base}/record/?format=canonical",
        "json": f"{base}/record/?format=json",
        "plies": f"{base}/plies/0/",
        "review": f"{base}/review/",
    }
    for link in links.values():
        assert api.get(link).status_code == 200


@pytest.mark.django_db
def test_it_still_shows_a_stale_game_the_engine_now_refuses(
    api: APIClient, archive: Archive
) -> None:
    game = Game.objects.get(pk=archive.undated)
    Game.objects.filter(pk=game.pk).update(canonical_text="[Ruleset \"nope\"]\n", stale=True)

    body = api.get(url(game.pk)).json()

    assert body["stale"] is True and body["finish"] is None
    assert body["events"] == [] and body["outcome"] == game.outcome


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["999999", "9" * 20, "99999999999999999999999", "9" * 5000, "abc", "-1"]
)
def test_it_answers_404_in_json_for_a_game_that_does_not_exist(
    api: APIClient, archive: Archive, path: str
) -> None:
    response = api.get(f"/api/v1/games/{path}/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


# --- deletion: (who, the game's uploader) -> status --------------------------------------

DELETIONS = [
    ("anonymous", "user", 401),
    ("other_user", "user", 403),
    ("user", "user", 204),
    ("staff", "user", 204),
    ("user", None, 403),  # a game without an uploader: staff only
    ("staff", None, 204),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("who", "owner", "status"), DELETIONS)
def test_it_lets_only_the_uploader_or_staff_delete_a_game(
    request: pytest.FixtureRequest, client_for: Any, archive: Archive,
    who: str, owner: str | None, status: int,
) -> None:
    actor = None if who == "anonymous" else request.getfixturevalue(who)
    pk = archive.match[0] if owner == "user" else archive.anonymous

    response = client_for(actor).delete(url(pk))

    assert response.status_code == status, response.content
    assert Game.objects.filter(pk=pk).exists() is (status != 204)
    if status != 204:
        assert response.json()["error"]["status"] == status
    else:
        assert not GameSeat.objects.filter(game_id=pk).exists()
        assert client_for(actor).get(url(pk)).status_code == 404


@pytest.mark.django_db
def test_it_names_the_token_scheme_when_not_signed_in(api: APIClient, archive: Archive) -> None:
    response = api.delete(url(archive.match[0]))

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_it_needs_the_csrf_token_for_a_session_delete(archive: Archive, user: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.delete(url(archive.match[0]))

    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]["message"]
    assert Game.objects.filter(pk=archive.match[0]).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["put", "patch", "post"])
def test_it_does_not_allow_editing_a_game(
    client_for: Any, archive: Archive, user: Any, method: str
) -> None:
    response = getattr(client_for(user), method)(url(archive.match[0]), {"points": 99})

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
