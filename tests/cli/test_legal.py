"""`fourcolor legal FILE [--index I] [--ply N] [--json]`: the legal next events of a record."""

from __future__ import annotations

import json

import fourcolor
from fourcolor.round import Round
from fourcolor.generate import generate_record

from .cli import Runner, Writer


def _expected(record: fourcolor.Record, ply: int) -> list[str]:
    state = Round.from_record(record)
    for event in record.events[:ply]:
        state.push(event)
    return [e.text() for e in state.legal_events()]


def test_it_prints_the_legal_events_after_a_ply_as_json(run: Runner, write: Writer) -> None:
    record = generate_record("classic", 4, 11)
    path = write("r.fcn", fourcolor.write_fcn(record))
    for ply in (0, 1, 2, 5):
        result = run("legal", path, "--ply", str(ply), "--json")
        assert result.status == 0 and result.err == ""
        assert json.loads(result.out) == {"ply": ply, "events": _expected(record, ply)}
    # The dealer opens: one discard per kind it may let go.
    assert all(e.startswith(f"{record.dealer}x ") for e in _expected(record, 0))


def test_it_prints_one_event_a_line_after_the_last_event_by_default(
    run: Runner, write: Writer
) -> None:
    records = [generate_record("bga", 3, s, tags={"Result": "*"}) for s in (1, 2)]
    # An unfinished copy of the second record: its first 7 events.
    unfinished = records[1]
    unfinished.events = unfinished.events[:7]
    unfinished.tags["Result"] = "*"
    path = write(
        "two.fcn", fourcolor.write_fcn(records[0]) + "\n" + fourcolor.write_fcn(unfinished)
    )
    result = run("legal", path, "--index", "1")
    assert result.status == 0
    assert result.out.splitlines() == _expected(unfinished, 7)
    assert result.out.splitlines()  # a round in progress always has a next event


def test_it_refuses_a_ply_out_of_range_and_an_illegal_prefix(run: Runner, write: Writer) -> None:
    record = generate_record("classic", 2, 3)
    path = write("r.fcn", fourcolor.write_fcn(record))
    result = run("legal", path, "--ply", str(len(record.events) + 1))
    assert result.status == 2
    assert result.err == (
        f"fourcolor: error: --ply must be between 0 and {len(record.events)}, "
        f"not {len(record.events) + 1}\n"
    )
    # Seat 2 discards before the dealer (seat 1) opens.
    record.events[0] = fourcolor.Event(2, "x", (fourcolor.parse_card("wP"),))
    record.tags["Result"] = "*"
    bad = write("bad.fcn", fourcolor.write_fcn(record))
    result = run("legal", bad, "--ply", "1")
    assert result.status == 2 and "ply 1 (2x wP) is not legal" in result.err
    assert "Traceback" not in result.err
    assert run("legal", path, "--index", "4").err.endswith("there is no record 4\n")
