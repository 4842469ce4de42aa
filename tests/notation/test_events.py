"""Events and the other tokens of the event section: heads, cards, groups, comments and turn
numbers. A word that begins with a digit starts a new event (a malformed head is that new
event's fault); any other bad word is a fault of the event it follows."""

from __future__ import annotations

import pytest

import fourcolor

from .fcn import EVENTS_LINE, Fault, fault_of, fcn

L = EVENTS_LINE
WIN = "1x yE 2w yE yK yA"

# (id, events, line, col, ply): syntax faults, each with its position and ply.
SYNTAX = [
    # Malformed heads are faults of the new event.
    ("unknown-verb", "1x yE 5q", L, 7, 2),
    ("verb-then-digit", "1x yE 1x1", L, 7, 2),
    ("two-digit-seat", "1x yE 12x yR", L, 7, 2),
    ("uppercase-verb", "1X yE", L, 1, 1),
    ("verb-y", "1x yE 2y rC", L, 7, 2),
    ("digit-alone", "1x yE 2", L, 7, 2),
    ("dot-inside-head", "1.x yE", L, 1, 1),
    ("turn-number-glued", "1.1x yE", L, 1, 1),
    ("malformed-head-on-later-line", "1x yE 2d rC\n2x rC 1z", L + 1, 7, 4),
    # Any other bad word is a fault of the event it follows.
    ("bad-word", "1x yE zz 2d rC", L, 7, 1),
    ("bad-colour", "1x bK", L, 4, 1),
    ("bad-rank", "1x rX", L, 4, 1),
    ("card-lowercase", "1x ye", L, 4, 1),
    ("card-reversed", "1x Ey", L, 4, 1),
    ("bad-word-after-meld", "1x yE 2m yE yK yA yA! 2x wH", L, 19, 2),
    ("stray-close-brace", "1x yE } 2d rC", L, 7, 1),
    ("stray-close-brace-glued", "1x yE}", L, 6, 1),
    ("unclosed-comment", "1x yE {never closed", L, 7, 1),
    ("unclosed-comment-over-lines", "1x yE 2d rC {a\nb\nc", L, 13, 2),
    # Groups belong to a win (or a win call) only, and must be closed and not empty.
    ("group-in-discard", "1x (yE)", L, 4, 1),
    ("group-in-meld", "1x yE 2m (yE yK yA)", L, 10, 2),
    ("unclosed-group", WIN + " (yH", L, 19, 2),
    ("nested-group", WIN + " (yH (yH)", L, 19, 2),
    ("close-without-open", WIN + " )", L, 19, 2),
    ("empty-group", WIN + " ()", L, 20, 2),
    ("card-after-groups", WIN + " (yH yH yH) gP", L, 30, 2),
    # Arity: x and d one card, r none, m w c h one to four; said at the head.
    ("discard-no-card", "1x", L, 1, 1),
    ("discard-two-cards", "1x yE rC", L, 1, 1),
    ("draw-no-card", "1x yE 2d", L, 7, 2),
    ("redeal-with-card", "1r rC", L, 1, 1),
    ("meld-no-card", "1x yE 2m", L, 7, 2),
    ("meld-five-cards", "1x yE 2m yE yK yA rC rC", L, 7, 2),
    ("win-no-card", "1x yE 2w (yE yK yA)", L, 7, 2),
    ("call-five-cards", "1x yE 2c yE yE yE yE yE", L, 7, 2),
    ("win-call-no-card", "1x yE 2h", L, 7, 2),
    # Before the first event there is no event to blame: ply 0.
    ("word-before-first-event", "zz 1x yE", L, 1, 0),
    ("brace-before-first-event", "} 1x yE", L, 1, 0),
    ("paren-before-first-event", "( 1x yE", L, 1, 0),
    ("unclosed-comment-before-first-event", "{open 1x yE", L, 1, 0),
]


@pytest.mark.parametrize("events,line,col,ply", [v[1:] for v in SYNTAX], ids=[v[0] for v in SYNTAX])
def test_it_refuses_malformed_event_text(events: str, line: int, col: int, ply: int) -> None:
    assert fault_of(fcn(events)) == Fault(line, col, ply, "syntax")


ACCEPTED = [
    ("turn-numbers", "1. 1x yE 2. 2w yE yK yA"),
    ("turn-number-inside-event", "1x yE 2w 12. yE yK yA"),
    ("turn-number-several-dots", "1x yE 12... 2w yE yK yA"),
    ("events-over-lines", "1x\nyE\n2w yE\nyK yA"),
    (
        "no-space-before-group",
        WIN + "(yH yH yH)(gP gP gP)(rP rP)(wK)(gK)(wR wR)(gE gE)(gC gC)(wH wH)",
    ),
    ("comments-everywhere", "{start} 1x yE {after x} 2w {inside} yE yK yA {end}"),
    ("comment-glued", "1x yE{glued}2w yE yK yA"),
    ("tabs-and-blank-lines", "1x\tyE\n\n\n2w  yE   yK\tyA"),
    ("meld-cards-in-any-order", "1x yE 2w yA yE yK"),
]


