"""Splitting a multi-record file: a record starts at a tag line (`[` in column 1) after the
previous record's body; blank lines between records belong to neither; each record's text is
kept verbatim with the line it starts on; an oversize record is flagged, not held whole."""

from __future__ import annotations

import io
import re

from hypothesis import given
from hypothesis import strategies as st

import fourcolor
from fourcolor.notation import MAX_RECORD_CHARS
from fourcolor.notation.files import _comment_state, _lines

from .fcn import fcn

ONE = fcn("1x yE 2w yE yK yA", result="2:9")
TWO = fcn("1x yE 2d rC 2x rC")


def split(text: str) -> list[tuple[int, int, str, bool]]:
    stream = io.StringIO(text, newline="")  # as a file opened with newline="" reads
    return [(r.index, r.line, r.text, r.oversize) for r in fourcolor.iter_records(stream)]


def test_it_splits_records_at_blank_lines_and_keeps_each_verbatim() -> None:
    assert split(ONE + "\n" + TWO) == [(0, 1, ONE, False), (1, 12, TWO, False)]


def test_it_splits_a_record_that_follows_the_previous_events_directly() -> None:
    assert [r[1:3] for r in split(ONE + TWO)] == [(1, ONE), (11, TWO)]


def test_it_skips_blank_lines_before_between_and_after_records() -> None:
    text = "\n \n\t\n" + ONE + "\n\n\n   \n" + TWO + "\n\n"
    assert [r[1:3] for r in split(text)] == [(4, ONE), (18, TWO)]


def test_it_keeps_blank_lines_inside_a_record() -> None:
    (record,) = split(ONE)
    assert record[2].count("\n\n") == 2  # after the tags and after the deal


def test_it_keeps_a_record_without_a_final_newline() -> None:
    assert split(ONE + "\n" + TWO.rstrip("\n")) == [
        (0, 1, ONE, False),
        (1, 12, TWO.rstrip("\n"), False),
    ]


def test_it_keeps_crlf_line_endings_verbatim() -> None:
    crlf_one, crlf_two = ONE.replace("\n", "\r\n"), TWO.replace("\n", "\r\n")
    records = split(crlf_one + "\r\n" + crlf_two)
    assert [r[1:3] for r in records] == [(1, crlf_one), (12, crlf_two)]
    assert all(fourcolor.check_record(r[2], r[1]).ok for r in records)


def test_it_reads_old_mac_line_endings() -> None:
    cr_one, cr_two = ONE.replace("\n", "\r"), TWO.replace("\n", "\r")
    records = split(cr_one + "\r" + cr_two)
    assert [r[1:3] for r in records] == [(1, cr_one), (12, cr_two)]


def test_it_reads_mixed_line_endings() -> None:
    mixed_two = TWO.replace("\n", "\r", 3)  # the first tags end in \r, the rest in \n
    records = split(ONE.replace("\n", "\r\n") + "\n" + mixed_two)
    assert [r[1] for r in records] == [1, 12]
    assert records[1][2] == mixed_two
    check = fourcolor.check_record(records[1][2], records[1][1])
    assert check.ok and check.record is not None and check.record.dealer == 1


def test_it_reads_a_list_of_lines_like_a_file() -> None:
    lines = (ONE + "\n" + TWO).splitlines(keepends=True)
    assert [(r.line, r.text) for r in fourcolor.iter_records(lines)] == [(1, ONE), (12, TWO)]


def test_it_splits_at_a_bare_cr_inside_a_chunk_that_ends_in_crlf() -> None:
    chunks = ['[Event "a"]\n', '1x yE\r\r[Event "b"]\r\n', "2x rC\n"]
    assert [r.line for r in fourcolor.iter_records(chunks)] == [1, 4]


def test_it_keeps_a_tag_line_inside_a_multi_line_comment_in_the_record() -> None:
    text = fcn('1x yE {a comment\n[Event "quoted"]\nstill the comment} 2d rC 2x rC')
    ((_, line, kept, _),) = split(text)
    assert (line, kept) == (1, text)
    record = fourcolor.parse_record(kept)
    assert record.events[0].comments == ('a comment [Event "quoted"] still the comment',)


def test_it_starts_a_record_at_a_tag_line_after_a_blank_line_even_in_a_comment() -> None:
    first = fcn("1x yE {never closed")
    records = split(first + "\n" + TWO)
    assert [r[1] for r in records] == [1, 12]
    assert fourcolor.check_record(records[0][2]).error is not None
    assert fourcolor.check_record(records[1][2], records[1][1]).ok


