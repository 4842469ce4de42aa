"""Tag lines: `[Name "value"]` with only \\" and \\\\ as escapes; the required tags, Dealer,
Result and Date shapes; unknown tags kept. A fault in the tags is at ply 0 on the tag's line."""

from __future__ import annotations

import pytest

import fourcolor

from .fcn import DEAL_A, Fault, fault_of

BASE = ['[Ruleset "classic"]', '[Seat1 "Ann"]', '[Seat2 "Bo"]', '[Dealer "1"]']
BODY = "\n" + "\n".join(f"{s}: {c}" for s, c in DEAL_A.items()) + "\n\n1x yE 2w yE yK yA\n"


def tagged(*lines: str, base: list[str] | None = None) -> str:
    return "\n".join((BASE if base is None else base) + list(lines)) + "\n" + BODY


def tags_of(text: str) -> dict[str, str]:
    return fourcolor.parse_record(text).tags


VALUES = [
    ("plain", '[Event "Friday club"]', "Friday club"),
    ("escaped-quote", r'[Event "say \"hi\""]', 'say "hi"'),
    ("escaped-backslash", r'[Event "a\\b"]', "a\\b"),
    ("escaped-both", r'[Event "\\\""]', '\\"'),
    ("unicode", '[Event "四色牌 tứ sắc"]', "四色牌 tứ sắc"),
    ("brackets-inside", '[Event "[x] {y}"]', "[x] {y}"),
    ("empty-value", '[Site ""]', ""),
    ("spaces-kept", '[Site "  two  "]', "  two  "),
    ("space-before-bracket", '[Site "x" ]', "x"),
    ("several-spaces-after-name", '[Site    "x"]', "x"),
    ("indented-line", '   [Site "x"]', "x"),
]


@pytest.mark.parametrize("line,value", [v[1:] for v in VALUES], ids=[v[0] for v in VALUES])
def test_it_reads_tag_values_with_their_escapes(line: str, value: str) -> None:
    name = line.strip()[1:].split()[0]
    assert tags_of(tagged(line))[name] == value


def test_it_keeps_unknown_tags_in_their_order() -> None:
    text = tagged('[Zeta "z"]', '[Custom_1 "c"]', '[Seat0 "not a seat"]', '[ruleset "lower"]')
    tags = tags_of(text)
    assert list(tags)[-4:] == ["Zeta", "Custom_1", "Seat0", "ruleset"]
    assert fourcolor.check_record(text).ok


@pytest.mark.parametrize("result", ["2:9", "*", "-", "R"])
def test_it_reads_every_result_form(result: str) -> None:
    # Only 2:9 agrees with the round; the other forms are well-formed and disagree at the end.
    fault = fault_of(tagged(f'[Result "{result}"]'))
    if result == "2:9":
        assert fault is None
    else:
        assert fault == Fault(10, 1, 3, "result-mismatch")


@pytest.mark.parametrize("date", ["2026.11.27", "2026.??.??", "????.??.??"])
def test_it_accepts_dates_with_unknown_parts(date: str) -> None:
    assert fault_of(tagged(f'[Date "{date}"]')) is None


