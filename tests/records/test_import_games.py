"""manage.py import_games: files in, a summary out with every refusal as FILE:LINE:COL."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from records.models import Game
from tests.records.conftest import bad_record, fcn_file, first_line_of, good_texts

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_games", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_it_imports_files_and_lists_each_refusal_as_file_line_col(tmp_path: Path) -> None:
    bad = bad_record()
    texts = good_texts(3, start=30)
    texts.insert(1, bad.text)
    first = tmp_path / "first.fcn"
    first.write_text(fcn_file(texts), encoding="utf-8", newline="")
    second = tmp_path / "second.fcn"
    second.write_text(fcn_file(good_texts(2, start=30)), encoding="utf-8", newline="")
    out = _run(str(first), str(second))
    line = first_line_of(texts, 1) + bad.line_offset
    assert f'{first}:{line}:1: error[not-in-hand]: {bad.message} (ply 1: "{bad.event}")' in out
    assert f"{first}: 3 stored, 0 duplicates, 1 refused" in out
    assert f"{second}: 0 stored, 2 duplicates, 0 refused" in out
    assert "all files: 3 stored, 2 duplicates, 1 refused" in out
    assert Game.objects.count() == 3


def test_it_records_the_uploader_named_by_user(tmp_path: Path) -> None:
    user = get_user_model().objects.create_user("mai", password="pw-for-tests-only")
    path = tmp_path / "g.fcn"
    path.write_text(good_texts(1, start=40)[0], encoding="utf-8")
    _run(str(path), "--user", "mai")
    assert Game.objects.get().uploaded_by == user


def test_it_stops_with_a_clear_error_for_a_missing_file_or_user(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file"):
        _run(str(tmp_path / "nope.fcn"))
    path = tmp_path / "g.fcn"
    path.write_text(good_texts(1)[0], encoding="utf-8")
    with pytest.raises(CommandError, match="no user named 'ghost'"):
        _run(str(path), "--user", "ghost")
    assert not Game.objects.exists()


def test_it_reports_bad_utf8_in_a_file_as_a_refusal(tmp_path: Path) -> None:
    path = tmp_path / "latin1.fcn"
    text = good_texts(1, start=41)[0].replace("East", "Zoë")
    path.write_bytes(text.encode("latin-1"))
    out = _run(str(path))
    assert f"{path}:2:" in out or f"{path}:3:" in out  # the Seat line with the ë
    assert "error[encoding]: invalid UTF-8: byte 0xEB" in out
    assert "0 stored, 0 duplicates, 1 refused" in out
