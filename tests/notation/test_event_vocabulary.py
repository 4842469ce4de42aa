"""An event is its move: equality and hashing compare seat, verb, cards and declared split as
written canonically, never comments, line or column, so the events of a parsed record are
found among `Round.legal_events()`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.cards import CARDS
from fourcolor.errors import FcnSyntaxError
from fourcolor.generate import RULE_BOTS, generate_record
from fourcolor.notation import Event, Record
from fourcolor.round import Round
from tests.sizes import sweep

PROPERTY = settings(max_examples=sweep(full=60, ci=20),
                    suppress_health_check=[HealthCheck.too_slow])
CARD = st.sampled_from(CARDS)
COMMENTS = st.lists(st.text(max_size=8).filter(lambda t: "}" not in t), max_size=3)


@st.composite
def generated_records(draw: st.DrawFn) -> Record:
    ruleset = draw(st.sampled_from(["classic", "bga"]))
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32))
    bots = draw(st.lists(st.sampled_from(RULE_BOTS), min_size=players, max_size=players))
    return generate_record(ruleset, players, seed, dealer=1 + seed % players, bot=bots)


@st.composite
def events(draw: st.DrawFn) -> Event:
    verb = draw(st.sampled_from("xdmwrch"))
    count = {"x": 1, "d": 1, "r": 0}.get(verb) or draw(st.integers(1, 4))
    cards = tuple(draw(st.lists(CARD, min_size=count, max_size=count)))
    groups: tuple[tuple[fourcolor.Card, ...], ...] = ()
    if verb in "wh":
        groups = tuple(tuple(g) for g in draw(st.lists(st.lists(CARD, min_size=1, max_size=4),
                                                          max_size=5)))
    return Event(draw(st.integers(0, 9)), verb, cards, groups)


@PROPERTY
@given(events(), COMMENTS, st.integers(0, 10**6), st.integers(0, 4096), st.randoms())
def test_it_never_counts_comments_line_or_column(
    event: Event, comments: list[str], line: int, col: int, rng: random.Random
) -> None:
    shuffled = list(event.cards)
    rng.shuffle(shuffled)
    if event.verb in "mwch":  # a meld's cards in any order are the same meld
        event = event._replace(cards=tuple(shuffled))
    other = event._replace(comments=tuple(comments), line=line, col=col)
    assert other == event and not other != event and hash(other) == hash(event)
    assert other in {event} and other in [event]
    assert str(other) == str(event)


@PROPERTY
@given(events(), events())
def test_it_tells_different_moves_apart(first: Event, second: Event) -> None:
    assert (first == second) == (str(first) == str(second))
    assert (first != second) == (str(first) != str(second))


def test_it_compares_the_declared_split_and_the_cards() -> None:
    rk, ra, gp = (fourcolor.parse_card(t) for t in ("rK", "rA", "gP"))
    win = Event(1, "w", (rk,), ((ra, gp),))
    assert win == Event(1, "w", (rk,), ((gp, ra),), ("well played",), 4, 7)
    assert win != Event(1, "w", (rk,))
    assert win != Event(1, "h", (rk,), ((ra, gp),))
    assert win != Event(2, "w", (rk,), ((ra, gp),))
    assert Event(1, "x", (rk,)) != Event(1, "x", (ra,))
    assert Event(1, "x", (rk,)) != (1, "x", (rk,), (), (), 0, 0)  # a plain tuple is no event


@PROPERTY
@given(generated_records(), st.integers(0, 2**32))
def test_it_finds_every_event_of_a_parsed_record_among_the_legal_ones(
    record: Record, seed: int
) -> None:
    rng = random.Random(seed)
    commented = [
        e._replace(comments=("a note",)) if rng.random() < 0.3 else e for e in record.events
    ]
    text = fourcolor.write_fcn(Record(record.tags, record.deal, commented))
    parsed = fourcolor.parse_record(text)
    assert [e.comments for e in parsed.events] == [e.comments for e in commented]
    assert parsed.events == record.events
    rnd = Round.from_record(parsed)
    for event in parsed.events:
        legal = rnd.legal_events()
        if event.verb in "wh" and not event.groups:
            # A win that declares no split (as the bots write them) leaves the engine its best
            # split, the one the listed win declares.
            legal = [e._replace(groups=()) for e in legal]
        assert event in legal
        rnd.push(event)


def test_it_keeps_comments_in_a_records_equality() -> None:
    record = generate_record("classic", 2, 7)
    noted = Record(record.tags, record.deal,
                   [record.events[0]._replace(comments=("x",)), *record.events[1:]])
    assert noted.events == record.events
    assert noted != record
    assert Record(record.tags, record.deal, list(record.events)) == record


# ------------------------------------------------------------------ Event.parse

# Parts of events, faults of every kind, blanks of every kind (what the fuzzing puts together).
PIECES = (
    "1x", "2d", "3m", "4w", "1r", "1c", "2h", "8x", "0d", "5q", "1x1", "x", "12.", "(", ")",
    "{", "}", "{c}", "rK", "yE", "gA", "wP", "rE", "zz", "rX", "yEz", "rKrK", "(rK)", "(rK",
    "rK)", "\n", " ", "\t", "\u2028", "\u3000", "１x", "",
)  # fmt: skip
HEAD = '[Ruleset "classic"]\n[Seat1 "a"]\n[Seat2 "b"]\n[Dealer "1"]\n\n1:\n2:\n\n'


def test_it_reads_one_event_as_python_chess_reads_a_move() -> None:
    rk, ra, re_, gp = (fourcolor.parse_card(t) for t in ("rK", "rA", "rE", "gP"))
    assert Event.parse("3x rK") == Event(3, "x", (rk,))
    assert Event.parse("4w rK rA rE (gP gP)") == Event(4, "w", (rk, ra, re_), ((gp, gp),))
    assert Event.parse(" 1m  rE\trK ") == Event(1, "m", (rk, re_))
    assert Event.parse("2r", ply=7) == Event(2, "r")
    assert Event.parse("3x rK").line == 0  # read from no record


@pytest.mark.parametrize(
    ("text", "message", "col"),
    [
        ("", "no event: write a seat, a verb and its cards, as 3x rK", 1),
        ("1q rK", "malformed event '1q': expected a seat digit and a verb", 1),
        ("3x rX", "no such card 'rX'", 4),
        ("3x rK rA", "a discard names exactly one card, not 2", 1),
        ("3x rK {safe}", "a comment in an event typed alone", 7),
        ("3x rK 4d rA", "one event at a time: '4d' begins another", 7),
        ("4w rK (gP gP", "unclosed group", 7),
        ("4w rK (gP) rA", "card rA after the declared groups", 12),
        ("3m (rK)", "a group in a meld event", 4),
    ],
)
def test_it_refuses_what_is_not_one_event_quoting_the_text_and_column(
    text: str, message: str, col: int
) -> None:
    with pytest.raises(FcnSyntaxError) as refused:
        Event.parse(text, ply=12)
    error = refused.value
    assert isinstance(error, ValueError)
    assert error.message.startswith(message)
    assert (error.line, error.col, error.ply) == (1, col, 12)
    assert text in str(error) and f"1:{col}:" in str(error)


@PROPERTY
@given(generated_records())
def test_it_parses_the_text_of_every_legal_event_back_to_it(record: Record) -> None:
    rnd = Round.from_record(record)
    for played in record.events:
        for event in rnd.legal_events():
            assert Event.parse(str(event)) == event
            assert Event.parse(event.text()) == event
        rnd.push(played)


@settings(max_examples=sweep(full=500, ci=150))
@given(st.text(max_size=40) | st.lists(st.sampled_from(PIECES), max_size=12).map(" ".join))
def test_it_raises_nothing_but_a_syntax_error_on_any_text(text: str) -> None:
    """Random text is read or refused in the reader's words; what it reads, a record holding
    the same text reads too, and its canonical text reads back to it."""
    try:
        event = Event.parse(text)
    except FcnSyntaxError as error:
        assert error.line >= 1 and error.col >= 1 and error.category == "syntax"
        if not set(text) & set(".{}"):  # no turn number nor comment, which a record may hold
            assert len(read_events(text)) != 1
        return
    assert Event.parse(str(event)) == event
    assert read_events(text) == [event]


def read_events(text: str) -> list[Event]:
    """The events the record reader reads in `text` (none at a fault)."""
    try:
        read = fourcolor.parse_record(HEAD + text + "\n", lenient=True)
    except fourcolor.FcnError:
        return []
    return [] if read.syntax_error else read.events


def test_it_finds_every_event_of_the_corpus_records_among_the_legal_ones() -> None:
    """The records of an independent implementation (tests/data/corpus): each event, as the
    reader reads it, is listed before it is pushed (a win by its meld: the listed one declares
    the best split, a record may declare another)."""
    corpus = Path(__file__).resolve().parent.parent / "data" / "corpus" / "valid.fcn"
    with open(corpus, encoding="utf-8", newline="") as f:
        texts = [r.text for r in fourcolor.iter_records(f)]
    assert len(texts) >= 50
    for text in texts:
        record = fourcolor.parse_record(text)
        rnd = Round.from_record(record)
        for event in record.events:
            legal = rnd.legal_events()
            move = event
            if event.verb in "wh":
                move = event._replace(groups=())
                legal = [e._replace(groups=()) for e in legal]
            assert move in legal, (text.splitlines()[0], str(event))
            rnd.push(event)
