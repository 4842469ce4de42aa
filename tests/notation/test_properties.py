"""Properties over self-play records (any ruleset, table size, seed and bot) and the corpus:
canonical idempotence, the JSON round trip, every generated record valid, any layout of a
record giving the same canonical text, and every single-event mutation either refused at the
event that breaks a rule or still a legal record."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.cards import CARDS
from fourcolor.generate import RULE_BOTS, generate_record
from fourcolor.notation import Event, Record
from tests.sizes import sweep

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"
PROPERTY = settings(max_examples=sweep(full=60, ci=20),
                    suppress_health_check=[HealthCheck.too_slow])
END_CATEGORIES = {"truncated", "result-mismatch", "lucky"}


@st.composite
def generated_records(draw: st.DrawFn) -> Record:
    ruleset = draw(st.sampled_from(["classic", "bga"]))
    players = draw(st.integers(2, 8 if ruleset == "classic" else 4))
    seed = draw(st.integers(0, 2**32))
    dealer = draw(st.integers(1, players))
    bots = draw(st.lists(st.sampled_from(RULE_BOTS), min_size=players, max_size=players))
    return generate_record(ruleset, players, seed, dealer=dealer, bot=bots)


@functools.cache
def corpus_texts() -> list[str]:
    texts = []
    for name in ("valid.fcn", "valid_mutants.fcn"):
        with open(CORPUS / name, encoding="utf-8", newline="") as f:
            texts += [r.text for r in fourcolor.iter_records(f)]
    texts += [p.read_text(encoding="utf-8") for p in sorted((CORPUS / "invalid").glob("*.fcn"))]
    return texts


def assert_canonical_and_twin(record: Record) -> None:
    once = fourcolor.write_fcn(record)
    reread = fourcolor.parse_record(once, lenient=True)
    assert fourcolor.write_fcn(reread) == once
    twin = json.loads(json.dumps(fourcolor.record_to_json(record), ensure_ascii=False))
    assert fourcolor.write_fcn(fourcolor.record_from_json(twin)) == once


@PROPERTY
@given(generated_records())
def test_it_accepts_every_generated_record_with_its_result(record: Record) -> None:
    text = fourcolor.write_fcn(record)
    check = fourcolor.check_record(text)
    assert check.error is None, str(check.error)
    assert check.game is not None and check.game.finish.result_tag == record.tags["Result"]
    assert_canonical_and_twin(record)
    assert fourcolor.write_fcn(fourcolor.parse_record(text)) == text  # generated = canonical


@pytest.mark.parametrize("index", range(len(corpus_texts())))
def test_it_writes_every_corpus_record_canonically_and_as_json(index: int) -> None:
    text = corpus_texts()[index]
    try:
        record = fourcolor.parse_record(text, lenient=True)
    except fourcolor.FcnError:
        return  # refused in the tags or deal: nothing to write
    assert_canonical_and_twin(record)
    if record.syntax_error is not None:
        return  # the canonical text holds the events before the malformed one only
    # The canonical text keeps the verdict: same ply and category, or valid again.
    before = fourcolor.check_record(text).error
    after = fourcolor.check_record(fourcolor.write_fcn(record)).error
    assert (before and (before.ply, before.category)) == (after and (after.ply, after.category))


def relayout(text: str, rng: random.Random) -> str:
    """The same record as a person might write it: tags and deal lines shuffled, deal cards
    and meld cards in any order, turn numbers and comments added, lines broken anywhere."""
    record = fourcolor.parse_record(text)
    tags = list(record.tags.items())
    rng.shuffle(tags)
    out = [f'[{k} "' + v.replace("\\", "\\\\").replace('"', '\\"') + '"]' for k, v in tags]
    out.append("")
    seats = list(record.deal)
    rng.shuffle(seats)
    for seat in seats:
        cards = [c.token for c in record.deal[seat]]
        rng.shuffle(cards)
        out.append(f"{seat}: " + " ".join(cards))
    out.append("")
    words: list[str] = []
    for n, event in enumerate(record.events, start=1):
        if rng.random() < 0.2:
            words.append(f"{n}.")
        cards = [c.token for c in event.cards]
        if event.verb in "mwch":
            rng.shuffle(cards)
        words.append(" ".join([event.head, *cards]))
        words += ["(" + " ".join(c.token for c in g) + ")" for g in event.groups]
        if rng.random() < 0.1:
            words.append("{ note\n  on " + event.head + " }")
    line: list[str] = []
    for word in words:
        line.append(word)
        if rng.random() < 0.15:
            out.append(" ".join(line))
            line = []
    out.append(" ".join(line))
    return ("\r\n" if rng.random() < 0.3 else "\n").join(out) + "\n"


@PROPERTY
@given(generated_records(), st.integers(0, 2**32))
def test_it_writes_the_same_canonical_text_whatever_the_layout(record: Record, seed: int) -> None:
    canonical = fourcolor.write_fcn(record)
    messy = relayout(canonical, random.Random(seed))
    check = fourcolor.check_record(messy)
    assert check.error is None, str(check.error)
    assert check.record is not None
    written = fourcolor.write_fcn(check.record)
    # Comments were added: the text without them is the canonical text.
    stripped = fourcolor.write_fcn(
        dataclasses.replace(
            check.record,
            events=[e._replace(comments=()) for e in check.record.events],
        )
    )
    assert stripped == canonical
    assert fourcolor.write_fcn(fourcolor.parse_record(written)) == written


# ------------------------------------------------------------------ single-event mutations

MUTATIONS = ("drop", "duplicate", "swap", "card", "seat")


def mutate(events: list[Event], kind: str, at: int, rng: random.Random) -> tuple[list[Event], int]:
    """The events with one mutation, and the index of the first event that differs."""
    event = events[at]
    if kind == "drop":
        return events[:at] + events[at + 1 :], at
    if kind == "duplicate":
        return events[: at + 1] + [event] + events[at + 1 :], at + 1
    if kind == "swap":
        at = min(at, len(events) - 2)
        return events[:at] + [events[at + 1], events[at]] + events[at + 2 :], at
    if kind == "card" and event.cards:
        cards = list(event.cards)
        k = rng.randrange(len(cards))
        cards[k] = rng.choice([c for c in CARDS if c is not cards[k]])
        return events[:at] + [event._replace(cards=tuple(cards))] + events[at + 1 :], at
    seat = rng.choice([s for s in range(10) if s != event.seat])
    return events[:at] + [event._replace(seat=seat)] + events[at + 1 :], at


def verdict(record: Record, events: list[Event], result: str | None) -> fourcolor.FcnError | None:
    tags = dict(record.tags)
    if result is not None:
        tags["Result"] = result
    text = fourcolor.write_fcn(Record(tags=tags, deal=record.deal, events=events))
    return fourcolor.check_record(text).error


@settings(max_examples=sweep(full=150, ci=50), suppress_health_check=[HealthCheck.too_slow])
@given(
    generated_records(),
    st.sampled_from(MUTATIONS),
    st.floats(0, 1, exclude_max=True),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_it_refuses_a_mutated_record_at_the_event_that_breaks_a_rule(
    record: Record, kind: str, where: float, keep_pile: bool, seed: int
) -> None:
    rng = random.Random(seed)
    if not keep_pile and record.tags["Ruleset"] == "classic":
        record = dataclasses.replace(record, tags=dict(record.tags))
        del record.tags["Pile"]  # draws are then only checked by the four-copies rule
    if len(record.events) < 2:
        return  # a redeal: nothing to swap
    events, first = mutate(record.events, kind, int(where * len(record.events)), rng)
    tags = dict(record.tags)
    mutated = Record(tags=tags, deal=record.deal, events=events)
    text = fourcolor.write_fcn(mutated)
    check = fourcolor.check_record(text)
    if check.error is None:
        # Still a legal round: it must be one the engine accepts again from its own text.
        assert check.game is not None and check.canonical == text
        assert fourcolor.check_record(check.canonical).ok
        return
    err = check.error
    # The events before the first changed one are untouched, so they cannot be at fault.
    assert first + 1 <= err.ply <= len(events) + 1, str(err)
    if err.ply == len(events) + 1:
        assert err.category in END_CATEGORIES, str(err)
        return
    # The position is the head of the event at fault, and the message quotes it.
    at_fault = events[err.ply - 1]
    line = text.splitlines()[err.line - 1]
    assert line[err.col - 1 :].startswith(at_fault.head + (" " if at_fault.verb != "r" else ""))
    assert err.event == at_fault.canonical().text()
    # The verdict is local: the events before it are a legal beginning, and the record cut
    # just after it is refused at the same event for the same rule.
    before = verdict(record, events[: err.ply - 1], "*")
    assert before is None or before.ply == err.ply, str(before)
    cut = verdict(record, events[: err.ply], "*")
    assert cut is not None and (cut.ply, cut.category) == (err.ply, err.category)
