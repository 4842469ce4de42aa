"""Splitting a multi-record file into its records (`iter_records`), one at a time, whatever the
line ends and chunks of the stream."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .model import MAX_RECORD_CHARS, RecordText


def iter_records(stream: Iterable[str]) -> Iterator[RecordText]:
    """The records of a multi-record file, one at a time, each with its verbatim text.

    A record starts with a tag line (``[`` in column 1) that follows its predecessor's deal or
    events; blank lines between records belong to neither. Only one record is held in memory;
    a record over `MAX_RECORD_CHARS` keeps its first part and is flagged ``oversize`` (the
    blank lines after a record are not part of it)."""
    index = start = number = 0
    lines: list[str] = []
    append = lines.append
    # Blank lines after the record's last line so far: its own only if a line follows them.
    blanks: list[str] = []
    size = 0
    oversize = False
    # Whether a record has begun: not `bool(lines)`, as an oversize first line is not kept.
    started = False
    has_body = False
    blank_before = True
    in_comment = False
    for raw in _lines(stream):
        number += 1
        if raw[:1] == "\ufeff":
            raw = raw[1:]  # where a file began (`cat a.fcn b.fcn`): not text
        blank = not raw or raw.isspace()  # what `not raw.strip()` says, without a copy
        tag_line = raw.startswith("[")
        if tag_line and has_body and (blank_before or not in_comment):
            yield RecordText(index, start, "".join(lines), oversize)
            index += 1
            lines, size, oversize, has_body, in_comment = [], 0, False, False, False
            append = lines.append
            blanks, started = [], False
        if not started:
            if blank:
                blank_before = True
                continue  # blank lines before a record are separators
            started = True
            start = number
        if blank:
            blanks.append(raw)
            blank_before = True
            continue
        for line in (*blanks, raw) if blanks else (raw,):
            size += len(line)
            if size <= MAX_RECORD_CHARS:
                append(line)
            else:
                oversize = True
                size -= len(line)
        blanks.clear()
        if not tag_line:
            has_body = True
        # The per-character scan only runs on lines that could change the state.
        if has_body and ("}" if in_comment else "{") in raw:
            in_comment = _comment_state(raw, in_comment)
        blank_before = blank
    if started:
        yield RecordText(index, start, "".join(lines), oversize)


_LINE_END = re.compile(r"\r\n|\n|\r")


def _lines(stream: Iterable[str]) -> Iterator[str]:
    """Lines with their endings (``\n``, ``\r\n`` or a bare ``\r``), whatever the chunks the
    stream yields: a text file opened with ``newline=""``, a list of lines, or arbitrary pieces."""
    pending = ""
    for chunk in stream:
        # Its first newline is its last character (so it ends with one, when not empty), and
        # no \r comes before it but one just ahead of it (CRLF): already one whole line (a
        # file's or a list's lines), the usual case in either line end.
        if not pending and chunk:
            last = len(chunk) - 1
            if chunk.find("\n") == last:
                cr = chunk.find("\r")
                if cr < 0 or cr == last - 1:
                    yield chunk
                    continue
        pending += chunk
        start = 0
        for m in _LINE_END.finditer(pending):
            if m.group() == "\r" and m.end() == len(pending):
                break  # a \r at the end may be the first half of \r\n in the next chunk
            yield pending[start : m.end()]
            start = m.end()
        pending = pending[start:]
        if len(pending) > MAX_RECORD_CHARS:
            # A line this long is refused later anyway; do not let it grow without bound.
            yield pending
            pending = ""
    if pending:
        yield pending


def _comment_state(line: str, in_comment: bool) -> bool:
    """Whether a comment is open after `line`, given whether one was open before it: each
    brace looked up with str.find (a loop over the characters costs ten times as much)."""
    at = 0
    while True:
        at = line.find("}" if in_comment else "{", at)
        if at < 0:
            return in_comment
        in_comment = not in_comment
        at += 1
