"""Small bot-played rounds for the analysis tests, stored through the import service; every
test here runs at a low sample count (tests/analysis/fixtures.py)."""

from __future__ import annotations

import pytest

from tests.api.conftest import (  # noqa: F401
    _fresh_caches,
    api,
    client_for,
    other_user,
    round_text,
    staff,
    store,
    user,
)

@pytest.fixture(autouse=True)
def _few_samples(few_analysis_samples: None) -> None:
    """Every analysis test runs at the low sample count."""


@pytest.fixture
def game_id(db: None) -> int:
    """A two-seat classic round (a short one: a few dozen decisions)."""
    (pk,) = store([round_text(5, "classic", 2, ("An", "Bình"))])
    return pk


@pytest.fixture
def four_seat_id(db: None) -> int:
    (pk,) = store([round_text(7, "classic", 4, ("An", "Bình", "Chi", "Dũng"))])
    return pk
