"""The canonical text of a record (`write_fcn`): tags in canonical order, deal lines in seat
order, events with meld cards sorted and wrapped at `LINE_WIDTH` columns, comments kept."""

from __future__ import annotations

from ..cards import sort_cards
from ..rulesets import SwitchesError, format_switches, parse_switches
from .model import AFTER_SEATS, KNOWN_ORDER, LINE_WIDTH, Record


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
    if name == "Switches":
        try:
            return format_switches(parse_switches(value))
        except SwitchesError:
            return value  # a record built by hand: written as it is (it does not validate)
    return value


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text + "}"


# (seat, verb, cards, groups) -> the event's canonical word; cleared when it grows past the
# limit (a hostile file of ever-new declared splits cannot make it grow without bound).
_WORDS: dict[tuple[object, ...], str] = {}
_WORDS_LIMIT = 50_000


def write_fcn(record: Record) -> str:
    """The canonical text of a record: tags in canonical order, deal lines in seat order with
    cards in canonical order, events (meld cards sorted) wrapped at 79 columns, comments kept,
    turn numbers dropped. Ends with a newline."""
    out = [f'[{name} "{_escape(value)}"]' for name, value in canonical_tags(record)]
    out.append("")
    for seat in sorted(record.deal):
        out.append(f"{seat}: " + " ".join(c.token for c in sort_cards(record.deal[seat])))
    words: list[str] = [_comment(c) for c in record.comments]
    known = _WORDS
    if len(known) > _WORDS_LIMIT:
        known.clear()
    for event in record.events:
        # An event's word depends on its seat, verb, cards and declared split only, and a few
        # thousand distinct words make up every record: written once each (the import writes
        # every record's canonical text).
        key = event[:4]
        word = known.get(key)
        if word is None:
            word = known[key] = event.canonical().text()
        words.append(word)
        if event.comments:
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
