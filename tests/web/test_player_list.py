"""The player list: every player with their number of rounds, searchable by name."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.conftest import HTML_NAME, SHARED, Archive
from tests.web.dom import parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def names(client: Client, **params: str) -> list[tuple[str, str]]:
    doc = parse(client.get(reverse("players"), params).content)
    return [
        (row.find("a").text(), row.find("td", "num").words())
        for row in doc.find("table", "players").find("tbody").find_all("tr")
        if row.find_all("a")
    ]


def test_it_lists_players_by_rounds_played(client: Client, archive: Archive) -> None:
    listed = names(client)
    assert listed[:2] == [("Ann", "6"), ("陳大文", "6")]  # a tie: by name
    assert (HTML_NAME, "5") in listed
    assert len(listed) == 7


def test_it_searches_names_ignoring_case_and_accents_form(
    client: Client, archive: Archive
) -> None:
    assert names(client, q="<B>eve") == [(HTML_NAME, "5")]
    assert names(client, q="NGUYỄN") == [("Nguyễn Thị Bình", "4")]
    assert names(client, q="nobody") == []
    assert names(client, q="a\x00") is not None  # a NUL is dropped, not sent to the database