def test_it_does_not_split_inside_the_tags() -> None:
    (record,) = split(ONE.replace("\n\n", "\n\n\n", 1))
    assert record[2].startswith('[Ruleset "classic"]') and "1x yE" in record[2]


def test_it_does_not_start_a_record_at_an_indented_tag_line() -> None:
    indented, rest = TWO.split("\n", 1)
    records = split(ONE + "  " + indented + "\n" + rest)
    assert records[0][2] == ONE + "  " + indented + "\n"  # left to the record before
    assert records[1][1:3] == (12, rest)


def test_it_flags_an_oversize_record_and_keeps_only_its_start() -> None:
    comment_line = "{" + "x" * 98 + "}\n"
    big = fcn("1x yE") + comment_line * (MAX_RECORD_CHARS // 100 + 10)
    records = split(big + "\n" + TWO)
    assert [(r[0], r[3]) for r in records] == [(0, True), (1, False)]
    assert len(records[0][2]) <= MAX_RECORD_CHARS
    assert big.startswith(records[0][2])
    assert records[1][1] == big.count("\n") + 2
    err = fourcolor.check_record(records[0][2], records[0][1], oversize=True).error
    assert err is not None and (err.category, err.line, err.col, err.ply) == ("limit", 1, 1, 0)


def test_it_reads_a_file_of_many_records_one_at_a_time() -> None:
    def lines() -> object:
        for _ in range(500):
            yield from (ONE + "\n").splitlines(keepends=True)

    seen = 0
    for record in fourcolor.iter_records(lines()):  # type: ignore[arg-type]
        assert record.text == ONE and record.line == 1 + 11 * record.index
        seen += 1
    assert seen == 500


def _comment_state_by_character(line: str, in_comment: bool) -> bool:
    """The brace scan as first written, a character at a time: what `_comment_state` must say."""
    for ch in line:
        if in_comment:
            if ch == "}":
                in_comment = False
        elif ch == "{":
            in_comment = True
    return in_comment


@given(st.text(alphabet="{}ab \r\n", max_size=40), st.booleans())
def test_it_tracks_comments_across_a_line_as_a_character_scan_does(
    line: str, in_comment: bool
) -> None:
    assert _comment_state(line, in_comment) == _comment_state_by_character(line, in_comment)


@given(st.lists(st.text(alphabet="[ab{}\r\n", max_size=12), max_size=8))
def test_it_cuts_chunks_into_the_same_lines_as_their_joined_text(chunks: list[str]) -> None:
    whole = "".join(chunks)
    expected = re.findall(r"[^\r\n]*(?:\r\n|\n|\r)|[^\r\n]+$", whole)
    assert list(_lines(chunks)) == expected


def _record_of(length: int) -> str:
    """A record of exactly `length` characters (its final newline included), padded with
    comment lines of 100 characters and one shorter."""
    base = fcn("1x yE")
    lines, rest = divmod(length - len(base) - 3, 100)
    text = base + ("{" + "x" * 97 + "}\n") * lines + ("{" + "x" * rest + "}\n")
    assert len(text) == length
    return text


def test_it_does_not_count_the_blank_lines_after_a_record_towards_its_limit() -> None:
    exact = _record_of(MAX_RECORD_CHARS)
    assert len(exact) == MAX_RECORD_CHARS
    records = split(exact + "\n\n  \n" + TWO)
    assert [(r[2], r[3]) for r in records] == [(exact, False), (TWO, False)]
    assert fourcolor.check_record(records[0][2], records[0][1]).error is None


def test_it_flags_a_record_one_character_over_the_limit() -> None:
    over = _record_of(MAX_RECORD_CHARS + 1)
    assert [r[3] for r in split(over + "\n" + TWO)] == [True, False]


@given(st.integers(min_value=-3, max_value=3), st.lists(st.sampled_from(["\n", "\r\n", " \n"]),
                                                         max_size=5), st.booleans())
def test_it_flags_a_record_by_its_own_length_whatever_blank_lines_follow(
    delta: int, blanks: list[str], another: bool
) -> None:
    record = _record_of(MAX_RECORD_CHARS + delta)
    records = split(record + "".join(blanks) + (TWO if another else ""))
    assert records[0][3] == (delta > 0)
    if delta <= 0:
        assert records[0][2] == record
    assert len(records) == 1 + another


def test_it_still_counts_blank_lines_inside_a_record() -> None:
    body = _record_of(MAX_RECORD_CHARS)
    tags, deal = body.split("\n\n", 1)
    inside = tags + "\n\n\n" + deal  # one more blank line between the tags and the deal
    assert len(inside) == MAX_RECORD_CHARS + 1
    assert split(inside)[0][3] is True
