"""web.paging: counts exact for small results, estimated beyond (PostgreSQL), pages capped."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from records.models import Game
from tests.web.conftest import Archive
from web import paging
from web.paging import EstimatingPaginator

pytestmark = pytest.mark.django_db


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
