"""One record's verdict: its text read, the round validated and, when asked, the seats' facts
counted in the same pass (`check_record`, what the import and `fourcolor validate` call)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import FcnError, LimitError
from .facts import SeatFacts, SeatFactsObserver
from .game import Game, validate
from .notation import MAX_RECORD_CHARS, Record, parse_record, write_fcn


@dataclass(frozen=True)
class Check:
    """The verdict on one record's text: `game` when valid, `error` when not; `facts`, the
    seats' facts, when asked for (`check_record(..., facts=True)`) and the record is valid."""

    record: Record | None
    game: Game | None
    error: FcnError | None
    facts: list[SeatFacts] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def canonical(self) -> str | None:
        return write_fcn(self.record) if self.record is not None else None


def check_record(
    text: str, first_line: int = 1, *, oversize: bool = False, facts: bool = False
) -> Check:
    """Read and validate one record's text. Never raises for bad input: the error is in the
    result, with its line (counted in the file from `first_line`), column, ply and category.
    With `facts`, the seats' facts are counted in the same pass (what the archive stores)."""
    if oversize:
        err: FcnError = LimitError("limit.record", line=first_line, col=1, n=MAX_RECORD_CHARS)
        return Check(None, None, err)
    try:
        record = parse_record(text, first_line, lenient=True)
    except FcnError as err:
        return Check(None, None, err)
    observer = SeatFactsObserver(record) if facts else None
    try:
        game = validate(record, observer=observer)
    except FcnError as err:
        return Check(record, None, err)
    return Check(record, game, None, observer.facts(game) if observer is not None else None)
