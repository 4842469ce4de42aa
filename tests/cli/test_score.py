"""`fourcolor score --ruleset R [--exposed "CARDS"]... CARD...` and `score --batch`."""

from __future__ import annotations

import json

import pytest

from .cli import Runner


def test_it_scores_a_hand_with_its_best_split(run: Runner) -> None:
    result = run("score", "--ruleset", "classic", "rK", "rA", "rE", "yP", "yP")
    assert result.status == 0 and result.err == ""
    assert json.loads(result.out) == {"points": 1, "split": [["rK", "rA", "rE"], ["yP", "yP"]]}


def test_it_scores_the_same_cards_by_each_ruleset(run: Runner) -> None:
    cards = ["rK", "rA", "rE", "gK", "gA", "gE"]
    classic = json.loads(run("score", "--ruleset", "classic", *cards).out)
    bga = json.loads(run("score", "--ruleset", "bga", *cards).out)
    assert (classic["points"], bga["points"]) == (2, 4)  # command 1 / 2 points


def test_it_says_null_when_the_hand_does_not_split(run: Runner) -> None:
    result = run("score", "--ruleset", "classic", "rK", "rA")
    assert (result.status, json.loads(result.out)) == (0, {"points": None})


def test_it_scores_an_empty_hand_as_zero(run: Runner) -> None:
    assert json.loads(run("score", "--ruleset", "classic").out) == {"points": 0, "split": []}


def test_it_adds_exposed_melds_at_their_exposed_value(run: Runner) -> None:
    result = run(
        "score", "--ruleset", "classic", "--exposed", "yP yP yP", "--exposed", "wK",
        "rP", "rP", "rP",
    )  # fmt: skip
    assert json.loads(result.out) == {
        "points": 5,  # hidden triple 3 + exposed triple 1 + exposed general 1
        "split": [["rP", "rP", "rP"]],
        "exposed": [["yP", "yP", "yP"], ["wK"]],
        "hidden_points": 3,
        "exposed_points": 2,
    }


def test_it_refuses_an_exposed_group_that_is_no_meld(run: Runner) -> None:
    result = run("score", "--ruleset", "classic", "--exposed", "rK rP", "yP", "yP")
    assert result.status == 2 and result.out == ""
    assert result.err == "fourcolor: error: exposed group (rK rP) is not a meld of classic\n"


def test_it_refuses_a_card_that_does_not_exist(run: Runner) -> None:
    result = run("score", "--ruleset", "classic", "rK", "zz")
    assert (result.status, result.err) == (2, "fourcolor: error: no such card 'zz'\n")


@pytest.mark.parametrize(
    "args,kinds",
    [
        (["wR"] * 5, "wR"),  # white: its rank-table key would run past the table
        (["rR"] * 5, "rR"),  # red: its key would read another colour's count
        (["--exposed", "gP gP gP", "gP", "gP", "rK", "rK", "rK", "rK", "rK"], "gP, rK"),
    ],
)
def test_it_refuses_more_copies_of_a_card_than_the_deck_has(
    run: Runner, args: list[str], kinds: str
) -> None:
    result = run("score", "--ruleset", "classic", *args)
    assert (result.status, result.out) == (2, "")
    assert result.err == (
        f"fourcolor: error: more than 4 copies of {kinds}: the deck of 4 players has 4\n"
    )


def test_it_needs_a_ruleset(run: Runner) -> None:
    result = run("score", "rK")
    assert (result.status, result.err) == (
        2,
        "fourcolor: error: score needs --ruleset (or --batch)\n",
    )


def test_it_scores_json_lines_in_batch_and_reports_bad_lines_in_place(run: Runner) -> None:
    lines = [
        {"ruleset": "classic", "cards": ["rK", "rA", "rE"]},
        "not json",
        {"ruleset": "nope", "cards": []},
        "",
        {"ruleset": "bga", "cards": ["yP", "gP", "wP"], "exposed": [["rK", "rA", "rE"]]},
        ["a", "list"],
        {"ruleset": "classic", "cards": "rK"},
        {"ruleset": "classic", "cards": ["rK"], "exposed": ["rK"]},
        {"ruleset": "classic", "cards": ["rK", "rA"]},
        {"ruleset": "classic", "cards": ["wP"] * 5},
    ]
    stdin = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)
    result = run("score", "--batch", stdin=stdin + "\n")
    assert result.status == 1
    assert [json.loads(line) for line in result.out.splitlines()] == [
        {"points": 1, "split": [["rK", "rA", "rE"]]},
        {"error": "line 2: Expecting value: line 1 column 1 (char 0)"},
        {"error": "line 3: unknown ruleset 'nope'"},
        {
            "points": 5,
            "split": [["yP", "gP", "wP"]],
            "exposed": [["rK", "rA", "rE"]],
            "hidden_points": 3,
            "exposed_points": 2,
        },
        {"error": "line 6: expected a JSON object"},
        {"error": "line 7: 'cards' must be a list of card tokens"},
        {"error": "line 8: 'exposed' must be a list of card lists"},
        {"points": None},
        {"error": "line 10: more than 4 copies of wP: the deck of 4 players has 4"},
    ]


def test_it_uses_the_command_line_ruleset_for_batch_lines_without_one(run: Runner) -> None:
    result = run("score", "--batch", "--ruleset", "bga", stdin='{"cards": ["gK", "gA", "gE"]}\n')
    assert (result.status, json.loads(result.out)) == (
        0,
        {"points": 2, "split": [["gK", "gA", "gE"]]},
    )


def test_it_scores_a_hand_under_a_house_variant(run: Runner) -> None:
    cards = ("rA", "yA", "gA", "rK")
    assert json.loads(run("score", "--ruleset", "classic", *cards).out)["points"] == 2
    soldiers = run("score", "--ruleset", "classic", "--switches", "color_groups=soldiers", *cards)
    assert json.loads(soldiers.out) == {"points": None}
    bad = run("score", "--ruleset", "classic", "--switches", "color_groups=some", *cards)
    assert bad.status == 2 and "color_groups must be any or soldiers" in bad.err


def test_it_scores_five_copies_from_the_deck_of_five_players(run: Runner) -> None:
    cards = ("rP",) * 5
    assert run("score", "--ruleset", "classic", *cards).status == 2
    five = run("score", "--ruleset", "classic", "--players", "5", *cards)
    assert json.loads(five.out) == {"points": 3, "split": [["rP", "rP"], ["rP", "rP", "rP"]]}
