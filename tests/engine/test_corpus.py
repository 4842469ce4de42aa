"""The conformance sample (tests/data/corpus, copied from the brief's shared/corpus): an
independent implementation's verdicts on hands and records, which the engine must match."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fourcolor
from fourcolor.cards import parse_card
from fourcolor.rulesets import get_ruleset
from fourcolor.split import best_split

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def _jsonl(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (CORPUS / name).read_text(encoding="utf-8").splitlines()]


SCORES = _jsonl("scores.jsonl")
INVALID = _jsonl("expected.jsonl")


@pytest.mark.parametrize(
    "case", SCORES, ids=lambda c: f"{c['ruleset']}-{c['source']}-{len(c['cards'])}"
)
def test_it_scores_every_corpus_hand_the_same(case: dict[str, Any]) -> None:
    ruleset = get_ruleset(case["ruleset"])
    cards = [parse_card(t) for t in case["cards"]]
    split = best_split(cards, ruleset)
    if case["points"] is None:
        assert split is None
        return
    assert split is not None
    assert split.points == case["points"]
    # Our split may differ from the sample's, but it must be a real split worth the points.
    assert sorted(c.index for m in split.melds for c in m.cards) == sorted(c.index for c in cards)
    assert sum(m.points(ruleset, exposed=False) for m in split.melds) == split.points


def _valid_cases(fcn: str, expected: str) -> list[tuple[fourcolor.RecordText, dict[str, Any]]]:
    with open(CORPUS / fcn, encoding="utf-8", newline="") as f:
        records = list(fourcolor.iter_records(f))
    rows = _jsonl(expected)
    assert len(records) == len(rows)
    return list(zip(records, rows, strict=True))


VALID = _valid_cases("valid.fcn", "valid_expected.jsonl") + _valid_cases(
    "valid_mutants.fcn", "valid_mutants_expected.jsonl"
)


@pytest.mark.parametrize(
    "text,want", VALID, ids=lambda v: str(v["index"]) if isinstance(v, dict) else ""
)
def test_it_accepts_every_valid_record_with_the_same_result(
    text: fourcolor.RecordText, want: dict[str, Any]
) -> None:
    check = fourcolor.check_record(text.text, text.line)
    assert check.ok, str(check.error)
    game = check.game
    assert game is not None
    outcome = "win" if game.finish.outcome == "forced" else game.finish.outcome
    assert outcome == want["end"]
    assert game.finish.result_tag == want["result"]
    assert game.finish.points == want["points"]
    assert {str(k): v for k, v in game.finish.settlement.items()} == want["settlement"]
    if want["end"] == "win":
        assert game.finish.seat == want["winner"]
        assert game.finish.exposed_points == want["exposed"]
        assert game.finish.hidden_points == want["hidden"]
        assert game.finish.lucky_bonus == want["lucky"]
        assert (game.finish.outcome == "forced") == want["forced"]
        assert game.finish.on == want["on"]


@pytest.mark.parametrize("want", INVALID, ids=lambda c: c["file"])
def test_it_refuses_every_invalid_record_at_the_same_ply(want: dict[str, Any]) -> None:
    text = (CORPUS / "invalid" / want["file"]).read_text(encoding="utf-8")
    check = fourcolor.check_record(text)
    assert check.error is not None, "accepted an invalid record"
    assert (check.error.ply, check.error.category) == (want["ply"], want["category"]), str(
        check.error
    )
    assert check.error.line >= 1 and check.error.col >= 1


def _variant_cases() -> list[tuple[fourcolor.RecordText, dict[str, Any]]]:
    with open(CORPUS / "variants.fcn", encoding="utf-8", newline="") as f:
        records = list(fourcolor.iter_records(f))
    rows = _jsonl("variants_expected.jsonl")
    assert len(records) == len(rows)
    return list(zip(records, rows, strict=True))


@pytest.mark.parametrize(
    "text,want", _variant_cases(), ids=lambda v: str(v["record"]) if isinstance(v, dict) else ""
)
def test_it_gives_every_variant_record_the_same_verdict(
    text: fourcolor.RecordText, want: dict[str, Any]
) -> None:
    check = fourcolor.check_record(text.text, text.line)
    if not want["valid"]:
        assert check.error is not None, "accepted an invalid record"
        assert check.error.category == want["category"], str(check.error)
        if want.get("ply") is not None:
            assert check.error.ply == want["ply"], str(check.error)
        return
    assert check.ok, str(check.error)
    assert check.game is not None and check.record is not None
    assert check.record.players == want["seats"]
    assert check.record.tag("Switches") == want.get("switches")
    finish = check.game.finish
    assert finish.result_tag == want["result_text"]
    assert {str(k): v for k, v in finish.settlement.items()} == want["result"]["settlement"]
    outcome = "win" if finish.outcome == "forced" else finish.outcome
    assert (outcome, finish.points) == (want["result"]["end"], want["result"]["points"])
    if outcome == "win":
        assert finish.seat == want["result"]["winner"]
