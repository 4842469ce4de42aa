"""What makes two records one round, and what else differs between them.

A round is what was played: the ruleset and its switches, who sat where (names compared as
`player_key`s), the dealer, the deal, the pile and lucky card when given, and the events. The
`Result` tag (the engine derives it), comments and the descriptive tags (`Event`, `Site`,
`Date`, `Match`, `Round`, and any tag the notation does not define) describe a round without
making another one: a record and the same record with a `Result` tag or comments added are one
round (`identity_text` equal), and `differences` says what the second adds or changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import sort_cards
from .model import Record
from .names import player_key
from .writer import canonical_tags

# Tags that are part of what was played (besides SeatN): their canonical values are compared.
PLAYED_TAGS = ("Ruleset", "Switches", "Dealer", "Pile", "Lucky")


def _played(name: str) -> bool:
    return name in PLAYED_TAGS or (name.startswith("Seat") and name[4:].isdigit())


def identity_text(record: Record) -> str:
    """The round's identity as text: equal for two records exactly when they record the same
    round (hash it to index it). Not a record: no comments, names as `player_key`s."""
    lines = []
    tags = record.tags
    for name, value in canonical_tags(record):
        # With a pile, the lucky card follows from it (written or not, it is one round).
        if _played(name) and not (name == "Lucky" and "Pile" in tags):
            lines.append(f"{name}={player_key(value) if name.startswith('Seat') else value}")
    for seat in sorted(record.deal):
        lines.append(f"{seat}: " + " ".join(c.token for c in sort_cards(record.deal[seat])))
    lines.append(" ".join(event.canonical().text() for event in record.events))
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Difference:
    """One way a record of a round differs from another record of the same round.

    `code` names it (the words are the consumers': the archive words and translates them);
    `params` are its values: `count` for comments, `tag` (and `value`) for tags, `seat` for a
    name written otherwise."""

    code: str
    params: dict[str, object] = field(default_factory=dict)


def _comment_count(record: Record) -> int:
    return len(record.comments) + sum(len(event.comments) for event in record.events)


def differences(stored: Record, new: Record) -> list[Difference]:
    """What `new` adds to or changes in `stored`, two records of one round (their
    `identity_text`s equal), in a fixed order: tags, names, comments. Empty: the same record,
    but for layout (spacing, line breaks, turn numbers, the order of tags or cards)."""
    found: list[Difference] = []
    old_tags, new_tags = dict(canonical_tags(stored)), dict(canonical_tags(new))
    for name, value in new_tags.items():
        if name.startswith("Seat") and name[4:].isdigit():
            if old_tags.get(name) != value:
                found.append(Difference("name_written", {"seat": int(name[4:]),
                                                         "old": old_tags.get(name, ""),
                                                         "value": value}))
        elif name not in old_tags:
            found.append(Difference("tag_added", {"tag": name, "value": value}))
        elif old_tags[name] != value:
            found.append(Difference("tag_changed", {"tag": name, "old": old_tags[name],
                                                    "value": value}))
    for name in old_tags:
        if name not in new_tags:
            found.append(Difference("tag_removed", {"tag": name, "old": old_tags[name]}))
    old_count, new_count = _comment_count(stored), _comment_count(new)
    if new_count > old_count:
        found.append(Difference("comments_added", {"count": new_count - old_count}))
    elif new_count < old_count:
        found.append(Difference("comments_removed", {"count": old_count - new_count}))
    elif _comments(stored) != _comments(new):
        found.append(Difference("comments_changed", {"count": new_count}))
    return found


def _comments(record: Record) -> list[tuple[int, str]]:
    """Every comment with the number of events before it."""
    found = [(-1, text) for text in record.comments]
    for number, event in enumerate(record.events):
        found.extend((number, text) for text in event.comments)
    return found
