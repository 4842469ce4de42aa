"""Database faults during an import (injected, on either database): a lost connection is
retried on a new one; one that stays lost stops the import with a verdict for every record not
stored and the index to resume from; no record is ever half stored or stored twice.

The real thing (a PostgreSQL server restarted mid-import) is scripts/fault_db_restart.py."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import InterfaceError, OperationalError, transaction

from records.services import importing, storing
from records.models import Game, GameSeat
from records.services import ImportReport, import_records
from tests.records.conftest import bad_record, fcn_file, good_texts

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Batches of 3 records; the retry pauses are recorded, not slept."""
    pauses: list[float] = []
    monkeypatch.setattr(importing, "BATCH_RECORDS", 3)
    monkeypatch.setattr(importing, "BATCH_SECONDS", 3600.0)
    monkeypatch.setattr(storing, "DB_RETRY_DELAYS", (0.5, 1.0))
    monkeypatch.setattr(storing.time, "sleep", pauses.append)
    return pauses


def _fail(
    monkeypatch: pytest.MonkeyPatch, name: str, calls: Callable[[int], bool],
    error: type[Exception] = OperationalError, after: bool = False,
) -> None:
    """Make storing.<name> raise `error` on the calls for which `calls(n)` is true (before it
    runs, or after it returned with `after`)."""
    original = getattr(storing, name)
    count = {"n": 0}

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        count["n"] += 1
        if calls(count["n"]) and not after:
            raise error("server closed the connection unexpectedly")
        result = original(*args, **kwargs)
        if calls(count["n"]):
            raise error("server closed the connection unexpectedly")
        return result

    monkeypatch.setattr(storing, name, wrapper)


def _stored_once_and_whole(report: ImportReport, texts: list[str]) -> None:
    assert Game.objects.count() == len(set(Game.objects.values_list("content_hash", flat=True)))
    assert GameSeat.objects.count() == sum(Game.objects.values_list("players", flat=True))
    ids = [r.game_id for r in report.results if r.status == "stored"]
    assert len(ids) == len(set(ids)) and Game.objects.filter(pk__in=ids).count() == len(ids)


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_it_retries_a_batch_whose_connection_was_lost(
    monkeypatch: pytest.MonkeyPatch, fast: list[float], error: type[Exception]
) -> None:
    texts = good_texts(7, start=1200)
    _fail(monkeypatch, "_insert", lambda n: n == 2, error)
    report = import_records(fcn_file(texts))
    assert (report.stored, report.unavailable, report.stopped) == (7, 0, "")
    assert fast == [0.5]
    assert Game.objects.count() == 7
    _stored_once_and_whole(report, texts)


def test_it_knows_its_own_games_when_the_commit_answer_was_lost(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = good_texts(7, start=1210)
    _fail(monkeypatch, "_store_records", lambda n: n == 2, after=True)
    report = import_records(fcn_file(texts))
    assert [r.status for r in report.results] == ["stored"] * 7
    assert Game.objects.count() == 7
    _stored_once_and_whole(report, texts)


def test_it_stops_reports_what_was_not_stored_and_resumes(
    monkeypatch: pytest.MonkeyPatch, fast: list[float]
) -> None:
    texts = good_texts(8, start=1220)
    texts.insert(4, bad_record().text)
    seen: list[int] = []
    with monkeypatch.context() as patch:
        _fail(patch, "_insert", lambda n: n >= 2)
        report = import_records(fcn_file(texts), progress=lambda r: seen.append(r.next_index))
    assert fast == [0.5, 1.0]
    # What users see says what happened, not the database's own words (they may name hosts
    # and ports); those are in `cause`, for the log and the operator's command line.
    assert report.stopped == "database unavailable"
    assert report.cause.startswith("server closed the connection")
    assert "server closed" not in str(report.as_dict())
    assert (report.stored, report.refused, report.unavailable) == (3, 1, 5)
    assert report.next_index == 3 and seen == [3, 3]
    statuses = [r.status for r in report.results]
    assert statuses == ["stored"] * 3 + ["unavailable", "refused"] + ["unavailable"] * 4
    error = report.results[3].error
    assert error is not None and error["category"] == "unavailable"
    assert error["message"] == "not stored: database unavailable (resume at record 4)"
    assert Game.objects.count() == 3
    _stored_once_and_whole(report, texts)

    rest = import_records(fcn_file(texts), start_at=report.next_index)
    assert (rest.stored, rest.refused, rest.unavailable, rest.duplicates) == (5, 1, 0, 0)
    assert Game.objects.count() == 8
    _stored_once_and_whole(rest, texts)


def test_it_leaves_a_lost_connection_to_the_callers_transaction(
    monkeypatch: pytest.MonkeyPatch, fast: list[float]
) -> None:
    _fail(monkeypatch, "_insert", lambda n: True)
    with pytest.raises(OperationalError), transaction.atomic():
        import_records(fcn_file(good_texts(2, start=1240)))
    assert fast == [] and not Game.objects.exists()


def test_it_tells_how_to_resume_the_import_games_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    texts = good_texts(7, start=1250)
    path = tmp_path / "club.fcn"
    path.write_text(fcn_file(texts), encoding="utf-8")
    out = io.StringIO()
    with monkeypatch.context() as patch:
        _fail(patch, "_insert", lambda n: n >= 2)
        with pytest.raises(CommandError) as stopped:
            call_command("import_games", str(path), stdout=out, stderr=io.StringIO())
    assert f"{path}: 3 stored, 0 duplicates, 0 refused, 4 not stored (database unavailable)" in (
        out.getvalue()
    )
    message = str(stopped.value)
    # One number, the first record not stored, for the words and the command alike: following
    # either resumes at the right record (an outage once printed "record 4" beside
    # "--start-at 3", and whoever followed the words skipped a record).
    assert "4 records from record 4 on were not stored" in message
    assert f"Resume with: manage.py import_games --start-at 4 {path}" in message
    assert set(re.findall(r"\d+", message.replace(str(path), ""))) == {"4"}
    assert "server closed the connection" in message  # the operator sees the database's words
    out = io.StringIO()
    call_command("import_games", "--start-at", "4", str(path), stdout=out, stderr=io.StringIO())
    assert f"{path}: 4 stored, 0 duplicates, 0 refused" in out.getvalue()
    assert Game.objects.count() == 7


@pytest.mark.parametrize("value", ["0", "-1"])
def test_it_refuses_a_start_before_the_first_record(tmp_path: Path, value: str) -> None:
    path = tmp_path / "club.fcn"
    path.write_text(fcn_file(good_texts(1, start=1250)), encoding="utf-8")
    with pytest.raises(CommandError, match="--start-at: the number of a record, 1 or more"):
        call_command("import_games", "--start-at", value, str(path), stdout=io.StringIO())
