"""Calls raced against each other on PostgreSQL: each in its own thread, all released at once
(a barrier), each on its own database connection, closed after it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.db import connection

T = TypeVar("T")


def race(*calls: Callable[[], T]) -> tuple[list[T], list[BaseException]]:
    """What the calls returned (in the order they finished) and what they raised: a test
    reports an exception rather than losing it in a thread."""
    barrier = threading.Barrier(len(calls))
    answers: list[T] = []
    errors: list[BaseException] = []

    def run(call: Callable[[], T]) -> None:
        try:
            barrier.wait(timeout=30)
            answers.append(call())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers, errors
