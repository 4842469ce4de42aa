"""What every hostile-input test asserts, whichever door the input came in by: the verdicts
match the manifest, nothing hangs, and the database holds exactly the stored records, whole."""

from __future__ import annotations

import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

import fourcolor
from fourcolor.notation.identity import identity_text
from records.models import Game, GameSeat, Player, player_key
from records.services import sha256_text

from .corpus import Case, Expected


LISTED = 1000  # verdicts a report lists in detail (records.services.ImportReport.max_results)


class Hang(Exception):
    """The input took longer than its case allows."""


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: SIGALRM interrupts the test after `seconds` (main thread)."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Verdict:
    """One record's answer as a door reports it, in the manifest's terms."""

    status: str  # stored, duplicate or refused
    line: int | None = None
    col: int | None = None
    ply: int | None = None
    category: str | None = None
    message: str = ""


def assert_verdicts(
    case: Case, verdicts: Sequence[Verdict], indices: Sequence[int] | None = None
) -> None:
    """The reported verdicts are the manifest's: the first records in order, or those at
    `indices` (a report may list only some); every refusal says where (line, col, ply), what
    (category) and why (a message)."""
    if indices is None:
        # Every door lists the first LISTED records' verdicts, and counts the rest.
        assert len(verdicts) == min(len(case.records), LISTED), (len(verdicts), LISTED)
        indices = range(len(verdicts))
    assert len(indices) == len(verdicts)
    for number, got in zip(indices, verdicts, strict=True):
        want = case.records[number]
        assert got.status == want.status, (number, got, want)
        if want.status == "refused":
            assert (got.line, got.col, got.ply, got.category) == _where(want), (number, got)
            assert got.message.strip(), (number, got)


def _where(want: Expected) -> tuple[int | None, int | None, int | None, str | None]:
    return want.line, want.col, want.ply, want.category


def assert_database_holds(case: Case, data: bytes) -> None:
    """Exactly the case's stored records are in the database, each whole: its original text is
    a verbatim piece of the input that the engine accepts, its content hash (the round's
    identity) and seats are those of that text, and no player exists who is not seated in a
    stored game."""
    games = list(Game.objects.all())
    assert len(games) == case.stored
    text = data.decode("utf-8", "replace")
    names: set[str] = set()
    for game in games:
        assert game.original_text and game.original_text in text
        check = fourcolor.check_record(game.original_text)
        assert check.ok and check.record is not None, check.error
        assert game.content_hash == sha256_text(identity_text(check.record))
        seats = list(game.seats.order_by("seat").select_related("player"))
        assert [s.player.name_key for s in seats] == [player_key(n) for n in check.record.seats]
        names.update(s.player.name_key for s in seats)
    assert GameSeat.objects.count() == sum(g.players for g in games)
    assert set(Player.objects.values_list("name_key", flat=True)) == names


def assert_inert(content: bytes) -> None:
    """The corpus's markup (each piece calls alert) never reaches a page or body unescaped."""
    for raw in (b"<script>alert", b"<img src=x", b"<b onmouseover", b"</title><script>"):
        assert raw not in content, raw


def assert_no_traceback(content: bytes) -> None:
    assert b"Traceback" not in content and b"Internal Server Error" not in content