@pytest.mark.parametrize("events", [v[1] for v in ACCEPTED], ids=[v[0] for v in ACCEPTED])
def test_it_reads_events_turn_numbers_and_comments(events: str) -> None:
    check = fourcolor.check_record(fcn(events, result="2:9"))
    assert check.error is None, str(check.error)
    assert check.record is not None
    assert [e.head for e in check.record.events] == ["1x", "2w"]


def events_of(events: str) -> list[fourcolor.Event]:
    return fourcolor.parse_record(fcn(events)).events


def test_it_reads_every_verb() -> None:
    record = fourcolor.parse_record(fcn("1x yE 2d rC 2m rC 2w rC 2r 2c rC 2h rC (yH)"))
    assert [(e.seat, e.verb, len(e.cards), len(e.groups)) for e in record.events] == [
        (1, "x", 1, 0),
        (2, "d", 1, 0),
        (2, "m", 1, 0),
        (2, "w", 1, 0),
        (2, "r", 0, 0),
        (2, "c", 1, 0),
        (2, "h", 1, 1),
    ]


def test_it_records_where_each_event_starts() -> None:
    events = events_of("1x yE\n  2d rC 2x\nrC")
    assert [(e.line, e.col) for e in events] == [(L, 1), (L + 1, 3), (L + 1, 9)]


def test_it_keeps_a_win_split_as_groups_in_order() -> None:
    (_, win) = events_of(WIN + " (yH yH yH) (gP gP gP)")
    assert [c.token for c in win.cards] == ["yE", "yK", "yA"]
    assert [[c.token for c in g] for g in win.groups] == [["yH"] * 3, ["gP"] * 3]


def test_it_gives_a_comment_to_the_event_before_it() -> None:
    record = fourcolor.parse_record(fcn("{about the deal} 1x yE {one} {two} 2d rC"))
    assert record.comments == ["about the deal"]
    assert [e.comments for e in record.events] == [("one", "two"), ()]


def test_it_gives_a_comment_inside_an_event_to_that_event() -> None:
    (_, meld) = events_of("1x yE 2m yE {chi} yK yA")
    assert meld.comments == ("chi",) and len(meld.cards) == 3


def test_it_reads_a_comment_over_several_lines_with_its_whitespace_collapsed() -> None:
    record = fourcolor.parse_record(fcn("1x yE {a drawn\n   general is\n\tnever  discarded} 2d rC"))
    assert record.events[0].comments == ("a drawn general is never discarded",)
    assert record.events[1].line == L + 2


def test_it_does_not_nest_comments() -> None:
    # The first } closes the comment: "{a {b}" is one comment and " c}" is left over.
    assert events_of("1x yE {a {b} 2d rC")[0].comments == ("a {b",)
    assert fault_of(fcn("1x yE {a {b} c} 2d rC")) == Fault(L, 14, 1, "syntax")


def test_it_reads_turn_numbers_as_nothing() -> None:
    with_numbers = fourcolor.parse_record(fcn("1. 1x yE 2. 2d rC 3. 2x rC"))
    without = fourcolor.parse_record(fcn("1x yE 2d rC 2x rC"))
    assert fourcolor.write_fcn(with_numbers) == fourcolor.write_fcn(without)


def test_it_counts_plies_without_comments_and_turn_numbers() -> None:
    text = fcn("1. 1x yE {c} 2. 2d rC {d} 2x wH")
    assert fault_of(text) == Fault(L, 27, 3, "not-live")


def test_it_checks_syntax_before_rules_within_one_event() -> None:
    # 2m names a card that does not exist and breaks the turn order: the syntax is said.
    assert fault_of(fcn("1x yE 1m yE zz")) == Fault(L, 13, 2, "syntax")


def test_it_reports_an_earlier_rule_fault_before_a_later_syntax_fault() -> None:
    assert fault_of(fcn("1x yK 2d zz")) == Fault(L, 1, 1, "not-in-hand")
    assert fault_of(fcn("1x yK 5q")) == Fault(L, 1, 1, "not-in-hand")


def test_it_reports_syntax_after_the_end_as_syntax() -> None:
    assert fault_of(fcn(WIN + " 1x zz", result="2:9")) == Fault(L, 22, 3, "syntax")


def test_it_quotes_the_event_as_written_in_a_syntax_message() -> None:
    err = fourcolor.check_record(fcn(WIN + " (yH yH gP")).error
    assert err is not None
    assert err.event == "2w yE yK yA (yH yH gP"
    assert err.message == "unclosed group"


def test_it_keeps_the_events_before_a_malformed_one_when_lenient() -> None:
    record = fourcolor.parse_record(fcn("1x yE 2d rC 2q"), lenient=True)
    assert [e.head for e in record.events] == ["1x", "2d"]
    assert record.syntax_error is not None and record.syntax_error.ply == 3
    with pytest.raises(fourcolor.FcnSyntaxError):
        fourcolor.parse_record(fcn("1x yE 2d rC 2q"))


def test_it_counts_lines_from_the_records_first_line_in_a_file() -> None:
    assert fault_of(fcn("1x yK"), first_line=41) == Fault(L + 40, 1, 1, "not-in-hand")


def test_it_accepts_each_seat_digit_only_for_seats_of_the_round() -> None:
    for seat in "0123456789":
        fault = fault_of(fcn(f"{seat}x yE"))
        if seat == "1":
            assert fault is None
        else:
            assert fault == Fault(L, 1, 1, "turn"), seat
