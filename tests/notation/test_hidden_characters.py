"""Characters a reader cannot see: control characters anywhere in a record, player names
without a visible character or with a control or bidi-override character, one player in two
seats, and a byte order mark in the middle of a file (docs/notation.md, "Characters")."""

from __future__ import annotations

import io
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.notation import name_problem, player_key

from .fcn import EVENTS_LINE, fault_of, fcn

L = EVENTS_LINE
EVENTS = "1x yE 2w yE yK yA"

# Every C0 control but tab, line feed and carriage return; DEL; every C1 control.
CONTROLS = [c for c in map(chr, [*range(0x20), *range(0x7F, 0xA0)]) if c not in "\t\n\r"]


def with_seat1(name: str) -> str:
    return fcn(EVENTS, result="2:9").replace('[Seat1 "Ann"]', f'[Seat1 "{name}"]')


@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_it_refuses_a_control_character_in_an_event_line_where_it_is(char: str) -> None:
    text = fcn(f"1x yE 2w yE{char} yK yA", result="2:9")
    error = fourcolor.check_record(text).error
    assert error is not None
    assert (error.line, error.col, error.ply, error.category) == (L, 12, 0, "syntax")
    assert f"U+{ord(char):04X}" in error.message
    assert char not in str(error)  # the message names it, never carries it


@pytest.mark.parametrize("where", ["tag", "comment", "deal", "events"])
@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x7f", "\x85", "\x0c"])
def test_it_refuses_a_control_character_anywhere_in_a_record(where: str, char: str) -> None:
    clean = fcn("1x yE {a note} 2w yE yK yA", result="2:9", extra=['[Event "Club"]'])
    target = {"tag": "Club", "comment": "a note", "deal": "1: rK", "events": "2w yE"}[where]
    text = clean.replace(target, target[:2] + char + target[2:], 1)
    fault = fault_of(text)
    assert fault is not None and fault.category == "syntax" and fault.ply == 0
    lines = text.split("\n")
    line = next(n for n, s in enumerate(lines, 1) if char in s)
    assert (fault.line, fault.col) == (line, lines[line - 1].index(char) + 1)


def test_it_still_accepts_tabs_and_every_line_ending() -> None:
    text = fcn("1x yE\t2w yE yK yA", result="2:9")
    assert fault_of(text) is None
    assert fault_of(text.replace("\n", "\r\n")) is None
    assert fault_of(text.replace("\n", "\r")) is None


@given(st.text(min_size=1, max_size=8), st.integers(0, 2000))
@settings(max_examples=200)
def test_it_refuses_every_record_with_a_control_character_and_no_other(
    noise: str, where: int
) -> None:
    """Property: a comment can hold any text without `}`; the record is refused exactly when
    that text holds a control character (not tab, line feed, carriage return)."""
    noise = noise.replace("}", "")
    clean = fcn(f"1x yE {{{noise}}} 2w yE yK yA", result="2:9")
    controls = [c for c in noise if unicodedata.category(c) == "Cc" and c not in "\t\n\r"]
    fault = fault_of(clean)
    if controls:
        assert fault is not None and fault.category == "syntax"
        assert f"U+{ord(controls[0]):04X}" in fourcolor.check_record(clean).error.message  # type: ignore[union-attr]
    elif "{" not in noise:
        assert fault is None


# --- player names

BAD_NAMES = [
    ("zero-width-space", "\u200b", "no visible character"),
    ("zero-width-joiner-pair", "\u200d\u200c", "no visible character"),
    ("no-break-space", "\u00a0", "empty name"),
    ("ideographic-space", "\u3000\u3000", "empty name"),
    ("hangul-filler", "\u3164", "no visible character"),
    ("bom", "\ufeff", "no visible character"),
    ("combining-mark-alone", "\u0301", "no visible character"),
    ("rtl-override", "\u202eAnn", "bidi"),
    ("ltr-override", "Ann\u202d", "bidi"),
    ("rtl-isolate", "\u2067Ann\u2069", "bidi"),
    ("rtl-override-alone", "\u202e", "no visible character"),
]


