"""(a) The engine on its own: `iter_records` splits each hostile input into the manifest's
records and `check_record` gives each its verdict; the `fourcolor validate` command says the
same from a file. No exception escapes, nothing hangs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import fourcolor
from fourcolor.__main__ import main

from .checks import Verdict, deadline
from .corpus import Case, params


def engine_view(case: Case) -> list[Verdict]:
    """The manifest in the engine's terms: a duplicate is a valid record, and storage limits
    are the archive's, not the engine's."""
    wanted = []
    for record in case.engine_records or case.records:
        if record.status != "refused" or case.engine_valid:
            wanted.append(Verdict("stored"))
        else:
            wanted.append(Verdict("refused", record.line, record.col, record.ply,
                                  record.category))
    return wanted


def decoded(data: bytes) -> str | None:
    """The input as text, or None when it is not UTF-8 (a BOM is the encoding's, not text's)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("case", params())
def test_it_splits_and_checks_every_record_as_the_manifest_says(case: Case) -> None:
    data = case.data()
    with deadline(case.seconds):
        text = decoded(data)
        if text is None:
            # The engine reads text: undecodable bytes never reach it; the doors refuse them
            # as category encoding, which the manifest must say too.
            assert any(r.category == "encoding" for r in case.records)
            return
        verdicts = []
        for rt in fourcolor.iter_records(io.StringIO(text, newline="")):
            check = fourcolor.check_record(rt.text, rt.line, oversize=rt.oversize)
            error = check.error
            if error is None:
                assert check.game is not None
                verdicts.append(Verdict("stored"))
            else:
                verdicts.append(Verdict("refused", error.line, error.col, error.ply,
                                        error.category, error.message))
    want = engine_view(case)
    assert [v.status for v in verdicts] == [w.status for w in want]
    for got, expected in zip(verdicts, want, strict=True):
        if expected.status == "refused":
            assert (got.line, got.col, got.ply, got.category) == (
                expected.line, expected.col, expected.ply, expected.category)
            assert got.message


@pytest.mark.parametrize("case", params())
def test_it_validates_every_file_from_the_command_line(
    case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "input.fcn"
    path.write_bytes(case.data())
    with deadline(case.seconds):
        status = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if decoded(case.data()) is None:
        assert status == 2 and "not UTF-8 text" in err
        return
    refusals = [w for w in engine_view(case) if w.status == "refused"]
    assert status == (1 if refusals else 0), out + err
    lines = out.splitlines()
    assert [line.split(": ", 2)[:2] for line in lines] == [
        [f"{path}:{w.line}:{w.col}", f"error[{w.category}]"] for w in refusals
    ]
