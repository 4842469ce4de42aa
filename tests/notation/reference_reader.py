"""A reference event reader (a token stream, then one draft per event): the
oracle the production reader (`fourcolor.notation.events`) is compared with on every layout.

Kept verbatim apart from the fast paths, which are gone: every event goes through the tokens.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from fourcolor.cards import Card, card_or_none
from fourcolor.errors import FcnSyntaxError, LimitError
from fourcolor.notation import MAX_COMMENT_CHARS, MAX_EVENTS, TURN_NUMBER_RE, VERBS, Event, Record


class _Token(NamedTuple):
    kind: str  # "word", "open", "close", "comment", "stray"
    text: str
    line: int
    col: int


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


def reference_events(lines: list[str], i: int, record: Record, first_line: int) -> None:
    """Fill `record.events`. At the first malformed event, the events before it are kept and
    the error is stored in `record.syntax_error`: the validator reports a rule broken by an
    earlier event first, since faults are reported in event order."""
    drafts: list[_Draft] = []
    try:
        for token in _tokens(lines, i, first_line):
            if token.kind == "comment":
                if len(token.text) > MAX_COMMENT_CHARS:
                    raise LimitError(
                        "limit.comment",
                        n=MAX_COMMENT_CHARS,
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
                        "syntax.event",
                        value=token.text,
                        line=token.line,
                        col=token.col,
                        ply=len(drafts) + 1,
                        event=token.text,
                    )
                if len(drafts) >= MAX_EVENTS:
                    raise LimitError(
                        "limit.events",
                        n=MAX_EVENTS,
                        line=token.line,
                        col=token.col,
                        ply=len(drafts) + 1,
                        event=token.text,
                    )
                drafts.append(_Draft(head[0], head[1], token.line, token.col))
                continue
            if not drafts:
                if token.kind == "unclosed-comment":
                    raise FcnSyntaxError(
                        "syntax.comment_first", line=token.line, col=token.col, ply=0
                    )
                raise FcnSyntaxError(
                    "syntax.before_first", line=token.line, col=token.col, ply=0,
                    value=token.text,
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
    def fail(code: str, token: _Token | None = None, **params: Any) -> FcnSyntaxError:
        line, col = (token.line, token.col) if token else (draft.line, draft.col)
        return FcnSyntaxError(
            code, line=line, col=col, ply=ply, event=_draft_text(draft), **params
        )

    cards: list[Card] = []
    groups: list[tuple[Card, ...]] = []
    group: list[Card] | None = None
    group_open: _Token | None = None
    for token in draft.tokens:
        if token.kind == "unclosed-comment":
            raise fail("syntax.unclosed_comment", token)
        if token.kind == "stray":
            raise fail("syntax.stray_brace", token)
        if token.kind == "open":
            if draft.verb not in "wh":
                raise fail("syntax.group_verb", token, verb_name=_VERB_NAMES[draft.verb])
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
        raise fail("syntax.one_card", verb_name=name, n=len(cards))
    if verb == "r" and cards:
        raise fail("syntax.redeal_cards")
    if verb in "mwch" and not 1 <= len(cards) <= 4:
        raise fail("syntax.meld_cards", verb_name=name, n=len(cards))


# --------------------------------------------------------------------------- writing
