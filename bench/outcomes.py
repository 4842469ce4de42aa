"""What the self-play generator produces: outcomes, claims and events over many seeded
4-player rounds per ruleset, with a check that every kind of event occurs and that at least a
third of the rounds end in a win.

    .venv/bin/python bench/outcomes.py                 # 10,000 rounds per ruleset
    .venv/bin/python bench/outcomes.py --rounds 1000   # shorter
    .venv/bin/python bench/outcomes.py --workers 1     # no multiprocessing

Round `i` of ruleset R is ``generate_record(R, 4, i, dealer=D, bot=[B1, B2, B3, B4])`` where the
dealer D and each seat's bot Bk (``greedy`` or ``random``, even odds) are drawn from
``random.Random(f"outcomes:{R}:{i}")``: the mix of bots is itself seeded, so some tables are all
greedy, some all random, most mixed. Every record is then validated (`fourcolor.validate`) and
counted from the validated game: the finish, the claims that took effect (`Game.claims`), the
seats each steal skipped (`fourcolor.facts.skipped_seats`) and the event verbs.

The exit status is 0 when every check passes, else 1.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from _common import header, table

from fourcolor import validate
from fourcolor.cards import CARDS
from fourcolor.claims import ClaimRight
from fourcolor.facts import skipped_seats
from fourcolor.generate import BOTS, generate_record
from fourcolor.rulesets import get_ruleset

RULESETS = ("classic", "bga")
PLAYERS = 4
CHUNK = 250
VERBS = "xdmwr"
ALL_OUTCOMES = (
    "win on a discard",
    "win on own draw",
    "win on another's draw",
    "forced finish",
    "forced finish, P >= T",
    "forced finish, P < T",
    "exhausted",
    "redeal",
    "unfinished",
)
RIGHTS = (ClaimRight.CHI, ClaimRight.OWN_DRAW, ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN)


def table_for(ruleset: str, index: int) -> tuple[int, list[str]]:
    rng = random.Random(f"outcomes:{ruleset}:{index}")
    dealer = rng.randint(1, PLAYERS)
    return dealer, [rng.choice(BOTS) for _ in range(PLAYERS)]


def count_rounds(job: tuple[str, int, int]) -> Counter[str]:
    """Counters for rounds [start, stop) of a ruleset (one worker's share)."""
    ruleset, start, stop = job
    rs = get_ruleset(ruleset)
    c: Counter[str] = Counter()
    for index in range(start, stop):
        dealer, bots = table_for(ruleset, index)
        c[f"bots:{sum(b == 'greedy' for b in bots)} greedy"] += 1
        record = generate_record(rs, PLAYERS, index, dealer=dealer, bot=bots)
        game = validate(record, rs)  # raises on an illegal record: a generator bug
        c["rounds"] += 1
        for event in record.events:
            c[f"event:{event.verb}"] += 1
        c["events"] += len(record.events)
        finish = game.finish
        if finish.outcome == "win":
            final = game.claims[-1]
            if finish.on == "discard":
                c["outcome:win on a discard"] += 1
            elif final.live.owner == final.seat:
                c["outcome:win on own draw"] += 1
            else:
                c["outcome:win on another's draw"] += 1
        elif finish.outcome == "forced":
            if rs.threshold is None:
                c["outcome:forced finish"] += 1
            elif (finish.points or 0) >= rs.threshold:
                c["outcome:forced finish, P >= T"] += 1
            else:
                c["outcome:forced finish, P < T"] += 1
        else:
            c[f"outcome:{finish.outcome}"] += 1
        for claim in game.claims:
            label = claim.right.label
            c[f"claim:{label}"] += 1
            card = CARDS[claim.live.card_index]
            if claim.live.source == "draw" and card.rank == "K":
                who = "by the drawer" if claim.seat == claim.live.owner else "by another seat"
                c[f"general:{label} {who}"] += 1
            # A steal takes the card out of turn from another seat; a claim on one's own draw
            # skips nobody (skipped_seats gives [] for it), so it is counted apart.
            if claim.right in (ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN):
                if claim.seat == claim.live.owner:
                    c[f"own-draw:{label}"] += 1
                    continue
                skipped = skipped_seats(claim.live.owner, claim.live.source, claim.seat, PLAYERS)
                if skipped:
                    c[f"steal:{label} on a {claim.live.source}"] += 1
                    c[f"skipped:{len(skipped)}"] += 1
                    c["skipped seats"] += len(skipped)
    return c


def run(ruleset: str, rounds: int, workers: int) -> Counter[str]:
    jobs = [(ruleset, s, min(s + CHUNK, rounds)) for s in range(0, rounds, CHUNK)]
    total: Counter[str] = Counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            for part in pool.imap_unordered(count_rounds, jobs):
                total.update(part)
    else:
        for job in jobs:
            total.update(count_rounds(job))
    return total


def pct(n: int, of: int) -> str:
    return f"{n:,} ({100 * n / of:.1f}%)" if of else f"{n:,}"


def outcome_labels(ruleset: str) -> list[str]:
    rs = get_ruleset(ruleset)
    wins = ["win on a discard", "win on own draw", "win on another's draw"]
    forced = (
        ["forced finish"]
        if rs.threshold is None
        else ["forced finish, P >= T", "forced finish, P < T"]
    )
    return wins + forced + ["exhausted", "redeal", "unfinished"]


def report(counts: dict[str, Counter[str]]) -> list[tuple[str, str, str, str]]:
    names = list(counts)

    def section(title: str, labels: list[str], key: str, of: str | None) -> None:
        print(f"\n{title}")
        rows = []
        for label in labels:
            row = [label]
            for r in names:
                c = counts[r]
                n = c[f"{key}{label}"]
                row.append(pct(n, c[of]) if of else f"{n:,}")
            rows.append(row)
        print(table(["", *names], rows))

    print("\nOutcomes (share of rounds; n/a: not an outcome of that ruleset)")
    rows = [
        [label]
        + [
            pct(counts[r][f"outcome:{label}"], counts[r]["rounds"])
            if label in outcome_labels(r)
            and (label != "redeal" or get_ruleset(r).redeal or counts[r]["outcome:redeal"])
            else "n/a"
            for r in names
        ]
        for label in ALL_OUTCOMES
    ]
    print(table(["", *names], rows))
    section("Claims that took effect", [r.label for r in RIGHTS], "claim:", None)
    steal_labels = [
        f"{right.label} on a {source}"
        for right in (ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN)
        for source in ("discard", "draw")
    ]
    section("Steals that skipped seats (facts.skipped_seats)", steal_labels, "steal:", None)
    section("  seats skipped per steal", ["1", "2"], "skipped:", None)
    section(
        "Claims on one's own draw (no seat skipped)",
        [r.label for r in (ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN)],
        "own-draw:",
        None,
    )
    general_labels = [
        f"{right.label} {who}"
        for right in (ClaimRight.OWN_DRAW, ClaimRight.GAN, ClaimRight.WIN)
        for who in ("by the drawer", "by another seat")
        if not (right == ClaimRight.OWN_DRAW and who == "by another seat")
        and not (right == ClaimRight.GAN and who == "by the drawer")
    ]
    section("Drawn generals melded", general_labels, "general:", None)
    section("Events (share of all events)", list(VERBS), "event:", "events")
    section("Bot mix (greedy seats of 4)", [f"{k} greedy" for k in range(5)], "bots:", "rounds")

    return [check for r in names for check in checks_for(r, counts[r])]


def checks_for(r: str, c: Counter[str]) -> list[tuple[str, str, str, str]]:
    """Every kind of event the ruleset allows occurs; a third of the rounds are wins. A kind
    the ruleset rules out is `n/a` when absent and FAIL when it shows up."""
    rs = get_ruleset(r)
    rounds = c["rounds"]
    out: list[tuple[str, str, str, str]] = []

    def need(what: str, n: int, possible: bool = True, why: str = "") -> None:
        if not possible:
            out.append((r, what, f"{n:,}", f"n/a ({why})" if n == 0 else "FAIL"))
        else:
            out.append((r, what, f"{n:,}", "OK" if n > 0 else "FAIL"))

    no_redeal = f"{r} has no redeal"
    for verb in VERBS:
        need(f"event {verb} occurs", c[f"event:{verb}"], verb != "r" or rs.redeal, no_redeal)
    for label in outcome_labels(r):
        if label != "unfinished":
            possible = label != "redeal" or rs.redeal
            need(f"outcome '{label}' occurs", c[f"outcome:{label}"], possible, no_redeal)
    for right in RIGHTS:
        need(f"claim '{right.label}' occurs", c[f"claim:{right.label}"])
    for kind in ("pong", "gan"):
        steals = c[f"steal:{kind} on a discard"] + c[f"steal:{kind} on a draw"]
        need(f"{kind} steal that skips a seat", steals)
    need("drawn general melded", sum(v for k, v in c.items() if k.startswith("general:")))
    unfinished = c["outcome:unfinished"]
    out.append((r, "no unfinished round", f"{unfinished:,}", "FAIL" if unfinished else "OK"))
    wins = sum(v for k, v in c.items() if k.startswith("outcome:win"))
    verdict = "OK" if 3 * wins >= rounds else "FAIL"
    out.append((r, "at least 1/3 of rounds end in a win", pct(wins, rounds), verdict))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds per ruleset")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be positive")
    started = time.perf_counter()
    print(header("fourcolor self-play outcomes"))
    print(
        f"{args.rounds:,} seeded {PLAYERS}-player rounds per ruleset; dealer and each seat's bot "
        f"(greedy or random, even odds) drawn from the seed; {args.workers} process(es)"
    )
    counts = {r: run(r, args.rounds, max(1, args.workers)) for r in RULESETS}
    checks = report(counts)
    print("\nChecks")
    print(table(("ruleset", "check", "count", "result"), checks, right=2))
    failed = [c for c in checks if c[3] == "FAIL"]
    print(
        f"\n{len(checks) - len(failed)} of {len(checks)} checks OK or n/a, {len(failed)} FAIL; "
        f"{time.perf_counter() - started:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
