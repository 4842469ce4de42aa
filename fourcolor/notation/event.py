"""One event: `Event`, the verbs and their arity, and `parse_event` (`Event.parse`), which reads
one event's text with the same assembly the section reader (`events`) uses for an event holding
groups or a fault (docs/notation.md, "Events")."""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from ..cards import Card, card_or_none, sort_cards
from ..errors import FcnSyntaxError

VERBS = "xdmwrch"  # discard, draw, meld, win, redeal; extensions: call, hu call (see docs)
# "1x" -> (1, "x"): every event head there is.
HEADS = {f"{seat}{verb}": (seat, verb) for seat in range(10) for verb in VERBS}
# How many cards each verb names (fewest, most).
ARITY = {"x": (1, 1), "d": (1, 1), "m": (1, 4), "w": (1, 4), "c": (1, 4), "h": (1, 4), "r": (0, 0)}
VERB_NAMES = {
    "x": "discard",
    "d": "draw",
    "m": "meld",
    "w": "win",
    "r": "redeal",
    "c": "call",
    "h": "win call",
}


class Event(NamedTuple):
    """One event: seat, verb letter, cards, and for a win the declared split of the rest.

    A named tuple: immutable and cheap to build (a round has hundreds; use ``_replace``).
    Two events are equal when they are the same move, written canonically alike (`str`):
    the comments and where the event was written (`line`, `col`) never count, nor the order
    of a meld's cards, so a parsed record's event is `in round.legal_events()`."""

    seat: int
    verb: str
    cards: tuple[Card, ...] = ()
    groups: tuple[tuple[Card, ...], ...] = ()
    comments: tuple[str, ...] = ()
    line: int = 0
    col: int = 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return False  # not even a plain tuple of the same fields
        if (
            self.seat == other.seat
            and self.verb == other.verb
            and self.cards == other.cards
            and self.groups == other.groups
        ):
            return True
        return self.verb in "mwch" and self.move() == other.move()

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.move())

    def __str__(self) -> str:
        return self.canonical().text()

    @classmethod
    def parse(cls, text: str, *, ply: int = 0) -> Event:
        """One event's text, as `chess.Move.from_uci` reads a move: ``Event.parse("3x rK")``.
        Read as an event of a record is (any blanks between words, a meld's cards in any
        order); a comment or a second event is refused. `FcnSyntaxError` (a ValueError) in the
        reader's words, quoting the text, with the line and column of the first fault and
        `ply` (the number the event would have). Any seat digit is read: whether the round has
        that seat is for `Round.push` to say."""
        return parse_event(text, ply)

    def move(self) -> tuple[int, str, tuple[Card, ...], tuple[tuple[Card, ...], ...]]:
        """What equality compares: seat, verb, cards and declared split, in canonical order."""
        return self.canonical()[:4]

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
            groups = tuple(tuple(sort_cards(g)) for g in self.groups)
            return self._replace(cards=tuple(sort_cards(self.cards)), groups=groups)
        return self


class Token(NamedTuple):
    """A word of an event beyond its head and plain cards, where it was written."""

    kind: str  # "word", "open", "close", "stray", "unclosed-comment"
    text: str
    line: int
    col: int


KINDS = {"(": "open", ")": "close", "}": "stray"}

# One event's words as `parse_event` reads them: a word, a parenthesis, a brace or a line end.
_EVENT_WORDS = re.compile(r"[(){}\n]|[^\s(){}]+")
_QUOTED = 60  # how much of a long text an error quotes


def parse_event(text: str, ply: int = 0) -> Event:
    """`Event.parse`: one event's text ("3x rK", "4w rK rA rE (gP gP)"), read as an event of a
    record is, with no comment and no second event."""
    quoted = text if len(text) <= _QUOTED else text[:_QUOTED] + "\u2026"
    tokens: list[Token] = []
    line, line_start = 1, 0
    for m in _EVENT_WORDS.finditer(text):
        word = m.group()
        if word == "\n":
            line, line_start = line + 1, m.end()
            continue
        col = m.start() - line_start + 1
        if word in "{}" or (tokens and word in HEADS):
            code = "event.comment" if word in "{}" else "event.second"
            raise FcnSyntaxError(code, value=word, line=line, col=col, ply=ply, event=quoted)
        tokens.append(Token(KINDS.get(word, "word"), word, line, col))
    if not tokens:
        raise FcnSyntaxError("event.none", line=1, col=1, ply=ply, event=quoted)
    first = tokens[0]
    head = HEADS.get(first.text)
    if head is None:
        raise FcnSyntaxError(
            "syntax.event", value=first.text, line=first.line, col=first.col, ply=ply, event=quoted
        )
    event = assemble(head[0], head[1], [], tokens[1:], (), first.line, first.col, ply)
    return event._replace(line=0, col=0)  # read from no record


def assemble(
    seat: int,
    verb: str,
    cards: list[Card],
    tokens: list[Token],
    comments: tuple[str, ...],
    line: int,
    col: int,
    ply: int,
) -> Event:
    """An event with groups or a fault: its tokens read in order, the first fault raised.
    `cards` are those before its first unusual token."""

    def fail(code: str, token: Token | None = None, **params: Any) -> FcnSyntaxError:
        at = (token.line, token.col) if token else (line, col)
        text = " ".join([f"{seat}{verb}", *(c.token for c in cards[:first])])
        for t in tokens:
            if t.kind != "unclosed-comment":
                text += ("" if t.kind == "close" or text.endswith("(") else " ") + t.text
        return FcnSyntaxError(code, line=at[0], col=at[1], ply=ply, event=text, **params)

    first = len(cards)
    groups: list[tuple[Card, ...]] = []
    group: list[Card] | None = None
    group_open: Token | None = None
    for token in tokens:
        if token.kind == "unclosed-comment":
            raise fail("syntax.unclosed_comment", token)
        if token.kind == "stray":
            raise fail("syntax.stray_brace", token)
        if token.kind == "open":
            if verb not in "wh":
                raise fail("syntax.group_verb", token, verb_name=VERB_NAMES[verb])
            if group is not None:
                raise fail("syntax.unclosed_group", group_open)
            group, group_open = [], token
            continue
        if token.kind == "close":
            if group is None:
                raise fail("syntax.stray_paren", token)
            if not group:
                raise fail("syntax.empty_group", token)
            groups.append(tuple(group))
            group = None
            continue
        card = card_or_none(token.text)
        if card is None:
            raise fail("syntax.card", token, value=token.text)
        if group is not None:
            group.append(card)
        elif groups:
            raise fail("syntax.after_groups", token, card=token.text)
        else:
            cards.append(card)
    if group is not None:
        raise fail("syntax.unclosed_group", group_open)
    check_arity(verb, cards, fail)
    return Event(seat, verb, tuple(cards), tuple(groups), comments, line, col)


def check_arity(verb: str, cards: list[Card], fail: Any) -> None:
    """Raise `fail(code, **params)` when `cards` are not as many as `verb` names."""
    name = VERB_NAMES[verb]
    if verb in "xd" and len(cards) != 1:
        raise fail("syntax.one_card", verb_name=name, n=len(cards))
    if verb == "r" and cards:
        raise fail("syntax.redeal_cards")
    if verb in "mwch" and not 1 <= len(cards) <= 4:
        raise fail("syntax.meld_cards", verb_name=name, n=len(cards))
