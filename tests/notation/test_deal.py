"""Deal lines `S: card card ...`: any order, each seat once, the dealer 21 cards and every other
seat 20, at most four copies of a kind. A fault in the deal is at ply 0 on the deal line."""

from __future__ import annotations

import pytest

import fourcolor

from .fcn import DEAL_A, Fault, fault_of

HEAD = '[Ruleset "classic"]\n[Seat1 "Ann"]\n[Seat2 "Bo"]\n[Dealer "1"]\n[Result "2:9"]\n\n'
ONE = f"1: {DEAL_A[1]}"
TWO = f"2: {DEAL_A[2]}"


def dealt(*lines: str, events: str = "1x yE 2w yE yK yA") -> str:
    return HEAD + "\n".join(lines) + "\n\n" + events + "\n"


ACCEPTED = [
    ("seat-order", [ONE, TWO]),
    ("reverse-order", [TWO, ONE]),
    ("blank-line-between", [ONE, "", TWO]),
    ("spaces-around-colon", ["  1 :  " + DEAL_A[1], "2 :" + DEAL_A[2]]),
    ("leading-zero-seat", [ONE, "02: " + DEAL_A[2]]),
    ("cards-in-any-order", [ONE, "2: " + " ".join(reversed(DEAL_A[2].split()))]),
    ("tabs-between-cards", [ONE.replace(" ", "\t"), TWO]),
    ("no-space-after-colon", ["1:" + DEAL_A[1], TWO]),
]


@pytest.mark.parametrize("lines", [v[1] for v in ACCEPTED], ids=[v[0] for v in ACCEPTED])
def test_it_accepts_deal_lines_in_any_order_and_spacing(lines: list[str]) -> None:
    check = fourcolor.check_record(dealt(*lines))
    assert check.error is None, str(check.error)
    assert check.record is not None
    assert {s: len(c) for s, c in check.record.deal.items()} == {1: 21, 2: 20}


# (id, deal lines, line, col, category); always ply 0.
REFUSED = [
    ("seat-repeated", [ONE, ONE], 8, 1, "deal"),
    ("seat-repeated-later", [ONE, TWO, TWO], 9, 1, "deal"),
    ("seat-missing", [ONE], 7, 1, "deal"),
    ("first-seat-missing", [TWO], 7, 1, "deal"),
    ("seat-not-in-round", [ONE, TWO, "3: rK"], 9, 1, "deal"),
    ("seat-zero", [ONE, TWO, "0: rK"], 9, 1, "deal"),
    ("bad-card", [ONE.replace("rA", "Ar"), TWO], 7, 7, "deal"),
    ("lowercase-rank", [ONE, TWO.replace("yK", "yk")], 8, 4, "deal"),
    ("comment-in-deal", [ONE, TWO + " {x}"], 8, 64, "deal"),
    ("dealer-one-short", [ONE[:-3], TWO], 7, 1, "deal"),
    ("dealer-one-over", [ONE + " yR", TWO], 7, 1, "deal"),
    ("seat-one-short", [ONE, TWO[:-3]], 8, 1, "deal"),
    ("seat-one-over", [ONE, TWO + " rE"], 8, 1, "deal"),
    ("empty-deal-line", [ONE, "2:"], 8, 1, "deal"),
    (
        "five-copies-in-one-hand",
        [ONE.replace("gA gA gA wC wC", "gA gA gA gA gA"), TWO],
        7,
        1,
        "too-many-copies",
    ),
    ("five-copies-across-hands", [ONE, TWO.replace("gE gE", "gA gA")], 8, 1, "too-many-copies"),
]


@pytest.mark.parametrize(
    "lines,line,col,category", [v[1:] for v in REFUSED], ids=[v[0] for v in REFUSED]
)
def test_it_refuses_a_bad_deal_at_ply_zero(
    lines: list[str], line: int, col: int, category: str
) -> None:
    assert fault_of(dealt(*lines)) == Fault(line, col, 0, category)


def test_it_refuses_a_record_without_deal_lines_on_the_line_after_the_tags() -> None:
    assert fault_of(HEAD + "1x yE\n") == Fault(7, 1, 0, "deal")


def test_it_places_a_missing_deal_inside_the_record() -> None:
    text = '[Ruleset "classic"]\n[Seat1 "Ann"]\n[Seat2 "Bo"]\n[Dealer "1"]\n'
    fault = fault_of(text)
    assert fault is not None and fault.category == "deal"
    assert 1 <= fault.line <= 5