# (id, tag lines, line, col): every fault of the tags, at ply 0 with category tags.
TAG_FAULTS = [
    ("bad-escape-n", [r'[Event "a\n"]'], 5, 10),
    ("bad-escape-t", [r'[Event "\t"]'], 5, 9),
    ("backslash-at-end", ['[Event "x\\'], 5, 10),
    ("unclosed-value", ['[Event "open]'], 5, 14),
    ("junk-after-value", ['[Event "x"] junk'], 5, 11),
    ("double-bracket", ['[Event "x"]]'], 5, 11),
    ("no-closing-bracket", ['[Event "x"'], 5, 11),
    ("unquoted-value", ["[Event x]"], 5, 1),
    ("no-space-before-value", ['[Event"x"]'], 5, 1),
    ("space-after-bracket", ['[ Event "x"]'], 5, 1),
    ("two-tags-on-a-line", ['[Event "x"] [Site "y"]'], 5, 11),
    ("name-starts-with-digit", ['[9Event "x"]'], 5, 1),
    ("empty-tag-line", ["[]"], 5, 1),
    ("control-character", ['[Event "tab\there"]'], 5, 1),
    ("duplicated-optional", ['[Event "a"]', '[Event "b"]'], 6, 1),
    ("duplicated-seat", ['[Seat2 "again"]'], 5, 1),
    ("duplicated-ruleset", ['[Ruleset "bga"]'], 5, 1),
    ("duplicated-dealer", ['[Dealer "2"]'], 5, 1),
    ("result-leading-zero", ['[Result "2:09"]'], 5, 1),
    ("result-seat-zero", ['[Result "0:9"]'], 5, 1),
    ("result-no-such-seat", ['[Result "3:9"]'], 5, 1),
    ("result-five-digits", ['[Result "2:10000"]'], 5, 1),
    ("result-no-points", ['[Result "2:"]'], 5, 1),
    ("result-lowercase-r", ['[Result "r"]'], 5, 1),
    ("result-spaces", ['[Result "2 : 9"]'], 5, 1),
    ("result-empty", ['[Result ""]'], 5, 1),
    ("date-dashes", ['[Date "2026-11-27"]'], 5, 1),
    ("date-two-digit-year", ['[Date "26.11.27"]'], 5, 1),
    ("date-empty", ['[Date ""]'], 5, 1),
    ("lucky-two-cards", ['[Lucky "rK gK"]'], 5, 1),
    ("lucky-no-card", ['[Lucky "zz"]'], 5, 1),
    ("pile-bad-card", ['[Pile "rK rk"]'], 5, 1),
]


@pytest.mark.parametrize(
    "lines,line,col", [v[1:] for v in TAG_FAULTS], ids=[v[0] for v in TAG_FAULTS]
)
def test_it_refuses_malformed_tags_on_their_line(lines: list[str], line: int, col: int) -> None:
    assert fault_of(tagged(*lines)) == Fault(line, col, 0, "tags")


REQUIRED = [
    ("missing-ruleset", BASE[1:], 1, 1),
    ("missing-seat1", [BASE[0], BASE[2], BASE[3]], 1, 1),
    ("missing-seat2", [BASE[0], BASE[1], BASE[3]], 2, 1),  # one seat: said on Seat1
    ("gap-in-seats", BASE + ['[Seat4 "Di"]'], 1, 1),
    ("nine-seats", BASE + [f'[Seat{n} "x{n}"]' for n in range(3, 10)], 2, 1),
    ("missing-dealer", BASE[:3], 1, 1),
    ("empty-seat-name", [BASE[0], '[Seat1 "  "]', BASE[2], BASE[3]], 2, 1),
    ("dealer-zero", BASE[:3] + ['[Dealer "0"]'], 4, 1),
    ("dealer-no-such-seat", BASE[:3] + ['[Dealer "3"]'], 4, 1),
    ("dealer-word", BASE[:3] + ['[Dealer "one"]'], 4, 1),
    ("dealer-empty", BASE[:3] + ['[Dealer ""]'], 4, 1),
    ("dealer-signed", BASE[:3] + ['[Dealer "+1"]'], 4, 1),
    ("unknown-ruleset", ['[Ruleset "house"]'] + BASE[1:], 1, 1),
    ("ruleset-wrong-case", ['[Ruleset "Classic"]'] + BASE[1:], 1, 1),
]


@pytest.mark.parametrize("lines,line,col", [v[1:] for v in REQUIRED], ids=[v[0] for v in REQUIRED])
def test_it_refuses_missing_or_bad_required_tags(lines: list[str], line: int, col: int) -> None:
    assert fault_of(tagged(base=lines)) == Fault(line, col, 0, "tags")


def test_it_reports_the_tags_before_a_bad_deal() -> None:
    text = tagged('[Result "9:9"]').replace("rK rA", "rK zz")
    assert fault_of(text) == Fault(5, 1, 0, "tags")


def test_it_accepts_blank_lines_among_the_tags() -> None:
    assert fault_of(tagged(base=[BASE[0], "", BASE[1], "   ", BASE[2], BASE[3]])) is None


def test_it_accepts_the_required_tags_in_any_order() -> None:
    assert fault_of(tagged(base=list(reversed(BASE)))) is None


def test_it_refuses_a_dealer_in_non_ascii_digits_as_a_tag_fault() -> None:
    text = tagged(base=BASE[:3] + ['[Dealer "²"]'])
    assert fault_of(text) == Fault(4, 1, 0, "tags")
