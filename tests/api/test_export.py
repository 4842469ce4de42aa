"""GET /api/v1/games/export/: every game the filters select, streamed as NDJSON or FCN, with
`since`/`until`/`max` like Lichess's export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.http import StreamingHttpResponse
from rest_framework.test import APIClient

import fourcolor

from records.models import Game
from records.services import import_records

from .conftest import SHARED, Archive, round_text

# The tests only read the archive (what one adds is rolled back after it).
pytestmark = pytest.mark.usefixtures(SHARED)

URL = "/api/v1/games/export/"


def body(response: Any) -> str:
    assert response.status_code == 200, response.content
    assert isinstance(response, StreamingHttpResponse)
    return b"".join(response.streaming_content).decode("utf-8")


def ndjson(response: Any) -> list[dict[str, Any]]:
    return [json.loads(line) for line in body(response).splitlines()]


@pytest.mark.django_db
def test_it_exports_every_game_as_ndjson_by_default(api: APIClient, archive: Archive) -> None:
    response = api.get(URL)

    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    lines = ndjson(response)
    assert sorted(line["id"] for line in lines) == sorted(archive.all)
    # One shape per thing: each line is the game object of /games/{id}/, byte for byte.
    for line in lines:
        assert line == api.get(f"/api/v1/games/{line['id']}/").json()
        assert "text" not in line


@pytest.mark.django_db
def test_it_adds_the_record_as_uploaded_when_asked(api: APIClient, archive: Archive) -> None:
    lines = ndjson(api.get(URL, {"with_text": "true"}))

    for line in lines:
        game = Game.objects.get(pk=line.pop("id"))
        assert line.pop("text") == game.original_text
        assert line == {k: v for k, v in api.get(f"/api/v1/games/{game.pk}/").json().items()
                        if k != "id"}


@pytest.mark.django_db
def test_it_writes_dates_as_the_rest_of_the_api_does(api: APIClient, archive: Archive) -> None:
    line = ndjson(api.get(URL, {"max": "1"}))[0]

    assert line["uploaded_at"].endswith("Z") and line["validated_at"].endswith("Z")
    assert isinstance(line["result"], str) and line["url"].startswith("http://testserver/")


@pytest.mark.django_db
@pytest.mark.parametrize("ordering", ["", "points", "-plies,date"])
def test_it_continues_a_cut_short_export_from_its_link_header(
    api: APIClient, archive: Archive, ordering: str
) -> None:
    everything = [line["id"] for line in ndjson(api.get(URL, {"ordering": ordering}))]
    got: list[int] = []
    response = api.get(URL, {"ordering": ordering, "max": "2", "cursor": ""})
    while True:
        got += [line["id"] for line in ndjson(response)]
        if "Link" not in response:
            break
        link = response["Link"]
        assert link.endswith('>; rel="next"')
        response = api.get(link[1:link.index(">")])

    assert got == everything


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "headers"),
    [({"format": "fcn"}, {}), ({}, {"HTTP_ACCEPT": "text/x-fcn"})],
)
def test_it_exports_the_original_texts_as_one_importable_file(
    api: APIClient, archive: Archive, params: dict[str, str], headers: dict[str, str]
) -> None:
    response = api.get(URL, params, **headers)

    assert response["Content-Type"] == "text/x-fcn; charset=utf-8"
    text = body(response)
    records = list(fourcolor.iter_records(text.splitlines(keepends=True)))
    stored = {g.original_text for g in archive.games()}
    assert {r.text.rstrip("\n") for r in records} == {t.rstrip("\n") for t in stored}
    # Imported again, the file is all duplicates of what is stored: nothing lost or altered.
    report = import_records(text)
    assert (report.duplicates, report.stored, report.refused) == (len(archive.all), 0, 0)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "wanted"),
    [
        ({"since": "2026-02-01"}, lambda g: g.date is not None and g.date.month == 2),
        ({"until": "2026-01-31"}, lambda g: g.date is not None and g.date.month == 1),
        ({"player": "dũng"}, lambda g: "Dũng" in g.tags.values()),
        ({"uploaded_by": "someone-else"},
         lambda g: g.uploaded_by is not None and g.uploaded_by.username == "someone-else"),
        ({"ruleset": "classic", "players": "3"},
         lambda g: g.ruleset == "classic" and g.players == 3),
    ],
)
def test_it_exports_only_what_the_filters_select(
    api: APIClient, archive: Archive, params: dict[str, str], wanted: Any
) -> None:
    expected = sorted(g.pk for g in archive.games() if wanted(g))

    assert sorted(line["id"] for line in ndjson(api.get(URL, params))) == expected


@pytest.mark.django_db
def test_it_stops_after_max_games_in_the_order_asked(api: APIClient, archive: Archive) -> None:
    by_plies = sorted(archive.games(), key=lambda g: (-g.event_count, -g.pk))

    lines = ndjson(api.get(URL, {"max": "3", "ordering": "-plies"}))

    assert [line["id"] for line in lines] == [g.pk for g in by_plies[:3]]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "field"),
    [({"max": "0"}, "max"), ({"max": "many"}, "max"), ({"since": "2026-13-01"}, "since"),
     ({"players": "9"}, "players")],
)
def test_it_refuses_invalid_parameters_in_json(
    api: APIClient, archive: Archive, params: dict[str, str], field: str
) -> None:
    response = api.get(URL, params)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert field in response.json()["error"]["fields"]


@pytest.mark.django_db
def test_it_answers_an_empty_export_with_an_empty_body(api: APIClient, archive: Archive) -> None:
    assert body(api.get(URL, {"player": "nobody at all"})) == ""


@pytest.fixture
def many_games(db: None) -> int:
    """24 games more than the archive's: how many games the archive then has."""
    count = 24
    texts = [round_text(seed, "classic", 2) for seed in range(100, 100 + count)]
    report = import_records("\n".join(texts))
    assert report.stored == count
    return Game.objects.count()


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["ndjson", "fcn"])
def test_it_streams_the_first_game_before_reading_the_rest(
    api: APIClient, many_games: int, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    chunk = 5
    monkeypatch.setattr("api.game_object.EXPORT_CHUNK", chunk)
    loaded: list[int] = []
    original = Game.from_db.__func__  # type: ignore[attr-defined]

    def counting_from_db(cls: type[Game], *args: Any, **kwargs: Any) -> Game:
        game = original(cls, *args, **kwargs)
        loaded.append(game.pk)
        return game  # type: ignore[no-any-return]

    monkeypatch.setattr(Game, "from_db", classmethod(counting_from_db))

    response = api.get(URL, {"format": fmt})
    assert response.status_code == 200
    pieces: Iterator[bytes] = iter(response.streaming_content)
    first = next(pieces)

    # One game is out, at most one chunk of rows has been read from the database.
    assert first and 1 <= len(loaded) <= chunk < many_games
    rest = b"".join(pieces)
    assert len(loaded) == many_games
    assert first + rest


@pytest.mark.django_db
def test_it_is_throttled_in_its_own_scope(
    api: APIClient, archive: Archive, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
                                   "export": "2/hour"},
    }

    statuses = [api.get(URL, {"max": "1"}).status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    # Other reads are counted apart.
    assert api.get("/api/v1/games/").status_code == 200
