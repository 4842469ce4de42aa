"""The tests' per-process cache (tests/conftest.py): Django's, with the site's request counters
(common.rates) counted under a lock of this process."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.cache.backends.locmem import LocMemCache

from common.cache import count_locally, uncount_locally


class CountingLocMemCache(LocMemCache):
    def count_hits(self, windows: Sequence[tuple[str, int]], now: float,
                   cost: int = 1) -> list[tuple[int, float]]:
        return count_locally(self, windows, now, cost)

    def uncount_hits(self, names: Sequence[str], now: float, cost: int = 1) -> None:
        uncount_locally(self, names, now, cost)
