"""What the API answers about an archive without a game (the other statistics tests share an
archive: tests/api/test_statistics.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.mark.django_db
def test_it_answers_an_empty_archive(api: APIClient) -> None:
    body = api.get("/api/v1/stats/global/").json()

    assert body["rounds"] == 0 and body["groups"] == []
    assert api.get("/api/v1/stats/leaderboard/").json()["rows"] == []
