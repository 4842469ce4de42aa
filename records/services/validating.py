"""The engine's verdict on one record of an import or a check: its refusal (what, where), or
the record ready to be stored with its derived rows (records.services.storing.ValidRecord).
One replay of the round gives both the verdict and the seats' facts."""

from __future__ import annotations

from typing import Union

import fourcolor

from records.services.derivation import storage_limits
from records.services.reading import BadLine, line_of, unencodable_error
from records.services.report import RecordResult, refused_result
from records.services.storing import ValidRecord

Verdict = Union[RecordResult, ValidRecord]


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


__all__ = ["Verdict", "validate_record"]
