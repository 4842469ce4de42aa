"""How long the long sweeps run: their CI size unless TEST_SIZE=full.

    TEST_SIZE=full make test    # every sweep at its full size (by hand, after a rules change)

A sweep's two sizes stand at the sweep, `sweep(full=2016, ci=504)`, so that a reader sees both.
The CI size still covers every case of the sweep; the full size adds more of the same.
"""

from __future__ import annotations

import os

SIZES = ("ci", "full")
SIZE = os.environ.get("TEST_SIZE") or "ci"
if SIZE not in SIZES:
    raise ValueError(f"TEST_SIZE={SIZE!r}: expected one of {', '.join(SIZES)}")


def sweep(*, full: int, ci: int) -> int:
    """The size of a sweep in this run."""
    return full if SIZE == "full" else ci
