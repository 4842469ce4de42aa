"""An export sent back: `POST /api/v1/uploads/` with `Content-Type: application/x-ndjson`, the
lines the export writes with `with_text=true` (and `manage.py export_games --format ndjson`),
read by the import service's NDJSON reader; a bad line is a 400 that names it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from records.deletion import delete_game
from records.models import Game
from tests.api.conftest import Archive

pytestmark = pytest.mark.django_db

UPLOADS, NDJSON = "/api/v1/uploads/", "application/x-ndjson"


def export(api: APIClient) -> bytes:
    response = api.get("/api/v1/games/export/", {"format": "ndjson", "with_text": "true"})
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def test_it_stores_an_export_sent_back(archive: Archive, client_for: Any, user: Any) -> None:
    client = client_for(user)
    body = export(client)
    originals = {game.pk: game.original_text for game in Game.objects.all()}
    for pk in archive.all:
        delete_game(pk)

    response = client.post(UPLOADS, body, content_type=NDJSON)

    assert response.status_code == 201, response.content
    job = response.json()
    assert (job["stored"], job["refused"], job["total"]) == (len(archive.all), 0,
                                                             len(archive.all))
    # Each record as it was uploaded, verbatim.
    assert sorted(Game.objects.values_list("original_text", flat=True)) == sorted(
        originals.values())


def test_it_reports_an_export_sent_twice_as_duplicates(
    archive: Archive, client_for: Any, user: Any,
) -> None:
    client = client_for(user)

    job = client.post(UPLOADS, export(client), content_type=NDJSON).json()

    assert (job["stored"], job["duplicates"]) == (0, len(archive.all))


def test_it_takes_the_lines_export_games_writes(archive: Archive, client_for: Any,
                                                 user: Any, tmp_path: Any) -> None:
    from django.core.management import call_command

    path = tmp_path / "games.ndjson"
    call_command("export_games", "--format", "ndjson", "--output", str(path))

    job = client_for(user).post(UPLOADS, path.read_bytes(), content_type=NDJSON).json()

    assert job["duplicates"] == len(archive.all)


@pytest.mark.parametrize(("body", "says"), [
    (b'{"text": "x"}\nnot json\n', "line 2"),
    (b'{"id": 1}\n', "line 1: not an export object with 'text'"),
    (b'{"text": 5}\n', "line 1: 'text' is not a string"),
    (b'["text"]\n', "line 1"),
    (b'{"text": "\xff"}\n', "not UTF-8"),
    (b"\n\n", "no record"),
])
def test_it_refuses_a_bad_body_naming_the_line(
    client_for: Any, user: Any, body: bytes, says: str,
) -> None:
    response = client_for(user).post(UPLOADS, body, content_type=NDJSON)

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "parse_error"
    assert says in error["message"]


def test_it_needs_a_write_token(archive: Archive, api: Any) -> None:
    line = json.dumps({"text": Game.objects.first().original_text}).encode()  # type: ignore[union-attr]
    assert api.post(UPLOADS, line, content_type=NDJSON).status_code == 401
