"""Duplicate play: how many points a bot gains over another on the same deals
(docs/analysis.md, "Strength in duplicate play").

    .venv/bin/python bench/strength.py                          # 80 deals a table, 32 samples
    .venv/bin/python bench/strength.py --deals 400 --samples 128 --tables classic:4
    .venv/bin/python bench/strength.py --policy 2000            # the greedy bot's bga rules

Each deal is played twice with the same cards and pile (`fourcolor generate`'s seed fixes both,
whatever the bots): once with seat k played by the bot under test (`--bot`, default
`analyst:SAMPLES`, the reviewer's best option at every decision) and once by the baseline
(`--against`, default `greedy`), every other seat greedy in both. Deal i is dealt by seat
i mod N + 1 and k is seat (i + i div N) mod N + 1: every seat with every dealer. The figure is
seat k's settlement in the first game minus the second, in points per round: its mean,
standard error and 95 % interval over the deals, per table (ruleset and player count), with
the CPU seconds it took. `--per-deal FILE` appends each deal's gain to FILE (JSON lines): two
bots' runs against the same baseline then compare deal by deal.

`--policy D` also plays D deals of the greedy bot with and without its bga rules (the
forced-finish rule and the soldier discards: `make_bot("reckless")`), seats 1 and 3 careful
then seats 2 and 4, against reckless seats everywhere, on the same deals and random numbers:
the careful seats' mean gain per seat and round; and the same for the patient bot's rules
(`make_bot("patient")`, a ready hand kept ready) against the greedy bot. Neither may be below
zero by more than two standard errors (the exit status says).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
import json
import random
import statistics
import sys
import time

from _common import header, table

from fourcolor import validate
from fourcolor.bots import GreedyBot
from fourcolor.generate import _deal, generate_record, make_bot
from fourcolor.playout import greedy_playout
from fourcolor.round import Round
from fourcolor.rulesets import get_ruleset


def seat_points(ruleset: str, players: int, seed: int, bots: list[str], seat: int) -> int:
    """Seat's settlement in the round of `seed` played by `bots`, dealt as `fourcolor generate
    --seed` deals it (by seat seed mod N + 1)."""
    record = generate_record(ruleset, players, seed, dealer=seed % players + 1, bot=bots)
    return int(validate(record).finish.settlement[seat])


def duplicate(
    ruleset: str, players: int, deals: int, bot: str, against: str, first: int
) -> tuple[list[float], float]:
    """Each deal's gain of `bot` over `against` at the turning seat, and the CPU seconds."""
    started = time.process_time()
    gains = []
    for i in range(first, first + deals):
        seat = (i + i // players) % players + 1  # every seat with every dealer in N * N deals
        tested, base = ["greedy"] * players, ["greedy"] * players
        tested[seat - 1], base[seat - 1] = bot, against
        gains.append(
            seat_points(ruleset, players, i, tested, seat)
            - seat_points(ruleset, players, i, base, seat)
        )
    return [float(g) for g in gains], time.process_time() - started


def interval(gains: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    mean = statistics.mean(gains)
    return mean, statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0


def policy_strength(rounds: int) -> bool:
    """What the greedy bot's bga rules and the patient bot's rules gain (module docstring):
    seats with the rules against seats without, on the same deals, per seat and round, with its
    standard error."""
    ok = True
    comparisons: dict[str, Callable[[tuple[int, ...]], dict[str, tuple[int, ...]]]] = {
        "careful vs reckless greedy": lambda rule: {"reckless": tuple({1, 2, 3, 4} - set(rule))},
        "patient vs greedy": lambda rule: {"patient": rule},
    }
    for ruleset in ("classic", "bga"):
        rs = get_ruleset(ruleset)
        for name, seats in comparisons.items():
            diffs = []
            started = time.process_time()
            for k in range(rounds):
                rng = random.Random(f"bench-policy:{ruleset}:{k}")
                dealer = k % 4 + 1
                deal, pile = _deal(rs, 4, dealer, rng)
                state = Round(rs, 4, dealer, deal, pile=pile)
                discards = [e for e in state.legal_events() if e.verb == "x"]
                card = GreedyBot(rng).choose_discard(
                    state.hands[dealer], [e.cards[0] for e in discards], rs
                )
                state.push(next(e for e in discards if e.cards[0] is card))
                seed = f"bench-policy:{ruleset}:{k}:play"
                base = greedy_playout(state, random.Random(seed), **seats(()))
                odd = greedy_playout(state, random.Random(seed), **seats((1, 3)))
                even = greedy_playout(state, random.Random(seed), **seats((2, 4)))
                gain = odd[1] + odd[3] - base[1] - base[3] + even[2] + even[4]
                diffs.append((gain - base[2] - base[4]) / 4)
            mean, se = interval(diffs)
            ok &= mean >= -2 * se
            changed = sum(1 for d in diffs if d)
            print(f"{name} seats, {ruleset}: {mean:+.3f} +- {se:.3f} points per seat and round "
                  f"over {rounds} deals ({changed} rounds played differently, "
                  f"{time.process_time() - started:.0f} s CPU)")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=80, help="deals per table")
    parser.add_argument("--first", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--samples", type=int, default=32, help="the analyst's deals a decision")
    parser.add_argument("--bot", default=None, help="the bot under test (analyst:SAMPLES)")
    parser.add_argument("--against", default="greedy", help="the baseline bot")
    parser.add_argument("--tables", default="classic:4,bga:4,classic:3", help="RULESET:PLAYERS,...")
    parser.add_argument("--policy", type=int, default=0, help="deals for the bots' rules")
    parser.add_argument("--per-deal", default=None, help="append each deal's gain to this file")
    args = parser.parse_args()
    bot = args.bot or f"analyst:{args.samples}"
    for kind in (bot, args.against):
        make_bot(kind, random.Random(0))  # ValueError for an unknown bot
    print(header(f"bench/strength.py: {bot} against {args.against}, {args.deals} deals a table"))
    for spec in args.tables.split(",") if args.deals else []:
        ruleset, players = spec.split(":")
        gains, cpu = duplicate(ruleset, int(players), args.deals, bot, args.against, args.first)
        mean, se = interval(gains)
        if args.per_deal:
            with open(args.per_deal, "a", encoding="utf-8") as out:
                out.writelines(json.dumps({"table": spec, "deal": i, "gain": g}) + "\n"
                               for i, g in enumerate(gains, start=args.first))
        row = [f"{ruleset} {players}p", str(len(gains)), f"{mean:+.2f}", f"{se:.2f}",
               f"{mean - 1.96 * se:+.2f} .. {mean + 1.96 * se:+.2f}",
               str(sum(1 for g in gains if g)), f"{cpu:.0f}"]
        print(table(
            ["table", "deals", "gain per round", "standard error", "95 % interval",
             "deals played differently", "CPU s"],
            [row],
        ), flush=True)
    return 0 if not args.policy or policy_strength(args.policy) else 1


if __name__ == "__main__":
    sys.exit(main())
