"""The tag lines of a record and their checks (required tags, seats, Dealer, Result, Date,
Pile and Lucky shapes: category tags)."""

from __future__ import annotations

import re
from typing import Any

from ..cards import _BY_TOKEN as _CARDS_BY_TOKEN
from ..cards import card_or_none
from ..errors import FcnSyntaxError, LimitError
from ..rulesets import MAX_PLAYERS, SwitchesError, parse_switches
from .model import (
    DATE_RE,
    MAX_TAG_VALUE_CHARS,
    MAX_TAGS,
    RESULT_RE,
    SEAT_TAG_RE,
    Record,
    seat_names,
)
from .names import name_problem, player_key

_DIGITS = re.compile(r"[0-9]+")
_SWITCHES_VALUE = "Switches value"  # a position key: the value's first column
_CARD_TOKENS = frozenset(_CARDS_BY_TOKEN)


def parse_tags(lines: list[str], record: Record, first_line: int) -> int:
    tags = record.tags
    positions = record.positions
    simple_tag = _SIMPLE_TAG.fullmatch
    i = 0
    while i < len(lines):
        line = lines[i]
        number = first_line + i
        simple = simple_tag(line)
        if simple is not None:
            # The usual tag line, read at once (what `parse_tag_line` would give).
            name, value = simple.groups()
            col = simple.start(1)  # the "[" before the name, 1-based
        if simple is None or len(value) > MAX_TAG_VALUE_CHARS:
            stripped = line.strip()
            if not stripped:
                i += 1
                continue
            if not stripped.startswith("["):
                break
            name, value = parse_tag_line(line, number)
            col = line.index("[") + 1
        if name in tags:
            raise FcnSyntaxError("tags.repeated", line=number, col=col, tag=name)
        if len(tags) >= MAX_TAGS:
            raise LimitError("limit.tags", line=number, col=1, n=MAX_TAGS)
        tags[name] = value
        positions[name] = (number, col)
        if name == "Switches":  # its errors point at the item at fault
            positions[_SWITCHES_VALUE] = (number, line.index('"', col) + 2)
        i += 1
    return i


_TAG_VALUE = re.compile(r'((?:[^"\\]|\\["\\])*)')
_ESCAPE = re.compile(r"\\(.)")
# A tag line without escapes nor anything to check: what most tag lines are.
_SIMPLE_TAG = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)\s+"([^"\\\x00-\x1f]*)"\s*\]\s*')


def parse_tag_line(line: str, number: int) -> tuple[str, str]:
    """Name and value of a tag line (one that starts with ``[`` after blanks), escapes read;
    the error for a malformed one. `parse_tags` reads the usual line without it (a property
    test holds the two to the same answers)."""
    col0 = line.index("[")
    body = line[col0 + 1 :]
    m = re.match(r"([A-Za-z][A-Za-z0-9_]*)\s+\"", body)
    if not m:
        quoted = line.strip()[:60]
        raise FcnSyntaxError("tags.malformed", value=quoted, line=number, col=col0 + 1)
    name = m.group(1)
    # The value: plain characters and the two escapes, up to the closing quote.
    value = _TAG_VALUE.match(body, m.end())
    assert value is not None  # it matches the empty value at least
    pos = value.end(1)
    if pos >= len(body):
        raise FcnSyntaxError("tags.unclosed", line=number, col=col0 + 2 + pos, tag=name)
    if body[pos] == "\\":  # an escape of another character
        raise FcnSyntaxError("tags.escape", tag=name, line=number, col=col0 + 2 + pos)
    pos += 1
    rest = body[pos:].strip()
    if rest != "]":
        raise FcnSyntaxError("tags.bracket", tag=name, line=number, col=col0 + 2 + pos)
    text = _ESCAPE.sub(r"\1", value.group(1))
    if len(text) > MAX_TAG_VALUE_CHARS:
        raise LimitError("limit.tag_value", line=number, col=1, tag=name, n=MAX_TAG_VALUE_CHARS)
    if any(ord(c) < 32 for c in text):
        raise FcnSyntaxError("tags.control", tag=name, line=number, col=col0 + 1)
    return name, text


