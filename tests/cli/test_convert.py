"""`fourcolor convert FILE --to json|fcn`: canonical FCN, the JSON twin (one object a line), and
back; FCN -> JSON -> FCN gives the canonical text."""

from __future__ import annotations

import json

import pytest

import fourcolor
from tests.notation.fcn import fcn

from .cli import Runner, Writer

MESSY = fcn("1. 1x yE {a\n  comment} 2. 2m yA yK yE 2x wH\n3. 1d rR", result="*").replace(
    "1: rK rA", "1: rA rK"
)
OTHER = fcn("2r", result=None)


def canonical(text: str) -> str:
    return fourcolor.write_fcn(fourcolor.parse_record(text))


def test_it_writes_canonical_fcn(run: Runner, write: Writer) -> None:
    result = run("convert", write("m.fcn", MESSY + "\n" + OTHER), "--to", "fcn")
    assert result.status == 0 and result.err == ""
    assert result.out == canonical(MESSY) + "\n" + canonical(OTHER)


def test_it_writes_one_json_twin_a_line(run: Runner, write: Writer) -> None:
    result = run("convert", write("m.fcn", MESSY + "\n" + OTHER), "--to", "json")
    twins = [json.loads(line) for line in result.out.splitlines()]
    assert twins == [
        fourcolor.record_to_json(fourcolor.parse_record(MESSY)),
        fourcolor.record_to_json(fourcolor.parse_record(OTHER)),
    ]
    assert twins[0]["events"][1] == {"seat": 2, "verb": "m", "cards": ["yK", "yA", "yE"]}


@pytest.mark.parametrize(
    "name,flag", [("t.json", ()), ("t.ndjson", ()), ("t.txt", ("--from-json",))]
)
def test_it_round_trips_fcn_through_json(
    run: Runner, write: Writer, name: str, flag: tuple[str, ...]
) -> None:
    lines = run("convert", write("m.fcn", MESSY + "\n" + OTHER), "--to", "json").out
    back = run("convert", write(name, lines), "--to", "fcn", *flag)
    assert back.status == 0
    assert back.out == canonical(MESSY) + "\n" + canonical(OTHER)


def test_it_reads_a_json_array_and_a_single_object(run: Runner, write: Writer) -> None:
    twin = fourcolor.record_to_json(fourcolor.parse_record(OTHER))
    as_array = run("convert", write("a.json", json.dumps([twin, twin])), "--to", "fcn")
    assert as_array.out == canonical(OTHER) + "\n" + canonical(OTHER)
    single = run("convert", write("s.json", json.dumps(twin, indent=2)), "--to", "fcn")
    assert single.out == canonical(OTHER)


def test_it_keeps_an_illegal_but_well_formed_record(run: Runner, write: Writer) -> None:
    # Conversion is about the notation: a rule broken is kept for the validator to report.
    illegal = fcn("1x yK")
    assert run("convert", write("i.fcn", illegal), "--to", "fcn").out == canonical(illegal)


def test_it_refuses_malformed_text_with_its_position(run: Runner, write: Writer) -> None:
    result = run("convert", write("bad.fcn", fcn("1x yE 2d zz")), "--to", "json")
    assert (result.status, result.out) == (2, "")
    assert result.err == (
        "fourcolor: error: 10:10: error[syntax]: no such card 'zz' (ply 2: \"2d zz\")\n"
    )


def test_it_refuses_a_malformed_json_twin_naming_the_record(run: Runner, write: Writer) -> None:
    twin = fourcolor.record_to_json(fourcolor.parse_record(OTHER))
    broken = dict(twin, events=[{"seat": 2, "verb": "q"}])
    path = write("b.json", json.dumps(twin) + "\n" + json.dumps(broken) + "\n")
    result = run("convert", path, "--to", "fcn")
    assert result.status == 2
    assert result.err == f"fourcolor: error: {path}: record 1: JSON record: bad verb 'q'\n"
    assert result.out == canonical(OTHER)  # the records before it were written


def test_it_refuses_text_that_is_not_json(run: Runner, write: Writer) -> None:
    path = write("n.json", "{not json\n")
    result = run("convert", path, "--to", "fcn")
    assert result.status == 2
    assert result.err == (
        f"fourcolor: error: {path}: not JSON: "
        "Expecting property name enclosed in double quotes at line 1\n"
    )


@pytest.mark.parametrize(
    "content",
    [
        json.dumps(
            {
                "tags": {"Ruleset": "classic", "Seat1": "a", "Seat2": "b", "Dealer": "1"},
                "deal": {"²": []},
            }
        ),
        "[" * 100_000 + "]" * 100_000,
    ],
    ids=["non-ascii-digit-seat", "deep-nesting"],
)
def test_it_reports_hostile_json_as_one_error_line(
    run: Runner, write: Writer, content: str
) -> None:
    result = run("convert", write("h.json", content), "--to", "fcn")
    assert result.status == 2 and result.err.startswith("fourcolor: error: ")
