"""What a record is once read: the `Record` (tags, deal, events and where each
was written), a record's text as it stands in a file (`RecordText`), and the limits and names
the notation fixes (docs/notation.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..cards import Card
from ..errors import FcnSyntaxError
from .event import Event

# Hostile input is bounded: a real round has a few hundred events in a few KiB.
MAX_RECORD_CHARS = 256 * 1024
MAX_LINE_CHARS = 4096
MAX_TAGS = 64
MAX_TAG_VALUE_CHARS = 1024
MAX_EVENTS = 2000
MAX_COMMENT_CHARS = 2000

KNOWN_ORDER = ("Event", "Site", "Date", "Match", "Round", "Ruleset", "Switches")
AFTER_SEATS = ("Dealer", "Result", "Pile", "Lucky")
RESULT_RE = re.compile(r"^(?:([1-9]):(0|[1-9][0-9]{0,3})|-|R|\*)$")
DATE_RE = re.compile(r"^[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}$")
SEAT_TAG_RE = re.compile(r"^Seat([1-9][0-9]*)$")
TAG_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
TURN_NUMBER_RE = re.compile(r"^[0-9]+\.+$")
DEAL_RE = re.compile(r"^\s*([0-9]+)\s*:")
LINE_WIDTH = 79


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

    def __eq__(self, other: object) -> bool:
        """Records are equal when they say the same: tags, deal, events and every comment (an
        event's own equality leaves its comments out); not where things were written."""
        if not isinstance(other, Record):
            return NotImplemented
        return (
            self.tags == other.tags
            and self.deal == other.deal
            and self.comments == other.comments
            and [(e, e.comments) for e in self.events] == [(e, e.comments) for e in other.events]
        )

    @property
    def ruleset_name(self) -> str:
        return self.tags["Ruleset"]

    @property
    def seats(self) -> tuple[str, ...]:
        # Computed on each call, not cached: `tags` is a plain dict that callers may change.
        return seat_names(self.tags)

    @property
    def players(self) -> int:
        return len(seat_names(self.tags))

    @property
    def dealer(self) -> int:
        return int(self.tags["Dealer"])

    def tag(self, name: str) -> str | None:
        return self.tags.get(name)

    def position(self, key: str) -> tuple[int, int]:
        return self.positions.get(key, (self.first_line, 1))


def seat_names(tags: dict[str, str]) -> tuple[str, ...]:
    """The values of Seat1, Seat2, ... up to the first one missing."""
    names: list[str] = []
    while (name := tags.get(f"Seat{len(names) + 1}")) is not None:
        names.append(name)
    return tuple(names)


@dataclass(frozen=True, slots=True)
class RecordText:
    """One record of a file, as it stands there."""

    index: int
    line: int
    text: str
    oversize: bool = False
