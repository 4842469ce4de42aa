"""The canonical text (`write_fcn`) and the JSON twin (`record_to_json`, `record_from_json`):
exact layouts, and the round trips FCN -> canonical -> FCN and FCN -> JSON -> FCN."""

from __future__ import annotations

import json
from typing import Any

import pytest

import fourcolor
from fourcolor.notation import LINE_WIDTH

from .fcn import DEAL_A, fcn

# The example of shared/NOTATION.md, written by a person: turn numbers, a comment over two
# lines, deal cards in any order, a declared split.
EXAMPLE = """[Event "Friday club"]
[Date "2026.11.27"]
[Ruleset "classic"]
[Seat1 "Мария"]
[Seat2 "Jun"]
[Seat3 "Noor"]
[Seat4 "Hana"]
[Dealer "3"]
[Result "3:7"]

1: rC rP yK yK yE yE yR yR yC gA gR gR gH gH gC gP wK wE wH wC
2: rE wR wK yE wE rC rP yP gE rH wH rA wA wR rE rP yE wR wA gC
3: rK rK rK rA rR rH rC rP yK yA yA yH yH yC gK gA gE gP gP wR wC
4: wE yK wP wH rA wK rR wK wA gK gK wC rE wE gC gA yH rK rR yR

1. 3x rP 2. 4d rH 4x rH 3. 1m rH gH wH {three horses of three colours} 1x gA
4. 2d wH 2x wH 5. 3d gR 3m rR gR wR 3x rH 6. 4d gK {a drawn general is never
discarded} 4m gK 4x wP 7. 1d rE
3w rK rA rE (rK) (rK) (rC yC wC) (yK) (yA yA) (yH yH) (gK gA gE) (gP gP)
"""

EXAMPLE_CANONICAL = """[Event "Friday club"]
[Date "2026.11.27"]
[Ruleset "classic"]
[Seat1 "Мария"]
[Seat2 "Jun"]
[Seat3 "Noor"]
[Seat4 "Hana"]
[Dealer "3"]
[Result "3:7"]

1: rC rP yK yK yE yE yR yR yC gA gR gR gH gH gC gP wK wE wH wC
2: rA rE rE rH rC rP rP yE yE yP gE gC wK wA wA wE wR wR wR wH
3: rK rK rK rA rR rH rC rP yK yA yA yH yH yC gK gA gE gP gP wR wC
4: rK rA rE rR rR yK yR yH gK gK gA gC wK wK wA wE wE wH wC wP

3x rP 4d rH 4x rH 1m rH gH wH {three horses of three colours} 1x gA 2d wH 2x wH
3d gR 3m rR gR wR 3x rH 4d gK {a drawn general is never discarded} 4m gK 4x wP
1d rE 3w rK rA rE (rK) (rK) (rC yC wC) (yK) (yA yA) (yH yH) (gK gA gE) (gP gP)
"""


def canonical(text: str) -> str:
    return fourcolor.write_fcn(fourcolor.parse_record(text))


def test_it_writes_the_notation_example_canonically() -> None:
    assert fourcolor.check_record(EXAMPLE).ok
    assert canonical(EXAMPLE) == EXAMPLE_CANONICAL
    assert canonical(EXAMPLE_CANONICAL) == EXAMPLE_CANONICAL


def test_it_orders_tags_known_first_then_seats_then_the_rest_as_they_came() -> None:
    text = fcn(
        "",
        extra=[
            '[Zed "1"]',
            '[Lucky "rK"]',
            '[Round "2"]',
            '[Alpha "2"]',
            '[Match "m"]',
            '[Site "s"]',
            '[Date "2026.01.02"]',
            '[Event "e"]',
        ],
    )
    names = [line.split()[0][1:] for line in canonical(text).splitlines() if line.startswith("[")]
    assert names == [
        "Event", "Site", "Date", "Match", "Round", "Ruleset", "Seat1", "Seat2",
        "Dealer", "Result", "Lucky", "Zed", "Alpha",
    ]  # fmt: skip


def test_it_escapes_quotes_and_backslashes_in_tag_values() -> None:
    out = canonical(fcn("", extra=[r'[Event "say \"hi\" \\o/"]']))
    assert r'[Event "say \"hi\" \\o/"]' in out.splitlines()


def test_it_normalises_the_spacing_of_pile_and_lucky() -> None:
    out = canonical(fcn("", extra=['[Lucky "  rK "]', '[Note "  kept  "]']))
    assert '[Lucky "rK"]' in out and '[Note "  kept  "]' in out


def test_it_sorts_deal_lines_and_their_cards() -> None:
    text = fcn("").replace(
        f"1: {DEAL_A[1]}\n2: {DEAL_A[2]}",
        f"2: {' '.join(reversed(DEAL_A[2].split()))}\n1: {DEAL_A[1]}",
    )
    lines = canonical(text).splitlines()
    assert lines[6] == "1: rK rA rE rR rH rC yE yR yP yP gA gA gA gR gH gH wA wE wC wC wP"
    assert lines[7] == "2: rP rP yK yA yH yH yH gK gE gE gC gC gP gP gP wK wR wR wH wH"


