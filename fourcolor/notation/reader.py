"""Reading one record (`parse_record`): its limits and characters checked, then its tags, deal
and events, each read by its own module."""

from __future__ import annotations

from ..errors import FcnSyntaxError, LimitError
from .deal import parse_deal
from .events import read_events
from .model import MAX_LINE_CHARS, MAX_RECORD_CHARS, Record
from .names import CONTROL, control_name
from .tags import parse_tags, check_tags


def parse_record(text: str, first_line: int = 1, *, lenient: bool = False) -> Record:
    """Read one record. Raises `FcnSyntaxError` (or `LimitError`) at the first malformed part;
    a record that reads is not yet known to be legal (see `fourcolor.game.validate`).

    With ``lenient``, a malformed event does not raise: the record keeps the events before it
    and the error in `Record.syntax_error` (tags and deal must still be well-formed)."""
    if len(text) > MAX_RECORD_CHARS:
        raise LimitError("limit.record", line=first_line, col=1, n=MAX_RECORD_CHARS)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    control = CONTROL.search(text)
    if control is not None:
        at = control.start()
        raise FcnSyntaxError(
            "syntax.control",
            value=control_name(text[at]),
            line=first_line + text.count("\n", 0, at),
            col=at - (text.rfind("\n", 0, at) + 1) + 1,
        )
    lines = text.split("\n")
    if max(map(len, lines)) > MAX_LINE_CHARS:
        for offset, line in enumerate(lines):
            if len(line) > MAX_LINE_CHARS:
                raise LimitError(
                    "limit.line",
                    n=MAX_LINE_CHARS,
                    line=first_line + offset,
                    col=MAX_LINE_CHARS + 1,
                )
    record = Record(tags={}, deal={}, first_line=first_line)
    i = parse_tags(lines, record, first_line)
    deal_error: FcnSyntaxError | None = None
    try:
        i = parse_deal(lines, i, record, first_line)
    except FcnSyntaxError as err:
        deal_error = err  # the tags are at fault first, when both are
    check_tags(record, deal_complete=deal_error is None)
    if deal_error is not None:
        raise deal_error
    read_events("\n".join(lines[i:]), first_line + i, record)
    if record.syntax_error is not None and not lenient:
        raise record.syntax_error
    return record
