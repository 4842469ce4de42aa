"""Validating ahead (records.services.validating): a large import's records validated in a
forked process while the batches before them are stored give the same verdicts, the same
report and the same stored games as one process doing both; a small import, or one inside a
transaction, never forks; a validating process that dies is replaced by validating here.

The fork needs a database the child's parent can close and reopen: PostgreSQL, or SQLite in a
file. The test database on SQLite is in memory, so there these tests check that the import
falls back to validating here, with the same results."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, transaction

import fourcolor
from records.models import Game, GameSeat
from records.services import ImportReport, import_records, import_texts, validating
from tests.records.conftest import bad_record, fcn_file, good_texts

pytestmark = pytest.mark.django_db(transaction=True)

FORKS = connection.vendor != "sqlite"  # the test database on SQLite is in memory


class CountingPool(validating.ProcessPoolExecutor):
    made = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        CountingPool.made += 1
        super().__init__(*args, **kwargs)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 4 records, forking after 8: a few dozen records cover every path."""
    monkeypatch.setattr(validating, "AHEAD_CHUNK", 4)
    monkeypatch.setattr(validating, "AHEAD_CHUNKS", 2)
    monkeypatch.setattr(validating, "AHEAD_AFTER", 8)
    monkeypatch.setattr(validating, "ProcessPoolExecutor", CountingPool)
    CountingPool.made = 0


def _upload() -> bytes:
    """Valid records, refused ones (an illegal move, a syntax error, a line that is not
    UTF-8), and duplicates of records earlier in the file (in another chunk)."""
    texts = good_texts(20)
    texts[5] = bad_record(1).text
    texts[11] = texts[11].replace("[Dealer \"", "[Dealer \"x", 1)
    texts[17] = texts[17].rstrip("\n") + " {NOT-UTF-8}\n"
    texts += [texts[2], texts[14]]
    # A byte that is no UTF-8, in a comment after record 17's last event.
    return fcn_file(texts).encode("utf-8").replace(b"NOT-UTF-8", b"caf\xe9")


def _outcome(report: ImportReport) -> tuple[Any, ...]:
    results = [(r.index, r.line, r.status.value, r.error) for r in report.results]
    games = sorted(Game.objects.values_list("content_hash", "original_text", "outcome",
                                             "points", "event_count"))
    seats = sorted(GameSeat.objects.values_list("game__content_hash", "seat", "player__name",
                                                "delta", "won"))
    counts = (report.total, report.stored, report.duplicates, report.refused)
    return counts, results, games, seats


def _import(data: bytes, **options: Any) -> tuple[Any, ...]:
    Game.objects.all().delete()
    report = import_records(data, None, announce=False, **options)
    return _outcome(report)


def test_it_gives_what_one_process_gives() -> None:
    data = _upload()
    here = _import(data)
    assert CountingPool.made == 0
    ahead = _import(data, ahead=True)
    assert CountingPool.made == (1 if FORKS else 0)
    assert ahead == here
    counts = here[0]
    assert counts == (22, 17, 2, 3)  # 20 records + 2 repeats; 3 refused


def test_it_gives_what_one_process_gives_for_texts() -> None:
    """`import_texts` (an NDJSON export's originals, a JSON upload): one record a text."""
    texts = good_texts(14) + [bad_record(2).text, "[Ruleset \"nope\"]\n"] + good_texts(3)
    outcomes = []
    for ahead in (False, True):
        Game.objects.all().delete()
        outcomes.append(_outcome(import_texts(texts, None, announce=False, ahead=ahead)))
    assert outcomes[1] == outcomes[0]
    assert outcomes[0][0] == (19, 14, 3, 2)
    assert CountingPool.made == (1 if FORKS else 0)


def test_it_keeps_the_records_limit_and_start_at() -> None:
    data = _upload()
    here = _import(data, max_records=15, start_at=3)
    ahead = _import(data, max_records=15, start_at=3, ahead=True)
    assert ahead == here
    statuses = [status for _, _, status, _ in here[1]]
    assert len(statuses) == 13 and statuses[-1] == "refused"  # records 3-14 and the 16th


def test_it_does_not_fork_for_a_small_import() -> None:
    _import(fcn_file(good_texts(7)).encode("utf-8"), ahead=True)
    assert CountingPool.made == 0
    assert Game.objects.count() == 7


def test_it_does_not_fork_inside_a_transaction() -> None:
    with transaction.atomic():
        report = import_records(fcn_file(good_texts(12)).encode("utf-8"), None,
                                announce=False, ahead=True)
    assert CountingPool.made == 0
    assert report.stored == 12


IMPORTING_PROCESS = os.getpid()


def dying_chunk(texts: list[fourcolor.RecordText]) -> list[Any]:
    """In the forked process: die as a killed process would, on the second chunk (here, in
    the importing process validating what the dead one left, validate)."""
    if os.getpid() != IMPORTING_PROCESS and texts and texts[0].index >= 4:
        os._exit(9)
    return [validating.validate_record(rt, None) for rt in texts]


def test_it_validates_here_when_the_validating_process_dies(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    data = _upload()
    here = _import(data)
    monkeypatch.setattr(validating, "_validate_chunk", dying_chunk)
    ahead = _import(data, ahead=True)
    assert ahead == here
    if FORKS:
        assert "the validating process ended" in caplog.text


@pytest.mark.skipif(not FORKS, reason="forking needs a database that is not in memory")
def test_it_opens_a_new_connection_after_the_fork() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (before,) = cursor.fetchone()
    _import(_upload(), ahead=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (after,) = cursor.fetchone()
    assert after != before  # the child never held the parent's socket


def _alive(pid: int) -> bool:
    """Whether process `pid` still runs (a zombie waiting for init to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads processes from /proc")
def test_the_validating_process_ends_when_the_importing_one_is_killed(tmp_path: Any) -> None:
    """A killed import (SIGKILL: no `finally` runs) must not leave its validating process
    behind, waiting for work forever."""
    script = (
        "import multiprocessing, os, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "import django; django.setup()\n"
        "from records.services import validating\n"
        "pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context('fork'),\n"
        "    initializer=validating._child_started, initargs=(os.getpid(),))\n"
        "print(pool.submit(os.getpid).result(), flush=True)\n"
        "time.sleep(60)\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    importer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                text=True, env=env, cwd=settings.BASE_DIR)
    try:
        child = int(importer.stdout.readline())  # type: ignore[union-attr]
        assert _alive(child)
    finally:
        importer.kill()
        importer.wait()
    deadline = time.monotonic() + 10 * validating.PARENT_CHECK_SECONDS
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)
