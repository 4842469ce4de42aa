"""The archive's rows drawn by one tag (`game_rows`, web/templatetags/fourcolor_web.py) give
the HTML that the template loop they replace gave, byte for byte, in every language: the loop
is kept as the reference (game_rows_reference.html), and both draw the same games (names
with markup and other scripts, games with and without a date, points, match, round number,
long match names)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from records.models import Game
from tests.web.conftest import SHARED, Archive
from web.views.archive import games_for_listing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

# templates/records/_game_table.html's loop over the rows as it was before the tag (kept as
# a file beside this one).
TEMPLATE_LOOP = "{% load i18n fourcolor_web %}" + (
    Path(__file__).with_name("game_rows_reference.html").read_text(encoding="utf-8").rstrip("\n")
)
TAG = "{% load fourcolor_web %}    {% game_rows games %}"  # indented as in the template


def drawn(source: str, games: list[Game]) -> str:
    return Template(source).render(Context({"games": games}))


def listed() -> list[Game]:
    games = list(games_for_listing().order_by("pk"))
    assert len(games) >= 4
    # What the test archive lacks: no date, no points, a long match name with markup, no
    # round number, and a match shared by rounds (set on the instances only: no query).
    games[0].date = None
    games[1].points = None
    games[1].on = None
    with_match = [g for g in games if g.match_id]
    assert with_match
    with_match[0].match.tag = "A very long <match> & name past 24 characters"
    with_match[-1].round_number = None
    games[2].date = datetime.date(2024, 1, 2)
    return games


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_it_draws_the_rows_as_the_template_loop_did(archive: Archive, language: str) -> None:
    games = listed()
    with translation.override(language):
        reference = drawn(TEMPLATE_LOOP, games)
        assert drawn(TAG, games) == reference
        assert drawn(TAG, []) == drawn(TEMPLATE_LOOP, [])
    assert reference.count("<tr>") == len(games)
    assert "&lt;b&gt;Eve&lt;/b&gt;" in reference and "<b>Eve" not in reference


@pytest.mark.parametrize("url", ["/", "/?player=nothing-matches", "/?ordering=-points"])
def test_it_keeps_the_archive_page_whole(client: Client, archive: Archive, url: str) -> None:
    html = client.get(url).content.decode()
    assert html.count('<ul class="seat-names">') == (0 if "nothing" in url else len(
        archive.all_games()))
    assert ("No games match." in html) is ("nothing" in url)
