"""The engine's verdict on each record of an import: here, one record after another, or ahead
in a forked process while this one stores the batches before them.

An import's time is about half validating (the engine's replay with the seats' facts, the
canonical text) and half storing (COPY, the batches' round trips, PostgreSQL's own work) and
counting (the statistics hook). One process does one after the other; with `ahead`, a second
process validates the next records meanwhile, so on two cores the import takes about the
longer of the two halves instead of their sum (docs/performance.md, "Import beside
`check_record`").

What the forked process does is the engine's work only: it gets record texts and sends back
verdicts (a `ValidRecord` with its derived rows, or a refusal), never touches the database,
and the verdicts are the ones `validate_record` gives here (tests/records/test_validating.py).
Everything else stays in the importing process, in file order: reading the input (and its
undecodable lines), `start_at`, the records limit, batching, storing, reporting. The forked
process ends with the import: shut down when the import ends or fails, and on its own within
half a second when the importing process is killed.

Validating ahead is not used (the records are validated here, with the same results) when:

- the import is small: the process is only forked once `AHEAD_AFTER` records were read;
- the process may not fork (a daemonic process, such as a Celery prefork worker's child);
- the database connections cannot be closed for the fork (inside a transaction, or SQLite in
  memory: closing would lose it). They are closed before forking so that the child holds no
  socket of the parent's; the next batch opens a new one.
"""

from __future__ import annotations

import collections
import itertools
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Union

from django.db import connections

import fourcolor

from records.parallel import database_shared, forget_connections
from records.services.derivation import storage_limits
from records.services.reading import BadLine, line_of, unencodable_error
from records.services.report import RecordResult, refused_result
from records.services.storing import ValidRecord

logger = logging.getLogger(__name__)

Verdict = Union[RecordResult, ValidRecord]

# Records sent to the forked process at a time (a storing batch's worth), and how many such
# chunks may wait there: enough for it to go on validating while this process stores a batch
# or runs the statistics hook (every 5,000 stored games), few enough that a stopped import has
# not validated far past where it stopped.
AHEAD_CHUNK = 250
AHEAD_CHUNKS = 8
# Records read before forking: a small upload is validated here (a fork costs ~10-50 ms).
AHEAD_AFTER = 2 * AHEAD_CHUNK
# How often the forked process looks whether the importing one is still there.
PARENT_CHECK_SECONDS = 0.5


def validate_record(rt: fourcolor.RecordText, bad: BadLine | None) -> Verdict:
    """The engine's verdict on one record: its refusal, or the record ready to be stored."""
    if bad is not None:
        return refused_result(rt.index, rt.line, bad.error, bad.text)
    unencodable = unencodable_error(rt.text, rt.line)
    if unencodable is not None:
        return refused_result(rt.index, rt.line, unencodable,
                              line_of(rt.text, rt.line, unencodable.line).encode(
                                  "utf-8", "replace").decode("utf-8"))
    # One replay of the round gives the verdict and the seats' facts.
    check = fourcolor.check_record(rt.text, rt.line, oversize=rt.oversize, facts=True)
    error = check.error if check.error is not None else storage_limits(check)
    if error is not None:
        seats = check.record.seats if check.record is not None else ()
        quote = line_of(rt.text, rt.line, error.line)
        return refused_result(rt.index, rt.line, error, quote, seats)
    return ValidRecord.of(check, rt.text, rt.index, rt.line)


# What `verdicts` is given: a record, its first undecodable line (None: none) and whether to
# validate it (False for the record past the records limit, which is refused unread).
Wanted = tuple[fourcolor.RecordText, BadLine | None, bool]


