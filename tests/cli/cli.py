"""Types shared by the command-line tests and their fixtures (tests/cli/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Run:
    """One run of `fourcolor`: its exit status and what it wrote."""

    status: int
    out: str
    err: str


Runner = Callable[..., Run]
Writer = Callable[[str, "str | bytes"], str]
