"""A parallel import (records.chunked, `import_games --jobs N`) gives every record the verdict
a serial import gives it and stores the same rows: the file cut into chunks at record
boundaries whatever its layout, duplicates across chunks stored once and reported in file
order. Runs on SQLite (chunks one after another in this process: an in-memory database is not
shared) and on PostgreSQL (forked processes)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st
from django.db import connection

import fourcolor
from records import chunked
from records.models import Game, GameSeat
from records.parallel import split_range
from records.services import ImportReport, import_records
from records.services import reading
from records.services.reading import DecodedLines
from tests.records.conftest import bad_record, good_texts


def awkward_file() -> bytes:
    """Valid rounds in several layouts (CRLF, bare CR, comments between records, a BOM,
    blank lines), two records repeated in another chunk, an illegal one and bad UTF-8: 12
    records (the comment belongs to the record before it)."""
    texts = good_texts(9, start=500)
    parts = [texts[0], texts[1].replace("\n", "\r\n"), texts[2],
             "{ a comment between records }\n", texts[3].replace("\n", "\r"), texts[4],
             bad_record(1).text, texts[5], texts[6].replace("East", "Zo\udceb"), texts[7],
             texts[0], texts[8], texts[1].replace("\n", "\r\n")]
    data = "\n\n".join(parts).encode("utf-8", "surrogateescape")
    return b"\xef\xbb\xbf" + data


def _pieces(data: bytes, size: int = 997) -> list[bytes]:
    return [data[i:i + size] for i in range(0, len(data), size)]


def _rows() -> list[tuple[Any, ...]]:
    games = Game.objects.values_list("content_hash", "original_text", "canonical_text",
                                     "players", "ruleset")
    seats = GameSeat.objects.values_list("game__content_hash", "seat", "player__name", "points")
    return sorted(games) + sorted(seats)


def _verdicts(report: ImportReport) -> list[tuple[Any, ...]]:
    hashes = dict(Game.objects.values_list("pk", "content_hash"))
    return [(r.index, r.line, r.status, hashes.get(r.game_id), r.error) for r in report.results]


def _serial(data: bytes) -> tuple[ImportReport, list[tuple[Any, ...]]]:
    report = import_records(data)
    return report, _verdicts(report)


PIECES = st.lists(st.sampled_from(
    ['[Event "x"]\n', '[Seat "陳"]\r\n', "1x rA\n", "2d", "\n", "\r\n", "\r", "{", "}", "é",
     " ", "\ufeff"]), max_size=80)


def _records(data: bytes, first_line: int = 1) -> list[tuple[int, str]]:
    """The records of `data` (a piece of a file starting at line `first_line`) with the whole
    file's line numbers, as import_records(first_line=) numbers them."""
    return [(r.line + first_line - 1, r.text)
            for r in fourcolor.iter_records(DecodedLines(data, first_line))]


@settings(max_examples=300)
@given(PIECES, st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=50))
def test_each_chunk_read_alone_holds_the_whole_files_records(
        pieces: list[str], parts: int, size: int) -> None:
    """Whatever the layout and the pieces the bytes come in: a chunk's bytes, read from its
    first line on, give exactly the whole file's records of its range, lines and texts."""
    data = "".join(pieces).encode("utf-8")
    whole = _records(data)
    count, plan = chunked.plan_chunks(_pieces(data, size), parts)
    assert count == len(whole)
    got = []
    for chunk in plan:
        alone = _records(data[chunk.start_byte:chunk.stop_byte], chunk.first_line)
        assert alone[:1] == whole[chunk.first_index:chunk.first_index + 1]
        got += alone
    assert got == whole


def test_it_keeps_line_offsets_over_an_over_long_line() -> None:
    long = b"{" + b"x" * (5 * reading._LINE_CAP_BYTES) + b"}\r"
    data = b"[A]\n1x rA\n" + long + b"\r\n[B]\n2d\n"
    offsets: list[int] = []
    lines = list(reading.split_lines(_pieces(data, 4096), offsets))
    assert len(lines) == 6 and offsets[-2] == data.index(b"[B]")
    assert offsets == [0, 4, 10, 10 + len(long), data.index(b"[B]"), data.index(b"2d")]


def test_it_cuts_a_range_into_near_equal_contiguous_parts() -> None:
    assert split_range(0, 10, 3) == [range(0, 4), range(4, 7), range(7, 10)]
    assert split_range(5, 7, 4) == [range(5, 6), range(6, 7)]
    assert split_range(3, 3, 2) == []


@pytest.mark.parametrize("parts", [1, 2, 3, 5, 13])
def test_it_plans_chunks_at_the_records_first_lines_and_bytes(parts: int) -> None:
    data = awkward_file()
    count, plan = chunked.plan_chunks(_pieces(data), parts)
    assert count == 12 and len(plan) == min(parts, 12)
    assert plan[0].start_byte == 0 and plan[-1].stop_byte is None
    for before, after in zip(plan, plan[1:], strict=False):
        assert before.stop_index == after.first_index and before.stop_byte == after.start_byte
        # A chunk starts at its first record's tag line, whose number it knows.
        assert data[after.start_byte:after.start_byte + 1] == b"["
        assert data[:after.start_byte].count(b"\n") + data[:after.start_byte].replace(
            b"\r\n", b"").count(b"\r") + 1 == after.first_line