@pytest.mark.parametrize("name,problem", [b[1:] for b in BAD_NAMES], ids=[b[0] for b in BAD_NAMES])
def test_it_refuses_a_name_a_reader_cannot_see_or_that_reorders_text(
    name: str, problem: str
) -> None:
    error = fourcolor.check_record(with_seat1(name)).error
    assert error is not None
    assert (error.line, error.col, error.ply, error.category) == (2, 1, 0, "tags")
    assert error.message.startswith("Seat1")
    assert problem in error.message
    if problem == "bidi":
        assert name not in error.message  # quoted with the override escaped, never applied


@pytest.mark.parametrize("char", ["\x7f", "\x85", "\x9f", "\x1b"])
def test_it_refuses_a_name_with_del_or_a_c1_control(char: str) -> None:
    fault = fault_of(with_seat1(f"An{char}n"))
    assert fault is not None and fault.category == "syntax" and (fault.line, fault.col) == (2, 11)


GOOD_NAMES = ["Ann", "Bình", "四色", "Мария", "a\u200db", "ب\u200fا", "O'Brien-Smith", " x "]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_it_accepts_names_with_visible_characters(name: str) -> None:
    assert fault_of(with_seat1(name)) is None


@given(st.text(min_size=1, max_size=6))
@settings(max_examples=300)
def test_a_name_is_refused_exactly_when_it_breaks_the_rule(name: str) -> None:
    invisible = all(
        unicodedata.category(c)[0] in "ZCM" or c in "\u115f\u1160\u3164\uffa0" for c in name
    )
    override = any(c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069" for c in name)
    control = any(unicodedata.category(c) == "Cc" for c in name)
    problem = name_problem(name)
    assert (problem is not None) == (invisible or override or control)


def test_it_refuses_the_json_twin_of_a_bad_name() -> None:
    twin = fourcolor.record_to_json(fourcolor.parse_record(with_seat1("Ann")))
    twin["tags"]["Seat1"] = "\u202eAnn"
    with pytest.raises(fourcolor.FcnSyntaxError, match="bidi"):
        fourcolor.record_from_json(twin)


# --- one player in two seats

SAME = [("Alice", "alice"), ("Bình", "BI\u0300NH"), ("Ann  Lee", "ann lee"), ("Straße", "STRASSE")]


@pytest.mark.parametrize("first,second", SAME)
def test_it_refuses_one_player_in_two_seats(first: str, second: str) -> None:
    text = with_seat1(first).replace('[Seat2 "Bo"]', f'[Seat2 "{second}"]')
    error = fourcolor.check_record(text).error
    assert error is not None
    assert (error.line, error.col, error.ply, error.category) == (3, 1, 0, "tags")
    assert "Seat2" in error.message and "Seat1" in error.message and "same player" in error.message


def test_player_key_is_the_identity_the_archive_uses() -> None:
    assert player_key("  Bi\u0300nh\tNGUYEN ") == player_key("bình nguyen")
    assert player_key("Straße") == player_key("STRASSE")
    assert player_key("Ann") != player_key("Anna")


# --- a byte order mark in the middle of a file


def test_a_byte_order_mark_before_a_record_in_the_middle_keeps_its_first_tag() -> None:
    # Two files joined with `cat`: the second file's BOM lands before its first tag line.
    one = fcn(EVENTS, result="2:9")
    two = '[Event "Second"]\n' + fcn("1x yE 2d rC 2x rC")
    stream = io.StringIO(one + "\n" + "\ufeff" + two, newline="")
    records = list(fourcolor.iter_records(stream))
    assert [r.line for r in records] == [1, one.count("\n") + 2]
    assert [r.text for r in records] == [one, two]
    assert fourcolor.parse_record(records[1].text, records[1].line).tags["Event"] == "Second"


def test_a_byte_order_mark_right_after_the_events_starts_the_next_record() -> None:
    one = fcn(EVENTS, result="2:9")
    two = '[Event "Second"]\n' + fcn("1x yE 2d rC 2x rC")
    records = list(fourcolor.iter_records(io.StringIO(one + "\ufeff" + two, newline="")))
    assert [r.text for r in records] == [one, two]
