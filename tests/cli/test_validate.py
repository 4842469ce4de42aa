"""`fourcolor validate FILE...`: exit 0 only when every record is valid; one line
`FILE:LINE:COL: error[CATEGORY]: MESSAGE (ply N: "EVENT")` per invalid record; with --json one
object per record."""

from __future__ import annotations

import json

from tests.notation.fcn import DEAL_B, DEAL_R, fcn, generated

from .cli import Runner, Writer

WIN = fcn("1x yE 2w yE yK yA", result="2:9")
NOT_A_MELD = fcn("1x yE 2m yE yK yH")
TRUNCATED = fcn("1x yE", result=None)


def test_it_exits_0_and_says_nothing_when_every_record_is_valid(run: Runner, write: Writer) -> None:
    path = write("ok.fcn", WIN + "\n" + fcn("2r", deal=DEAL_R, result="R"))
    assert (run("validate", path).status, run("validate", path).out) == (0, "")


def test_it_writes_one_line_per_invalid_record_and_exits_1(run: Runner, write: Writer) -> None:
    path = write("bad.fcn", NOT_A_MELD)
    result = run("validate", path)
    assert result.status == 1
    assert result.out == (
        f"{path}:10:7: error[not-a-meld]: yE yK yH is not a meld of classic "
        f'(ply 2: "2m yE yK yH")\n'
    )
    assert result.err == ""


def test_it_leaves_out_the_event_when_the_record_as_a_whole_is_at_fault(
    run: Runner, write: Writer
) -> None:
    path = write("short.fcn", TRUNCATED)
    assert run("validate", path).out == (
        f"{path}:9:1: error[truncated]: the record stops before the round ends (ply 2)\n"
    )


def test_it_counts_lines_in_the_file_across_records(run: Runner, write: Writer) -> None:
    path = write("many.fcn", WIN + "\n" + NOT_A_MELD + "\n\n" + WIN + "\n" + TRUNCATED)
    lines = run("validate", path).out.splitlines()
    assert [line.split(": error")[0] for line in lines] == [f"{path}:21:7", f"{path}:43:1"]


def test_it_checks_every_file_and_fails_when_any_fails(run: Runner, write: Writer) -> None:
    good, bad = write("good.fcn", WIN), write("bad.fcn", NOT_A_MELD)
    result = run("validate", good, bad, good)
    assert result.status == 1
    assert result.out.count("\n") == 1 and result.out.startswith(bad + ":")


def test_it_reads_standard_input_as_dash(run: Runner) -> None:
    result = run("validate", "-", stdin=NOT_A_MELD)
    assert result.status == 1 and result.out.startswith("-:10:7: error[not-a-meld]")


def test_it_reads_crlf_files_with_the_same_positions(run: Runner, write: Writer) -> None:
    path = write("crlf.fcn", NOT_A_MELD.replace("\n", "\r\n"))
    assert run("validate", path).out.startswith(f"{path}:10:7: error[not-a-meld]")


def test_it_reports_an_empty_file_as_valid(run: Runner, write: Writer) -> None:
    assert run("validate", write("empty.fcn", "\n\n")).status == 0


def json_lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_it_gives_one_json_object_per_record(run: Runner, write: Writer) -> None:
    path = write("mixed.fcn", WIN + "\n" + NOT_A_MELD)
    result = run("validate", "--json", path)
    assert result.status == 1
    valid, invalid = json_lines(result.out)
    assert valid == {
        "file": path,
        "index": 0,
        "valid": True,
        "ply": None,
        "line": None,
        "col": None,
        "category": None,
        "message": None,
        "result": {"outcome": "win", "seat": 2, "points": 9, "settlement": {"1": -9, "2": 9}},
    }
    assert invalid == {
        "file": path,
        "index": 1,
        "valid": False,
        "ply": 2,
        "line": 21,
        "col": 7,
        "category": "not-a-meld",
        "code": "meld.invalid",
        "params": {"cards": ["yE", "yK", "yH"], "ruleset": "classic"},
        "message": "yE yK yH is not a meld of classic",
        "event": "2m yE yK yH",
    }


def test_it_gives_every_outcome_in_json(run: Runner, write: Writer) -> None:
    records = [
        fcn("1x yE 2w yE yK yA", result="2:9"),
        fcn("2r", deal=DEAL_R, result="R"),
        fcn("1x yE 2d rC", result="*"),
        generated("exhausted", "classic"),
        generated("forced", "bga"),
        fcn("1x yE 2w yE yK yA", deal=DEAL_B, ruleset="bga", extra=['[Lucky "gE"]']),
    ]
    path = write("outcomes.fcn", "\n".join(records))
    result = run("validate", "--json", path)
    items = json_lines(result.out)
    assert result.status == 1  # the last record's Result "*" disagrees with its win
    outcomes = [item["result"]["outcome"] for item in items[:5]]  # type: ignore[index]
    assert outcomes == ["win", "redeal", "unfinished", "exhausted", "forced"]
    redeal, unfinished = items[1]["result"], items[2]["result"]
    assert redeal == {"outcome": "redeal", "seat": 2, "points": None,
                      "settlement": {"1": 0, "2": 0}}  # fmt: skip
    assert unfinished == {"outcome": "unfinished", "seat": None, "points": None,
                          "settlement": {"1": 0, "2": 0}}  # fmt: skip
    forced = items[4]["result"]
    assert isinstance(forced, dict) and sum(forced["settlement"].values()) == 0
    assert items[5]["category"] == "result-mismatch" and items[5]["index"] == 5


def test_it_reports_an_oversize_record_as_a_limit(run: Runner, write: Writer) -> None:
    big = fcn("1x yE\n" + ("{" + "x" * 1000 + "}\n") * 300)
    result = run("validate", "--json", write("big.fcn", big + "\n" + WIN))
    first, second = json_lines(result.out)
    assert (first["category"], first["line"], first["ply"]) == ("limit", 1, 0)
    assert second["valid"] is True and second["index"] == 1
