"""A match's page: its rounds in play order with every player's running credits."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import fourcolor
from fourcolor.match import Match as EngineMatch
from fourcolor.generate import generate_record
from fourcolor.match import next_dealer
from records.models import Match
from records.services import import_records
from tests.web.conftest import FOUR, HTML_NAME, Archive
from tests.web.dom import Node, parse

pytestmark = pytest.mark.django_db


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def page(client: Client, archive: Archive) -> Node:
    assert archive.match is not None
    response = client.get(reverse("match", args=[archive.match.pk]))
    assert response.status_code == 200
    return parse(response.content)


def test_it_lists_rounds_in_order_with_running_credits_from_the_engine(
    client: Client, archive: Archive
) -> None:
    engine = EngineMatch([fourcolor.validate(fourcolor.parse_record(g.canonical_text))
                          for g in archive.rounds])
    doc = page(client, archive)
    table = doc.find("table", "credits")
    assert [th.words() for th in table.find("thead").find_all("th")][2:] == list(FOUR)
    rows = table.find("tbody").find_all("tr")
    assert len(rows) == 3
    for row, game, expected in zip(rows, archive.rounds, engine.rounds, strict=True):
        assert row.find("a").attrs["href"] == reverse("game", args=[game.pk])
        cells = row.find_all("td")[1:]
        credits = [c.find("strong", "credit").words() for c in cells]
        assert credits == [signed(expected.credits[name]) for name in FOUR]
        deltas = [c.find("span").words() for c in cells]
        assert deltas == [signed(expected.deltas[name]) for name in FOUR]
    totals = [td.words() for td in table.find("tfoot").find_all("td")][1:]  # the outcome's
    assert totals == [signed(engine.credits[name]) for name in FOUR]


def test_it_names_the_winner_of_each_round_and_of_the_match(
    client: Client, archive: Archive
) -> None:
    games = [fourcolor.validate(fourcolor.parse_record(g.canonical_text)) for g in archive.rounds]
    doc = page(client, archive)
    outcomes = [row.find(data_field="outcome").words()
                for row in doc.find("table", "credits").find("tbody").find_all("tr")]
    expected = []
    for game in games:
        names = game.record.seats
        if game.finish.outcome != "win":
            assert game.finish.outcome in ("exhausted", "forced", "redeal")
            continue
        live = game.claims[-1].live
        whose = ("their own draw" if live.owner == game.finish.seat else
                 f"{names[live.owner - 1]}’s {live.source}")
        expected.append(
            f"{names[game.finish.seat - 1]} wins on {whose} with {game.finish.points} points.")
    assert [o for o in outcomes if " wins on " in o] == expected
    assert expected, "the match should have at least one won round"
    assert not any(":" in o and o.split(":")[0].isdigit() for o in outcomes)  # no "2:12" tags
    credits = EngineMatch(games).credits
    best = max(credits.values())
    winner = doc.find("p", data_field="winner")
    assert [a.text() for a in winner.find_all("a")] == sorted(
        (n for n, c in credits.items() if c == best), key=str.casefold)


def test_it_shows_the_match_tag_and_names_escaped(client: Client, archive: Archive) -> None:
    assert archive.match is not None
    html = client.get(reverse("match", args=[archive.match.pk])).content.decode()
    assert "Spring cup &lt;2024&gt;" in html and "<2024>" not in html
    assert HTML_NAME not in html and "&lt;b&gt;Eve&lt;/b&gt;" in html


def test_it_warns_when_a_round_was_dealt_by_the_wrong_player(
    client: Client, archive: Archive
) -> None:
    assert not page(client, archive).find_all("p", "warning")
    # A match whose second round is dealt by someone the rules did not name after round 1.
    tags = {"Match": "Odd cup", "Round": "1"}
    first = generate_record("classic", 3, 11, names=FOUR[:3], tags=tags)
    game = fourcolor.validate(first)
    expected = next_dealer(game.finish.outcome, game.finish.seat, first.dealer, 3)
    wrong = expected % 3 + 1
    second = generate_record("classic", 3, 12, dealer=wrong, names=FOUR[:3],
                             tags={"Match": "Odd cup", "Round": "2"})
    import_records("\n".join(fourcolor.write_fcn(r) for r in (first, second)), None)
    match = Match.objects.get(tag="Odd cup")
    doc = parse(client.get(reverse("match", args=[match.pk])).content)
    warnings = [p.words() for p in doc.find_all("p", "warning")]
    assert warnings == [f"round 2: {FOUR[wrong - 1]} deals, but the rules name "
                        f"{FOUR[expected - 1]}"]


def test_it_answers_404_for_an_unknown_match(client: Client, db: None) -> None:
    assert client.get(reverse("match", args=[987])).status_code == 404