def verdicts(
    wanted: Iterator[Wanted], *, ahead: bool, validating: Callable[[], bool]
) -> Generator[tuple[fourcolor.RecordText, Verdict | None], None, None]:
    """Each of `wanted`'s records with its verdict, in order. `wanted` yields (record, bad line,
    validate?): a record not to be validated (the one past the records limit) comes out with
    None. Neither does any record once `validating()` turns false (the import stopped: the
    records after are reported, not validated).

    With `ahead`, records are validated in a forked process up to `AHEAD_CHUNKS` chunks ahead
    of the one being yielded (see the module's docstring for when it is not)."""
    if not ahead:
        yield from _here(wanted, validating)
        return
    first = list(itertools.islice(wanted, AHEAD_AFTER))
    if len(first) < AHEAD_AFTER or not _may_fork():  # a small upload, or no fork here
        yield from _here(itertools.chain(first, wanted), validating)
        return
    yield from _ahead(iter(first), wanted, validating)


def _here(
    wanted: Iterator[Wanted], validating: Callable[[], bool]
) -> Iterator[tuple[fourcolor.RecordText, Verdict | None]]:
    for rt, bad, validate in wanted:
        yield rt, validate_record(rt, bad) if validate and validating() else None


def _may_fork() -> bool:
    if multiprocessing.current_process().daemon:
        return False  # a daemonic process may not have children (Celery's prefork pool)
    # Closing the connections for the fork must lose nothing: no transaction, no in-memory
    # SQLite database.
    return "fork" in multiprocessing.get_all_start_methods() and database_shared()


def _ahead(
    first: Iterator[Wanted], rest: Iterator[Wanted], validating: Callable[[], bool]
) -> Iterator[tuple[fourcolor.RecordText, Verdict | None]]:
    """The records validated in one forked process, chunk by chunk, `AHEAD_CHUNKS` in flight.
    Should that process die (killed, out of memory), the chunks it held are validated here
    and so is the rest: the import goes on, one record after another."""
    # The child must not inherit a live connection (two processes on one socket); the
    # importing process opens a new one at its next query.
    connections.close_all()
    pool: ProcessPoolExecutor | None = ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("fork"), initializer=_child_started,
        initargs=(os.getpid(),),
    )
    sent: collections.deque[
        tuple[list[Wanted], list[fourcolor.RecordText], Future[list[Verdict]] | None]
    ] = collections.deque()
    source = itertools.chain(first, rest)
    try:
        while True:
            while len(sent) < AHEAD_CHUNKS and validating():
                chunk = list(itertools.islice(source, AHEAD_CHUNK))
                if not chunk:
                    break
                # Records with an undecodable line, or not to be validated, are decided here.
                texts = [rt for rt, bad, validate in chunk if validate and bad is None]
                pending = pool.submit(_validate_chunk, texts) if pool else None
                sent.append((chunk, texts, pending))
            if not sent:
                break
            chunk, texts, pending = sent.popleft()
            results = _results(pending)
            if results is None:  # validated here: the forked process ended (or was gone)
                if pool is not None:
                    logger.warning("the validating process ended; validating here instead")
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = None
                results = _validate_chunk(texts)
            done = iter(results)
            for rt, bad, validate in chunk:
                if validate and bad is None:
                    verdict: Verdict | None = next(done)
                elif validate:
                    verdict = validate_record(rt, bad)
                else:
                    verdict = None
                yield rt, verdict
        # Stopped (the database went away): what is left is passed on, not validated.
        for rt, _bad, _validate in source:
            yield rt, None
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _results(pending: Future[list[Verdict]] | None) -> list[Verdict] | None:
    """The forked process's verdicts of a chunk; None when it could not give them (it died,
    or had before the chunk was sent)."""
    if pending is None:
        return None
    try:
        return pending.result()
    except BrokenProcessPool:
        return None


def _validate_chunk(texts: list[fourcolor.RecordText]) -> list[Verdict]:
    """The verdicts of `texts`, in order (in the forked process; here when it is gone)."""
    return [validate_record(rt, None) for rt in texts]


def _child_started(parent: int) -> None:
    forget_connections()
    threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True).start()


def _end_with(parent: int) -> None:
    """End this process once `parent` has (killed, say: it cannot shut the pool down then).
    Waiting for work is no sign of it: this process holds its queue's other end too."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


__all__ = ["AHEAD_AFTER", "AHEAD_CHUNK", "AHEAD_CHUNKS", "validate_record", "verdicts"]
