"""The engine's verdict on one record of an import or a check: its refusal (what, where), or
the record ready to be stored with its derived rows (records.services.storing.ValidRecord).
One replay of the round gives both the verdict and the seats' facts."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Union

import fourcolor

from records.services.derivation import storage_limits
from records.services.reading import BadLine, line_of, unencodable_error
from records.services.report import RecordResult, refused_result
from records.services.storing import ValidRecord

Verdict = Union[RecordResult, ValidRecord]


# The name of a tag line, as the engine reads the tags that open a record.
_TAG_NAME = re.compile(r"\s*\[\s*([A-Za-z][A-Za-z0-9_]*)")


def with_given_tags(rt: fourcolor.RecordText, given: Mapping[str, str]) -> fourcolor.RecordText:
    """The record with a tag line for each of `given` (name -> value) it lacks, put before its
    first line: the uploader's choice for records that do not say (a house variant's
    `Switches`, the `Ruleset`). The record then starts that many lines earlier, so every
    position in the uploaded text keeps its line number."""
    own = set()
    for line in rt.text.splitlines():
        if line.strip() and not line.lstrip().startswith("["):
            break  # the tags end where the deal begins
        match = _TAG_NAME.match(line)
        if match is not None:
            own.add(match.group(1))
    added = given_tag_lines({name: value for name, value in given.items() if name not in own})
    if not added:
        return rt
    first = re.search(r"\r\n|\n|\r", rt.text)  # the record's own line ending
    ending = first.group(0) if first is not None else "\n"
    return fourcolor.RecordText(rt.index, rt.line - len(added),
                                "".join(line + ending for line in added) + rt.text, rt.oversize)


def given_tag_lines(given: Mapping[str, str] | None) -> list[str]:
    """The tag lines of `given` (name -> value; values the forms wrote, with no quote)."""
    return [f'[{name} "{value}"]' for name, value in (given or {}).items() if value]


def validate_record(rt: fourcolor.RecordText, bad: BadLine | None,
                    given: Mapping[str, str] | None = None) -> Verdict:
    """The engine's verdict on one record: its refusal, or the record ready to be stored (its
    text with a line for each `given` tag it lacks: `with_given_tags`)."""
    if given and bad is None:
        line = rt.line
        rt = with_given_tags(rt, given)
        verdict = validate_record(rt, None)
        verdict.line = line  # where the uploaded record starts
        return verdict
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


__all__ = ["Verdict", "given_tag_lines", "validate_record", "with_given_tags"]
