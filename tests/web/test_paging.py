"""records.paging: counts exact for small results, estimated beyond (PostgreSQL), pages capped."""

from __future__ import annotations


import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from records.models import Game
from tests.web.conftest import SHARED, Archive
from records import paging
from records.paging import EstimatingPaginator

# The tests only read the archive; the estimates after a bulk import, which store their own
# games: tests/records/test_paging_estimates.py.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def test_it_counts_exactly_up_to_the_threshold(archive: Archive) -> None:
    games = Game.objects.order_by("pk")
    paginator = EstimatingPaginator(games, 2)
    assert paginator.count == Game.objects.count() and not paginator.estimated


def test_it_estimates_beyond_the_threshold_on_postgresql(
    archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paging, "EXACT_UP_TO", 1)
    total = Game.objects.count()
    paginator = EstimatingPaginator(Game.objects.order_by("pk"), 2)
    count = paginator.count
    if connection.vendor == "postgresql":
        # The planner's estimate, never below what the capped count saw.
        assert paginator.estimated and count >= 2
    else:
        assert not paginator.estimated and count == total


def test_it_caps_page_numbers(archive: Archive, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paging, "MAX_PAGES", 2)
    paginator = EstimatingPaginator(Game.objects.order_by("pk"), 1)
    assert paginator.num_pages == 2
    assert list(paginator.get_page(99).object_list) == list(Game.objects.order_by("pk")[1:2])


def test_it_marks_an_estimated_count_on_the_archive(
    client: Client, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paging, "EXACT_UP_TO", 1)
    html = client.get("/").content.decode()
    assert ("≈" in html) is (connection.vendor == "postgresql")


def _sql_of(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in queries.captured_queries]


@pytest.mark.parametrize("url", ["/", "/?player=ann", "/?ruleset=classic&outcome=win",
                                 "/?ordering=-points", "/api/v1/games/",
                                 "/api/v1/games/?cursor=", "/api/v1/games/?player=ann"])
def test_it_never_counts_the_whole_archive(client: Client, archive: Archive, url: str) -> None:
    # A count is of a LIMITed subquery (at most EXACT_UP_TO + 1 rows), never COUNT(*) over
    # every matching game: at a million rounds that read every row on each page.
    counts = [sql for sql in _sql_of(client, url) if "COUNT(" in sql.upper()]
    assert all("LIMIT" in sql.upper() for sql in counts), counts


def test_it_counts_a_players_games_on_their_seats(client: Client, archive: Archive) -> None:
    # The games' count is of the player's seats (one index), capped: not of the games with an
    # EXISTS over the seats, which read a million games' ids at a million rounds.
    player = archive.player("Ann")
    sql = _sql_of(client, f"/players/{player.pk}/")
    counts = [q for q in sql if "COUNT(" in q.upper() and "LIMIT 10001" in q.upper()]
    assert counts and all("EXISTS" not in q.upper() for q in counts), counts
    assert all("records_gameseat" in q for q in counts), counts


def test_it_lists_players_from_their_counted_totals(client: Client, archive: Archive) -> None:
    # Not a count of every seat per visit: the statistics keep each player's rounds.
    assert not [sql for sql in _sql_of(client, "/players/") if "records_gameseat" in sql]
    assert not [sql for sql in _sql_of(client, "/?player=ann") if "COUNT(" in sql.upper()
                and "records_gameseat" in sql and "LIMIT" not in sql.upper()]


def test_it_says_when_the_apis_count_is_an_estimate(
    client: Client, archive: Archive, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(paging, "EXACT_UP_TO", 1)
    body = client.get("/api/v1/games/", {"page_size": 2}).json()
    if connection.vendor == "postgresql":
        assert body["count_estimated"] is True and body["count"] >= 2
    else:
        assert "count_estimated" not in body and body["count"] == Game.objects.count()
    monkeypatch.setattr(paging, "EXACT_UP_TO", 10_000)
    body = client.get("/api/v1/games/", {"page_size": 2}).json()
    assert "count_estimated" not in body and body["count"] == Game.objects.count()


def test_it_reads_no_players_whole_history_on_their_page(client: Client, archive: Archive) -> None:
    # At a million rounds a player has 125,601 seats: the net chart takes the newest 1,000 from
    # the seats' own (player, date, game) index, the "no winner" bar is a counter of the
    # totals; every query of the player's seats stops at a LIMIT, none joins them to the
    # games' outcome.
    player = archive.player("Ann")
    sql = _sql_of(client, f"/players/{player.pk}/")
    mine = f'"records_gameseat"."player_id" = {player.pk}'
    # (An EXPLAIN, the paginator's estimate on PostgreSQL, reads no row.)
    seats = [q for q in sql if mine in q and not q.startswith("EXPLAIN")]
    assert seats and all("LIMIT" in q.upper() for q in seats), seats
    assert not [q for q in seats if '"records_game"."outcome"' in q]
    chart = [q for q in seats if q.upper().endswith("LIMIT 1000")]
    assert len(chart) == 1 and '"records_game"' not in chart[0], chart
    assert '"records_gameseat"."date" DESC' in chart[0]
