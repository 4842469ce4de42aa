"""Hostile input is bounded: record size, line length, tag count, tag value length, event
count and comment length each have a limit (the MAX_* constants), refused as category limit at
the place the limit is passed; a NUL byte is refused as syntax."""

from __future__ import annotations

import fourcolor
from fourcolor.notation import (
    MAX_COMMENT_CHARS,
    MAX_EVENTS,
    MAX_LINE_CHARS,
    MAX_RECORD_CHARS,
    MAX_TAG_VALUE_CHARS,
    MAX_TAGS,
)

from .fcn import EVENTS_LINE, Fault, fault_of, fcn

L = EVENTS_LINE


def test_it_names_its_limits() -> None:
    assert (MAX_RECORD_CHARS, MAX_LINE_CHARS, MAX_TAGS) == (256 * 1024, 4096, 64)
    assert (MAX_TAG_VALUE_CHARS, MAX_EVENTS, MAX_COMMENT_CHARS) == (1024, 2000, 2000)


def test_it_refuses_a_record_over_the_size_limit() -> None:
    text = fcn("1x yE\n" + ("{" + "x" * 1000 + "}\n") * (MAX_RECORD_CHARS // 1000))
    assert len(text) > MAX_RECORD_CHARS
    assert fault_of(text, first_line=7) == Fault(7, 1, 0, "limit")


def test_it_accepts_a_line_at_the_length_limit_and_refuses_one_over() -> None:
    event_line = "1x yE" + " 1." * ((MAX_LINE_CHARS - 5) // 3) + " " * ((MAX_LINE_CHARS - 5) % 3)
    assert len(event_line) == MAX_LINE_CHARS
    assert fault_of(fcn(event_line)) is None
    assert fault_of(fcn(event_line + " ")) == Fault(L, MAX_LINE_CHARS + 1, 0, "limit")


def test_it_accepts_the_tag_count_limit_and_refuses_one_more() -> None:
    def with_tags(n: int) -> str:
        return fcn("1x yE", extra=[f'[X{k} "v"]' for k in range(n - 5)])

    assert fault_of(with_tags(MAX_TAGS)) is None
    assert fault_of(with_tags(MAX_TAGS + 1)) == Fault(MAX_TAGS + 1, 1, 0, "limit")


def test_it_accepts_a_tag_value_at_the_limit_and_refuses_one_over() -> None:
    assert fault_of(fcn("", extra=[f'[Note "{"v" * MAX_TAG_VALUE_CHARS}"]'])) is None
    over = fcn("", extra=[f'[Note "{"v" * (MAX_TAG_VALUE_CHARS + 1)}"]'])
    assert fault_of(over) == Fault(6, 1, 0, "limit")


def test_it_counts_a_tag_value_after_its_escapes() -> None:
    value = "\\\\" * MAX_TAG_VALUE_CHARS  # 2048 characters written, 1024 read
    assert fault_of(fcn("", extra=[f'[Note "{value}"]'])) is None


def test_it_accepts_the_event_limit_and_refuses_one_more() -> None:
    # The opening discard, then a drawn card discarded again and again; one event a line.
    def with_events(n: int) -> str:
        cycle = ["2d rC", "2x rC", "1d rC", "1x rC"]
        return fcn("\n".join(["1x yE"] + [cycle[k % 4] for k in range(n - 1)]))

    assert len(fourcolor.parse_record(with_events(MAX_EVENTS)).events) == MAX_EVENTS
    assert fault_of(with_events(MAX_EVENTS + 1)) == Fault(
        L + MAX_EVENTS, 1, MAX_EVENTS + 1, "limit"
    )


def test_it_accepts_a_comment_at_the_limit_and_refuses_one_over() -> None:
    assert fault_of(fcn("1x yE {" + "c" * MAX_COMMENT_CHARS + "}")) is None
    over = fcn("1x yE {" + "c" * (MAX_COMMENT_CHARS + 1) + "}")
    assert fault_of(over) == Fault(L, 7, 1, "limit")


def test_it_measures_a_comment_after_collapsing_its_whitespace() -> None:
    comment = "{" + "c " * (MAX_COMMENT_CHARS // 2) + "\n" * 50 + "}"
    assert fault_of(fcn("1x yE " + comment)) is None


def test_it_refuses_a_nul_byte_where_it_is() -> None:
    assert fault_of(fcn("1x yE 2d\x00rC")) == Fault(L, 9, 0, "syntax")
    assert fault_of('[Event "a\x00"]\n' + fcn("")) == Fault(1, 10, 0, "syntax")


def test_it_reports_every_limit_as_a_limit_error_with_its_position() -> None:
    err = fourcolor.check_record(fcn("1x yE {" + "c" * (MAX_COMMENT_CHARS + 1) + "}")).error
    assert isinstance(err, fourcolor.LimitError)
    assert isinstance(err, ValueError)
    assert "2000" in err.message
