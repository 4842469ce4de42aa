"""A player's page: headline statistics (ratings.stats), charts, opponents, games."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from records.models import GameSeat, Player
from tests.web.conftest import HTML_NAME, Archive
from tests.web.dom import Node, parse

pytestmark = pytest.mark.django_db


def page(client: Client, player: Player, **params: str) -> Node:
    response = client.get(reverse("player", args=[player.pk]), params)
    assert response.status_code == 200
    return parse(response.content)


def stat(doc: Node, name: str) -> str:
    return doc.find("dd", data_stat=name).words()


def test_it_shows_the_headline_figures_of_the_players_rounds(
    client: Client, archive: Archive
) -> None:
    player = archive.player("陳大文")
    seats = list(GameSeat.objects.filter(player=player))
    wins = [s for s in seats if s.won]
    doc = page(client, player)
    assert doc.find("h1").text() == "陳大文"
    assert stat(doc, "rounds") == str(len(seats)) == "6"
    assert stat(doc, "wins") == str(len(wins))
    assert stat(doc, "win_rate") == f"{100 * len(wins) / len(seats):.1f}%"
    by_source = {
        source: str(sum(1 for s in wins if s.won_on == source))
        for source in ("self_draw", "draw", "discard")
    }
    assert sum(map(int, by_source.values())) == len(wins)
    assert stat(doc, "wins_on_self_draw") == by_source["self_draw"]
    assert stat(doc, "wins_on_draw") == by_source["draw"]
    assert stat(doc, "wins_on_discard") == by_source["discard"]
    headline = doc.find("dl", "stats")
    labels = {dd.attrs["data-stat"]: dt.text() for dt, dd in zip(
        headline.find_all("dt"), headline.find_all("dd"), strict=True)}
    assert (labels["wins_on_self_draw"], labels["wins_on_draw"], labels["wins_on_discard"]) == (
        "Wins on own draw", "Wins on another’s draw", "Wins on a discard")
    assert stat(doc, "deal_ins").startswith(str(sum(1 for s in seats if s.dealt_in)))
    best = max(s.points for s in wins if s.points is not None)
    assert stat(doc, "best_win_points") == str(best)
    net = sum(s.delta for s in seats)
    assert stat(doc, "net_total") == (f"+{net}" if net > 0 else f"\u2212{-net}" if net else "0")
    assert stat(doc, "matches") == "1"


def test_it_draws_the_running_net_and_the_outcomes_as_svg(
    client: Client, archive: Archive
) -> None:
    player = archive.player("Ann")
    seats = GameSeat.objects.filter(player=player).order_by("-game__date", "-game_id")
    deltas = list(reversed([s.delta for s in seats]))
    running = [sum(deltas[: i + 1]) for i in range(len(deltas))]
    response = client.get(reverse("player", args=[player.pk]))
    html = response.content.decode()
    doc = parse(html)
    credits = doc.find("section", aria_labelledby="chart-heading")
    line = credits.find("polyline", "chart__line")
    assert len(line.attrs["points"].split()) == len(running) == 6
    desc = credits.find("desc").text()
    assert desc == (f"6 rounds, from {running[0]} to {running[-1]}; lowest {min(running)}, "
                    f"highest {max(running)}.")
    bars = [t.text() for t in doc.find_all("text", "chart__value")]
    assert len(bars) == 7  # own draw, another's draw, discard, forced, dealt in, other, none
    assert sum(int(b.split()[0]) for b in bars) == 6  # every round in exactly one bar
    assert "<script" not in html.split("<main", 1)[1].split("</main>", 1)[0]


def test_it_lists_frequent_opponents_with_links_to_their_games_together(
    client: Client, archive: Archive
) -> None:
    player = archive.player("Ann")
    doc = page(client, player)
    rows = doc.find("table", "opponents").find("tbody").find_all("tr")
    names = [r.find("a").text() for r in rows]
    assert names[0] == "陳大文"  # 6 rounds together, more than anyone else
    assert set(names) == {"陳大文", HTML_NAME, "Nguyễn Thị Bình"}
    assert rows[0].find("td", "num").words() == "6"
    link = rows[0].find_all("a")[-1].attrs["href"]
    assert link == "/?player=Ann&opponent=%E9%99%B3%E5%A4%A7%E6%96%87"


def test_it_narrows_everything_to_a_ruleset_and_date_range(
    client: Client, archive: Archive
) -> None:
    player = archive.player("Ann")
    doc = page(client, player, ruleset="bga")
    assert stat(doc, "rounds") == "1"
    rows = doc.find("table", "games").find("tbody").find_all("tr")
    assert [r.find("a").text() for r in rows] == [f"#{archive.bga.pk}"]
    dated = page(client, player, since="2024-05-01", until="2024-05-31")
    assert stat(dated, "rounds") == "2"
    wrong = page(client, player, since="2024-06-01", until="2024-05-01")
    assert wrong.find("div", "errors").words() == "The first date is after the last one."
    assert stat(wrong, "rounds") == "6"


def test_it_pages_the_players_games_newest_first(client: Client, archive: Archive) -> None:
    doc = page(client, archive.player("Ann"))
    ids = [int(m) for m in re.findall(r"#(\d+)", doc.find("table", "games").words())]
    assert len(ids) == 6
    dates = [g.date for pk in ids for g in archive.all_games() if g.pk == pk]
    assert dates == sorted(dates, reverse=True)


def test_it_answers_404_for_an_unknown_player(client: Client, db: None) -> None:
    assert client.get(reverse("player", args=[4242])).status_code == 404


def test_it_charts_the_rating_history_of_each_ruleset_and_explains_the_number(
    client: Client, archive: Archive
) -> None:
    from ratings.history import rating_histories
    from ratings.models import PlayerRating

    player = archive.player("陳大文")
    histories = {h.ruleset: h for h in rating_histories(player.pk)}
    assert set(histories) == {"classic", "bga"}  # a chart per ruleset the player is rated in
    doc = page(client, player)
    charts = {box.attrs["data-ruleset"]: box for box in doc.find_all("div", "rating-chart")}
    assert set(charts) == set(histories)
    for ruleset, history in histories.items():
        box = charts[ruleset]
        line = box.find("polyline", "chart__line")
        assert len(line.attrs["points"].split()) == len(history.points)
        current = PlayerRating.objects.get(player=player, ruleset=ruleset)
        desc = box.find("desc").text()
        assert desc.startswith(f"{len(history.points)} rounds, from ")
        assert f"to {current.ordinal:.1f};" in desc  # the last point is the current rating
        assert box.find("svg").attrs["aria-labelledby"] == (
            f"chart-rating-{ruleset}-t chart-rating-{ruleset}-d")
    note = doc.find("p", data_field="rating-note").text()
    assert note.startswith("The rating is μ − 3σ")
