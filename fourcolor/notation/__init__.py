"""FCN, the Four Color Notation: reading, canonical writing and the JSON twin.

The parser is kept apart from the game: it turns text into a `Record` (tags, deal, events with
their positions) and reports malformed text as `FcnSyntaxError`. Whether the events are a legal
round is the business of `fourcolor.game`. See docs/notation.md for the grammar.
"""

from .event import VERBS, Event
from .files import iter_records
from .model import (
    AFTER_SEATS,
    KNOWN_ORDER,
    LINE_WIDTH,
    MAX_COMMENT_CHARS,
    MAX_EVENTS,
    MAX_LINE_CHARS,
    MAX_RECORD_CHARS,
    MAX_TAG_VALUE_CHARS,
    MAX_TAGS,
    TURN_NUMBER_RE,
    Record,
    RecordText,
)
from .names import name_problem, player_key
from .reader import parse_record
from .twin import record_from_json, record_to_json
from .writer import canonical_tags, write_fcn

__all__ = [
    "AFTER_SEATS",
    "KNOWN_ORDER",
    "LINE_WIDTH",
    "MAX_COMMENT_CHARS",
    "MAX_EVENTS",
    "MAX_LINE_CHARS",
    "MAX_RECORD_CHARS",
    "MAX_TAG_VALUE_CHARS",
    "MAX_TAGS",
    "TURN_NUMBER_RE",
    "VERBS",
    "Event",
    "Record",
    "RecordText",
    "canonical_tags",
    "iter_records",
    "name_problem",
    "parse_record",
    "player_key",
    "record_from_json",
    "record_to_json",
    "write_fcn",
]
