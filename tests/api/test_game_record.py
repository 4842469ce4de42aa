"""GET /api/v1/games/{id}/record/: the record as uploaded, canonical, or JSON, by `?format=`
or the Accept header."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import fourcolor

from records.models import Game

from .conftest import SHARED, Archive

pytestmark = pytest.mark.usefixtures(SHARED)


def url(pk: int) -> str:
    return f"/api/v1/games/{pk}/record/"


@pytest.fixture
def game(archive: Archive) -> Game:
    # As if uploaded with CRLF line ends: the original differs from the canonical text.
    game = Game.objects.get(pk=archive.bga[1])
    original = game.original_text.replace("\n", "\r\n")
    Game.objects.filter(pk=game.pk).update(original_text=original)
    game.refresh_from_db()
    return game


FORMATS = [
    ({"format": "fcn"}, {}, "text/x-fcn; charset=utf-8", "original_text"),
    ({"format": "canonical"}, {}, "text/x-fcn; variant=canonical; charset=utf-8", "canonical_text"),
    ({}, {"HTTP_ACCEPT": "text/x-fcn"}, "text/x-fcn; charset=utf-8", "original_text"),
    ({}, {"HTTP_ACCEPT": "text/x-fcn; variant=canonical"},
     "text/x-fcn; variant=canonical; charset=utf-8", "canonical_text"),
    # ?format= wins over Accept.
    ({"format": "canonical"}, {"HTTP_ACCEPT": "application/json"},
     "text/x-fcn; variant=canonical; charset=utf-8", "canonical_text"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "headers", "content_type", "field"), FORMATS)
def test_it_serves_the_fcn_texts_verbatim(
    api: APIClient, game: Game, params: dict[str, str], headers: dict[str, str],
    content_type: str, field: str,
) -> None:
    response = api.get(url(game.pk), params, **headers)

    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    assert response.content.decode("utf-8") == getattr(game, field)
    assert f'filename="game-{game.pk}.' in response["Content-Disposition"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "headers"),
    [({}, {}), ({"format": "json"}, {}), ({}, {"HTTP_ACCEPT": "application/json"})],
)
def test_it_serves_the_json_twin_by_default(
    api: APIClient, game: Game, params: dict[str, str], headers: dict[str, str]
) -> None:
    response = api.get(url(game.pk), params, **headers)

    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.json() == fourcolor.record_to_json(fourcolor.parse_record(game.canonical_text))
    # The JSON twin reads back to the same canonical text.
    assert fourcolor.write_fcn(fourcolor.record_from_json(response.json())) == game.canonical_text


@pytest.mark.django_db
def test_it_answers_an_unknown_format_with_404(api: APIClient, game: Game) -> None:
    response = api.get(url(game.pk), {"format": "pgn"})

    assert response.status_code == 404
    assert "json, canonical, fcn" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_it_answers_406_to_an_accept_header_it_cannot_meet(api: APIClient, game: Game) -> None:
    response = api.get(url(game.pk), HTTP_ACCEPT="image/png")

    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_acceptable"


@pytest.mark.django_db
def test_it_answers_errors_in_json_even_when_fcn_was_asked_for(api: APIClient, game: Game) -> None:
    response = api.get(url(10**9), {"format": "fcn"})

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
def test_it_answers_422_with_the_position_when_the_stored_text_no_longer_reads(
    api: APIClient, game: Game
) -> None:
    broken = '[Ruleset "classic"]\n[Seat1 "A"\n'
    Game.objects.filter(pk=game.pk).update(canonical_text=broken)
    with pytest.raises(fourcolor.FcnError) as raised:
        fourcolor.parse_record(broken)

    response = api.get(url(game.pk))

    assert response.status_code == 422
    error = response.json()["error"]
    assert error == {
        "status": 422,
        "code": "record_error",
        "message": "2:11: Seat1 tag: “]” expected after the value",
        "record": {**raised.value.as_dict(),
                   "message": "Seat1 tag: “]” expected after the value"},
    }
    assert error["record"]["code"] == "tags.bracket"
    assert error["record"]["line"] == 2
    # The texts themselves are still served as stored.
    assert api.get(url(game.pk), {"format": "fcn"}).status_code == 200
