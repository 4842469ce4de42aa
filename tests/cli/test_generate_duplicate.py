"""`fourcolor generate --bots analyst,greedy,greedy,greedy --seed S`: duplicate play. The seed
fixes the deal and the pile whatever bots sit at the table, so that two tables differing in one
seat's bot play the same cards (bench/strength.py)."""

from __future__ import annotations

import io

import pytest

import fourcolor

from .cli import Runner

TABLES = [
    "greedy,greedy,greedy,greedy",
    "analyst:2,greedy,greedy,greedy",
    "greedy,random,analyst:2,random",
    "greedy,analyst-uniform:2,greedy,greedy",
    "analyst-sighted:2,greedy,greedy,greedy",
    "random,random,random,random",
]


def _deal_and_pile(out: str) -> list[tuple[object, str]]:
    found = []
    for text in fourcolor.iter_records(io.StringIO(out, newline="")):
        record = fourcolor.parse_record(text.text, text.line)
        found.append((record.deal, record.tags["Pile"]))
    return found


@pytest.mark.parametrize("ruleset,players", [("classic", 4), ("bga", 4)])
def test_it_deals_the_same_cards_and_pile_whatever_the_bots(
    run: Runner, ruleset: str, players: int
) -> None:
    args = ("generate", "--ruleset", ruleset, "--players", str(players), "--seed", "11")
    dealt = []
    for bots in TABLES:
        result = run(*args, "--count", "2", "--bots", bots)
        assert result.status == 0, result.err
        dealt.append(_deal_and_pile(result.out))
    assert all(d == dealt[0] for d in dealt)
    assert dealt[0][0] != dealt[0][1]  # each round of the run its own deal


def test_it_seats_the_analyst_and_plays_a_valid_round(run: Runner) -> None:
    args = ("generate", "--ruleset", "classic", "--players", "4", "--seed", "3")
    result = run(*args, "--bots", "analyst,greedy,greedy,greedy")
    assert result.status == 0, result.err
    [text] = fourcolor.iter_records(io.StringIO(result.out, newline=""))
    assert fourcolor.check_record(text.text).ok
