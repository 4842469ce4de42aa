"""Script in names, comments and tags stays inert everywhere it is shown: the archive, the
replay (its markup and the data its script reads), player and match pages, the upload result,
and the API, whose JSON is served as JSON that no browser sniffs into a page.

tests/web/test_escaping.py checks every page for the web fixtures' tricky names; this file
adds payloads aimed at attributes and event handlers, in comments and tags as well as names.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

import fourcolor
from records.models import Game, player_key
from records.services import import_records
from tests.web.conftest import record_text
from tests.web.upload_result import upload_and_follow

pytestmark = pytest.mark.django_db

NAME = '"><script>alert(1)</script>'
OTHER = "<img src=x onerror=alert(2)>"
COMMENT = "</blockquote><script>alert(3)</script><svg onload=alert(4)>"
EVENT = "Cup <script>alert(5)</script>"
PAYLOADS = (NAME, OTHER, COMMENT, EVENT)
# What must never appear in HTML: a tag the payloads would open, raw.
LIVE = ("<script>alert", "<img src=x", "<svg onload", "onerror=alert(2)>")


def hostile_text() -> str:
    text = record_text("classic", 2, 7, (NAME, OTHER), "greedy", "2024.05.01")
    record = fourcolor.parse_record(text.replace('"Club night"', '"' + EVENT + '"'))
    record.events[0] = record.events[0]._replace(comments=(COMMENT,))
    return fourcolor.write_fcn(record)


@pytest.fixture
def game() -> Game:
    report = import_records(hostile_text(), None)
    assert report.stored == 1, report.as_dict()
    return Game.objects.get(pk=report.results[0].game_id)


def _html_pages(game: Game) -> list[str]:
    from records.models import Player

    players = [Player.objects.get(name_key=player_key(name)).pk for name in (NAME, OTHER)]
    return [
        "/", f"/?player={NAME}", f"/games/{game.pk}/", f"/games/{game.pk}/?ply=1",
        f"/games/{game.pk}/?ply=1&seat=1", *(f"/players/{pk}/" for pk in players),
        "/players/", f"/players/?q={OTHER}",
    ]


def test_it_renders_the_payloads_inert_on_every_page(client: Client, game: Game) -> None:
    for page in _html_pages(game):
        response = client.get(page)
        html = response.content.decode()
        assert response.status_code == 200, page
        for live in LIVE:
            assert live not in html, (page, live)
    replay = client.get(f"/games/{game.pk}/?ply=1").content.decode()
    assert "&lt;/blockquote&gt;&lt;script&gt;alert(3)" in replay  # shown, as text
    assert "Cup &lt;script&gt;alert(5)" in replay


def test_it_keeps_the_replay_data_inert_for_the_script(client: Client, game: Game) -> None:
    html = client.get(f"/games/{game.pk}/").content.decode()
    start = html.index('id="replay-data"')
    data = html[html.index(">", start) + 1:html.index("</script>", start)]

    assert "<" not in data and ">" not in data  # json_script escapes them
    assert [seat["name"] for seat in json.loads(data)["seats"]] == [NAME, OTHER]


def test_it_renders_the_payloads_inert_on_the_upload_result(client: Client, user: User) -> None:
    client.force_login(user)
    response = upload_and_follow(client, {"text": hostile_text()})

    html = response.content.decode()
    assert response.status_code == 200
    for live in LIVE:
        assert live not in html


def test_it_serves_the_payloads_as_json_data_in_the_api(game: Game) -> None:
    client = APIClient()
    paths = [f"/api/v1/games/{game.pk}/", "/api/v1/games/", f"/api/v1/games/{game.pk}/plies/1/",
             "/api/v1/players/"]
    for path in paths:
        response = client.get(path, HTTP_ACCEPT="application/json")
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/json", path
        assert response["X-Content-Type-Options"] == "nosniff", path
        assert NAME in json.dumps(response.json(), ensure_ascii=False), path  # data, intact
    detail = client.get(f"/api/v1/games/{game.pk}/plies/1/").json()
    assert COMMENT in json.dumps(detail, ensure_ascii=False)


def test_it_renders_the_payloads_inert_in_the_browsable_api(game: Game) -> None:
    client = APIClient()
    for path in (f"/api/v1/games/{game.pk}/", "/api/v1/players/"):
        response = client.get(path, HTTP_ACCEPT="text/html")
        html = response.content.decode()
        assert response["Content-Type"].startswith("text/html"), path
        for live in LIVE:
            assert live not in html, (path, live)
