"""Five to eight players (RULES.md §2, §6, §9): N copies of each kind, a pile of 8N - 1, ties
among pongs and gans in turn order, the copies rule, and `bga` refusing more than four seats;
generated rounds of every size validated, replayed, reviewed and analysed."""

from __future__ import annotations

from collections import Counter

import pytest

import fourcolor
from fourcolor.analysis import analyse
from fourcolor.cards import full_deck, parse_card, sort_cards
from fourcolor.deal import pile_size
from fourcolor.generate import generate_record
from fourcolor.replay import Replay

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")


def record_text(
    deal: dict[int, list[str]], events: str, *, ruleset: str = "classic", result: str = "*"
) -> str:
    """A record of len(deal) seats, seat 1 dealing, tags on lines 1..N+3, events last."""
    lines = [f'[Ruleset "{ruleset}"]']
    lines += [f'[Seat{s} "{NAMES[s - 1]}"]' for s in sorted(deal)]
    lines += ['[Dealer "1"]', f'[Result "{result}"]', ""]
    lines += [f"{s}: {' '.join(cards)}" for s, cards in sorted(deal.items())]
    return "\n".join(lines + ["", events]) + "\n"


def filled_deal(players: int, fixed: dict[int, list[str]], keep_out: str) -> dict[int, list[str]]:
    """The deal of `players` seats, seat 1 dealing: `fixed` cards where given, every other
    place filled from the rest of the deck in canonical order, never with `keep_out`."""
    left = Counter(full_deck(players))
    for cards in fixed.values():
        left.subtract(parse_card(t) for t in cards)
    pool = [c.token for c in sort_cards(left.elements()) if c.token != keep_out]
    deal = {}
    for seat in range(1, players + 1):
        cards = list(fixed.get(seat, []))
        need = (21 if seat == 1 else 20) - len(cards)
        deal[seat], pool = cards + pool[:need], pool[need:]
    return deal


@pytest.mark.parametrize("players,pile", [(2, 71), (4, 31), (5, 39), (6, 47), (7, 55), (8, 63)])
def test_it_draws_from_a_pile_of_what_the_deal_leaves(players: int, pile: int) -> None:
    assert pile_size(players) == pile
    assert len(full_deck(players)) == 28 * max(players, 4)


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_it_validates_replays_reviews_and_analyses_generated_rounds(players: int) -> None:
    for seed in range(3):
        record = generate_record("classic", players, seed, dealer=seed % players + 1, bot="greedy")
        text = fourcolor.write_fcn(record)
        check = fourcolor.check_record(text)
        assert check.ok, str(check.error)
        assert check.record is not None and check.record.players == players
        assert len(check.record.tags["Pile"].split()) == pile_size(players)
        replay = Replay(check.record)
        for ply in range(replay.plies + 1):
            state = replay.state(ply)
            assert len(state.seats) == players
        replay.review()
        twin = fourcolor.record_to_json(record)
        assert fourcolor.write_fcn(fourcolor.record_from_json(twin)) == text
    analysis = analyse(check.record, samples=3, seats=[2])
    assert all(d.seat == 2 for d in analysis.decisions)


def test_it_refuses_more_copies_than_the_tables_deck_holds() -> None:
    five = filled_deal(5, {2: ["rP"] * 5}, keep_out="rP")
    assert fourcolor.check_record(record_text(five, "1x rA")).ok
    six = filled_deal(5, {2: ["rP"] * 5, 3: ["rP"]}, keep_out="rP")
    error = fourcolor.check_record(record_text(six, "1x rA")).error
    assert error is not None and error.category == "too-many-copies" and error.ply == 0
    assert "6 copies of rP" in error.message


def test_it_refuses_five_players_in_bga_and_nine_anywhere() -> None:
    deal = filled_deal(5, {}, keep_out="")
    error = fourcolor.check_record(record_text(deal, "1x rA", ruleset="bga")).error
    assert error is not None and (error.category, error.ply) == ("tags", 0)
    assert "bga is played by 2 to 4 players" in error.message
    assert (error.line, error.col) == (6, 1)  # the Seat5 tag
    nine = record_text({s: [] for s in range(1, 10)}, "")
    error = fourcolor.check_record(nine).error
    assert error is not None and error.category == "tags"
    assert "a round has 2 to 8 players" in error.message


