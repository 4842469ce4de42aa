"""Errors of the `fourcolor` command: one line on standard error, a non-zero exit status, never
a traceback; also through the real console script and `python -m fourcolor`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.notation.fcn import fcn

from .cli import Runner, Writer

VALID = fcn("1x yE 2w yE yK yA", result="2:9")


def assert_one_error_line(result: object, status: int = 2) -> str:
    assert result.status == status, result  # type: ignore[attr-defined]
    err: str = result.err  # type: ignore[attr-defined]
    assert err.count("\n") == 1 and err.startswith("fourcolor: error: "), err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    "args",
    [
        ("validate", "{missing}"),
        ("replay", "{missing}", "--ply", "0"),
        ("convert", "{missing}", "--to", "json"),
        ("review", "{missing}"),
    ],
    ids=["validate", "replay", "convert", "review"],
)
def test_it_reports_a_missing_file(run: Runner, tmp_path: Path, args: tuple[str, ...]) -> None:
    missing = str(tmp_path / "nowhere.fcn")
    err = assert_one_error_line(run(*(a.format(missing=missing) for a in args)))
    assert err == f"fourcolor: error: {missing}: No such file or directory\n"


@pytest.mark.parametrize(
    "args",
    [("validate", "{path}"), ("convert", "{path}", "--to", "fcn"), ("review", "{path}")],
    ids=["validate", "convert", "review"],
)
def test_it_reports_a_file_that_is_not_utf8(
    run: Runner, write: Writer, args: tuple[str, ...]
) -> None:
    path = write("latin1.fcn", VALID.replace("Ann", "Zoë").encode("latin-1"))
    err = assert_one_error_line(run(*(a.format(path=path) for a in args)))
    assert (
        err == f"fourcolor: error: {path}: not UTF-8 text (invalid continuation byte at byte 30)\n"
    )


def test_it_reports_a_bad_ply(run: Runner, write: Writer) -> None:
    err = assert_one_error_line(run("replay", write("v.fcn", VALID), "--ply", "99"))
    assert err == "fourcolor: error: ply must be between 0 and 2, not 99\n"


def test_it_reports_an_unknown_ruleset_to_generate(run: Runner) -> None:
    err = assert_one_error_line(
        run("generate", "--ruleset", "house", "--players", "2", "--seed", "1")
    )
    assert err == "fourcolor: error: unknown ruleset 'house'\n"


def test_it_reports_an_unknown_ruleset_in_a_batch_line(run: Runner) -> None:
    result = run("score", "--batch", stdin='{"ruleset": "house", "cards": []}\n')
    assert (result.status, result.out) == (1, '{"error": "line 1: unknown ruleset \'house\'"}\n')


def test_it_reports_an_unknown_ruleset_to_score_in_one_line(run: Runner) -> None:
    assert_one_error_line(run("score", "--ruleset", "house", "rK"))


def test_it_refuses_a_bad_count(run: Runner) -> None:
    args = ("generate", "--ruleset", "classic", "--players", "2", "--seed", "1", "--count", "-1")
    assert assert_one_error_line(run(*args)) == (
        "fourcolor: error: --count must be between 0 and 1000000\n"
    )


def test_it_reports_a_record_index_out_of_range(run: Runner, write: Writer) -> None:
    path = write("v.fcn", VALID)
    err = assert_one_error_line(run("replay", path, "--index", "3", "--ply", "0"))
    assert err == f"fourcolor: error: {path}: there is no record 3\n"


def test_it_reports_an_oversize_record_to_replay(run: Runner, write: Writer) -> None:
    big = fcn("1x yE\n" + ("{" + "x" * 1000 + "}\n") * 300)
    err = assert_one_error_line(run("replay", write("big.fcn", big), "--ply", "0"))
    assert err.endswith("record 0 is too large\n")


ROOT = Path(__file__).resolve().parents[2]


def console(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fourcolor", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_it_runs_as_python_m_fourcolor(tmp_path: Path) -> None:
    good = tmp_path / "good.fcn"
    good.write_text(VALID, encoding="utf-8")
    assert console("validate", str(good)).returncode == 0
    bad = console("validate", "-", stdin=fcn("1x yK"))
    assert (bad.returncode, bad.stderr) == (1, "")
    assert bad.stdout == '-:10:1: error[not-in-hand]: seat 1 does not hold yK (ply 1: "1x yK")\n'


def test_it_never_prints_a_traceback_from_the_console_script(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("fourcolor")
    if not script.exists():
        pytest.skip("the console script is not installed in this environment")
    raw = tmp_path / "raw.fcn"
    raw.write_bytes(b"\xff\xfe[bad")
    result = subprocess.run(
        [str(script), "review", str(raw)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    version = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert version.stdout.strip().startswith("fourcolor ")
