"""Running one function over pieces of work in forked processes (`import_games --jobs N`,
`seed_demo --jobs N`), each child with its own database connection. When the database cannot
be shared between processes (SQLite in memory, or inside a transaction) the pieces run here,
one after another, with the same results.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from django.db import connection, connections

T = TypeVar("T")
R = TypeVar("R")


def split_range(start: int, stop: int, parts: int) -> list[range]:
    """`range(start, stop)` cut into at most `parts` contiguous ranges of near-equal length
    (the longer first), none empty."""
    count = max(stop - start, 0)
    parts = max(1, min(parts, count))
    size, extra = divmod(count, parts)
    ranges = []
    for number in range(parts):
        length = size + (1 if number < extra else 0)
        if length:
            ranges.append(range(start, start + length))
        start += length
    return ranges


def database_shared() -> bool:
    """Whether other processes would see this process's database as it stands: not for
    in-memory SQLite, nor inside a transaction (its uncommitted rows are this process's alone,
    and closing the connection for a fork would end it)."""
    if any(connections[alias].in_atomic_block for alias in connections):
        return False
    if connection.vendor != "sqlite":
        return True
    return not connection.is_in_memory_db()


def in_processes(func: Callable[[T], R], items: Sequence[T], processes: int) -> Iterator[R]:
    """`func(item)` for every item, in order, over `processes` forked processes (each item in
    one child; `func` must be a module-level function and items and results picklable). Runs
    here when `processes` is 1 or less, there is at most one item, or the database is not
    shared. An exception in a child is raised here; the other children are then stopped."""
    if processes <= 1 or len(items) <= 1 or not database_shared():
        for item in items:
            yield func(item)
        return
    connections.close_all()
    context = multiprocessing.get_context("fork")
    with context.Pool(min(processes, len(items)), initializer=forget_connections) as pool:
        yield from pool.imap(func, items, chunksize=1)


def forget_connections() -> None:
    """In a forked child: the parent closed its connections before the fork; make sure none
    is reused as is (nor closed at exit on the parent's behalf)."""
    for alias in connections:
        connections[alias].connection = None
