"""`fourcolor review FILE [--index I] [--json]`: each seat's waits per ply, and the wins that
were missed."""

from __future__ import annotations

import json

from tests.notation.fcn import fcn

from .cli import Runner, Writer

# Seat 2 waits on yE (command, 9 points) and yA (pair, 9): it lets seat 1's yE go by.
MISSED = fcn("1x yE 2d rC 2x rC", result="*")


def test_it_lists_waits_and_missed_wins_per_ply(run: Runner, write: Writer) -> None:
    result = run("review", write("r.fcn", MISSED))
    assert result.status == 0 and result.err == ""
    assert result.out.splitlines() == [
        "   0 (deal)                   seat 2: yA(9), yE(9)",
        "   1 1x yE                    seat 2: yA(9), yE(9)",
        "     warning: missed win: seat 2 could have won on yE for 9 points after ply 1",
        "   2 2d rC                    seat 2: yA(9), yE(9)",
        "   3 2x rC                    seat 2: yA(9), yE(9)",
    ]


def test_it_says_no_missed_win_when_the_win_was_taken(run: Runner, write: Writer) -> None:
    result = run("review", write("w.fcn", fcn("1x yE 2w yE yK yA", result="2:9")))
    assert "warning" not in result.out
    assert result.out.splitlines()[-1].split() == ["2", "2w", "yK", "yA", "yE", "-"]


def test_it_gives_the_review_as_json(run: Runner, write: Writer) -> None:
    result = run("review", "--json", write("r.fcn", MISSED))
    plies = json.loads(result.out)
    assert [p["ply"] for p in plies] == [0, 1, 2, 3]
    assert plies[1]["event"] == "1x yE" and plies[0]["event"] is None
    assert plies[1]["waits"]["1"] == []
    assert plies[1]["waits"]["2"] == [
        {"card": "yA", "points": 9, "meld": ["yA", "yA"], "unseen": 3},
        {"card": "yE", "points": 9, "meld": ["yK", "yA", "yE"], "unseen": 3},
    ]
    assert plies[1]["missed_wins"] == [
        {
            "seat": 2,
            "card": "yE",
            "points": 9,
            "message": "missed win: seat 2 could have won on yE for 9 points after ply 1",
        }
    ]


def test_it_reviews_the_record_at_an_index(run: Runner, write: Writer) -> None:
    path = write("two.fcn", fcn("1x yE 2w yE yK yA", result="2:9") + "\n" + MISSED)
    assert "warning: missed win" in run("review", path, "--index", "1").out
    missing = run("review", path, "--index", "2")
    assert (missing.status, missing.err) == (2, f"fourcolor: error: {path}: there is no record 2\n")
