"""Small FCN records for the notation and command-line tests.

A handful of fixed deals, each chosen so that a few events reach one rule of RULES.md §9, and a
builder that lays a record out the same way every time, so that the tables can name exact lines:
with two seats and a Result tag the tags are lines 1-5, the deal lines 7-8 and the events start
on line 10 (`EVENTS_LINE`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import fourcolor
from fourcolor.cards import full_deck, parse_card
from fourcolor.generate import generate_record

# Two seats, classic, seat 1 deals. After `1x yE` seat 2 wins with `2w yE yK yA` for 9 points
# (command 1 exposed; triples yH, gP 3+3, wK and gK 1+1 hidden; the pairs 0).
DEAL_A = {
    1: "rK rA rE rR rH rC yP yP gA gA gA wC wC yE gH gH gR wP wA wE yR",
    2: "yK yA yH yH yH gP gP gP rP rP wK gK wR wR gE gE gC gC wH wH",
}
# DEAL_A with a third seat that holds yK yA (a command it may not chi from seat 1's discard)
# and a pair of green generals (that it may not pong from another seat's draw).
DEAL_A3 = dict(DEAL_A) | {3: "yK yA gK gK rA rE rR rH rC rP yA yE yR yH yC yP gA gE gR gH"}
# Both seats wait on yE with yK yA: after `1x rP 2d yE` either may win (win calls, `h`).
DEAL_H = {
    1: "rP yK yA rK gK rH rH rH rC rC rC gR gR gR gC gC gC wA wA wP wP",
    2: "yK yA wK yH yH yH gP gP gP rR rR rR wR wR wR gE gE gE wH wH",
}
# Seat 2 holds no general, no triple or quad and no four-colour group: it may call a redeal.
DEAL_R = {
    1: "rK yK gK wK wA wA wE wE wR wR wH wH wC wC wP wP rC rC yC yC gC",
    2: "rA rA yA yA gA gA rE rE yE yE gE gE rR rR yR yR gR gR rH rH",
}
# bga: after `1x yE` seat 2 wins with `2w yE yK yA` for 16 points (command 2 exposed; triples
# yH gC wR rA 3 each, wK gK 1 each hidden); two gE in the winner's hand.
DEAL_B = {
    1: "rK rE rR rH rC yE yP yP gA gA gR gH wC wC wP wA wE yR yC rP gP",
    2: "yK yA yH yH yH gC gC gC wR wR wR gE gE wH wH rA rA rA gK wK",
}
# bga: seat 2 can complete its hand on yE, but only for 4 points (under the threshold 10).
DEAL_B_LOW = {
    1: "rK rE rR rH rC yE yP yP gA gA gR gH wC wC wP wA wE yR yC rP gP",
    2: "yK yA gE gE wH wH rA rA gC gC wR wR yH yH rR rR rH rH gK wK",
}

NAMES = ("Ann", "Bo", "Cy", "Di")
EVENTS_LINE = 10  # where the events start in a two-seat record with a Result tag


def fcn(
    events: str = "",
    *,
    deal: Mapping[int, str] = DEAL_A,
    ruleset: str = "classic",
    result: str | None = "*",
    dealer: int = 1,
    extra: Sequence[str] = (),
) -> str:
    """One record: Ruleset, SeatN, Dealer, Result and `extra` tag lines, a blank line, the deal
    lines in seat order, a blank line and `events` (which may span lines)."""
    lines = [f'[Ruleset "{ruleset}"]']
    lines += [f'[Seat{s} "{NAMES[s - 1]}"]' for s in sorted(deal)]
    lines.append(f'[Dealer "{dealer}"]')
    if result is not None:
        lines.append(f'[Result "{result}"]')
    lines += list(extra)
    lines.append("")
    lines += [f"{s}: {cards}" for s, cards in sorted(deal.items())]
    lines += ["", events]
    return "\n".join(lines) + "\n"


def pile_for(deal: Mapping[int, str]) -> str:
    """The cards not dealt, in canonical order: a Pile tag value that fits `deal`."""
    left = Counter(full_deck())
    for cards in deal.values():
        for token in cards.split():
            left[parse_card(token)] -= 1
    return " ".join(c.token for c in sorted(left.elements(), key=lambda c: c.index))


@dataclass(frozen=True)
class Fault:
    """Where and why a record is refused."""

    line: int
    col: int
    ply: int
    category: str


def fault_of(text: str, first_line: int = 1) -> Fault | None:
    """The error `check_record` reports for `text`, or None when the record is valid."""
    err = fourcolor.check_record(text, first_line).error
    if err is None:
        return None
    return Fault(err.line, err.col, err.ply, err.category)


def generated(outcome: str, ruleset: str, *, bot: str = "random", tries: int = 300) -> str:
    """The canonical text of a self-play record that ends with `outcome` (the first seed that
    does), so that tests needing an exhausted round or a forced finish do not hard-code one."""
    for seed in range(tries):
        players = 2 + seed % 3
        record = generate_record(ruleset, players, seed, dealer=seed % players + 1, bot=bot)
        if fourcolor.validate(record).finish.outcome == outcome:
            return fourcolor.write_fcn(record)
    raise AssertionError(f"no {ruleset} self-play record ends {outcome} in {tries} seeds")
