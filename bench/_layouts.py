"""FCN layouts for the benchmarks: the same rounds written as people and other
programs write them, by a writer of this module's own (not `write_fcn`), and the rounds that
fill them: 4-seat rounds where every seat claims whatever it can (more melds and claims than
the mixed stream of `_common.mixed_records`).

Every layout here is valid FCN (docs/notation.md): comments between events and inside them
(between an event's cards), turn numbers, events wrapped across lines or one per line, CRLF
line ends, tags and deal lines in another order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from _common import _ROOT  # noqa: F401  (puts the checkout on sys.path)

from fourcolor.generate import generate_record
from fourcolor.notation import Event, Record, write_fcn

# What annotators write (the corpus's own comments among them).
COMMENTS = (
    "again?",
    "nobody wants it",
    "a drawn general is never discarded",
    "three horses of three colours",
    "waits for the chariot",
    "risky: the next seat needs this one",
    "10 points showing",
    "why not the pong?",
    "forced",
    "the pile is getting short",
)


def eager_record(ruleset: str, index: int, *, salt: str = "layouts") -> Record:
    """A 4-seat round where every seat claims the best meld it can (the greedy bot, which
    never declines a claim): the event mix of annotated club records, many melds and claims."""
    rng = random.Random(f"{salt}:{ruleset}:{index}")
    return generate_record(ruleset, 4, index, dealer=rng.randint(1, 4), bot="greedy")


def eager_records(ruleset: str, count: int, *, salt: str = "layouts") -> Iterator[Record]:
    for index in range(count):
        yield eager_record(ruleset, index, salt=salt)


def _event_words(event: Event, rng: random.Random | None = None) -> list[str]:
    """An event's words in the order it was played (meld cards unsorted), split groups as
    ``(`` card ... ``)`` words; with `rng`, a comment between cards of some melds."""
    words = [event.head] + [c.token for c in event.cards]
    if rng is not None and event.verb in "mw" and len(event.cards) >= 2 and rng.random() < 0.5:
        words.insert(rng.randint(2, len(words) - 1), "{" + rng.choice(COMMENTS) + "}")
    for group in event.groups:
        words.append("(" + " ".join(c.token for c in group) + ")")
    return words


def _head(record: Record, rng: random.Random, *, shuffled: bool) -> list[str]:
    tags = list(record.tags.items())
    if shuffled:
        rng.shuffle(tags)
    lines = ['[{} "{}"]'.format(k, v.replace("\\", "\\\\").replace('"', '\\"')) for k, v in tags]
    seats = sorted(record.deal)
    if shuffled:
        seats.reverse()
    lines.append("")
    lines += [f"{s}: " + " ".join(c.token for c in record.deal[s]) for s in seats]
    lines.append("")
    return lines


def _wrap(words: list[str], width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


def _text(record: Record, rng: random.Random, words: list[str], width: int, **kw: bool) -> str:
    return "\n".join(_head(record, rng, shuffled=kw.get("shuffled", False)) + _wrap(words, width))


def _words(
    record: Record,
    rng: random.Random,
    *,
    turns: bool = False,
    inside: bool = False,
    between: float = 0.0,
) -> list[str]:
    """The event words: with `turns`, ``N.`` before each turn (the dealer's first discard,
    then each draw or claim); with `inside`, comments between some melds' cards; a comment
    after an event with probability `between`."""
    words: list[str] = []
    turn = 0
    for k, event in enumerate(record.events):
        if turns and (k == 0 or event.verb in "dmw" and record.events[k - 1].verb == "x"):
            turn += 1
            words.append(f"{turn}.")
        words += _event_words(event, rng if inside else None)
        if between and rng.random() < between:
            words.append("{" + rng.choice(COMMENTS) + "}")
    return words


def comments_between(record: Record, rng: random.Random) -> str:
    return _text(record, rng, _words(record, rng, between=0.3), 79)


def comments_inside(record: Record, rng: random.Random) -> str:
    return _text(record, rng, _words(record, rng, inside=True, between=0.15), 79)


def turn_numbers(record: Record, rng: random.Random) -> str:
    return _text(record, rng, _words(record, rng, turns=True), 79)


def one_per_line(record: Record, rng: random.Random) -> str:
    lines = [" ".join(_event_words(e)) for e in record.events]
    return "\n".join(_head(record, rng, shuffled=False) + lines)


def wrapped_narrow(record: Record, rng: random.Random) -> str:
    """Wrapped at 30 columns: events break across lines (``3m rR`` / ``gR wR``)."""
    return _text(record, rng, _words(record, rng), 30)


def crlf(record: Record, rng: random.Random) -> str:
    return write_fcn(record).replace("\n", "\r\n")


def annotated(record: Record, rng: random.Random) -> str:
    """All at once: tags and deal lines reordered, turn numbers, comments inside and between
    events, wrapped at 60 columns, CRLF."""
    words = _words(record, rng, turns=True, inside=True, between=0.2)
    return _text(record, rng, words, 60, shuffled=True).replace("\n", "\r\n")


def canonical(record: Record, rng: random.Random) -> str:
    return write_fcn(record)


LAYOUTS: dict[str, Callable[[Record, random.Random], str]] = {
    "canonical (write_fcn)": canonical,
    "comments between events": comments_between,
    "comments inside events": comments_inside,
    "turn numbers": turn_numbers,
    "one event per line": one_per_line,
    "wrapped at 30 columns": wrapped_narrow,
    "CRLF": crlf,
    "annotated: all of the above": annotated,
}


def layout_text(layout: str, records: list[Record], seed: str) -> str:
    """A multi-record file of `records` in `layout` (blank lines between records)."""
    rng = random.Random(f"{seed}:{layout}")
    write = LAYOUTS[layout]
    end = "\r\n" if layout in ("CRLF", "annotated: all of the above") else "\n"
    return end.join(write(r, rng).rstrip("\r\n") + end for r in records)
