"""The match list: every match with its number of rounds and dates."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.web.conftest import Archive
from tests.web.dom import parse

pytestmark = pytest.mark.django_db


def test_it_lists_matches_with_rounds_and_dates(client: Client, archive: Archive) -> None:
    assert archive.match is not None
    doc = parse(client.get(reverse("matches")).content)
    (row,) = doc.find("table", "matches").find("tbody").find_all("tr")
    link = row.find("a")
    assert link.text() == "Spring cup <2024>"
    assert link.attrs["href"] == reverse("match", args=[archive.match.pk])
    assert [td.words() for td in row.find_all("td")][1:] == ["3", "2024-06-01"]


def test_it_says_so_when_there_is_no_match(client: Client, db: None) -> None:
    doc = parse(client.get(reverse("matches")).content)
    assert doc.find("td", "empty").words() == "No matches yet."
