"""The event section of a record: the one reader of events, for every layout.

One regular expression cuts the section into tokens, and one loop turns them into events: an
event head with the cards that follow it on its line is one token (the usual event, looked up
in a cache by its text), and so are more cards of the open event (after a line break, a comment
or a group), a comment (which may span lines), a turn number and a line end. Anything else, a
word or a parenthesis, is one token too; an event holding one is assembled by `event.assemble`,
which finds its first fault in reading order (docs/notation.md, "Events").

Errors are kept in reading order: the faults inside an event are found when the event ends
(at the next head or the section's end), a comment over the limit or a word before the first
event when it is read.
"""

from __future__ import annotations

import re
from typing import Any

from ..cards import _BY_TOKEN as _CARDS_BY_TOKEN
from ..cards import Card
from ..errors import FcnSyntaxError, LimitError
from .event import ARITY, HEADS, KINDS, Event, Token, assemble, check_arity
from .model import MAX_COMMENT_CHARS, MAX_EVENTS, Record

# The tokens, by group: 1 events one space apart on a line, each a head and its cards (the
# canonical layout: a line of the writer is one token), 2 the line end after them if that is
# what follows; 3 more cards of the open event; 4 a line end; 5 and 6 a comment's text and its
# closing brace ("" when the section ends first); 7 a turn number; 8 any other word, or a
# parenthesis or a stray brace.
# A word ends at a blank, a parenthesis or a brace. Blanks other than line ends are skipped;
# nothing else is (group 7 takes any other character), so the tokens cover the section.
# A turn number followed by a blank and more on its line is skipped with the blanks before the
# token after it (turn numbers are read and ignored: one loop pass fewer each); one at a line's
# end or before a parenthesis or brace is still group 7.
_TOKENS = re.compile(
    r"(?:[^\S\n]*+[0-9]++\.++(?=[^\S\n]++\S))*+[^\S\n]*+(?:"
    r"([0-9][xdmwrch](?: [rygw][KAERHCP])*+(?: [0-9][xdmwrch](?: [rygw][KAERHCP])*+)*+)"
    r"(?![^\s(){}])[^\S\n]*+(\n)?"
    r"|([rygw][KAERHCP](?:[^\S\n]++[rygw][KAERHCP])*+)(?![^\s(){}])"
    r"|(\n)"
    r"|\{([^}]*+)(\}?)"
    r"|([0-9]++\.++)(?![^\s(){}])"
    r"|([()}]|[^\s(){}]++)"
    r")"
)
_EVENTS, _EVENTS_LINE_END, _CARDS, _LINE_END, _COMMENT, _TURN, _OTHER = 1, 2, 3, 4, 6, 7, 8
_WORD = re.compile(r"\S+")
# Where a token of events one space apart splits into events: a space before a seat digit.
_EVENT_GAP = re.compile(r" (?=[0-9])")

# Event text ("2m rE rE") -> seat, verb, cards and no groups nor comments, for texts whose
# cards fit their verb. Few distinct texts recur (a seat, a verb and a meld's cards), so a
# bounded cache saves splitting and looking up the words of most events.
_Value = tuple[int, str, tuple[Card, ...], tuple[()], tuple[str, ...]]
_CACHE: dict[str, _Value] = {}
_CACHE_SIZE = 20_000
_new_event = tuple.__new__  # an Event from a plain tuple, without the Python-level __new__


class _Open:
    """What the open event has beyond its first token: more cards, comments and, from its
    first unusual token (a group, a word that is no card...) on, every token in order."""

    __slots__ = ("cards", "comments", "tokens")

    def __init__(self) -> None:
        self.cards: list[Card] = []
        self.comments: list[str] = []
        self.tokens: list[Token] | None = None

    def add_cards(self, text: str, line: int, col: int) -> None:
        if self.tokens is None:
            self.cards += [_CARDS_BY_TOKEN[w] for w in text.split()]
        else:
            self.tokens += [
                Token("word", m.group(), line, col + m.start()) for m in _WORD.finditer(text)
            ]

    def add_token(self, token: Token) -> None:
        if self.tokens is None:
            self.tokens = []
        self.tokens.append(token)


