"""The event reader, held to the reference reader.

On generated records in every layout, and on the same sections mutated at random (words,
braces, parentheses, turn numbers and line breaks put in or cut out), `read_events` gives what
the reference reader (`reference_reader.py`, a token stream then one draft per event) gives:
the same events with the same lines and columns, the same comments, and the same error
(message, line, column, ply, event text and category). The tag lines' fast path is held to the
general tag reader the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.errors import FcnError
from fourcolor.generate import RULE_BOTS, generate_record
from fourcolor.notation import Event, Record
from fourcolor.notation.events import read_events
from fourcolor.notation.tags import parse_tag_line, parse_tags

from .reference_reader import reference_events
from tests.sizes import sweep

PROPERTY = settings(max_examples=sweep(full=80, ci=25),
                    suppress_health_check=[HealthCheck.too_slow])
COMMENTS = ("again?", "nobody wants it", "a drawn general\nis never discarded", "", "  x  ")
# What mutations put in: parts of events, faults of every kind, blanks of every kind.
PIECES = (
    "1x", "2d", "3m", "4w", "1r", "1c", "2h", "5q", "1x1", "0x", "12.", "3..", "1x.", "(", ")",
    "{", "}", "{c}", "{two\nlines}", "rK", "yE", "gA", "wP", "zz", "rX", "yEz", "rKrK", "(rK)",
    "(rK", "rK)", "\n", " ", "\t", "\u2028", "\u3000", "１x",
)  # fmt: skip


@st.composite
def generated_records(draw: st.DrawFn) -> Record:
    ruleset = draw(st.sampled_from(["classic", "bga"]))
    players = draw(st.integers(2, 4))
    bots = draw(st.lists(st.sampled_from(RULE_BOTS), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**32))
    return generate_record(ruleset, players, seed, dealer=1 + seed % players, bot=bots)


def event_words(event: Event, rng: random.Random, inside: bool) -> list[str]:
    words = [event.head] + [c.token for c in event.cards]
    if inside and len(words) > 2 and rng.random() < 0.5:
        words.insert(rng.randint(2, len(words) - 1), "{" + rng.choice(COMMENTS) + "}")
    return words + ["(" + " ".join(c.token for c in g) + ")" for g in event.groups]


def layout(record: Record, name: str, rng: random.Random) -> str:
    """The event section of `record` in layout `name` (LF line ends: the reader of a record
    turns CRLF into LF before its sections are read)."""
    events = record.events
    if name == "canonical":
        return fourcolor.write_fcn(record).split("\n\n")[-1].rstrip("\n")
    if name == "one event per line":
        return "\n".join(" ".join(event_words(e, rng, False)) for e in events)
    words: list[str] = []
    for n, event in enumerate(events, start=1):
        if name == "turn numbers" and (n == 1 or event.verb == "d"):
            words.append(f"{n}.")
        words += event_words(event, rng, name == "comments inside events")
        if name.startswith("comments") and rng.random() < 0.3:
            words.append("{" + rng.choice(COMMENTS) + "}")
    width = {"wrapped": rng.randint(8, 40)}.get(name, 79)
    lines, current = [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return "\n".join([*lines, current])


LAYOUTS = (
    "canonical",
    "comments between events",
    "comments inside events",
    "turn numbers",
    "one event per line",
    "wrapped",
)


def mutated(section: str, rng: random.Random, edits: int) -> str:
    for _ in range(edits):
        at = rng.randrange(len(section) + 1)
        how = rng.random()
        if how < 0.4:
            section = section[:at] + rng.choice(PIECES) + section[at:]
        elif how < 0.7:
            section = section[:at] + section[at + rng.randint(1, 6) :]
        else:
            section = f"{section[:at]} {rng.choice(PIECES)} {section[at:]}"
    return section


def fault(err: FcnError | None) -> tuple[object, ...] | None:
    return err and (
        type(err), err.code, err.params, err.message, err.line, err.col, err.ply, err.event,
        err.category,
    )


def answers(read: Callable[[Record], None]) -> tuple[object, ...]:
    """The events, comments and syntax error a reader leaves in a record, or the error it
    raises (a limit passed is raised, not kept: the record is refused as a whole)."""
    record = Record({}, {})
    try:
        read(record)
    except FcnError as err:
        return ("raised", fault(err))
    # Whole tuples: an Event's equality is its move alone, and the readers must agree on
    # every comment, line and column too.
    return ([tuple(e) for e in record.events], record.comments, fault(record.syntax_error))


def assert_same_answers(section: str, first_line: int) -> None:
    lines = ["[Tag line]", "1: deal line", *section.split("\n")]
    reference = answers(lambda r: reference_events(lines, 2, r, first_line))
    assert answers(lambda r: read_events("\n".join(lines[2:]), first_line + 2, r)) == reference


@PROPERTY
@given(generated_records(), st.sampled_from(LAYOUTS), st.integers(0, 2**32), st.integers(1, 50))
def test_it_reads_every_layout_as_the_reference_reader_does(
    record: Record, name: str, seed: int, first_line: int
) -> None:
    section = layout(record, name, random.Random(seed))
    assert_same_answers(section, first_line)
    read = Record({}, {})
    read_events(section, first_line, read)
    assert read.syntax_error is None
    assert read.events == record.events  # the same moves (an Event's equality is its move)


@PROPERTY
@given(
    generated_records(),
    st.sampled_from(LAYOUTS),
    st.integers(0, 2**32),
    st.integers(1, 4),
    st.integers(1, 50),
)
@example(generate_record("classic", 2, 1), "canonical", 0, 1, 1)
def test_it_reads_every_mutated_section_as_the_reference_reader_does(
    record: Record, name: str, seed: int, edits: int, first_line: int
) -> None:
    rng = random.Random(seed)
    assert_same_answers(mutated(layout(record, name, rng), rng, edits), first_line)


@PROPERTY
@given(st.lists(st.sampled_from(PIECES + ("", " ", "  ")), max_size=40), st.integers(1, 50))
def test_it_reads_any_sequence_of_pieces_as_the_reference_reader_does(
    pieces: list[str], first_line: int
) -> None:
    assert_same_answers(" ".join(pieces), first_line)


def test_it_reads_past_the_event_limit_as_the_reference_reader_does() -> None:
    line = " ".join(["1x yE 2d yE"] * 10)  # 20 events a line
    for extra in ("", " 1x yE", "\n1x yE", " {c} 1x", "\n5q"):
        assert_same_answers("\n".join([line] * 100) + extra, 10)  # 2,000 events, then more
        assert_same_answers("\n".join([line] * 99 + [line[:-6]]) + extra, 10)


# ------------------------------------------------------------------ the tag lines' fast path

TAG_TEXT = st.text(
    st.sampled_from(['"', "\\", "]", "[", " ", "\t", "a", "Z", "é", "\x01", "{", "1"]), max_size=8
)


def tag_answer(line: str) -> tuple[object, ...]:
    """What `parse_tags` makes of one line: the tag and where, or the error."""
    record = Record({}, {})
    try:
        parse_tags([line], record, 5)
    except FcnError as err:
        return ("error", type(err), err.message, err.line, err.col, err.category)
    return ("read", record.tags, record.positions)


def general_tag_answer(line: str) -> tuple[object, ...]:
    """The same line through the general tag reader alone."""
    if not line.strip().startswith("["):
        return ("read", {}, {})  # a blank line, or no tag line: no tag
    try:
        name, value = parse_tag_line(line, 5)
    except FcnError as err:
        return ("error", type(err), err.message, err.line, err.col, err.category)
    return ("read", {name: value}, {name: (5, line.index("[") + 1)})


@settings(max_examples=sweep(full=300, ci=100))
@given(
    st.sampled_from(["", " ", "\t"]),
    st.sampled_from(["Event", "Seat1", "x_1", "1x", "", "Ruleset "]),
    st.sampled_from([" ", "  ", "", "\t"]),
    TAG_TEXT,
    st.sampled_from(['"]', '" ]', '"] ', '"', "]", '"]x', '"] \t']),
    st.sampled_from([0, 1020, 1030]),
)
def test_it_reads_a_tag_line_as_the_general_tag_reader_does(
    lead: str, name: str, gap: str, value: str, end: str, padding: int
) -> None:
    line = f'{lead}[{name}{gap}"{value}{"v" * padding}{end}'
    assert tag_answer(line) == general_tag_answer(line)


# ------------------------------------------------------------------ comments closed on their line

SINGLE_LINE_COMMENTS = ("again?", "nobody wants it", "", "  x  ", "10 points. 3x rE")


@PROPERTY
@given(
    generated_records(),
    st.sampled_from(["comments between events", "comments inside events", "turn numbers"]),
    st.integers(0, 2**32),
)
def test_it_reads_comments_closed_on_their_line_as_the_reference_reader_does(
    record: Record, name: str, seed: int
) -> None:
    """Comments that open and close on one line, between events, between a meld's cards and
    at a line's end."""
    rng = random.Random(seed)
    section = layout(record, name, rng)
    section = section.replace("{a drawn general\nis never discarded}", "{again?}")
    assert_same_answers(section, 7)
    extra = " ".join("{" + rng.choice(SINGLE_LINE_COMMENTS) + "}" for _ in range(3))
    assert_same_answers(section.replace("\n", f" {extra}\n", 2), 7)
