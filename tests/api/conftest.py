"""Fixtures for the API tests: users with every role, clients, and a small archive imported
through `records.services.import_records` from records the engine's bots played (seeded, so
every run sees the same games)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser
from tests.conftest import clear_test_cache, rows_for_the_module
from records.tokens import create_token
from rest_framework.test import APIClient

import fourcolor
from fourcolor.cards import CARDS
from fourcolor.generate import generate_match, generate_record

from records.models import Game
from records.services import import_records


@functools.lru_cache(maxsize=None)
def round_text(
    seed: int,
    ruleset: str = "classic",
    players: int = 4,
    names: tuple[str, ...] | None = None,
    date: str | None = None,
    bot: str = "greedy",
) -> str:
    """The canonical text of one bot-played round."""
    tags = {"Date": date} if date else None
    record = generate_record(ruleset, players, seed, names=names, tags=tags, bot=bot)
    return fourcolor.write_fcn(record)


def match_texts(match_id: str, names: Sequence[str], date: str, rounds: int = 3) -> list[str]:
    records = generate_match("classic", len(names), 11, rounds=rounds, names=names,
                             match_id=match_id, date=date)
    return [fourcolor.write_fcn(r) for r in records]


def illegal_text(seed: int = 1) -> str:
    """A valid 4-player round whose first discard is a card the dealer does not hold."""
    record = generate_record("classic", 4, seed)
    first = record.events[0]
    assert first.verb == "x"
    absent = next(c for c in CARDS if c.rank != "K" and c not in set(record.deal[record.dealer]))
    lines = fourcolor.write_fcn(record).split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith(first.text()))
    lines[i] = f"{first.seat}x {absent.token}" + lines[i][len(first.text()):]
    return "\n".join(lines)


def store(texts: Sequence[str], uploader: Any = None) -> list[int]:
    """Import `texts` as one file; the ids of the games stored, in file order."""
    report = import_records("\n".join(texts), uploader)
    assert report.refused == 0, report.as_dict()
    return [r.game_id for r in report.results if r.game_id is not None]


@dataclass
class Archive:
    """The games of the `archive` fixture, by what tests filter on."""

    match: list[int]  # classic, 3 players An/Bình/Chi, 2026-01-05, match "club-1", by user
    bga: list[int]  # bga, 2 players An/Dũng, 2026-02-10, by user
    undated: int  # classic, 4 players Bình/Chi/Eve/Finn, no date, by other_user
    anonymous: int  # classic, 3 players (random bots, a missed win), no uploader

    @property
    def all(self) -> list[int]:
        return [*self.match, *self.bga, self.undated, self.anonymous]

    def games(self) -> list[Game]:
        return list(Game.objects.filter(pk__in=self.all).order_by("pk"))


@pytest.fixture(autouse=True)
def _fresh_caches() -> Iterator[None]:
    """Throttle counters and kept answers (the default cache) never leak between tests."""
    clear_test_cache()  # on Redis, this run's keys only (the database is shared)
    yield
    clear_test_cache()


# Users without a password: the API tests sign in with tokens or force_login, and hashing a
# password (PBKDF2, on purpose slow) would cost half a second per user. In a module that shares
# its archive they are the archive's uploaders.
@pytest.fixture
def user(request: pytest.FixtureRequest, django_user_model: Any) -> AbstractUser:
    if SHARED in request.fixturenames:
        return django_user_model.objects.get(username="uploader")
    return django_user_model.objects.create_user("uploader")


@pytest.fixture
def other_user(request: pytest.FixtureRequest, django_user_model: Any) -> AbstractUser:
    if SHARED in request.fixturenames:
        return django_user_model.objects.get(username="someone-else")
    return django_user_model.objects.create_user("someone-else")


@pytest.fixture
def staff(django_user_model: Any) -> AbstractUser:
    return django_user_model.objects.create_user("moderator", is_staff=True)


@pytest.fixture
def api() -> APIClient:
    """An anonymous client."""
    return APIClient()


@pytest.fixture
def client_for() -> Callable[[Any], APIClient]:
    """A client authenticated with the user's token (None: anonymous)."""

    def make(who: Any) -> APIClient:
        client = APIClient()
        if who is not None:
            client.credentials(HTTP_AUTHORIZATION=f"Token {create_token(who, 'test')[1]}")
        return client

    return make


def build_archive(user: AbstractUser, other_user: AbstractUser) -> Archive:
    match = store(match_texts("club-1", ["An", "Bình", "Chi"], "2026.01.05"), user)
    # "reckless": the greedy bot before its two bga rules (fourcolor.generate.make_bot), which
    # played the rounds these tests were written against.
    bga = store(
        [
            round_text(seed, "bga", 2, ("An", "Dũng"), "2026.02.10", bot="reckless")
            for seed in (0, 2)
        ],
        user,
    )
    (undated,) = store([round_text(3, "classic", 4, ("Bình", "Chi", "Eve", "Finn"))], other_user)
    (anonymous,) = store([round_text(31, "classic", 3, bot="random")])
    return Archive(match, bga, undated, anonymous)


@pytest.fixture
def archive(request: pytest.FixtureRequest, db: None, user: AbstractUser,
            other_user: AbstractUser) -> Archive:
    if SHARED in request.fixturenames:
        shared: Archive = request.getfixturevalue(SHARED)
        return shared
    return build_archive(user, other_user)


# A module whose tests only read the archive (each test's writes are rolled back) shares one,
# imported once instead of once per test (a sixth of a second of CPU each, three quarters of
# such a test's cost): `pytestmark = pytest.mark.usefixtures(SHARED)`. Its tests then all see
# the archive, and the users are its uploaders.
SHARED = "shared_archive"


@pytest.fixture(scope="module")
def shared_archive(django_db_setup: None, django_db_blocker: Any) -> Iterator[Archive]:
    """The archive and its two uploaders, for the whole module."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    yield from rows_for_the_module(django_db_blocker, lambda: build_archive(
        users.create_user("uploader"), users.create_user("someone-else")))
