"""Fuzzing `check_record`: over arbitrary text and over valid records with characters and
tokens changed, inserted or deleted, it never raises; it gives either a game or an `FcnError`
with a position (line >= 1, col >= 1), a ply and one of the documented categories. Whatever
reads is written canonically, and the canonical text reads back the same.

300 examples a test in CI, 10,000 with `TEST_SIZE=full` (tests/sizes.py); hypothesis prints the
smallest input that fails."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fourcolor
from fourcolor.generate import generate_record
from tests.sizes import sweep

EXAMPLES = sweep(full=10_000, ci=300)
FUZZ = settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
CATEGORIES = {
    "syntax", "tags", "deal", "too-many-copies", "turn", "not-live", "not-in-hand",
    "discard-general", "claim-right", "not-a-meld", "no-win", "bad-split", "pile-mismatch",
    "lucky", "result-mismatch", "redeal", "after-end", "truncated", "empty-pile", "locked",
    "priority", "limit",
}  # fmt: skip
# The characters FCN gives meaning to, and a few that often break readers (digits that are
# not ASCII, like '²' and '١', pass str.isdigit() but are no seat or dealer numbers).
FCN_CHARS = '[]{}()"\\: .\n\r\t0123456789²١xdmwrchrygwKAERHCP-*Rz\x00é四'
# Whole tokens too: a card, a seat's verb, a tag, a line ending.
TOKENS = ["rK", "yP", "gE", "wC", "1x", "2d", "3m", "4w", "1r", "12.", '[Result "*"]',
          '[Pile "rK"]', "5q", "zz", "\r\n"]
fcn_text = st.text(alphabet=st.sampled_from(FCN_CHARS), max_size=400)
any_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)),
    max_size=300,
)


def assert_result_or_error(text: str, first_line: int = 1) -> None:
    check = fourcolor.check_record(text, first_line)
    if check.error is None:
        assert check.game is not None and check.record is not None
    else:
        err = check.error
        assert isinstance(err, fourcolor.FcnError) and check.game is None
        assert err.line >= first_line and err.col >= 1 and err.ply >= 0, str(err)
        assert err.category in CATEGORIES, err.category
        assert str(err)  # the one-line message renders
    if check.record is not None:
        written = fourcolor.write_fcn(check.record)
        reread = fourcolor.parse_record(written, lenient=True)
        assert fourcolor.write_fcn(reread) == written


@FUZZ
@given(any_text, st.integers(1, 10**6))
def test_it_never_raises_on_arbitrary_text(text: str, first_line: int) -> None:
    assert_result_or_error(text, first_line)


@FUZZ
@given(fcn_text)
def test_it_never_raises_on_text_made_of_fcn_characters(text: str) -> None:
    assert_result_or_error(text)


def valid_texts() -> list[str]:
    texts = []
    for seed in range(12):
        players = 2 + seed % 3
        ruleset = ("classic", "bga")[seed % 2]
        bot = ("random", "greedy")[seed // 6]
        texts.append(fourcolor.write_fcn(generate_record(ruleset, players, seed, bot=bot)))
    return texts


VALID = valid_texts()
edit = st.tuples(
    st.sampled_from(["change", "insert", "delete"]),
    st.floats(0, 1, exclude_max=True),
    st.sampled_from([*FCN_CHARS, *TOKENS]),
)


@FUZZ
@given(st.sampled_from(VALID), st.lists(edit, min_size=1, max_size=6))
def test_it_never_raises_on_mutated_records(text: str, edits: list[tuple[str, float, str]]) -> None:
    chars = list(text)
    for op, where, ch in edits:
        at = int(where * len(chars))
        if op == "insert":
            chars.insert(at, ch)
        elif chars and op == "change":
            chars[at] = ch
        elif chars:
            del chars[at]
    assert_result_or_error("".join(chars))


@settings(FUZZ, max_examples=max(120, EXAMPLES * 2 // 5))
@given(st.sampled_from(VALID), st.integers(0, 10**6), st.text(max_size=40))
def test_it_never_raises_on_records_cut_and_spliced(text: str, cut: int, junk: str) -> None:
    at = cut % (len(text) + 1)
    assert_result_or_error(text[:at] + junk + text[at:])
    assert_result_or_error(text[:at])