def test_it_sorts_meld_cards_but_keeps_discards_draws_and_group_order() -> None:
    text = fcn(
        "1x yE 2w yA yE yK (gP gP gP) (yH yH yH) (wH wH) (rP rP) (gE gE) (gC gC) (wR wR) (gK) (wK)"
    )
    events_line = canonical(text).splitlines()[-2:]
    assert " ".join(events_line) == (
        "1x yE 2w yK yA yE (gP gP gP) (yH yH yH) (wH wH) (rP rP) (gE gE) (gC gC) (wR wR) (gK) (wK)"
    )


def test_it_ends_without_an_events_line_when_there_are_none() -> None:
    out = canonical(fcn(""))
    assert out.splitlines()[-1].startswith("2: ") and out.endswith("wH wH\n")
    assert out.count("\n\n") == 1  # only the blank line between the tags and the deal


def test_it_writes_record_comments_before_the_first_event_with_whitespace_collapsed() -> None:
    out = canonical(fcn("{  a\n   deal\tcomment } 1. 1x yE {x}"))
    assert out.endswith("\n\n{a deal comment} 1x yE {x}\n")


def test_it_wraps_events_at_79_columns_without_breaking_a_word() -> None:
    cycle = ["2d rC", "2x rC", "1d rR", "1x rR"]
    events = "1x yE " + " ".join(cycle[k % 4] for k in range(60))
    long_comment = "{" + "word " * 30 + "end}"
    out = canonical(fcn(events + " " + long_comment + " 2d wA"))
    body = out.split("\n\n")[-1].splitlines()
    for line, following in zip(body, body[1:], strict=False):
        first_word = following.split()[0] if not following.startswith("{") else following
        if not line.startswith("{"):
            assert len(line) <= LINE_WIDTH
        # Greedy: the next line's first word would not have fitted.
        if not following.startswith("{"):
            assert len(line) + 1 + len(first_word) > LINE_WIDTH
    assert long_comment.replace("  ", " ") in body  # a long comment stands on its own line
    assert all(len(line) <= LINE_WIDTH for line in body if not line.startswith("{"))


def test_it_writes_canonical_text_that_reads_back_the_same() -> None:
    for text in (EXAMPLE, fcn("1x yE {a} 2d rC 2x rC"), fcn("2r", result="*")):
        once = canonical(text)
        assert canonical(once) == once
        assert once.endswith("\n") and not once.endswith("\n\n")


# ------------------------------------------------------------------ the JSON twin


def test_it_gives_the_json_twin_of_a_record() -> None:
    record = fourcolor.parse_record(
        fcn(
            "{deal} 1x yE {opening} 2w yA yE yK (yH yH yH) (gP gP gP) (rP rP) (wK) (gK) "
            "(wR wR) (gE gE) (gC gC) (wH wH)",
            result="2:9",
            extra=['[Site "club"]'],
        )
    )
    twin = fourcolor.record_to_json(record)
    assert list(twin) == ["fcn", "tags", "deal", "comments", "events"]
    assert twin["fcn"] == 1
    assert list(twin["tags"].items()) == [
        ("Site", "club"), ("Ruleset", "classic"), ("Seat1", "Ann"), ("Seat2", "Bo"),
        ("Dealer", "1"), ("Result", "2:9"),
    ]  # fmt: skip
    assert twin["deal"] == {
        "1": "rK rA rE rR rH rC yE yR yP yP gA gA gA gR gH gH wA wE wC wC wP".split(),
        "2": "rP rP yK yA yH yH yH gK gE gE gC gC gP gP gP wK wR wR wH wH".split(),
    }
    assert twin["comments"] == ["deal"]
    assert twin["events"] == [
        {"seat": 1, "verb": "x", "cards": ["yE"], "comments": ["opening"]},
        {
            "seat": 2,
            "verb": "w",
            "cards": ["yK", "yA", "yE"],
            "split": [
                ["yH", "yH", "yH"], ["gP", "gP", "gP"], ["rP", "rP"], ["wK"], ["gK"],
                ["wR", "wR"], ["gE", "gE"], ["gC", "gC"], ["wH", "wH"],
            ],
        },
    ]  # fmt: skip
    json.dumps(twin)  # plain JSON data


def test_it_leaves_out_empty_fields_of_the_json_twin() -> None:
    twin = fourcolor.record_to_json(fourcolor.parse_record(fcn("2r")))
    assert "comments" not in twin
    assert twin["events"] == [{"seat": 2, "verb": "r"}]