def read_events(section: str, line: int, record: Record) -> None:
    """Fill `record.events` from the event section `section` (from line `line` of the file).
    At the first malformed event, keep the events before it and store the error in
    `record.syntax_error` (faults are reported in event order: an earlier rule broken first)."""
    append = record.events.append
    cache_get = _CACHE.get
    split = _EVENT_GAP.split
    line_start = 0  # where the current line starts in `section`
    ply = 0  # events begun
    value: _Value | None = None  # the open event's first token
    at_line = at_col = 0  # where its head is
    more: _Open | None = None  # what the open event has beyond that first token
    try:
        for m in _TOKENS.finditer(section):
            kind: int = m.lastindex  # type: ignore[assignment]  # every token is a group
            if kind <= _EVENTS_LINE_END:
                if value is not None:  # the open event ends
                    if more is None:
                        append(_new_event(Event, value + (at_line, at_col)))
                    else:
                        append(_finish(value, more, at_line, at_col, ply))
                texts = split(m[1])
                values = list(map(cache_get, texts))
                col = m.start(1) - line_start + 1
                last = len(texts) - 1
                if all(values) and ply + last < MAX_EVENTS:  # the usual
                    for k in range(last):
                        append(_new_event(Event, values[k] + (line, col)))  # type: ignore[operator]
                        col += len(texts[k]) + 1
                    ply += last + 1
                    value, more = values[last], None
                    at_line, at_col = line, col
                else:  # one by one: a text not seen, or the limit
                    ply, value, more, at_col = _read_events(texts, values, line, col, ply, append)
                    at_line = line
            elif kind == _CARDS:  # more cards of the open event
                if value is None:
                    raise _before_first(m[3].split()[0], line, m.start(3) - line_start + 1)
                more = more or _Open()
                more.add_cards(m[3], line, m.start(3) - line_start + 1)
            elif kind == _COMMENT:
                more = _read_comment(
                    m[5], m[6], line, m.start(5) - line_start, ply, value, more, record
                )
                if "\n" in m[5]:
                    line += m[5].count("\n")
                    line_start = section.rindex("\n", 0, m.end()) + 1
            elif kind == _OTHER:
                col = m.start(8) - line_start + 1
                opened = _read_word(m[8], line, col, ply, value, more, at_line, at_col, append)
                ply, value, more, at_line, at_col = opened
            if kind == _EVENTS_LINE_END or kind == _LINE_END:
                line += 1
                line_start = m.end()
        if value is not None:
            append(_finish(value, more or _Open(), at_line, at_col, ply))
    except FcnSyntaxError as err:
        record.syntax_error = err


_Opened = tuple[int, "_Value | None", "_Open | None", int, int]


def _read_events(
    texts: list[str], values: list[_Value | None], line: int, col: int, ply: int, append: Any
) -> tuple[int, _Value, _Open | None, int]:
    """Events one space apart on a line, read one by one (an event text the cache does not
    know, or the events limit near): the events begun, the last (open) event and its column."""
    value: _Value | None = None
    more: _Open | None = None
    for k, text in enumerate(texts):
        if value is not None:
            append(_finish(value, more or _Open(), line, col, ply))
            col += len(texts[k - 1]) + 1
        if ply >= MAX_EVENTS:
            raise _too_many(text[:2], line, col, ply)
        ply += 1
        value, more = values[k], None
        if value is None:
            value, fits = _value(text)
            if not fits:
                more = _Open()  # more cards may follow; `_finish` counts them
    assert value is not None  # a token holds at least one event
    return ply, value, more, col