@pytest.mark.django_db
@pytest.mark.parametrize("parts", [2, 4, 13])
def test_it_gives_the_verdicts_and_rows_of_a_serial_import_in_any_chunk_order(
        parts: int) -> None:
    data = awkward_file()
    serial, serial_verdicts = _serial(data)
    serial_rows = _rows()
    assert (serial.stored, serial.duplicates, serial.refused) == (8, 2, 2)
    Game.objects.all().delete()

    _, plan = chunked.plan_chunks(_pieces(data), parts)
    # The last chunk first: the records it repeats from the first chunk are stored by it, and
    # the report still calls the file's first occurrence the stored one.
    results = [chunked.import_chunk(chunked.cut(_pieces(data), c.start_byte, c.stop_byte), c)
               for c in reversed(plan)]
    report, stored = chunked.merge_chunks(results)

    assert _rows() == serial_rows
    assert _verdicts(report) == serial_verdicts
    assert [(r.index, r.status) for r in report.problems] == [
        (r.index, r.status) for r in serial.problems]
    assert (report.stored, report.duplicates, report.refused, report.next_index) == (
        serial.stored, serial.duplicates, serial.refused, serial.next_index)
    assert (report.results_omitted, report.problems_omitted) == (0, 0)
    assert sorted(stored) == sorted(Game.objects.values_list("pk", flat=True))


@pytest.mark.django_db
def test_it_stops_at_the_upload_limit_as_a_serial_import_does() -> None:
    data = awkward_file()
    serial = import_records(data, max_records=7)
    serial_verdicts = _verdicts(serial)
    Game.objects.all().delete()
    count, plan = chunked.plan_chunks(_pieces(data), 3, max_records=7)
    assert count == 8 and plan[-1].stop_index is None
    results = [chunked.import_chunk(chunked.cut(_pieces(data), c.start_byte, c.stop_byte), c,
                                    max_records=7) for c in plan]
    report, _ = chunked.merge_chunks(results)
    assert _verdicts(report) == serial_verdicts
    assert report.stopped == serial.stopped and report.limit_refusal == serial.limit_refusal


def _command(*args: str) -> str:
    out = io.StringIO()
    call_command("import_games", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file of a dozen records is cut into chunks of one record and more (the command
    leaves a file under 2 x CHUNK_RECORDS in one process)."""
    from records.management.commands import import_games

    monkeypatch.setattr(import_games, "CHUNK_RECORDS", 1)


@pytest.mark.django_db(transaction=True)
def test_import_games_jobs_stores_what_a_serial_import_stores(tmp_path: Path,
                                                              small_chunks: None) -> None:
    path = tmp_path / "awkward.fcn"
    path.write_bytes(awkward_file())
    serial_out = _command(str(path), "--jobs", "1")
    serial_rows = _rows()
    Game.objects.all().delete()

    parallel_out = _command(str(path), "--jobs", "3")

    assert _rows() == serial_rows
    # The same lines: every refusal as FILE:LINE:COL, the duplicates and the summary.
    assert [line for line in parallel_out.splitlines() if "duplicate of game" not in line] == [
        line for line in serial_out.splitlines() if "duplicate of game" not in line]
    assert f"{path}: 8 stored, 2 duplicates, 2 refused" in parallel_out
    if connection.vendor == "postgresql":
        assert parallel_out.count("duplicate of game") == 2


@pytest.mark.django_db(transaction=True)
def test_import_games_jobs_starts_at_the_record_it_is_told(tmp_path: Path,
                                                          small_chunks: None) -> None:
    path = tmp_path / "awkward.fcn"
    path.write_bytes(awkward_file())
    serial_out = _command(str(path), "--start-at", "6", "--jobs", "1")
    serial_rows = _rows()
    Game.objects.all().delete()

    parallel_out = _command(str(path), "--start-at", "6", "--jobs", "2")

    assert _rows() == serial_rows
    assert f"{path}: 5 stored, 0 duplicates, 2 refused" in parallel_out
    assert parallel_out.splitlines()[-1] == serial_out.splitlines()[-1]


@pytest.mark.django_db
def test_a_redone_chunks_records_stored_by_its_killed_run_are_reported_stored() -> None:
    data = awkward_file()
    serial, serial_verdicts = _serial(data)
    Game.objects.all().delete()
    _, plan = chunked.plan_chunks(_pieces(data), 2)
    parts = [chunked.cut(_pieces(data), c.start_byte, c.stop_byte) for c in plan]
    chunked.import_chunk(parts[0], plan[0])  # the run killed before it reported anything
    redone = chunked.import_chunk(chunked.cut(_pieces(data), plan[0].start_byte,
                                              plan[0].stop_byte), plan[0])
    assert redone.report.stored == 0  # it finds every record of its range already stored
    results = [redone, chunked.import_chunk(parts[1], plan[1])]

    report, stored = chunked.merge_chunks(results, stored_by_upload=lambda games: games)

    assert _verdicts(report) == serial_verdicts
    assert (report.stored, report.duplicates) == (serial.stored, serial.duplicates)
    assert sorted(stored) == sorted(Game.objects.values_list("pk", flat=True))
    unaware, _ = chunked.merge_chunks(results)  # without knowing: duplicates of themselves
    assert unaware.stored < serial.stored and unaware.total == serial.total
