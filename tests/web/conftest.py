"""Games for the web tests, stored through `records.services.import_records` from records the
engine's seeded generator wrote, so every run sees the same games.

Player names deliberately include markup, right-to-left and combining scripts, emoji and an
HTML entity: every page must show them escaped and exactly as written.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, TestCase

import fourcolor
from config.email import account_settings
from fourcolor.cards import CARDS
from fourcolor.generate import generate_match, generate_record
from fourcolor.replay import Replay

from records.models import Game, Match, Player, player_key
from records.services import import_records
from tests.conftest import rows_for_the_module

# Names that break pages which forget to escape, or that mangle non-Latin text.
HTML_NAME = "<b>Eve</b>"
SCRIPT_NAME = '<script>alert("x")</script>'
TRICKY_NAMES = (
    HTML_NAME,
    "陳大文",
    "Nguyễn Thị Bình",
    "مريم",
    "Zoë 👩‍👩‍👧 &amp; co",
    SCRIPT_NAME,
)
FOUR = ("Ann", "Nguyễn Thị Bình", HTML_NAME, "陳大文")
LONG = ("مريم", "Zoë 👩‍👩‍👧 &amp; co", SCRIPT_NAME)


@functools.lru_cache(maxsize=None)
def record_text(ruleset: str, players: int, seed: int, names: tuple[str, ...], bot: str = "greedy",
                date: str | None = None) -> str:
    tags = {"Event": "Club night", "Date": date} if date else {"Event": "Club night"}
    record = generate_record(ruleset, players, seed, names=names, bot=bot, tags=tags)
    return fourcolor.write_fcn(record)


COMMENT = "Bold <i>opening</i> & a risky discard"


@functools.lru_cache(maxsize=None)
def four_text() -> str:
    """The 4-player round, with a comment (markup included) on its first event."""
    record = fourcolor.parse_record(record_text("classic", 4, 1, FOUR, "greedy", "2024.05.01"))
    record.events[0] = record.events[0]._replace(comments=(COMMENT,))
    return fourcolor.write_fcn(record)


@functools.lru_cache(maxsize=None)
def missed_text() -> str:
    """A 2-player round in which seat 1 could have won on rR after ply 55 and did not."""
    return record_text("classic", 2, 2, ("Ann", "陳大文"), "random", "2024.04.10")


@functools.lru_cache(maxsize=None)
def long_text() -> str:
    """A 133-ply round (random bots): the long round of the benchmark and the browser tests."""
    return record_text("classic", 3, 52, LONG, "random", "2024.03.02")


@functools.lru_cache(maxsize=None)
def match_texts() -> tuple[str, ...]:
    records = generate_match("classic", 4, 5, rounds=3, match_id="Spring cup <2024>",
                             date="2024.06.01", names=FOUR)
    return tuple(fourcolor.write_fcn(r) for r in records)


VARIANTS = Path(__file__).resolve().parents[1] / "data" / "corpus" / "variants.fcn"
HOUSE_SWITCH = "color_groups=any"  # the house rule `house_text` needs
HOUSE_MELD = "2m rK yK gK wK"  # its meld that only that rule allows


@functools.lru_cache(maxsize=None)
def house_text() -> tuple[str, int]:
    """A bga round of the conformance sample that melds four generals of four colours: legal
    under the house rule color_groups=any only (RULES.md §8a), here without its Switches tag;
    and the line of that meld in the text."""
    text = VARIANTS.read_text(encoding="utf-8")
    record = next(rt.text for rt in fourcolor.iter_records(text.splitlines(keepends=True))
                  if rt.index == 63)
    own = re.search(r'\[Switches "[^"]*"\]\n', record)
    assert own is not None and HOUSE_SWITCH in own.group(0)
    record = record.replace(own.group(0), "").rstrip("\n")
    line = next(n for n, text in enumerate(record.split("\n"), 1) if HOUSE_MELD in text)
    return record, line


def illegal_text(seed: int = 1) -> tuple[str, int, str]:
    """A round whose first discard is a card the dealer does not hold: (text, line of the fault
    in the text, the offending line)."""
    record = generate_record("classic", 4, seed, names=("Ann", "Bo", "Cy", "Dee"))
    first = record.events[0]
    assert first.verb == "x", "this seed opens with a redeal; pick another"
    held = set(record.deal[record.dealer])
    absent = next(c for c in CARDS if c.rank != "K" and c not in held)
    lines = fourcolor.write_fcn(record).split("\n")
    offset = next(i for i, line in enumerate(lines) if line.startswith(first.text()))
    lines[offset] = f"{first.seat}x {absent.token}" + lines[offset][len(first.text()):]
    return "\n".join(lines), offset + 1, lines[offset]


def replay_of(game: Game) -> Replay:
    return Replay(fourcolor.parse_record(game.canonical_text))


@dataclass
class Archive:
    four: Game  # classic, 4 players, tricky names
    bga: Game  # bga, 3 players
    long: Game  # 133 plies, 3 players, the trickiest names
    missed: Game  # 2 players, one missed win
    rounds: list[Game] = field(default_factory=list)  # the match, in order
    match: Match | None = None

    def player(self, name: str) -> Player:
        return Player.objects.get(name_key=player_key(name))

    def all_games(self) -> list[Game]:
        return [self.four, self.bga, self.long, self.missed, *self.rounds]

    def fetched(self) -> Archive:
        """The same games read anew: a test may change its objects (the rows roll back)."""
        games = Game.objects.in_bulk([game.pk for game in self.all_games()])
        rounds = [games[game.pk] for game in self.rounds]
        return Archive(games[self.four.pk], games[self.bga.pk], games[self.long.pk],
                       games[self.missed.pk], rounds, rounds[0].match if rounds else None)


def _store(text: str) -> Game:
    report = import_records(text, None)
    assert report.stored + report.duplicates == 1, report.as_dict()
    return Game.objects.get(pk=report.results[0].game_id)


def build_archive() -> Archive:
    # The import announces each stored game once its transaction commits; inside a test's
    # transaction nothing commits, so the announcements (which keep the statistics' totals
    # up to date) are run as they are queued.
    with TestCase.captureOnCommitCallbacks(execute=True):
        return _build_archive()


def _build_archive() -> Archive:
    four = _store(four_text())
    # "reckless": the greedy bot before its two bga rules (fourcolor.generate.make_bot), which
    # played the round these tests were written against.
    bga = _store(record_text("bga", 3, 2, ("Ann", HTML_NAME, "陳大文"), "reckless", "2024.05.20"))
    long = _store(long_text())
    missed = _store(missed_text())
    rounds = [_store(text) for text in match_texts()]
    return Archive(four, bga, long, missed, rounds, rounds[0].match)


@pytest.fixture
def archive(request: pytest.FixtureRequest, db: None) -> Archive:
    if SHARED in request.fixturenames:
        shared: Archive = request.getfixturevalue(SHARED)
        return shared.fetched()
    return build_archive()


# A module whose tests only read the archive (each test's writes are rolled back) shares one,
# imported once instead of once per test (a quarter of a second of CPU each):
# `pytestmark = pytest.mark.usefixtures(SHARED)`. Its tests then all see the archive.
SHARED = "shared_archive"


@pytest.fixture(scope="module")
def shared_archive(django_db_setup: None, django_db_blocker: Any) -> Iterator[Archive]:
    yield from rows_for_the_module(django_db_blocker, build_archive)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """Built replays are cached by content: each test starts without them."""
    cache.clear()


@pytest.fixture
def user(db: None) -> User:
    return User.objects.create_user("uploader", password="a-long-test-password-1")


@pytest.fixture
def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


@pytest.fixture
def no_mail(settings: Any) -> None:
    """A production site without EMAIL_URL (config/email.py): what settings.py derives then."""
    settings.EMAIL_AVAILABLE = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    for name, value in account_settings(False).items():
        setattr(settings, name, value)


def mailed_link(message: Any) -> str:
    """The one address of this site in a mail's text."""
    links = re.findall(r"http://testserver(/\S+)", message.body)
    assert len(links) == 1, message.body
    return str(links[0])