def check_tags(record: Record, *, deal_complete: bool = True) -> None:
    """Required tags, seat numbering, Dealer, Result, Date and Pile shapes (category tags)."""
    if "Ruleset" not in record.tags:
        raise _fail("tags.ruleset_missing", record)
    players = _check_seats(record)
    _check_values(record, players)
    if not deal_complete:
        return
    missing_deal = [n for n in range(1, players + 1) if n not in record.deal]
    if missing_deal:
        raise _fail("deal.missing", record, "deal", n=missing_deal[0])
    extra = [n for n in record.deal if not 1 <= n <= players]
    if extra:
        raise _fail("deal.extra", record, f"deal {extra[0]}", n=extra[0], m=players)


def _fail(code: str, record: Record, at: str | None = None, **params: Any) -> FcnSyntaxError:
    line, col = record.position(at) if at else (record.first_line, 1)
    return FcnSyntaxError(code, line=line, col=col, **params)


def _check_seats(record: Record) -> int:
    """The Seat tags numbered 1..N without a gap, 2 to MAX_PLAYERS of them, each a player's
    name and no player twice: N."""
    tags = record.tags
    names = seat_names(tags)
    seat_numbers = sorted(
        int(m.group(1)) for name in tags if (m := SEAT_TAG_RE.match(name)) is not None
    )
    if not seat_numbers:
        raise _fail("tags.seat1_missing", record)
    if seat_numbers != list(range(1, len(seat_numbers) + 1)):
        missing = next(n for n in range(1, len(seat_numbers) + 2) if n not in seat_numbers)
        raise _fail("tags.seat_gap", record, n=missing)
    if not 2 <= len(seat_numbers) <= MAX_PLAYERS:
        raise _fail("tags.seat_count", record, "Seat1", n=len(seat_numbers), m=MAX_PLAYERS)
    seated: dict[str, int] = {}
    for n, seat_name in enumerate(names, start=1):  # the seats are 1..N here
        problem = name_problem(seat_name)
        if problem is not None:
            code, detail = problem
            raise _fail(code, record, f"Seat{n}", n=n, value=seat_name, value2=detail)
        other = seated.setdefault(player_key(seat_name), n)
        if other != n:
            raise _fail(
                "tags.same_player", record, f"Seat{n}",
                n=n, value=seat_name, m=other, value2=names[other - 1],
            )  # fmt: skip
    return len(seat_numbers)


def _check_values(record: Record, players: int) -> None:
    """The shapes of Dealer, Result, Switches, Date, Pile and Lucky."""
    tags = record.tags
    dealer = tags.get("Dealer")
    if dealer is None:
        raise _fail("tags.dealer_missing", record)
    if not _DIGITS.fullmatch(dealer) or not 1 <= int(dealer) <= players:
        raise _fail("tags.dealer_bad", record, "Dealer", value=dealer)
    result = tags.get("Result")
    if result is not None:
        m = RESULT_RE.match(result)
        if m is None or (m.group(1) and int(m.group(1)) > players):
            raise _fail("tags.result", record, "Result", value=result)
    switches = tags.get("Switches")
    if switches is not None:
        try:
            parse_switches(switches)
        except SwitchesError as err:
            line, col = record.positions.get(_SWITCHES_VALUE, record.position("Switches"))
            raise FcnSyntaxError(err.code, line=line, col=col + err.offset, **err.params) from None
    date = tags.get("Date")
    if date is not None and not DATE_RE.match(date):
        raise _fail("tags.date", record, "Date", value=date)
    for name in ("Pile", "Lucky"):
        if name not in tags:
            continue
        words = tags[name].split()
        if not _CARD_TOKENS.issuperset(words):
            for word in words:
                if card_or_none(word) is None:
                    raise _fail("tags.card", record, name, tag=name, value=word)
        if name == "Lucky" and len(words) != 1:
            raise _fail("tags.lucky_one", record, name)
