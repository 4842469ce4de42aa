"""Reading an upload: bytes or text, a file or pieces of one, split into lines as the engine
counts them, strictly decoded as UTF-8; and the quoting of a record's lines in a report."""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from fourcolor.errors import FcnError
from fourcolor.notation import MAX_LINE_CHARS

READ_CHUNK = 64 * 1024
# A line longer than the engine's limit is refused whatever follows in it: keep only enough of
# it (in bytes, up to 4 per character) for the engine to say so, and memory stays flat.
_LINE_CAP_BYTES = 4 * (MAX_LINE_CHARS + 2)
_LINE_CAP_CHARS = MAX_LINE_CHARS + 2
# The offending line quoted in a refusal is cut to this many characters.
QUOTE_CHARS = 300
_BYTE_EOL = re.compile(rb"\r\n|\n|\r")
_TEXT_EOL = re.compile(r"\r\n|\n|\r")


def read_pieces(source: Any) -> Iterator[bytes | str]:
    """Pieces of a bytes/str value, a binary or text file object, or an iterable of pieces."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(bytes(source))
    elif isinstance(source, str):
        source = io.StringIO(source, newline="")
    read = getattr(source, "read", None)
    if callable(read):
        while chunk := read(READ_CHUNK):
            yield chunk
        return
    for chunk in source:
        if chunk:
            yield chunk


def split_lines(chunks: Iterable[bytes | str],
                offsets: list[int] | None = None) -> Iterator[bytes | str]:
    """Lines with their endings (\\r\\n, \\n or a bare \\r, as the engine counts them);
    with `offsets`, each line's offset in the input (bytes or characters) is appended to it.

    An over-long line is cut to `_LINE_CAP_*` (the engine refuses it anyway) so that a file
    without line breaks cannot fill the memory."""
    buf: Any = None
    kept: Any = None  # the cut start of an over-long line while its rest is skipped
    kept_at = 0  # where that line starts
    consumed = 0  # the offset of buf's start
    for chunk in chunks:
        if buf is None:
            buf = chunk[:0]
        if type(chunk) is not type(buf):
            raise TypeError("the input mixes bytes and text")
        buf += chunk
        eol = _BYTE_EOL if isinstance(buf, bytes) else _TEXT_EOL
        cap = _LINE_CAP_BYTES if isinstance(buf, bytes) else _LINE_CAP_CHARS
        start = 0
        for m in eol.finditer(buf):
            if m.end() == len(buf) and buf[m.start() : m.end()] in (b"\r", "\r"):
                break  # maybe the first half of a \r\n split between two chunks
            if offsets is not None:
                offsets.append(kept_at if kept is not None else consumed + start)
            if kept is not None:
                yield kept + buf[m.start() : m.end()]
                kept = None
            elif m.start() - start > cap:
                # An over-long line within one piece: cut as when it spans pieces.
                yield buf[start : start + cap] + buf[m.start() : m.end()]
            else:
                yield buf[start : m.end()]
            start = m.end()
        consumed += start
        buf = buf[start:]
        if len(buf) > cap:
            if kept is None:
                kept, kept_at = buf[:cap], consumed
            consumed += len(buf)
            buf = buf[:0]
    if buf is not None and (buf or kept is not None):
        if offsets is not None:
            offsets.append(kept_at if kept is not None else consumed)
        yield (kept + buf[:0]) if kept is not None else buf


@dataclass
class BadLine:
    number: int
    error: FcnError
    text: str


class DecodedLines:
    """The text lines of an input, strictly decoded as UTF-8 when it is bytes.

    A line that is not valid UTF-8 is passed on with replacement characters (so that the file
    still splits into records) and noted: the record holding it is refused with its position.
    Only the first bad line after each line starting with "[" is kept, so notes stay few.

    `first_line`: the number of the source's first line, when it is a piece of a file that
    starts at a record (a chunk of a parallel import): lines keep the whole file's numbers.
    `offsets`: as `split_lines` takes it (where each line starts)."""

    def __init__(self, source: Any, first_line: int = 1,
                 offsets: list[int] | None = None) -> None:
        self.source = source
        self.offsets = offsets
        self.number = first_line - 1  # the line most recently passed on
        self.done = False
        self.bad: list[BadLine] = []
        self._segment_has_bad = False

    def __iter__(self) -> Iterator[str]:
        for raw in split_lines(read_pieces(self.source), self.offsets):
            self.number += 1
            if self.number == 1:
                raw = raw.removeprefix(codecs.BOM_UTF8) if isinstance(raw, bytes) else (
                    raw.removeprefix("\ufeff")
                )
            text = self._decode(raw) if isinstance(raw, bytes) else raw
            if text.startswith("["):
                self._segment_has_bad = False
            yield text
        self.done = True

    def _decode(self, raw: bytes) -> str:
        try:
            if len(raw) < _LINE_CAP_BYTES:
                # A whole line: a plain strict decode (an incremental decoder per line cost
                # about a tenth of an import's reading).
                return raw.decode("utf-8")
            # Not final: a line cut at the cap may end inside a character.
            return codecs.getincrementaldecoder("utf-8")("strict").decode(raw, final=False)
        except UnicodeDecodeError as exc:
            if not self._segment_has_bad:
                self._segment_has_bad = True
                col = len(raw[: exc.start].decode("utf-8")) + 1
                error = FcnError(
                    "encoding.utf8",
                    value=f"0x{raw[exc.start]:02X}",
                    value2=exc.reason,
                    line=self.number,
                    col=col,
                )
                text = raw.decode("utf-8", "replace")
                self.bad.append(BadLine(self.number, error, text.rstrip("\r\n")[:QUOTE_CHARS]))
            return raw.decode("utf-8", "replace")

    def take_bad(self, first_line: int) -> BadLine | None:
        """The first bad line of the record that starts at `first_line` and was just read.

        The engine yields a record once it has read the first line of the next one (the last
        line passed on); at the end of the input every remaining line is the record's."""
        limit = self.number + 1 if self.done else self.number
        mine = [b for b in self.bad if b.number < limit]
        self.bad = [b for b in self.bad if b.number >= limit]
        return next((b for b in mine if b.number >= first_line), None)


def unencodable_error(text: str, first_line: int) -> FcnError | None:
    """A lone surrogate (text that came decoded from JSON, say) cannot be stored as UTF-8."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        before = text[: exc.start].replace("\r\n", "\n").replace("\r", "\n")
        line = first_line + before.count("\n")
        col = len(before) - (before.rfind("\n") + 1) + 1
        return FcnError(
            "encoding.surrogate",
            value=f"U+{ord(text[exc.start]):04X}",
            line=line,
            col=col,
        )
    return None


# Control characters as the visible symbols of Unicode's Control Pictures block (NUL -> ␀,
# ESC -> ␛, DEL -> ␡; C1 controls, which have none, -> U+FFFD), one for one so that a column
# still points at the same character. Tabs are kept.
_SHOWN_CONTROLS = {code: 0x2400 + code for code in range(0x20) if code != 0x09} | {
    0x7F: 0x2421} | dict.fromkeys(range(0x80, 0xA0), 0xFFFD)


def shown(text: str) -> str:
    """`text` as a report may keep and show it: no control character. (PostgreSQL's text and
    jsonb cannot hold U+0000, and a terminal would act on an escape sequence.)"""
    return text.translate(_SHOWN_CONTROLS)


def line_of(text: str, first_line: int, line: int) -> str:
    """Line `line` of the file, from a record's text that starts at `first_line` (cut)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    index = line - first_line
    if 0 <= index < len(lines):
        return lines[index][:QUOTE_CHARS]
    return ""
