"""The archive page: a paginated, filtered, sorted list of games with shareable URLs."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import fourcolor
from web.views import archive as archive_views
from records.models import Game, GameAnalysis
from tests.web.conftest import SHARED, Archive
from tests.web.dom import parse

# The tests only read the archive; house variants have their own:
# tests/web/test_archive_variants.py.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def listed(html: str) -> list[int]:
    """The game ids linked from the table rows, in order."""
    return [int(n) for n in re.findall(r'<td data-label="[^"]*"><a href="/games/(\d+)/">', html)]


def test_it_lists_every_game_newest_played_first(client: Client, archive: Archive) -> None:
    response = client.get(reverse("archive"))
    assert response.status_code == 200
    html = response.content.decode()
    expected = list(
        Game.objects.order_by("-date", "-uploaded_at", "-pk").values_list("pk", flat=True)
    )
    assert listed(html) == expected
    assert f"{len(expected)} games" in html


def test_it_applies_filters_from_the_address_and_keeps_them_in_the_form(
    client: Client, archive: Archive
) -> None:
    response = client.get(reverse("archive"), {"player": "ann", "players": "3"})
    html = response.content.decode()
    assert listed(html) == [archive.bga.pk]
    assert 'name="player" value="ann"' in html
    assert '<option value="3" selected>' in html
    # Each active filter shows as a chip whose link removes just that filter.
    assert 'href="?players=3"' in html and 'href="?player=ann"' in html


def test_it_lists_the_analysed_games_and_names_the_filter_in_words(
    client: Client, archive: Archive
) -> None:
    GameAnalysis.objects.create(game=archive.bga, engine_version=fourcolor.__version__,
                                samples=4, seed=0, result={})

    html = client.get(reverse("archive"), {"analysed": "true"}).content.decode()

    assert listed(html) == [archive.bga.pk]
    assert '<option value="true" selected>analysed</option>' in html
    chip = parse(html.encode()).find("ul", "chips").find("li")
    assert chip.words().startswith("Analysis: analysed")
    assert chip.find("a").attrs["href"] == "?"
    assert archive.bga.pk not in listed(
        client.get(reverse("archive"), {"analysed": "false"}).content.decode())


def test_it_sorts_by_a_column_header_and_marks_it_for_screen_readers(
    client: Client, archive: Archive
) -> None:
    html = client.get(reverse("archive"), {"ordering": "-plies"}).content.decode()
    ids = listed(html)
    counts = [Game.objects.get(pk=pk).event_count for pk in ids]
    assert counts == sorted(counts, reverse=True)
    assert re.search(r'aria-sort="descending"[^>]*><a href="\?ordering=plies"', html)
    assert 'aria-sort="none"' in html


def test_it_shows_invalid_filters_as_errors_without_failing(
    client: Client, archive: Archive
) -> None:
    response = client.get(reverse("archive"), {"min_points": "lots", "since": "yesterday"})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Enter a whole number." in html and "Enter a valid date." in html
    assert len(listed(html)) == len(archive.all_games())


def test_it_paginates_and_keeps_the_filters_in_the_page_links(
    client: Client, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive_views, "PAGE_SIZE", 2)
    first = client.get(reverse("archive"), {"ordering": "plies"}).content.decode()
    second = client.get(reverse("archive"), {"ordering": "plies", "page": "2"}).content.decode()
    beyond = client.get(reverse("archive"), {"ordering": "plies", "page": "99"})
    assert len(listed(first)) == 2 and len(listed(second)) == 2
    assert not set(listed(first)) & set(listed(second))
    assert 'href="?ordering=plies&amp;page=2"' in first
    assert beyond.status_code == 200 and listed(beyond.content.decode())


def test_it_says_so_when_nothing_matches(client: Client, archive: Archive) -> None:
    html = client.get(reverse("archive"), {"player": "nobody at all"}).content.decode()
    assert "No games match." in html and "0 games" in html


def test_it_answers_head_and_refuses_post(client: Client, archive: Archive) -> None:
    assert client.head(reverse("archive")).status_code == 200
    assert client.post(reverse("archive")).status_code == 405


@pytest.mark.parametrize("accept,lead,first", [
    ("en", "is a rummy-like game played with 112 xiangqi cards",
     "Replay a game from the list below"),
    ("vi", "là một trò chơi bài kiểu rummy", "Xem lại một ván trong danh sách bên dưới"),
    ("zh-hant", "類似拉米的遊戲", "重播下方列表中的一局"),
])
def test_the_home_page_says_what_the_site_is_and_what_to_do_first(
    client: Client, archive: Archive, accept: str, lead: str, first: str
) -> None:
    doc = parse(client.get("/", headers={"accept-language": accept}).content)
    intro = doc.find("section", data_field="intro")
    assert lead in intro.find("p").words()
    steps = [(a.words(), a.attrs["href"]) for a in intro.find("ol").find_all("a")]
    assert [href for _words, href in steps] == ["#results-heading", "/upload/", "/record/"]
    assert steps[0][0] == first
    filtered = parse(client.get("/", {"analysed": "true"}).content)
    assert not filtered.find_all("section", data_field="intro")
