"""`fourcolor analyse FILE [--index I] [--samples K] [--seed X] [--json]`: every decision rated."""

from __future__ import annotations

import json

import fourcolor
from fourcolor.analysis import analyse
from fourcolor.generate import generate_record

from .cli import Runner, Writer


def _file(write: Writer) -> tuple[str, list[fourcolor.Record]]:
    records = [generate_record("classic", 2, s, bot=["greedy", "random"]) for s in (1, 2)]
    text = "\n".join(fourcolor.write_fcn(r) for r in records)
    return write("two.fcn", text), records


def test_it_prints_one_json_line_per_record(run: Runner, write: Writer) -> None:
    path, records = _file(write)
    result = run("analyse", path, "--samples", "2", "--seed", "7", "--json")
    assert result.status == 0 and result.err == ""
    lines = [json.loads(line) for line in result.out.splitlines()]
    assert [line["index"] for line in lines] == [0, 1]
    for line, record in zip(lines, records, strict=True):
        assert line == analyse(record, samples=2, seed=7, index=line["index"]).to_dict()
        assert (line["samples"], line["seed"], line["engine"]) == (2, 7, fourcolor.__version__)


def test_it_prints_one_record_in_words(run: Runner, write: Writer) -> None:
    path, records = _file(write)
    result = run("analyse", path, "--index", "1", "--samples", "2")
    assert result.status == 0
    lines = result.out.splitlines()
    assert lines[0] == "record 1: 2 samples, seed 0"
    expected = analyse(records[1], samples=2, index=1)
    for seat, summary in expected.seats.items():
        assert any(
            line.startswith(f"  seat {seat} (") and f"{summary.decisions} decisions" in line
            for line in lines
        )
    assert sum(line.startswith("  ply ") for line in lines) == len(expected.decisions)


def test_it_refuses_bad_arguments_and_illegal_records(run: Runner, write: Writer) -> None:
    path, records = _file(write)
    result = run("analyse", path, "--samples", "0")
    assert (result.status, result.err) == (
        2,
        "fourcolor: error: --samples must be between 1 and 100000\n",
    )
    assert run("analyse", path, "--index", "5").err == (
        f"fourcolor: error: {path}: there is no record 5\n"
    )
    bad = records[0]
    bad.events[0] = fourcolor.Event(2, "x", (fourcolor.parse_card("wP"),))
    result = run("analyse", write("bad.fcn", fourcolor.write_fcn(bad)))
    assert result.status == 2
    assert result.err.startswith("fourcolor: error: record 0 is not a legal round: ")
    assert "Traceback" not in result.err
