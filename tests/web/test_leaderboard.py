"""The leaderboard page: the board `ratings.leaderboards.leaderboard` gives (the API's), for
every statistic, with its filters, and what it says when a board cannot be drawn."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings import leaderboards
from ratings.stats import LEADERBOARD_METRICS
from tests.analysis.test_stats import analysed  # noqa: F401 (a fixture: analysed rounds)
from tests.web.conftest import SHARED, Archive
from tests.web.dom import Node, parse
from web.views.leaderboard import METRIC_SHOWN

# The tests only read the archive (the analysed rounds one adds are rolled back after it).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def page(client: Client, **params: str) -> Node:
    response = client.get(reverse("leaderboard"), params)
    assert response.status_code == 200
    return parse(response.content)


def rows(doc: Node) -> list[tuple[str, str, str]]:
    """(rank, player, rounds) of each row of the board (the rounds board's value is its
    rounds: it has no second rounds column)."""
    out = []
    for tr in doc.find("table", "leaderboard").find("tbody").find_all("tr"):
        cells = tr.find_all("td")
        if len(cells) >= 3 and "empty" not in cells[0].attrs.get("class", ""):
            out.append((cells[0].text(), cells[1].text(), cells[-1].text()))
    return out


def test_it_names_and_shows_every_metric_of_the_statistics() -> None:
    assert set(METRIC_SHOWN) == set(LEADERBOARD_METRICS)


@pytest.mark.parametrize("metric", [m for m in LEADERBOARD_METRICS if m != "rating"])
def test_it_lists_the_boards_players_in_its_order(
    client: Client, archive: Archive, metric: str
) -> None:
    doc = page(client, metric=metric, min_rounds="1")
    board = leaderboards.leaderboard(metric, min_rounds=1, limit=100)["rows"]
    expected = [(str(r["rank"]), r["player"]["name"], str(r["rounds"])) for r in board]
    assert rows(doc) == expected
    assert doc.find("table", "leaderboard").attrs["data-metric"] == metric
    rule = doc.find("p", data_field="board-rule").text()
    first = "Highest first" if leaderboards.higher_is_better(metric) else "Lowest first"
    assert rule.startswith(first)


def test_it_defaults_to_rounds_among_players_with_ten(client: Client, archive: Archive) -> None:
    doc = page(client)
    board = leaderboards.leaderboard("rounds", min_rounds=10)["rows"]
    assert rows(doc) == [(str(r["rank"]), r["player"]["name"], str(r["rounds"])) for r in board]
    assert "at least 10 rounds" in doc.find("p", data_field="board-rule").text()


def test_it_names_the_default_statistic_in_its_menu_and_shows_rounds_once(
    client: Client, archive: Archive
) -> None:
    doc = page(client)
    chosen = [o for o in doc.find("select", name="metric").find_all("option")
              if "selected" in o.attrs]
    assert [o.attrs["value"] for o in chosen] == ["rounds"]
    headers = [th.text() for th in doc.find("table", "leaderboard").find("thead").find_all("th")]
    assert headers == ["Rank", "Player", "Rounds"]


def test_it_narrows_to_a_ruleset_and_a_table_size(client: Client, archive: Archive) -> None:
    doc = page(client, metric="wins", min_rounds="1", ruleset="bga", players="3")
    board = leaderboards.leaderboard("wins", min_rounds=1, ruleset="bga", players=3)["rows"]
    assert rows(doc) and rows(doc) == [
        (str(r["rank"]), r["player"]["name"], str(r["rounds"])) for r in board]
    everyone = leaderboards.leaderboard("wins", min_rounds=1)["rows"]
    assert len(board) < len(everyone)


def test_it_links_each_player_to_their_page(client: Client, archive: Archive) -> None:
    doc = page(client, metric="rounds", min_rounds="1")
    link = doc.find("table", "leaderboard").find("tbody").find("a")
    player = archive.player(link.text())
    assert link.attrs["href"] == reverse("player", args=[player.pk])


def test_it_shows_the_rating_board_of_one_ruleset(client: Client, archive: Archive) -> None:
    doc = page(client, metric="rating", ruleset="classic", min_rounds="1")
    board = leaderboards.leaderboard("rating", min_rounds=1, ruleset="classic")["rows"]
    assert board and rows(doc) == [
        (str(r["rank"]), r["player"]["name"], str(r["rounds"])) for r in board]


@pytest.mark.usefixtures("analysed")
@pytest.mark.parametrize("metric", ["decision_accuracy", "mean_loss_per_decision"])
def test_it_ranks_the_players_by_their_analysed_decisions(client: Client, metric: str) -> None:
    doc = page(client, metric=metric, min_rounds="1")
    board = leaderboards.leaderboard(metric, min_rounds=1)["rows"]
    assert len(board) == 3 and rows(doc) == [
        (str(r["rank"]), r["player"]["name"], str(r["rounds"])) for r in board]
    assert doc.find("table", "leaderboard").find_all("th")[3].text() == "Analysed rounds"


@pytest.mark.parametrize(("params", "says"), [
    ({"metric": "rating"}, "choose a ruleset"),
    ({"metric": "rating", "ruleset": "classic", "players": "4"}, "by ruleset only"),
])
def test_it_says_why_a_rating_board_cannot_be_drawn(
    client: Client, archive: Archive, params: dict[str, str], says: str
) -> None:
    doc = page(client, **params)
    assert says in doc.find("p", data_field="board-problem").text()
    assert doc.find_all("table", "leaderboard") == []


@pytest.mark.parametrize("params", [
    {"metric": "nonsense"}, {"min_rounds": "0"}, {"min_rounds": "many"},
    {"ruleset": "chess"}, {"players": "9"}, {"players": "1"}, {"since": "2026-13-45"},
    {"since": "2026-12-01", "until": "2026-01-01"},
])
def test_it_answers_a_bad_parameter_with_the_default_and_the_reason(
    client: Client, archive: Archive, params: dict[str, str]
) -> None:
    doc = page(client, **params)
    assert doc.find_all("p", "field__error") or doc.find_all("div", "errors")
    assert doc.find_all("table", "leaderboard")


def test_it_says_when_no_player_has_enough_rounds(client: Client, archive: Archive) -> None:
    doc = page(client, min_rounds="100000")
    assert rows(doc) == []
    assert doc.find_all("td", "empty")


def test_it_is_in_the_sites_navigation(client: Client, archive: Archive) -> None:
    doc = page(client)
    current = doc.find("nav", "site-nav").find("a", aria_current="page")
    assert current.attrs["href"] == reverse("leaderboard")
