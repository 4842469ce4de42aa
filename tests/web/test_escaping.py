"""Every page shows player names (and other record text) escaped and exactly as written:
markup, right-to-left and combining scripts, emoji and entity look-alikes."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from records.models import Player
from tests.web.conftest import LONG, SCRIPT_NAME, TRICKY_NAMES, SHARED, Archive, long_text
from tests.web.dom import parse
from tests.web.upload_result import upload_and_follow

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

RAW_MARKUP = ("<b>Eve</b>", "<script>alert", "<i>opening</i>", "<2024>")


def check(html: str, names: tuple[str, ...] | list[str]) -> None:
    for raw in RAW_MARKUP:
        assert raw not in html, f"unescaped {raw!r}"
    text = parse(html).text()
    for name in names:
        assert name in text, f"{name!r} not shown as written"


def urls(archive: Archive) -> list[tuple[str, list[str]]]:
    assert archive.match is not None
    player_names = [p.name for p in Player.objects.all()]
    out: list[tuple[str, list[str]]] = [
        (reverse("archive"), list(TRICKY_NAMES)),
        (reverse("archive") + "?player=" + SCRIPT_NAME, [SCRIPT_NAME]),
        (reverse("players"), player_names),
        (reverse("players") + "?q=<b>", ["<b>Eve</b>"]),
        (reverse("matches"), ["Spring cup <2024>"]),
        (reverse("match", args=[archive.match.pk]), ["Spring cup <2024>", "<b>Eve</b>"]),
    ]
    for game in archive.all_games():
        names = [s.name for s in game.seats.all()]
        out.append((reverse("game", args=[game.pk]), names))
        out.append((reverse("game", args=[game.pk]) + f"?ply={game.event_count}&seat=1", names))
    for player in Player.objects.all():
        out.append((reverse("player", args=[player.pk]), [player.name]))
    return out


def test_it_escapes_names_on_every_page(client: Client, archive: Archive) -> None:
    for url, names in urls(archive):
        response = client.get(url)
        assert response.status_code == 200, url
        check(response.content.decode(), names)


def test_it_keeps_names_intact_in_the_replay_data_for_the_script(
    client: Client, archive: Archive
) -> None:
    html = client.get(reverse("game", args=[archive.long.pk])).content.decode()
    script = parse(html).find("script", id="replay-data").text()
    # json_script escapes <, > and & so that nothing can close the script element early.
    assert "</script>" not in script and "<" not in script
    assert [s["name"] for s in json.loads(script)["seats"]] == list(LONG)


def test_it_escapes_names_and_comments_on_the_upload_result(
    client: Client, archive: Archive, user: object
) -> None:
    client.force_login(user)  # type: ignore[arg-type]
    response = upload_and_follow(client, {"text": long_text() + "\n" + "[Seat1 \"<b>\n"})
    html = response.content.decode()
    check(html, list(LONG))
    # The refused record's offending line is quoted escaped too.
    assert re.search(r"&lt;b&gt;|&lt;b", html)