def _read_comment(
    body: str,
    closed: str,
    line: int,
    col: int,
    ply: int,
    value: _Value | None,
    more: _Open | None,
    record: Record,
) -> _Open | None:
    """A comment (`col` is its brace's): the record's before the first event, else the open
    event's; a comment the section ends in is the open event's fault."""
    if not closed:  # no closing brace before the section ends
        if value is None:
            raise FcnSyntaxError("syntax.comment_first", line=line, col=col, ply=0)
        more = more or _Open()
        more.add_token(Token("unclosed-comment", "{", line, col))
        return more
    comment = " ".join(body.split())
    if len(comment) > MAX_COMMENT_CHARS:
        raise LimitError("limit.comment", n=MAX_COMMENT_CHARS, line=line, col=col, ply=max(ply, 1))
    if value is None:
        record.comments.append(comment)
        return more
    more = more or _Open()
    more.comments.append(comment)
    return more


def _read_word(
    word: str,
    line: int,
    col: int,
    ply: int,
    value: _Value | None,
    more: _Open | None,
    at_line: int,
    at_col: int,
    append: Any,
) -> _Opened:
    """Any other word, a parenthesis or a stray brace: a head with no card after it on its
    line begins an event; anything else is the open event's."""
    if word[0] in "0123456789":  # a head with no card after it on its line, or no head
        head = HEADS.get(word)
        if value is not None:
            append(_finish(value, more or _Open(), at_line, at_col, ply))
        if head is None:
            raise FcnSyntaxError(
                "syntax.event", value=word, line=line, col=col, ply=ply + 1, event=word
            )
        if ply >= MAX_EVENTS:
            raise _too_many(word, line, col, ply)
        return ply + 1, (head[0], head[1], (), (), ()), _Open(), line, col
    if value is None:
        raise _before_first(word, line, col)
    more = more or _Open()
    card = _CARDS_BY_TOKEN.get(word)
    if card is not None and more.tokens is None:
        more.cards.append(card)  # a card glued to a bad word after it ("yE yKz")
    else:
        more.add_token(Token(KINDS.get(word, "word"), word, line, col))
    return ply, value, more, at_line, at_col


def _value(text: str) -> tuple[_Value, bool]:
    """Seat, verb and cards of an event token's text, and whether the cards fit the verb (the
    value is then kept in the cache)."""
    head, *words = text.split()
    seat, verb = HEADS[head]
    value: _Value = (seat, verb, tuple([_CARDS_BY_TOKEN[w] for w in words]), (), ())
    low, high = ARITY[verb]
    fits = low <= len(words) <= high
    if fits and len(_CACHE) < _CACHE_SIZE:
        _CACHE[text] = value
    return value, fits


def _too_many(head: str, line: int, col: int, ply: int) -> LimitError:
    return LimitError("limit.events", line=line, col=col, ply=ply + 1, event=head, n=MAX_EVENTS)


def _before_first(word: str, line: int, col: int) -> FcnSyntaxError:
    return FcnSyntaxError("syntax.before_first", line=line, col=col, ply=0, value=word)


def _finish(value: _Value, more: _Open, line: int, col: int, ply: int) -> Event:
    """The open event, once it ends: its cards counted, its unusual tokens read."""
    seat, verb, cards = value[0], value[1], value[2]
    if more.cards:
        cards += tuple(more.cards)
    if more.tokens is not None:
        return assemble(seat, verb, list(cards), more.tokens, tuple(more.comments), line, col, ply)
    low, high = ARITY[verb]
    if not low <= len(cards) <= high:

        def fail(code: str, **params: Any) -> FcnSyntaxError:
            text = " ".join([f"{seat}{verb}", *(c.token for c in cards)])
            return FcnSyntaxError(code, line=line, col=col, ply=ply, event=text, **params)

        check_arity(verb, list(cards), fail)
    return _new_event(Event, (seat, verb, cards, (), tuple(more.comments), line, col))
