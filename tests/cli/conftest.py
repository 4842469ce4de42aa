"""Running the `fourcolor` command in-process: `run(*args, stdin=...)` gives the exit status,
standard output and standard error, as a user at a terminal would see them."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from fourcolor.__main__ import main

from .cli import Run, Runner, Writer


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Runner:
    def runner(*args: str, stdin: str | None = None) -> Run:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        try:
            status = main(list(args))
        except SystemExit as exit_:  # argparse's own usage errors
            status = int(exit_.code or 0)
        captured = capsys.readouterr()
        return Run(status, captured.out, captured.err)

    return runner


@pytest.fixture
def write(tmp_path: Path) -> Writer:
    """Write a file under a temporary directory and give its path as a string."""

    def writer(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
        return str(path)

    return writer
