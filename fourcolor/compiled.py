"""The compiled engine: the reviewer's hot modules (`MODULES`) built by mypyc into `_compiled/`
beside them (scripts/build_native.py, which `make install` runs when mypy and a C compiler are
there). They are used only when they were built from the package's sources as they are now, by
this Python, and FOURCOLOR_PURE is unset: an edited source, another interpreter or no build at
all means the pure-Python modules, which give the same results (docs/performance.md).

Compiled code checks every annotation at run time and is fast where the types are exact: the
hot functions take a hand's counts as `list[int]`, not any sequence (a list's items are read
directly, not through the sequence protocol).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
import os
import sys
from pathlib import Path

MODULES = ("split", "hands", "playout", "inference", "claims", "moves", "melds")
FOLDER = "_compiled"
STAMP = "SOURCES"


def digest(package: Path) -> str:
    """A hash of every Python source of the package and of the interpreter's version: what a
    build is valid for (compiled code reads the other modules' types and constants)."""
    h = hashlib.sha256(sys.version.encode())
    for path in sorted(package.rglob("*.py")):
        if FOLDER not in path.parts:
            h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def use(path: MutableSequence[str], package: Path = Path(__file__).parent) -> bool:
    """Put the compiled modules ahead of the sources on the package's `path` (`__path__`) when
    they are valid (module docstring); whether they are."""
    try:
        stamp = (package / FOLDER / STAMP).read_text()
    except OSError:
        return False
    if os.environ.get("FOURCOLOR_PURE") or stamp != digest(package):
        return False
    path.insert(0, str(package / FOLDER))
    return True


# Imported first by the package's __init__, before any module of `MODULES`.
ACTIVE = use(sys.modules[__package__].__path__)