# Five players, seat 1 deals and discards rP; seats 3 and 4 each hold a pair of rP (with seat
# 1's copy, all five). Seat 2, after the discarder, holds none: from seat 2 the turn order is
# 2, 3, 4, 5, 1, so seat 3 is the first claimant of a pong.
PONG_TIE = filled_deal(5, {1: ["rP"], 3: ["rP", "rP"], 4: ["rP", "rP"]}, keep_out="rP")


@pytest.mark.parametrize(
    "events,fault",
    [
        ("1x rP 4c rP rP rP 3m rP rP rP", None),  # the calls listed: the first claimant takes it
        ("1x rP 3c rP rP rP 4m rP rP rP", "seat 3's pong takes priority over seat 4's pong"),
        ("1x rP 4m rP rP rP", None),  # only the claim that took effect: seat 3 declined
        ("1x rP 3m rP rP rP", None),
    ],
)
def test_a_pong_tie_goes_to_the_first_claimant_in_turn_order(
    events: str, fault: str | None
) -> None:
    check = fourcolor.check_record(record_text(PONG_TIE, events))
    if fault is None:
        assert check.ok, str(check.error)
        return
    assert check.error is not None
    assert (check.error.category, check.error.ply) == ("priority", 3)
    assert fault in check.error.message


# Seat 2 draws the fifth rP holding a pair of it; seat 3 holds the other pair. The drawer's own
# triple ranks with pongs and comes first in turn order on its draw (RULES.md §6).
DRAW_TIE = filled_deal(5, {2: ["rP", "rP"], 3: ["rP", "rP"]}, keep_out="rP")


@pytest.mark.parametrize(
    "events,fault",
    [
        ("1x rA 2d rP 3c rP rP rP 2m rP rP rP", None),
        ("1x rA 2d rP 2c rP rP rP 3m rP rP rP", "seat 2's own draw takes priority over seat 3's"),
        ("1x rA 2d rP 3m rP rP rP", None),  # the drawer let it go
    ],
)
def test_the_drawers_own_triple_comes_first_in_a_tie_on_its_draw(
    events: str, fault: str | None
) -> None:
    assert "rA" in DRAW_TIE[1]
    check = fourcolor.check_record(record_text(DRAW_TIE, events))
    if fault is None:
        assert check.ok, str(check.error)
        return
    assert check.error is not None
    assert (check.error.category, check.error.ply) == ("priority", 4)
    assert fault in check.error.message


def _locked(text: str) -> str:
    return text.replace('[Dealer "1"]', '[Dealer "1"]\n[Switches "dealt_sets_locked=on"]')


@pytest.mark.parametrize("dealt,locked", [(3, 3), (4, 4), (5, 4), (6, 4), (7, 7), (8, 8)])
def test_it_locks_quads_first_then_a_triple_of_five_or_more_dealt_copies(
    dealt: int, locked: int
) -> None:
    deal = filled_deal(8, {1: ["rP"] * dealt}, keep_out="rP")
    text = _locked(record_text(deal, "1x rP"))
    record = fourcolor.parse_record(text)
    assert fourcolor.Round.from_record(record).locked[1][parse_card("rP").index] == locked
    check = fourcolor.check_record(text)
    if dealt > locked:  # a free copy: the dealer may let it go
        assert check.ok, str(check.error)
    else:
        assert check.error is not None and check.error.category == "locked", str(check.error)


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_generated_rounds_with_locked_sets_validate(players: int) -> None:
    for seed in range(4):
        record = generate_record(
            "classic", players, seed, bot="random", switches={"dealt_sets_locked": True}
        )
        check = fourcolor.check_record(fourcolor.write_fcn(record))
        assert check.ok, str(check.error)
        Replay(check.record).review()  # type: ignore[arg-type]
