"""The JSON twin of a record: the same data as the canonical text (see docs/notation.md)."""

from __future__ import annotations

import re
from typing import Any

from ..cards import Card, card_or_none, sort_cards
from ..errors import FcnError, FcnSyntaxError
from .event import VERBS, Event, check_arity
from .model import MAX_COMMENT_CHARS, MAX_EVENTS, MAX_TAG_VALUE_CHARS, MAX_TAGS, TAG_NAME_RE, Record
from .names import CONTROL, control_name
from .tags import check_tags
from .writer import canonical_tags


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
    if not isinstance(data, dict):
        raise _fail("json.object")
    tags = _json_tags(data.get("tags"))
    deal_data = data.get("deal")
    if not isinstance(deal_data, dict):
        raise _fail("json.deal")
    deal: dict[int, tuple[Card, ...]] = {}
    for seat, cards in deal_data.items():
        if not re.fullmatch(r"[0-9]+", str(seat)):
            raise _fail("json.deal_seat", value=seat)
        deal[int(seat)] = _json_cards(cards, f"deal {seat}")
    comments = _json_comments(data.get("comments", []))
    events_data = data.get("events", [])
    if not isinstance(events_data, list):
        raise _fail("json.events")
    if len(events_data) > MAX_EVENTS:
        raise _fail("limit.events", n=MAX_EVENTS)
    events = [_json_event(item, ply) for ply, item in enumerate(events_data, start=1)]
    record = Record(tags=tags, deal=deal, events=events, comments=comments)
    try:
        check_tags(record)
    except FcnError as err:
        raise _fail(err.code, **err.params) from None
    return record


def _fail(code: str, ply: int = 0, **params: Any) -> FcnSyntaxError:
    return FcnSyntaxError(code, category="syntax", ply=ply, **params)


def _json_tags(tags: Any) -> dict[str, str]:
    """The tags, held to the same rules as the FCN reader's, so that the FCN written from
    them reads back."""
    if not isinstance(tags, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in tags.items()
    ):
        raise _fail("json.tags")
    if len(tags) > MAX_TAGS:
        raise _fail("limit.tags", n=MAX_TAGS)
    for name, value in tags.items():
        if not TAG_NAME_RE.match(name):
            raise _fail("json.tag_name", value=name)
        if len(value) > MAX_TAG_VALUE_CHARS:
            raise _fail("limit.tag_value", tag=name, n=MAX_TAG_VALUE_CHARS)
        if any(ord(c) < 32 for c in value) or CONTROL.search(value):
            raise _fail("tags.control", tag=name)
    return dict(tags)


def _json_event(item: Any, ply: int) -> Event:
    if not isinstance(item, dict):
        raise _fail("json.event", ply)
    seat, verb = item.get("seat"), item.get("verb")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 9:
        raise _fail("json.seat", ply)
    if not isinstance(verb, str) or len(verb) != 1 or verb not in VERBS:
        raise _fail("json.verb", ply, value=verb)
    cards = _json_cards(item.get("cards", []), "event", ply)
    split = item.get("split", [])
    if not isinstance(split, list):
        raise _fail("json.split", ply)
    groups = tuple(_json_cards(g, "split group", ply) for g in split)
    comments = _json_comments(item.get("comments", []), ply)
    if groups and verb not in "wh":
        raise _fail("json.split_verb", ply)
    check_arity(verb, list(cards), lambda code, **params: _fail(code, ply, **params))
    return Event(seat, verb, cards, groups, tuple(comments))


def _json_comments(value: Any, ply: int = 0) -> list[str]:
    """Comments as the FCN reader would give them back: no '}', whitespace collapsed."""
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _fail("json.comments", ply)
    for text in value:
        if "}" in text:
            raise _fail("syntax.comment_brace", ply)
        if len(text) > MAX_COMMENT_CHARS:
            raise _fail("limit.comment", ply, n=MAX_COMMENT_CHARS)
        control = CONTROL.search(text)
        if control is not None:
            raise _fail("json.comment_control", ply, value=control_name(control.group()))
    return [" ".join(text.split()) for text in value]


def _json_cards(value: Any, what: str, ply: int = 0) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise _fail("json.card_list", ply, value=what)
    cards = []
    for token in value:
        card = card_or_none(token) if isinstance(token, str) else None
        if card is None:
            raise _fail("json.card", ply, value=what, value2=token)
        cards.append(card)
    return tuple(cards)