def test_it_round_trips_the_json_twin_to_the_canonical_text() -> None:
    for text in (EXAMPLE, fcn("{c} 1x yE {d} 2d rC 2x rC"), fcn("")):
        record = fourcolor.parse_record(text)
        twin = fourcolor.record_to_json(record)
        again = fourcolor.record_from_json(json.loads(json.dumps(twin)))
        assert fourcolor.write_fcn(again) == fourcolor.write_fcn(record)
        assert fourcolor.record_to_json(again) == twin


def twin_of(**changes: Any) -> dict[str, Any]:
    data = fourcolor.record_to_json(fourcolor.parse_record(fcn("1x yE 2d rC")))
    data.update(changes)
    return data


BAD_TWINS = [
    ("not-an-object", [], 0),
    ("tags-not-a-map", twin_of(tags=["Ruleset"]), 0),
    ("tag-value-not-a-string", twin_of(tags={"Ruleset": "classic", "Round": 1}), 0),
    ("bad-tag-name", twin_of(tags=twin_of()["tags"] | {"two words": "x"}), 0),
    ("missing-required-tag", twin_of(tags={"Ruleset": "classic"}), 0),
    ("deal-not-a-map", twin_of(deal=[]), 0),
    ("deal-seat-not-a-number", twin_of(deal={"one": []}), 0),
    ("deal-not-a-list", twin_of(deal={"1": "rK", "2": []}), 0),
    ("deal-bad-card", twin_of(deal={"1": ["rK", "zz"], "2": []}), 0),
    ("comments-not-strings", twin_of(comments=[1]), 0),
    ("events-not-a-list", twin_of(events={}), 0),
    ("too-many-events", twin_of(events=[{"seat": 1, "verb": "r"}] * 2001), 0),
    ("event-not-an-object", twin_of(events=[{"seat": 1, "verb": "r"}, "2d rC"]), 2),
    ("seat-missing", twin_of(events=[{"verb": "r"}]), 1),
    ("seat-bool", twin_of(events=[{"seat": True, "verb": "r"}]), 1),
    ("seat-ten", twin_of(events=[{"seat": 10, "verb": "r"}]), 1),
    ("verb-unknown", twin_of(events=[{"seat": 1, "verb": "q"}]), 1),
    ("verb-two-letters", twin_of(events=[{"seat": 1, "verb": "xd"}]), 1),
    ("cards-bad", twin_of(events=[{"seat": 1, "verb": "x", "cards": ["zz"]}]), 1),
    ("cards-not-strings", twin_of(events=[{"seat": 1, "verb": "x", "cards": [1]}]), 1),
    ("arity", twin_of(events=[{"seat": 1, "verb": "x", "cards": ["rC", "rC"]}]), 1),
    (
        "split-on-a-meld",
        twin_of(events=[{"seat": 1, "verb": "m", "cards": ["rC"], "split": [["rC"]]}]),
        1,
    ),
    (
        "split-not-a-list",
        twin_of(events=[{"seat": 1, "verb": "w", "cards": ["rC"], "split": "rC"}]),
        1,
    ),
    ("event-comments-not-strings", twin_of(events=[{"seat": 1, "verb": "r", "comments": "c"}]), 1),
]


@pytest.mark.parametrize("data,ply", [v[1:] for v in BAD_TWINS], ids=[v[0] for v in BAD_TWINS])
def test_it_refuses_a_malformed_json_twin_with_the_ply(data: Any, ply: int) -> None:
    with pytest.raises(fourcolor.FcnSyntaxError) as caught:
        fourcolor.record_from_json(data)
    assert (caught.value.category, caught.value.ply) == ("syntax", ply)
    # A JSON-only fault says so; a fault the FCN reader has too (a tag, the arity) is its own.
    code = caught.value.code
    assert caught.value.message.startswith("JSON record: ") == code.startswith("json.")


def test_it_refuses_a_json_deal_seat_in_non_ascii_digits() -> None:
    with pytest.raises(fourcolor.FcnSyntaxError):
        fourcolor.record_from_json(twin_of(deal={"²": [], "1": [], "2": []}))


UNWRITABLE_TWINS = [
    ("newline-in-tag", lambda d: d["tags"].update(Event="two\nlines")),
    ("brace-in-comment", lambda d: d.update(comments=["a } b"])),
    ("newline-in-comment", lambda d: d["events"][0].update(comments=["a\nb"])),
    ("tag-value-over-limit", lambda d: d["tags"].update(Event="x" * 5000)),
]


@pytest.mark.parametrize(
    "change", [v[1] for v in UNWRITABLE_TWINS], ids=[v[0] for v in UNWRITABLE_TWINS]
)
def test_it_writes_only_json_twins_that_read_back_the_same(change: Any) -> None:
    data = twin_of()
    change(data)
    try:
        record = fourcolor.record_from_json(data)
    except fourcolor.FcnError:
        return  # refusing the twin is fine
    text = fourcolor.write_fcn(record)
    assert fourcolor.record_to_json(fourcolor.parse_record(text)) == fourcolor.record_to_json(
        record
    )
