"""The match list: every match with its number of rounds and dates."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

import fourcolor
from fourcolor.generate import generate_record
from fourcolor.match import Match as EngineMatch
from records.services import import_records
from tests.web.conftest import Archive
from tests.web.dom import parse


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"

pytestmark = pytest.mark.django_db


def test_it_lists_matches_with_players_rounds_final_credits_and_winner(
    client: Client, archive: Archive
) -> None:
    assert archive.match is not None
    engine = EngineMatch([fourcolor.validate(fourcolor.parse_record(g.canonical_text))
                          for g in archive.rounds])
    doc = parse(client.get(reverse("matches")).content)
    (row,) = doc.find("table", "matches").find("tbody").find_all("tr")
    link = row.find("a")
    assert link.text() == "Spring cup <2024>"
    assert link.attrs["href"] == reverse("match", args=[archive.match.pk])
    cells = row.find_all("td")
    assert cells[1].words() == "2024-06-01"
    assert cells[3].words() == "3"
    shown = [(li.find("a").text(), li.find("span", "credit").words())
             for li in cells[2].find_all("li")]
    want = sorted(engine.credits.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    assert shown == [(name, signed(credit)) for name, credit in want]
    best = max(engine.credits.values())
    assert [a.text() for a in row.find(data_field="winner").find_all("a")] == [
        name for name, credit in want if credit == best]


def test_it_lists_the_latest_played_match_first_and_undated_ones_last(
    client: Client, archive: Archive
) -> None:
    def store(match: str, date: str | None, seed: int) -> None:
        tags = {"Match": match, "Round": "1", **({"Date": date} if date else {})}
        record = generate_record("classic", 3, seed, names=("Ann", "Bo", "Cy"), tags=tags)
        assert import_records(fourcolor.write_fcn(record)).stored == 1

    store("Old cup", "2019.01.05", 21)
    store("No date cup", None, 22)
    store("New cup", "2025.03.01", 23)
    doc = parse(client.get(reverse("matches")).content)
    rows = doc.find("table", "matches").find("tbody").find_all("tr")
    tags = [row.find("a").text() for row in rows]
    assert tags == ["New cup", "Spring cup <2024>", "Old cup", "No date cup"]


def test_it_says_so_when_there_is_no_match(client: Client, db: None) -> None:
    doc = parse(client.get(reverse("matches")).content)
    assert doc.find("td", "empty").words() == "No matches yet."
