"""FCN, the Four Color Notation: reading, canonical writing and the JSON twin.

The parser is kept apart from the game: it turns text into a `Record` (tags, deal, events with
their positions) and reports malformed text as `FcnSyntaxError`. Whether the events are a legal
round is the business of `fourcolor.game`. See docs/notation.md for the grammar.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import _BY_TOKEN as _CARDS_BY_TOKEN
from .cards import Card, card_or_none, cards_or_none, sort_cards
from .errors import FcnError, FcnSyntaxError, LimitError

# Hostile input is bounded: a real round has a few hundred events in a few KiB.
MAX_RECORD_CHARS = 256 * 1024
MAX_LINE_CHARS = 4096
MAX_TAGS = 64
MAX_TAG_VALUE_CHARS = 1024
MAX_EVENTS = 2000
MAX_COMMENT_CHARS = 2000

VERBS = "xdmwrch"  # discard, draw, meld, win, redeal; extensions: call, hu call (see docs)
REQUIRED_TAGS = ("Ruleset", "Dealer")
KNOWN_ORDER = ("Event", "Site", "Date", "Match", "Round", "Ruleset")
AFTER_SEATS = ("Dealer", "Result", "Pile", "Lucky")
RESULT_RE = re.compile(r"^(?:([1-9]):(0|[1-9][0-9]{0,3})|-|R|\*)$")
DATE_RE = re.compile(r"^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$")
SEAT_TAG_RE = re.compile(r"^Seat([1-9][0-9]*)$")
TAG_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
TURN_NUMBER_RE = re.compile(r"^[0-9]+\.+$")
DEAL_RE = re.compile(r"^\s*([0-9]+)\s*:")
LINE_WIDTH = 79
_DIGITS = re.compile(r"[0-9]+")
# Seat1, Seat2, ...: more than a record can have tags, so the seats always end before these do.
_SEAT_KEYS = tuple(f"Seat{n}" for n in range(1, MAX_TAGS + 2))
_CARD_TOKENS = frozenset(_CARDS_BY_TOKEN)
# Control characters: C0 but tab, line feed and carriage return; DEL; C1. None prints, and some
# end a line for other programs (VT, FF, NEL) or are refused by databases (NUL), so a record
# holding one would not read the same everywhere: it is refused where the character is.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_PRINTABLE_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
# Bidi embeddings, overrides and isolates (not the marks LRM, RLM, ALM): in a name they reorder
# whatever is shown after it on a page, so a name could pose as another (docs/notation.md).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters that draw nothing (Hangul fillers), the usual disguise of a blank name.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


class Event(NamedTuple):
    """One event: seat, verb letter, cards, and for a win the declared split of the rest.

    A named tuple: immutable and cheap to build (a round has hundreds; use ``_replace``)."""

    seat: int
    verb: str
    cards: tuple[Card, ...] = ()
    groups: tuple[tuple[Card, ...], ...] = ()
    comments: tuple[str, ...] = ()
    line: int = 0
    col: int = 0

    @property
    def head(self) -> str:
        return f"{self.seat}{self.verb}"

    def text(self) -> str:
        """The event as written canonically (without its comments), for messages."""
        parts = [self.head]
        if self.verb in "wh" and self.cards:
            parts.extend(c.token for c in sort_cards(self.cards))
        else:
            parts.extend(c.token for c in self.cards)
        parts.extend("(" + " ".join(c.token for c in sort_cards(g)) + ")" for g in self.groups)
        return " ".join(parts)

    def canonical(self) -> Event:
        if self.verb in "mwch":
            return Event(
                self.seat,
                self.verb,
                tuple(sort_cards(self.cards)),
                tuple(tuple(sort_cards(g)) for g in self.groups),
                self.comments,
                self.line,
                self.col,
            )
        return self


@dataclass
class Record:
    """One round as written: tags in order, the deal per seat, the events."""

    tags: dict[str, str]
    deal: dict[int, tuple[Card, ...]]
    events: list[Event] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    # Where things were written, for errors about them: tag name or "deal N" -> (line, col).
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False)
    first_line: int = field(default=1, compare=False)
    # The first malformed event, when there is one; `events` then holds the events before it.
    syntax_error: FcnSyntaxError | None = field(default=None, compare=False)

    @property
    def ruleset_name(self) -> str:
        return self.tags["Ruleset"]

    @property
    def seats(self) -> tuple[str, ...]:
        # Computed on each call, not cached: `tags` is a plain dict that callers may change.
        return _seat_names(self.tags)

    @property
    def players(self) -> int:
        return len(_seat_names(self.tags))

    @property
    def dealer(self) -> int:
        return int(self.tags["Dealer"])

    def tag(self, name: str) -> str | None:
        return self.tags.get(name)

    def position(self, key: str) -> tuple[int, int]:
        return self.positions.get(key, (self.first_line, 1))


def _seat_names(tags: dict[str, str]) -> tuple[str, ...]:
    """The values of Seat1, Seat2, ... up to the first one missing."""
    names: list[str] = []
    for key in _SEAT_KEYS:
        name = tags.get(key)
        if name is None:
            return tuple(names)
        names.append(name)
    n = len(names) + 1
    while f"Seat{n}" in tags:  # more seats than a parsed record can have: a record built by hand
        names.append(tags[f"Seat{n}"])
        n += 1
    return tuple(names)


@dataclass(frozen=True, slots=True)
class RecordText:
    """One record of a file, as it stands there."""

    index: int
    line: int
    text: str
    oversize: bool = False


# --------------------------------------------------------------------------- splitting files


def iter_records(stream: Iterable[str]) -> Iterator[RecordText]:
    """The records of a multi-record file, one at a time, each with its verbatim text.

    A record starts with a tag line (``[`` in column 1) that follows its predecessor's deal or
    events; blank lines between records belong to neither. Only one record is held in memory;
    a record over `MAX_RECORD_CHARS` keeps its first part and is flagged ``oversize``.
    """
    index = 0
    start = 0
    lines: list[str] = []
    append = lines.append
    size = 0
    oversize = False
    # Whether a record has begun: not `bool(lines)`, since a record whose first line alone is
    # over the limit keeps no line at all and must still be reported (as oversize).
    started = False
    has_body = False
    blank_before = True
    in_comment = False
    number = 0
    for raw in _lines(stream):
        number += 1
        if raw[:1] == "\ufeff":
            # A byte order mark marks where a file began: `cat a.fcn b.fcn` leaves b's in the
            # middle, before its first tag line. It is not text; dropped, as at the file's start.
            raw = raw[1:]
        blank = not raw or raw.isspace()  # what `not raw.strip()` says, without a copy
        tag_line = raw.startswith("[")
        if tag_line and has_body and (blank_before or not in_comment):
            yield RecordText(index, start, _trim(lines), oversize)
            index += 1
            lines, size, oversize, has_body, in_comment = [], 0, False, False, False
            append = lines.append
            started = False
        if not started:
            if blank:
                blank_before = True
                continue  # blank lines before a record are separators
            started = True
            start = number
        size += len(raw)
        if size <= MAX_RECORD_CHARS:
            append(raw)
        else:
            oversize = True
            size -= len(raw)
        if not (blank or tag_line):
            has_body = True
        # The per-character scan only runs on lines that could change the state.
        if has_body and ("}" if in_comment else "{") in raw:
            in_comment = _comment_state(raw, in_comment)
        blank_before = blank
    if started:
        yield RecordText(index, start, _trim(lines), oversize)


_LINE_END = re.compile(r"\r\n|\n|\r")


def _lines(stream: Iterable[str]) -> Iterator[str]:
    """Lines with their endings (``\n``, ``\r\n`` or a bare ``\r``), whatever the chunks the
    stream yields: a text file opened with ``newline=""``, a list of lines, or arbitrary pieces."""
    pending = ""
    for chunk in stream:
        # Its first newline is its last character (so it ends with one, when not empty).
        if not pending and chunk and chunk.find("\n") == len(chunk) - 1 and "\r" not in chunk:
            yield chunk  # already one whole line (a file's or a list's lines): the usual case
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


def _trim(lines: list[str]) -> str:
    while lines and not lines[-1].strip():
        lines.pop()
    return "".join(lines)


def _comment_state(line: str, in_comment: bool) -> bool:
    for ch in line:
        if in_comment:
            if ch == "}":
                in_comment = False
        elif ch == "{":
            in_comment = True
    return in_comment


# --------------------------------------------------------------------------- parsing


class _Token(NamedTuple):
    kind: str  # "word", "open", "close", "comment", "stray"
    text: str
    line: int
    col: int


def parse_record(text: str, first_line: int = 1, *, lenient: bool = False) -> Record:
    """Read one record. Raises `FcnSyntaxError` (or `LimitError`) at the first malformed part;
    a record that reads is not yet known to be legal (see `fourcolor.game.validate`).

    With ``lenient``, a malformed event does not raise: the record keeps the events before it
    and the error in `Record.syntax_error` (tags and deal must still be well-formed)."""
    if len(text) > MAX_RECORD_CHARS:
        raise LimitError(
            f"the record is longer than {MAX_RECORD_CHARS} characters", line=first_line, col=1
        )
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # The usual case first: ASCII text with nothing but printable bytes and line breaks
    # (bytes.translate deletes those at about a nanosecond per byte, a regex takes several).
    plain = text.isascii() and not text.encode("ascii").translate(None, _PRINTABLE_ASCII)
    control = None if plain else _CONTROL.search(text)
    if control is not None:
        at = control.start()
        raise FcnSyntaxError(
            f"{_control_name(text[at])} in the record: FCN is printable text (tabs and line "
            "breaks aside)",
            line=first_line + text.count("\n", 0, at),
            col=at - (text.rfind("\n", 0, at) + 1) + 1,
        )
    lines = text.split("\n")
    if max(map(len, lines)) > MAX_LINE_CHARS:
        for offset, line in enumerate(lines):
            if len(line) > MAX_LINE_CHARS:
                raise LimitError(
                    f"line longer than {MAX_LINE_CHARS} characters",
                    line=first_line + offset,
                    col=MAX_LINE_CHARS + 1,
                )
    record = Record(tags={}, deal={}, first_line=first_line)
    i = _parse_tags(lines, record, first_line)
    deal_error: FcnSyntaxError | None = None
    try:
        i = _parse_deal(lines, i, record, first_line)
    except FcnSyntaxError as err:
        deal_error = err  # the tags are at fault first, when both are
    _check_tags(record, deal_complete=deal_error is None)
    if deal_error is not None:
        raise deal_error
    _parse_events(lines, i, record, first_line)
    if record.syntax_error is not None and not lenient:
        raise record.syntax_error
    return record


def _control_name(char: str) -> str:
    """How an error names a control character: by code point, never by the character."""
    return f"control character U+{ord(char):04X}" + (" (NUL)" if char == "\x00" else "")


def _visible(char: str) -> bool:
    """Whether a character draws something: not a space, control, format character (zero
    widths, bidi marks, BOM), unassigned or private code point, lone combining mark or filler."""
    return unicodedata.category(char)[0] not in "ZCM" and char not in _BLANK_LETTERS


def name_problem(name: str) -> str | None:
    """What is wrong with a player name, or None: a name needs a visible character and holds
    no control character and no bidi embedding, override or isolate. Names are quoted with
    such characters escaped, so that a message never hides or reorders itself."""
    if name.isascii() and name.isprintable() and not name.isspace():
        return None  # the usual case
    if not name.strip():
        return "has an empty name"
    for char in name:
        if unicodedata.category(char) == "Cc":
            return f"name {name!r} holds the {_control_name(char)}"
        if char in _BIDI_CONTROLS:
            if not any(map(_visible, name)):
                break
            return (
                f"name {name!r} holds the bidi control U+{ord(char):04X}, which reorders "
                "the text shown after it"
            )
    if not any(map(_visible, name)):
        codes = " ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(name))
        return f"name {name!r} has no visible character (only {codes})"
    return None


def player_key(name: str) -> str:
    """The case-insensitive identity of a player name: NFC, casefolded, blanks collapsed.

    "Bình", "BÌNH" and "bi\u0300nh" (decomposed) are one player; casefold handles ß/ss and
    Greek final sigma, which lower() does not. The archive files players under this key, and
    a record may not seat one player twice."""
    if name.isascii():  # NFC changes no ASCII text, and casefold() is lower() on it
        return " ".join(name.lower().split())
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join(folded.split())


def _parse_tags(lines: list[str], record: Record, first_line: int) -> int:
    tags = record.tags
    positions = record.positions
    simple_tag = _SIMPLE_TAG.fullmatch
    i = 0
    while i < len(lines):
        line = lines[i]
        number = first_line + i
        simple = simple_tag(line)
        if simple is not None:
            # The usual tag line, read at once (what `_parse_tag_line` would give).
            name, value = simple.groups()
            col = simple.start(1)  # the "[" before the name, 1-based
        if simple is None or len(value) > MAX_TAG_VALUE_CHARS:
            stripped = line.strip()
            if not stripped:
                i += 1
                continue
            if not stripped.startswith("["):
                break
            name, value = _parse_tag_line(line, number)
            col = line.index("[") + 1
        if name in tags:
            raise FcnSyntaxError(f"duplicated tag {name}", category="tags", line=number, col=col)
        if len(tags) >= MAX_TAGS:
            raise LimitError(f"more than {MAX_TAGS} tags", line=number, col=1)
        tags[name] = value
        positions[name] = (number, col)
        i += 1
    return i


_SIMPLE_TAG = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"([^"\\\x00-\x1f]*)"\s*\]\s*')


def _parse_tag_line(line: str, number: int) -> tuple[str, str]:
    simple = _SIMPLE_TAG.fullmatch(line)
    if simple is not None and len(simple.group(2)) <= MAX_TAG_VALUE_CHARS:
        return simple.group(1), simple.group(2)  # no escapes, nothing to check: the usual case
    col0 = line.index("[")
    body = line[col0 + 1 :]
    m = re.match(r"([A-Za-z][A-Za-z0-9_]*)\s+\"", body)
    if not m:
        raise FcnSyntaxError(
            f'malformed tag line {line.strip()[:60]!r}: expected [Name "value"]',
            category="tags",
            line=number,
            col=col0 + 1,
        )
    name = m.group(1)
    pos = m.end()
    value: list[str] = []
    while True:
        if pos >= len(body):
            raise FcnSyntaxError(
                f"tag {name}: unclosed value", category="tags", line=number, col=col0 + 2 + pos
            )
        ch = body[pos]
        if ch == "\\":
            nxt = body[pos + 1] if pos + 1 < len(body) else ""
            if nxt not in ('"', "\\"):
                raise FcnSyntaxError(
                    f'tag {name}: only \\" and \\\\ are escapes',
                    category="tags",
                    line=number,
                    col=col0 + 2 + pos,
                )
            value.append(nxt)
            pos += 2
            continue
        if ch == '"':
            pos += 1
            break
        value.append(ch)
        pos += 1
    rest = body[pos:].strip()
    if rest != "]":
        raise FcnSyntaxError(
            f"tag {name}: expected ] after the value",
            category="tags",
            line=number,
            col=col0 + 2 + pos,
        )
    text = "".join(value)
    if len(text) > MAX_TAG_VALUE_CHARS:
        raise LimitError(f"tag {name}: value longer than {MAX_TAG_VALUE_CHARS}", line=number, col=1)
    if any(ord(c) < 32 for c in text):
        raise FcnSyntaxError(
            f"tag {name}: control character in the value",
            category="tags",
            line=number,
            col=col0 + 1,
        )
    return name, text


def _check_tags(record: Record, *, deal_complete: bool = True) -> None:
    """Required tags, seat numbering, Dealer, Result, Date and Pile shapes (category tags)."""
    tags = record.tags

    def fail(message: str, tag: str | None = None) -> FcnSyntaxError:
        line, col = record.position(tag) if tag else (record.first_line, 1)
        return FcnSyntaxError(message, category="tags", line=line, col=col)

    if "Ruleset" not in tags:
        raise fail("missing Ruleset tag")
    names = _seat_names(tags)
    if len([name for name in tags if name[:4] == "Seat"]) == len(names):
        seat_numbers = list(range(1, len(names) + 1))  # Seat1..SeatN and no other Seat tag
    else:
        seat_numbers = sorted(
            int(m.group(1))
            for name in tags
            if name.startswith("Seat") and (m := SEAT_TAG_RE.match(name)) is not None
        )
    if not seat_numbers:
        raise fail("missing Seat1 tag")
    if seat_numbers != list(range(1, len(seat_numbers) + 1)):
        missing = next(n for n in range(1, len(seat_numbers) + 2) if n not in seat_numbers)
        raise fail(f"missing Seat{missing} tag (seats are numbered 1..N with no gap)")
    if not 2 <= len(seat_numbers) <= 4:
        raise fail(f"{len(seat_numbers)} seats: a round has 2, 3 or 4 players", "Seat1")
    seated: dict[str, int] = {}
    for n, seat_name in enumerate(names, start=1):  # the seats are 1..N here
        problem = name_problem(seat_name)
        if problem is not None:
            raise fail(f"Seat{n} {problem}", f"Seat{n}")
        other = seated.setdefault(player_key(seat_name), n)
        if other != n:
            raise fail(
                f"Seat{n} {seat_name!r} is the same player as Seat{other} {names[other - 1]!r} "
                "(names are compared ignoring case, accents' encoding and blanks)",
                f"Seat{n}",
            )
    dealer = tags.get("Dealer")
    if dealer is None:
        raise fail("missing Dealer tag")
    if not _DIGITS.fullmatch(dealer) or not 1 <= int(dealer) <= len(seat_numbers):
        raise fail(f"bad or missing Dealer {dealer!r}", "Dealer")
    result = tags.get("Result")
    if result is not None:
        m = RESULT_RE.match(result)
        if m is None or (m.group(1) and int(m.group(1)) > len(seat_numbers)):
            raise fail(f"malformed Result {result!r}: expected S:P, -, R or *", "Result")
    date = tags.get("Date")
    if date is not None and not DATE_RE.match(date):
        raise fail(f"malformed Date {date!r}: expected YYYY.MM.DD", "Date")
    for name in ("Pile", "Lucky"):
        value = tags.get(name)
        if value is None:
            continue
        words = value.split()
        if not _CARD_TOKENS.issuperset(words):
            for word in words:
                if card_or_none(word) is None:
                    raise fail(f"{name}: no such card {word!r}", name)
        if name == "Lucky" and len(words) != 1:
            raise fail("Lucky names one card", name)
    if not deal_complete:
        return
    missing_deal = [n for n in seat_numbers if n not in record.deal]
    if missing_deal:
        line, col = record.position("deal")
        raise FcnSyntaxError(
            f"no deal line for seat {missing_deal[0]}",
            category="deal",
            line=line,
            col=col,
        )
    extra = [n for n in record.deal if n not in seat_numbers]
    if extra:
        line, col = record.position(f"deal {extra[0]}")
        raise FcnSyntaxError(
            f"bad or repeated deal line for seat {extra[0]} (the record has "
            f"{len(seat_numbers)} seats)",
            category="deal",
            line=line,
            col=col,
        )


def _parse_deal(lines: list[str], i: int, record: Record, first_line: int) -> int:
    positions = record.positions
    deal = record.deal
    start = i
    while i < len(lines):
        line = lines[i]
        m = DEAL_RE.match(line)
        if not m:
            if not line.strip():
                i += 1
                continue
            break
        number = first_line + i
        if not deal:
            positions["deal"] = (number, 1)
        seat = int(m.group(1))
        if seat in deal:
            raise FcnSyntaxError(
                f"bad or repeated deal line for seat {seat}",
                category="deal",
                line=number,
                col=m.start(1) + 1,
            )
        key = _DEAL_KEYS[seat] if seat < len(_DEAL_KEYS) else f"deal {seat}"
        cards = cards_or_none(line[m.end() :])
        # None: a word names no card; the slow reader raises at the first one.
        deal[seat] = cards if cards is not None else _deal_cards(line, m.end(), number)
        positions[key] = (number, m.start(1) + 1)
        i += 1
    if not deal:
        # No deal line: errors about the deal point at the record's last line (or where the
        # deal was due, when that comes first).
        last = next((k for k in range(len(lines) - 1, -1, -1) if lines[k].strip()), 0)
        positions.setdefault("deal", (first_line + min(start, last), 1))
    return i


_DEAL_KEYS = tuple(f"deal {seat}" for seat in range(10))


def _deal_cards(line: str, start: int, number: int) -> tuple[Card, ...]:
    """The cards of a deal line from column `start` on, or the error for its first bad word."""
    cards: list[Card] = []
    for word, col in _words(line, start):
        card = card_or_none(word)
        if card is None:
            raise FcnSyntaxError(
                f"no such card {word!r} in the deal", category="deal", line=number, col=col
            )
        cards.append(card)
    return tuple(cards)


def _words(line: str, start: int) -> Iterator[tuple[str, int]]:
    for m in re.finditer(r"\S+", line[start:]):
        yield m.group(0), start + m.start() + 1


_TOKEN_RE = re.compile(r"[^\s(){}]+|[(){}]")


def _tokens(lines: list[str], i: int, first_line: int) -> Iterator[_Token]:
    """Words, parentheses and comments of the event section, with positions."""
    comment: list[str] | None = None
    c_line = c_col = 0
    search = _TOKEN_RE.search
    for offset in range(i, len(lines)):
        line = lines[offset]
        number = first_line + offset
        pos = 0
        if comment is not None:
            end = line.find("}")
            if end < 0:
                comment.append(line)
                comment.append("\n")
                continue
            comment.append(line[:end])
            yield _Token("comment", " ".join("".join(comment).split()), c_line, c_col)
            comment = None
            pos = end + 1
        while True:
            m = search(line, pos)
            if m is None:
                break
            word = m.group()
            start = m.start()
            if word == "{":
                end = line.find("}", start + 1)
                if end < 0:
                    comment, c_line, c_col = [line[start + 1 :], "\n"], number, start + 1
                    break
                yield _Token("comment", " ".join(line[start + 1 : end].split()), number, start + 1)
                pos = end + 1
                continue
            if word == "(":
                yield _Token("open", word, number, start + 1)
            elif word == ")":
                yield _Token("close", word, number, start + 1)
            elif word == "}":
                yield _Token("stray", word, number, start + 1)
            else:
                yield _Token("word", word, number, start + 1)
            pos = m.end()
    if comment is not None:
        yield _Token("unclosed-comment", "{", c_line, c_col)


@dataclass
class _Draft:
    seat: int
    verb: str
    line: int
    col: int
    tokens: list[_Token] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


_ARITY = {"x": (1, 1), "d": (1, 1), "m": (1, 4), "w": (1, 4), "c": (1, 4), "h": (1, 4), "r": (0, 0)}
_SPECIAL = re.compile(r"[(){}]")


# A line of plain events: each a head and at most four cards, whitespace between words (regex
# \s is exactly what str.split() splits on). Possessive, so a line that is not one fails in
# linear time; it then goes to the word-by-word reader.
_PLAIN_LINE = re.compile(r"\s*+(?:[0-9][xdmwrch](?:\s++[rygw][KAERHCP]){0,4}+(?:\s++|\Z))*+")
_PLAIN_EVENT = re.compile(r"[0-9][xdmwrch](?:\s++[rygw][KAERHCP]){0,4}+")
# Event text ("2m rE rE") -> the start of its Event: seat, verb, cards and no groups nor
# comments. Few distinct texts recur (a seat, a verb and a meld's cards), so a bounded cache
# saves splitting and looking up every word of every event.
_Plain = tuple[int, str, tuple[Card, ...], tuple[()], tuple[()]]
_PLAIN_CACHE: dict[str, _Plain] = {}
_PLAIN_CACHE_SIZE = 20_000
_new_event = tuple.__new__  # an Event from a plain tuple, without the Python-level __new__


def _plain_value(text: str) -> _Plain | None:
    """Seat, verb and cards of one event text matched by `_PLAIN_EVENT` (and no groups nor
    comments); None when the verb takes another number of cards."""
    head, *words = text.split()
    seat, verb = _HEADS[head]
    low, high = _ARITY[verb]
    if not low <= len(words) <= high:
        return None
    return seat, verb, tuple(_CARDS_BY_TOKEN[w] for w in words), (), ()


def _plain_events(lines: list[str], i: int, first_line: int) -> list[Event] | None:
    """The events of a section without comments or groups, read fast (most records are
    like that); None as soon as anything is unusual, and the full reader takes over.

    Lines where every event starts and ends on the line (as the writer puts them) are read
    with regular expressions and a cache; any other line sends the section to the
    word-by-word reader below. A line of events one space apart (the canonical layout) is
    split at each space before a seat digit, and is canonical when every piece is a known
    event text (only whole plain events are kept in the cache); each event's column then
    follows from the lengths before it."""
    events: list[Event] = []
    append = events.append
    cache_get = _PLAIN_CACHE.get
    split = _EVENT_GAP.split
    for offset in range(i, len(lines)):
        line = lines[offset]
        found: list[str] = split(line)
        values = list(map(cache_get, found))
        starts: list[int] | None = None  # None: one space apart from column 1
        if not all(values):
            found = _PLAIN_EVENT.findall(line)
            if " ".join(found) != line:
                if _PLAIN_LINE.fullmatch(line) is None:
                    return _plain_events_by_word(lines, i, first_line)
                starts = [m.start() for m in _PLAIN_EVENT.finditer(line)]  # same matches
            values = list(map(cache_get, found))
            if not all(values) and not _fill_plain(found, values):
                return None
        number = first_line + offset
        col = 1
        for k, text in enumerate(found):
            if starts is not None:
                col = starts[k] + 1
            append(_new_event(Event, values[k] + (number, col)))  # type: ignore[operator]
            col += len(text) + 1
        if len(events) > MAX_EVENTS:
            return None
    return events


# Where a canonical line of events splits into events: a space before a seat digit.
_EVENT_GAP = re.compile(r" (?=[0-9])")


def _fill_plain(found: list[str], values: list[_Plain | None]) -> bool:
    """Fill the values the cache did not have (and keep them); False when an event takes
    another number of cards than its verb does."""
    for k, text in enumerate(found):
        if values[k] is None:
            value = _plain_value(text)
            if value is None:
                return False
            if len(_PLAIN_CACHE) < _PLAIN_CACHE_SIZE:
                _PLAIN_CACHE[text] = value
            values[k] = value
    return True


def _plain_events_by_word(lines: list[str], i: int, first_line: int) -> list[Event] | None:
    """`_plain_events` for sections with turn numbers or events across lines."""
    events: list[Event] = []
    append = events.append
    heads = _HEADS
    cards_by = _CARDS_BY_TOKEN
    arity = _ARITY
    seat = 0
    verb = ""
    cards: list[Card] = []
    at_line = at_col = 0
    for offset in range(i, len(lines)):
        line = lines[offset]
        if _SPECIAL.search(line):
            return None
        pos = 0
        for word in line.split():
            head = heads.get(word)
            if head is not None:
                if verb:
                    low, high = arity[verb]
                    if not low <= len(cards) <= high:
                        return None
                    append(Event(seat, verb, tuple(cards), (), (), at_line, at_col))
                    if len(events) >= MAX_EVENTS:
                        return None
                start = line.find(word, pos)
                pos = start + len(word)
                seat, verb = head
                cards = []
                at_line, at_col = first_line + offset, start + 1
                continue
            card = cards_by.get(word)
            if card is not None and verb:
                cards.append(card)
            elif not (word[0] in "0123456789" and TURN_NUMBER_RE.match(word)):
                return None
    if verb:
        low, high = arity[verb]
        if not low <= len(cards) <= high:
            return None
        append(Event(seat, verb, tuple(cards), (), (), at_line, at_col))
    return events


def _parse_events(lines: list[str], i: int, record: Record, first_line: int) -> None:
    """Fill `record.events`. At the first malformed event, the events before it are kept and
    the error is stored in `record.syntax_error`: the validator reports a rule broken by an
    earlier event first, since faults are reported in event order."""
    plain = _plain_events(lines, i, first_line)
    if plain is not None:
        record.events = plain
        return
    drafts: list[_Draft] = []
    try:
        for token in _tokens(lines, i, first_line):
            if token.kind == "comment":
                if len(token.text) > MAX_COMMENT_CHARS:
                    raise LimitError(
                        f"comment longer than {MAX_COMMENT_CHARS} characters",
                        line=token.line,
                        col=token.col,
                        ply=max(len(drafts), 1),
                    )
                (drafts[-1].comments if drafts else record.comments).append(token.text)
                continue
            if token.kind == "word" and token.text[0] in "0123456789":
                head = _HEADS.get(token.text)
                if head is None and TURN_NUMBER_RE.match(token.text):
                    continue
                if drafts:
                    record.events.append(_build_event(drafts[-1], len(drafts)))
                if head is None:
                    raise FcnSyntaxError(
                        f"malformed event {token.text!r}: expected a seat digit and a verb "
                        f"(x d m w r, or the extensions c h)",
                        line=token.line,
                        col=token.col,
                        ply=len(drafts) + 1,
                        event=token.text,
                    )
                if len(drafts) >= MAX_EVENTS:
                    raise LimitError(
                        f"more than {MAX_EVENTS} events",
                        line=token.line,
                        col=token.col,
                        ply=len(drafts) + 1,
                        event=token.text,
                    )
                drafts.append(_Draft(head[0], head[1], token.line, token.col))
                continue
            if not drafts:
                what = (
                    "an unclosed comment" if token.kind == "unclosed-comment" else repr(token.text)
                )
                raise FcnSyntaxError(
                    f"{what} before the first event", line=token.line, col=token.col, ply=0
                )
            drafts[-1].tokens.append(token)
        if drafts:
            record.events.append(_build_event(drafts[-1], len(drafts)))
    except FcnSyntaxError as err:
        record.syntax_error = err


_HEADS = {f"{seat}{verb}": (seat, verb) for seat in range(10) for verb in VERBS}


def _draft_text(draft: _Draft) -> str:
    text = f"{draft.seat}{draft.verb}"
    for t in draft.tokens:
        if t.kind == "unclosed-comment":
            continue
        glue = "" if t.kind == "close" or text.endswith("(") else " "
        text += glue + t.text
    return text


def _build_event(draft: _Draft, ply: int) -> Event:
    tokens = draft.tokens
    arity = _ARITY.get(draft.verb)
    if arity is not None and arity[0] <= len(tokens) <= arity[1]:
        # The common case, read fast: plain card words (a group's parenthesis is no word).
        quick = [_CARDS_BY_TOKEN.get(t.text) if t.kind == "word" else None for t in tokens]
        if None not in quick:
            return Event(
                draft.seat,
                draft.verb,
                tuple(c for c in quick if c is not None),
                (),
                tuple(draft.comments),
                draft.line,
                draft.col,
            )

    def fail(message: str, token: _Token | None = None) -> FcnSyntaxError:
        line, col = (token.line, token.col) if token else (draft.line, draft.col)
        return FcnSyntaxError(message, line=line, col=col, ply=ply, event=_draft_text(draft))

    cards: list[Card] = []
    groups: list[tuple[Card, ...]] = []
    group: list[Card] | None = None
    group_open: _Token | None = None
    for token in draft.tokens:
        if token.kind == "unclosed-comment":
            raise fail("unclosed comment", token)
        if token.kind == "stray":
            raise fail("'}' without a comment to close", token)
        if token.kind == "open":
            if draft.verb not in "wh":
                raise fail(f"a group in a {_VERB_NAMES[draft.verb]} event", token)
            if group is not None:
                raise fail("unclosed group", group_open)
            group, group_open = [], token
            continue
        if token.kind == "close":
            if group is None:
                raise fail("')' without a group to close", token)
            if not group:
                raise fail("empty group", token)
            groups.append(tuple(group))
            group = None
            continue
        card = card_or_none(token.text)
        if card is None:
            raise fail(f"no such card {token.text!r}", token)
        if group is not None:
            group.append(card)
        elif groups:
            raise fail(f"card {token.text} after the declared groups", token)
        else:
            cards.append(card)
    if group is not None:
        raise fail("unclosed group", group_open)
    _check_arity(draft.verb, cards, fail)
    return Event(
        draft.seat,
        draft.verb,
        tuple(cards),
        tuple(groups),
        tuple(draft.comments),
        draft.line,
        draft.col,
    )


_VERB_NAMES = {
    "x": "discard",
    "d": "draw",
    "m": "meld",
    "w": "win",
    "r": "redeal",
    "c": "call",
    "h": "win call",
}


def _check_arity(verb: str, cards: list[Card], fail: Any) -> None:
    name = _VERB_NAMES[verb]
    if verb in "xd" and len(cards) != 1:
        raise fail(f"a {name} names exactly one card, not {len(cards)}")
    if verb == "r" and cards:
        raise fail("a redeal names no cards")
    if verb in "mwch" and not 1 <= len(cards) <= 4:
        raise fail(f"a {name} names the 1 to 4 cards of its meld, not {len(cards)}")


# --------------------------------------------------------------------------- writing


def canonical_tags(record: Record) -> list[tuple[str, str]]:
    """Tags in canonical order: the known ones first, then unknown ones as they came."""
    tags = record.tags
    order: list[str] = [name for name in KNOWN_ORDER if name in tags]
    order += [f"Seat{n}" for n in range(1, len(record.seats) + 1)]
    order += [name for name in AFTER_SEATS if name in tags]
    placed = set(order)
    order += [name for name in tags if name not in placed]
    return [(name, _tag_value(name, tags[name])) for name in order]


def _tag_value(name: str, value: str) -> str:
    if name in ("Pile", "Lucky"):
        return " ".join(value.split())
    return value


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text + "}"


def write_fcn(record: Record) -> str:
    """The canonical text of a record: tags in canonical order, deal lines in seat order with
    cards in canonical order, events (meld cards sorted) wrapped at 79 columns, comments kept,
    turn numbers dropped. Ends with a newline."""
    out = [f'[{name} "{_escape(value)}"]' for name, value in canonical_tags(record)]
    out.append("")
    for seat in sorted(record.deal):
        out.append(f"{seat}: " + " ".join(c.token for c in sort_cards(record.deal[seat])))
    words: list[str] = [_comment(c) for c in record.comments]
    for event in record.events:
        event = event.canonical()
        words.append(event.text())
        words.extend(_comment(c) for c in event.comments)
    if words:
        out.append("")
        out.extend(_wrap(words))
    return "\n".join(out) + "\n"


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE_WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


# --------------------------------------------------------------------------- the JSON twin


def record_to_json(record: Record) -> dict[str, Any]:
    """The JSON twin: the same data as the canonical text (see docs/notation.md)."""
    events = []
    for event in record.events:
        event = event.canonical()
        item: dict[str, Any] = {"seat": event.seat, "verb": event.verb}
        if event.cards:
            item["cards"] = [c.token for c in event.cards]
        if event.groups:
            item["split"] = [[c.token for c in g] for g in event.groups]
        if event.comments:
            item["comments"] = list(event.comments)
        events.append(item)
    data: dict[str, Any] = {
        "fcn": 1,
        "tags": dict(canonical_tags(record)),
        "deal": {
            str(seat): [c.token for c in sort_cards(record.deal[seat])]
            for seat in sorted(record.deal)
        },
    }
    if record.comments:
        data["comments"] = list(record.comments)
    data["events"] = events
    return data


def record_from_json(data: Any) -> Record:
    """A record from its JSON twin; malformed JSON data raises `FcnSyntaxError`."""

    def fail(message: str, ply: int = 0) -> FcnSyntaxError:
        return FcnSyntaxError(f"JSON record: {message}", ply=ply)

    if not isinstance(data, dict):
        raise fail("expected an object")
    tags = data.get("tags")
    if not isinstance(tags, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in tags.items()
    ):
        raise fail("'tags' must map names to strings")
    if len(tags) > MAX_TAGS:
        raise fail(f"more than {MAX_TAGS} tags")
    for name, value in tags.items():
        if not TAG_NAME_RE.match(name):
            raise fail(f"bad tag name {name!r}")
        # The same rules as the FCN reader, so that the FCN written from it reads back.
        if len(value) > MAX_TAG_VALUE_CHARS:
            raise fail(f"tag {name}: value longer than {MAX_TAG_VALUE_CHARS}")
        if any(ord(c) < 32 for c in value) or _CONTROL.search(value):
            raise fail(f"tag {name}: control character in the value")
    deal_data = data.get("deal")
    if not isinstance(deal_data, dict):
        raise fail("'deal' must map seats to card lists")
    deal: dict[int, tuple[Card, ...]] = {}
    for seat, cards in deal_data.items():
        if not re.fullmatch(r"[0-9]+", str(seat)):
            raise fail(f"bad deal seat {seat!r}")
        deal[int(seat)] = _json_cards(cards, f"deal {seat}", fail)
    comments = data.get("comments", [])
    if not isinstance(comments, list) or not all(isinstance(c, str) for c in comments):
        raise fail("'comments' must be a list of strings")
    comments = [_json_comment(c, fail) for c in comments]
    events_data = data.get("events", [])
    if not isinstance(events_data, list):
        raise fail("'events' must be a list")
    if len(events_data) > MAX_EVENTS:
        raise fail(f"more than {MAX_EVENTS} events")
    events = []
    for ply, item in enumerate(events_data, start=1):
        if not isinstance(item, dict):
            raise fail("an event must be an object", ply)
        seat, verb = item.get("seat"), item.get("verb")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 9:
            raise fail("an event needs a seat digit", ply)
        if not isinstance(verb, str) or len(verb) != 1 or verb not in VERBS:
            raise fail(f"bad verb {verb!r}", ply)
        cards = _json_cards(item.get("cards", []), "event", fail, ply)
        split = item.get("split", [])
        if not isinstance(split, list):
            raise fail("'split' must be a list of card lists", ply)
        groups = tuple(_json_cards(g, "split group", fail, ply) for g in split)
        ev_comments = item.get("comments", [])
        if not isinstance(ev_comments, list) or not all(isinstance(c, str) for c in ev_comments):
            raise fail("'comments' must be a list of strings", ply)
        ev_comments = [_json_comment(c, fail, ply) for c in ev_comments]
        if groups and verb not in "wh":
            raise fail("only a win has a declared split", ply)
        _check_arity(verb, list(cards), lambda m, ply=ply: fail(m, ply))
        events.append(Event(seat, verb, cards, groups, tuple(ev_comments)))
    record = Record(tags=dict(tags), deal=deal, events=events, comments=list(comments))
    try:
        _check_tags(record)
    except FcnError as err:
        raise fail(err.message) from None
    return record


def _json_comment(text: str, fail: Any, ply: int = 0) -> str:
    """A comment as the FCN reader would give it back: no '}', whitespace collapsed."""
    if "}" in text:
        raise fail("a comment cannot contain '}'", ply)
    if len(text) > MAX_COMMENT_CHARS:
        raise fail(f"comment longer than {MAX_COMMENT_CHARS} characters", ply)
    control = _CONTROL.search(text)
    if control is not None:
        raise fail(f"a comment cannot hold a {_control_name(control.group())}", ply)
    return " ".join(text.split())


def _json_cards(value: Any, what: str, fail: Any, ply: int = 0) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise fail(f"{what}: expected a list of cards", ply)
    cards = []
    for token in value:
        card = card_or_none(token) if isinstance(token, str) else None
        if card is None:
            raise fail(f"{what}: no such card {token!r}", ply)
        cards.append(card)
    return tuple(cards)
