"""The round's rules, case by case, on small records (RULES.md §3, §5, §7, §8, §9).

Every record here is built by `tests.engine.helpers`: a test names the cards that matter and the
rest of each hand is padded from the deck (never with generals). Points are worked out by hand in
the comments.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from fourcolor.cards import parse_card
from fourcolor.deal import pile_size
from fourcolor.errors import IllegalMoveError
from fourcolor.game import validate
from fourcolor.generate import generate_record
from fourcolor.notation import Event, parse_record, write_fcn
from fourcolor.round import Round
from fourcolor.rulesets import Ruleset, get_ruleset, with_switches
from tests.engine.helpers import (
    FORCED_EVENTS,
    FORCED_HAND,
    FORCED_RESERVE,
    GENERALS_EVENTS,
    GENERALS_HAND,
    WIN_HAND,
    cards,
    deal,
    fault,
    fcn,
    full_pile,
    play,
    tokens,
    verdict,
)

CLASSIC = get_ruleset("classic")
BGA = get_ruleset("bga")
LOCKED = with_switches(CLASSIC, dealt_sets_locked=True)
BGA_LOCKED = with_switches(BGA, dealt_sets_locked=True)


def test_it_sizes_the_pile_by_players() -> None:
    assert [pile_size(n) for n in (2, 3, 4)] == [71, 51, 31]


# ---------------------------------------------------------------------- generals


@pytest.mark.parametrize(
    "hands,events,want",
    [
        ({1: "rK"}, "1x rK", ("discard-general", 1)),  # from the dealer's hand
        ({1: "rA", 2: "rA yK"}, "1x rA 2m rA rA 2x yK", ("discard-general", 3)),  # after a meld
        ({1: "rA"}, "1x rA 2d yK 2x yK", ("discard-general", 3)),  # the drawn general
        ({1: "rA", 2: "gK"}, "1x rA 2d yK 2x gK", ("discard-general", 3)),
        ({1: "rA", 2: "rP"}, "1x rA 2d yC 2x rP", ("not-live", 3)),  # drawer keeps its draw
        ({1: "rA", 2: "rP"}, "1x rA 2d yK 2m yK 2x rP", None),  # a lone general, then discard
    ],
)
def test_it_never_lets_a_general_be_discarded(
    hands: dict[int, str], events: str, want: tuple[str, int] | None
) -> None:
    assert fault(hands, events, reserve="yK yC", result="*") == want


def test_it_shows_a_drawn_general_melded_alone() -> None:
    game = play({1: "rA", 2: "rP"}, "1x rA 2d yK 2m yK 2x rP", reserve="yK", result="*")
    rnd = game.round
    assert [str(m) for m in rnd.displays[2]] == ["yK"]
    assert rnd.exposed_points(2) == 1
    assert [(s, c.token) for s, c in rnd.discards] == [(1, "rA"), (2, "rP")]
    assert sum(rnd.hands[2]) == 19  # 20 - rP; the drawn yK went to the display


# ---------------------------------------------------------------------- turns and cards


@pytest.mark.parametrize(
    "hands,events,want",
    [
        ({1: "rA"}, "2x rA", ("turn", 1)),  # the dealer opens
        ({1: "rA"}, "1x rA 1d yC", ("turn", 2)),  # seat 2 draws
        ({1: "rA rP"}, "1x rA 2d yC 1x rP", ("turn", 3)),  # only the drawer may discard
        ({1: "rA", 2: "rP"}, "1x rA 2x rP", ("turn", 2)),  # a claim or a draw is due
        ({1: "rA", 2: "rA rP"}, "1x rA 2m rA rA 1x rP", ("turn", 3)),  # seat 2 must discard
        ({1: "rA", 2: "rA rP"}, "1x rA 2m rA rA 2x rP 2d yC", ("turn", 4)),
        ({1: "rA", 2: "rA rA"}, "2m rA rA rA", ("turn", 1)),  # no live card before the opening
        ({1: "rA"}, "3x rA", ("turn", 1)),  # no seat 3 in a 2-player round
        ({1: "rA", 2: "rA rA rA"}, "1x rA 2m rA rA 2w rA rA", ("turn", 3)),  # no live card
        ({1: "rA rA", 2: "rA rA"}, "1x rA 2d rA", ("too-many-copies", 2)),
        ({1: "rA", 2: "wC wC wC wC"}, "1x wC", ("not-in-hand", 1)),
        ({1: "rA rA rA rA"}, "1x rA 2m rA rA", ("not-in-hand", 2)),
        ({1: "rA", 2: "yE"}, "1x rA 2m rA yE", ("not-a-meld", 2)),
        ({1: "rA", 2: "yE yE"}, "1x rA 2m yE yE", ("not-live", 2)),
        ({1: "rA yH yH yH yH", 2: "yR"}, "1x rA 2d yC 2m yC yR yH", ("not-in-hand", 3)),
        ({1: "rA", 2: "yR yH yC yC yC"}, "1x rA 2d yC 2m yC yR yH yC", ("not-a-meld", 3)),
    ],
)
def test_it_refuses_wrong_turns_and_cards_not_held(
    hands: dict[int, str], events: str, want: tuple[str, int]
) -> None:
    assert fault(hands, events, reserve="yC", result="*") == want


@pytest.mark.parametrize(
    "events,pile,want",
    [
        ("1x rA 2d yC 2x yC 1d yA", "yC yA", None),
        ("1x rA 2d yA", "yC yA", ("pile-mismatch", 2)),
        ("1x rA 2d yC 2x yC 1d gA", "yC yA", ("pile-mismatch", 4)),
    ],
)
def test_it_makes_draws_follow_the_pile_tag(
    events: str, pile: str, want: tuple[str, int] | None
) -> None:
    assert fault({1: "rA"}, events, pile=pile, result="*") == want


@pytest.mark.parametrize(
    "edit,want",
    [
        (lambda t: t.replace("\n2: rA ", "\n2: ", 1), ("deal", 0)),  # 19 cards for seat 2
        (lambda t: t.replace("\n1: rP ", "\n1: ", 1), ("deal", 0)),  # 20 for the dealer
        (lambda t: t.replace("\n2: rA ", "\n2: rP ", 1), ("too-many-copies", 0)),
        (lambda t: t.replace('[Pile "yC ', '[Pile "', 1), ("pile-mismatch", 0)),  # 70 cards
        (lambda t: t.replace('[Pile "yC ', '[Pile "rP ', 1), ("too-many-copies", 0)),
    ],
)
def test_it_refuses_a_wrong_deal_or_pile_at_ply_0(
    edit: Callable[[str], str], want: tuple[str, int]
) -> None:
    # Seat 1 holds all four rP, seat 2 starts with rA; the pile starts with yC.
    text = fcn({1: "rP rP rP rP", 2: "rA"}, "1x rP", pile="yC", result="*")
    record = parse_record(edit(text))
    assert verdict(record) == want


def test_it_leaves_the_round_unchanged_when_it_refuses_an_event() -> None:
    record = parse_record(fcn({1: "rA rP", 2: "rA"}, "1x rA", result="*"))
    rnd = Round.from_record(record)
    rnd.push(record.events[0])
    before = (
        [list(h) for h in rnd.hands],
        list(rnd.discards),
        rnd.live,
        rnd.pile_left,
        rnd.ply,
    )
    for bad in (
        Event(2, "m", tuple(cards("rA rA rA"))),  # seat 2 holds one rA
        Event(2, "w", tuple(cards("rA rA"))),  # does not split
        Event(1, "x", tuple(cards("rP"))),
    ):
        with pytest.raises(IllegalMoveError):
            rnd.push(bad)
    after = ([list(h) for h in rnd.hands], list(rnd.discards), rnd.live, rnd.pile_left, rnd.ply)
    assert after == before


# ---------------------------------------------------------------------- claims that skip seats


@pytest.mark.parametrize(
    "events,want",
    [
        ("1x rA 3m rA rA rA 3x rP 4d yC 4x yC", None),  # seat 2 lost its turn
        ("1x rA 3m rA rA rA 3x rP 2d yC", ("turn", 4)),
        ("1x rA 3m rA rA rA 2x rP", ("turn", 3)),
        ("1x rA 2d gP 4m gP gP gP 4x rP 1d yC", None),  # a pong of a draw: seat 3 skipped
        ("1x rA 2d gP 4m gP gP gP 4x rP 3d yC", ("turn", 5)),
        ("1x rA 2d gP 4m gP gP gP 4x rP 4m rP rP", ("claim-right", 5)),  # own discard
    ],
)
def test_it_goes_on_after_the_claimant_when_a_claim_skips_seats(
    events: str, want: tuple[str, int] | None
) -> None:
    hands = {1: "rA", 3: "rA rA rP", 4: "gP gP rP rP"}
    assert fault(hands, events, players=4, reserve="yC gP", result="*") == want


# ---------------------------------------------------------------------- wins and declared splits


@pytest.mark.parametrize("ruleset", ["classic", "bga"])
def test_it_scores_a_win_on_a_discard(ruleset: str) -> None:
    game = play({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR", ruleset=ruleset, lucky="wK")
    assert (game.finish.outcome, game.finish.seat, game.finish.on) == ("win", 2, "discard")
    finish = game.finish
    assert (finish.exposed_points, finish.hidden_points, finish.points) == (1, 14, 15)
    assert game.finish.result_tag == "2:15"
    # classic: seat 1 pays 15; bga: 15 - 10 + 1 = 6 (no wK among the winner's cards).
    assert game.finish.settlement == ({1: -15, 2: 15} if ruleset == "classic" else {1: -6, 2: 6})


def test_it_scores_a_win_on_the_winners_own_draw() -> None:
    game = play({1: "rA", 2: WIN_HAND}, "1x rA 2d rC 2w rC rR rH", reserve="rC", result="2:15")
    assert (game.finish.outcome, game.finish.on, game.finish.points) == ("win", "draw", 15)
    assert [(c.seat, c.right.label) for c in game.claims] == [(2, "win")]


def test_it_refuses_a_win_whose_hand_does_not_split() -> None:
    hand = WIN_HAND.replace("gC", "wP")
    assert fault({1: "rC", 2: hand}, "1x rC 2w rC rH rR") == ("no-win", 2)


def test_it_ends_the_round_at_a_win() -> None:
    events = "1x rC 2w rC rH rR 1d yC"
    assert fault({1: "rC", 2: WIN_HAND}, events, reserve="yC") == ("after-end", 3)


# Seat 2 waits on rC; the rest has two quads, two triples, a field and a lone general.
#   classic best hidden: 8 + 8 + 3 + 3 + 1 + 1 = 24, P = 1 + 24 = 25.
#   declared with the quads as pairs: 0 + 0 + 0 + 0 + 3 + 3 + 1 + 1 = 8, P = 9.
QUAD_HAND = "rR rH rA rA rA rA wE wE wE wE yA yA yA gE gE gE yR yH yC rK"
PAIRS_SPLIT = "(rA rA) (rA rA) (wE wE) (wE wE) (yA yA yA) (gE gE gE) (yR yH yC) (rK)"


def test_it_scores_a_declared_split_as_declared_even_below_the_best() -> None:
    events = f"1x rC 2w rC rH rR {PAIRS_SPLIT}"
    game = play({1: "rC", 2: QUAD_HAND}, events, result="2:9")
    f = game.finish
    assert (f.points, f.hidden_points, f.best_hidden_points, f.declared_split) == (9, 8, 24, True)
    assert game.finish.settlement == {1: -9, 2: 9}
    best = play({1: "rC", 2: QUAD_HAND}, "1x rC 2w rC rH rR", result="2:25")
    assert (best.finish.points, best.finish.declared_split) == (25, False)


def test_it_refuses_a_bga_win_declared_under_the_threshold_even_with_a_better_split() -> None:
    events = f"1x rC 2w rC rH rR {PAIRS_SPLIT}"
    # bga: the same split scores 1 + 8 = 9 < 10 (the best would be 1 + 22 = 23).
    assert fault({1: "rC", 2: QUAD_HAND}, events, ruleset="bga", lucky="wK") == ("no-win", 2)


@pytest.mark.parametrize(
    "split",
    [
        "(rA rA) (rA rA) (wE wE) (wE wE) (yA yA yA) (gE gE gE) (yR yH yC) (rK wP)",  # no meld
        "(rA rA) (rA rA) (wE wE) (wE wE) (yA yA yA) (gE gE gE) (yR yH yC)",  # rK left out
        "(rA rA rA rA) (wE wE wE wE) (yA yA yA) (gE gE gE) (yR yH yC) (rK) (rK)",  # a card more
        "(rA rA rA rA) (wE wE wE wE) (yA yA yA) (gE gE gE) (yR yH yC) (rK) (rR rH rC)",
        "(rA yA gE) (rA rA rA) (wE wE wE wE) (yA yA) (gE gE) (yR yH yC) (rK)",
    ],
)
def test_it_refuses_a_declared_split_that_does_not_match(split: str) -> None:
    events = f"1x rC 2w rC rH rR {split}"
    assert fault({1: "rC", 2: QUAD_HAND}, events) == ("bad-split", 2)


# ---------------------------------------------------------------------- forced finish


@pytest.mark.parametrize(
    "rules,settlement",
    [
        (CLASSIC, {1: -9, 2: 9}),  # classic: scored like a win, P = 9
        (BGA, {1: 11, 2: -11}),  # bga fixed: T + B = 11 to every other seat
        (with_switches(BGA, below_threshold="shortfall"), {1: 2, 2: -2}),  # T - P + B = 2
    ],
)
def test_it_ends_the_round_with_a_forced_finish_when_only_generals_are_left(
    rules: Ruleset, settlement: dict[int, int]
) -> None:
    game = play({1: "rC", 2: FORCED_HAND}, FORCED_EVENTS, rules=rules, reserve=FORCED_RESERVE)
    f = game.finish
    assert (f.outcome, f.seat, f.on, f.points) == ("forced", 2, "discard", 9)
    assert (f.exposed_points, f.hidden_points) == (5, 4)
    assert (f.lucky_card, f.lucky_bonus) == (None, 0)  # no lucky card under the threshold
    assert game.finish.settlement == settlement
    assert game.finish.result_tag == "2:9"
    assert not game.round.can_discard(2)


def test_it_ends_the_round_with_a_forced_finish_when_the_hand_is_empty() -> None:
    # Four gans (6 each exposed), a pong (1) and a pair chi (0): P = 25, hidden nothing.
    hand = "rA rA rA yA yA yA gA gA gA wA wA wA rP yP gP wP rE rE rH gE"
    events = (
        "1x rA 2m rA rA rA rA 2x rP 1d yA 2m yA yA yA yA 2x yP 1d gA 2m gA gA gA gA 2x gP "
        "1d wA 2m wA wA wA wA 2x wP 1d rE 2m rE rE rE 2x rH 1d gE 1x gE 2m gE gE"
    )
    game = play({1: "rA", 2: hand}, events, reserve="yA gA wA rE gE", result="2:25")
    finish = game.finish
    assert (finish.outcome, finish.points, finish.exposed_points, finish.hidden_points) == (
        "forced",
        25,
        25,
        0,
    )
    assert sum(game.round.hands[2]) == 0
    assert game.finish.settlement == {1: -25, 2: 25}


def test_it_settles_a_bga_forced_finish_over_the_threshold_like_a_win() -> None:
    # Lucky rK: the finisher holds 4 rK. Each other seat pays 25 - 10 + 1 + 4 = 20.
    game = play(
        {1: "rC", 2: GENERALS_HAND}, GENERALS_EVENTS, ruleset="bga", reserve="yR", lucky="rK"
    )
    assert (game.finish.outcome, game.finish.points, game.finish.lucky_bonus) == ("forced", 25, 4)
    assert game.finish.lucky_card == parse_card("rK")
    assert game.finish.settlement == {1: -20, 2: 20}
    classic = play({1: "rC", 2: GENERALS_HAND}, GENERALS_EVENTS, reserve="yR")
    assert (classic.finish.outcome, classic.finish.points, classic.finish.settlement) == (
        "forced",
        33,
        {1: -33, 2: 33},
    )


# ---------------------------------------------------------------------- bga settlement and lucky


@pytest.mark.parametrize(
    "pile,lucky,card,bonus",
    [
        (None, "rA", "rA", 3),  # three rA among the winner's 21 cards
        (None, "rC", "rC", 1),  # the winning card counts
        (None, "wK", "wK", 0),
        ("yA", None, "yA", 3),  # the pile's next card
        ("yA", "yA", "yA", 3),  # a Lucky tag that agrees with the pile
        ("gR rA", None, "gR", 1),
    ],
)
def test_it_adds_the_lucky_bonus_to_a_bga_win(
    pile: str | None, lucky: str | None, card: str, bonus: int
) -> None:
    game = play({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR", ruleset="bga", pile=pile, lucky=lucky)
    assert game.finish.lucky_card == parse_card(card)
    assert game.finish.lucky_bonus == bonus
    each = 15 - 10 + 1 + bonus
    assert game.finish.settlement == {1: -each, 2: each}
    assert game.finish.result_tag == "2:15"  # P without the bonus


def test_it_makes_every_other_seat_pay_in_bga() -> None:
    game = play({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR", ruleset="bga", players=4, lucky="rA")
    assert game.finish.settlement == {1: -9, 2: 27, 3: -9, 4: -9}


@pytest.mark.parametrize(
    "pile,lucky,want",
    [
        (None, None, ("lucky", 3)),  # a bga win needs its lucky card
        ("yA", "rA", ("lucky", 3)),  # the Lucky tag disagrees with the pile
    ],
)
def test_it_refuses_a_bga_win_without_a_matching_lucky_card(
    pile: str | None, lucky: str | None, want: tuple[str, int]
) -> None:
    events = "1x rC 2w rC rH rR"
    assert fault({1: "rC", 2: WIN_HAND}, events, ruleset="bga", pile=pile, lucky=lucky) == want


def test_it_needs_no_lucky_card_in_classic() -> None:
    game = play({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR")
    assert (game.finish.lucky_card, game.finish.lucky_bonus) == (None, 0)


def _drained(tag: str) -> str:
    """A 2-player bga round that draws the whole pile (every draw discarded), then seat 1 wins
    on seat 2's last discard yC. Seat 1 opened with rA and holds rA rA, the 16 generals and
    yR yH: exposed field 1, hidden four quads of generals 24 + pair 0: P = 25."""
    seat1 = "rA rA rA " + " ".join(f"{c}K {c}K {c}K {c}K" for c in "rygw") + " yR yH"
    dealt = deal({1: seat1}, reserve="yC")
    seat2 = " ".join(tokens(dealt[2]))
    rest = full_pile(dealt, "", 2)
    rest.remove(parse_card("yC"))
    pile = [*rest, parse_card("yC")]
    events = ["1x rA"]
    for n, card in enumerate(pile):
        seat = 2 if n % 2 == 0 else 1
        events.append(f"{seat}d {card} {seat}x {card}")
    events.append("1w yC yR yH")
    kw: dict[str, str] = {}
    if tag == "pile":
        kw["pile"] = " ".join(tokens(pile))
    elif tag:
        kw["lucky"] = tag
    return fcn({1: seat1, 2: seat2}, " ".join(events), ruleset="bga", pad=False, **kw)


@pytest.mark.parametrize("tag", ["", "rA", "pile"])
def test_it_turns_the_opening_discard_as_the_lucky_card_when_the_pile_is_used_up(
    tag: str,
) -> None:
    game = validate(parse_record(_drained(tag)))
    assert game.round.pile_left == 0
    assert (game.finish.outcome, game.finish.seat, game.finish.points) == ("win", 1, 25)
    assert game.finish.lucky_card == parse_card("rA")
    assert game.finish.lucky_bonus == 2  # the winner kept rA rA; the opening rA left its hand
    assert game.finish.settlement == {1: 18, 2: -18}  # 25 - 10 + 1 + 2


def test_it_refuses_a_lucky_tag_other_than_the_opening_discard_when_the_pile_is_used_up() -> None:
    record = parse_record(_drained("yC"))
    assert verdict(record) == ("lucky", len(record.events) + 1)


def test_it_lets_a_house_threshold_decide_a_bga_win() -> None:
    # Six fields hidden + the winning field: 7 points, under bga's 10, over the house's 7.
    hand = "rR rH yR yH yC yR yH yC gR gH gC gR gH gC wR wH wC wR wH wC"
    house = Ruleset.from_mapping({"extends": "bga", "name": "house7", "threshold": 7})
    events = "1x rC 2w rC rH rR"
    assert fault({1: "rC", 2: hand}, events, ruleset="bga", lucky="wK") == ("no-win", 2)
    game = play({1: "rC", 2: hand}, events, rules=house, lucky="wK")
    assert (game.finish.points, game.finish.settlement) == (7, {1: -1, 2: 1})  # 7 - 7 + 1


# ---------------------------------------------------------------------- Result and truncation


@pytest.mark.parametrize(
    "events,result,want",
    [
        ("", None, ("truncated", 1)),
        ("", "*", None),
        ("1x rC", None, ("truncated", 2)),
        ("1x rC", "*", None),
        ("1x rC", "-", ("truncated", 2)),
        ("1x rC 2w rC rH rR", None, None),
        ("1x rC 2w rC rH rR", "2:15", None),
        ("1x rC 2w rC rH rR", "2:14", ("result-mismatch", 3)),
        ("1x rC 2w rC rH rR", "1:15", ("result-mismatch", 3)),
        ("1x rC 2w rC rH rR", "*", ("result-mismatch", 3)),
        ("1x rC 2w rC rH rR", "-", ("result-mismatch", 3)),
        ("1x rC 2w rC rH rR", "R", ("result-mismatch", 3)),
    ],
)
def test_it_checks_the_result_and_refuses_truncated_records(
    events: str, result: str | None, want: tuple[str, int] | None
) -> None:
    assert fault({1: "rC", 2: WIN_HAND}, events, result=result) == want


def test_it_reports_an_unfinished_record_as_unfinished() -> None:
    game = play({1: "rC", 2: WIN_HAND}, "1x rC", result="*")
    finish = game.finish
    assert (finish.outcome, finish.result_tag, finish.settlement) == (
        "unfinished", "*", {1: 0, 2: 0})


# ---------------------------------------------------------------------- dealt sets locked


@pytest.mark.parametrize(
    "hands,events,locked_want",
    [
        ({1: "rP rP rP rA"}, "1x rP", ("locked", 1)),  # a dealt triple's card
        ({1: "rA rA rA rA rP"}, "1x rA", ("locked", 1)),  # a dealt quad's card
        ({1: "gP", 2: "rP rP rP yP"}, "1x gP 2m gP rP yP", ("locked", 2)),  # chi breaks it
        ({1: "rP", 2: "rP rP rP"}, "1x rP 2m rP rP rP", ("locked", 2)),  # pong breaks it
        ({1: "rP", 2: "rP rP rP wA"}, "1x rP 2m rP rP rP rP 2x wA", None),  # gan extends it
        ({1: "rA", 2: "rP rP rP wA"}, "1x rA 2d rP 2m rP rP rP rP 2x wA", None),  # own draw
        ({1: "rA", 2: "rP rP rP wA"}, "1x rA 2d rP 2m rP rP 2x wA", ("locked", 3)),
    ],
)
def test_it_locks_dealt_sets_with_dealt_sets_locked(
    hands: dict[int, str], events: str, locked_want: tuple[str, int] | None
) -> None:
    reserve = "" if "rP rP rP rP" in " ".join(hands.values()) or "d rP" not in events else "rP"
    assert fault(hands, events, rules=LOCKED, reserve=reserve, result="*") == locked_want
    # Without the switch all is legal.
    assert fault(hands, events, reserve=reserve, result="*") is None


def test_it_shows_an_extended_locked_set_as_an_exposed_quad() -> None:
    game = play({1: "rP", 2: "rP rP rP wA"}, "1x rP 2m rP rP rP rP 2x wA", rules=LOCKED, result="*")
    assert [(str(m), m.kind) for m in game.round.displays[2]] == [("rP rP rP rP", "quad")]
    assert game.round.exposed_points(2) == 6
    assert game.round.locked[2][parse_card("rP").index] == 0


# Seat 2 waits on rC; dealt triples yR yH yC gA and rP rP rP + yP gP wP.
#   exposed field 1; hidden triples 3*4 = 12 + (rP rP rP) 3 + (yP gP wP) 1 = 16: P = 17.
LOCKED_WIN = "rR rH rP rP rP yP gP wP yR yR yR yH yH yH yC yC yC gA gA gA"
BROKEN = "(rP yP gP wP) (rP rP) (yR yR yR) (yH yH yH) (yC yC yC) (gA gA gA)"


def test_it_scores_locked_sets_hidden_and_refuses_a_split_that_breaks_them() -> None:
    events = "1x rC 2w rC rH rR"
    assert play({1: "rC", 2: LOCKED_WIN}, events, rules=LOCKED).finish.points == 17
    broken = f"{events} {BROKEN}"
    assert fault({1: "rC", 2: LOCKED_WIN}, broken, rules=LOCKED) == ("bad-split", 2)
    # Without the switch the same split is legal: (rP yP gP wP) 4 + (rP rP) 0 also makes 17.
    assert play({1: "rC", 2: LOCKED_WIN}, broken).finish.points == 17


def test_it_forces_a_finish_when_only_generals_and_locked_sets_are_left() -> None:
    # The forced-finish hand with gE gE gE for three of its generals: at the end seat 2 holds
    # rK and its locked triple. exposed 5; hidden lone 1 + triple 3: P = 9.
    hand = FORCED_HAND.replace("yK gK wK", "gE gE gE")
    game = play({1: "rC", 2: hand}, FORCED_EVENTS, rules=LOCKED, reserve=FORCED_RESERVE)
    assert (game.finish.outcome, game.finish.seat, game.finish.points) == ("forced", 2, 9)
    # Without the switch seat 2 may discard a gE, so the record is merely unfinished.
    got = fault({1: "rC", 2: hand}, FORCED_EVENTS, reserve=FORCED_RESERVE, result="2:9")
    assert got == ("truncated", 23)  # 22 events


def test_it_leaves_three_dealt_generals_free_in_bga() -> None:
    hands = {1: "rE", 2: "rK rK rK rA rP"}
    assert fault(hands, "1x rE 2m rE rK rA 2x rP", rules=BGA_LOCKED, result="*") is None


def test_it_writes_records_that_read_back_the_same() -> None:
    text = fcn({1: "rC", 2: WIN_HAND}, "1x rC 2w rC rH rR", result="2:15")
    record = parse_record(text)
    again = parse_record(write_fcn(record))
    assert write_fcn(again) == write_fcn(record)
    assert validate(again).finish.points == 15


def test_it_refuses_an_event_with_an_error_of_the_record_family_saying_where() -> None:
    # One error family: push raises an IllegalRecordError, a ValueError.
    import fourcolor
    from fourcolor.errors import IllegalRecordError

    record = parse_record(fcn({1: "rA rP", 2: "rA"}, "1x rA\n2x rA", result="*"))
    rnd = Round.from_record(record)
    rnd.push(record.events[0])
    with pytest.raises(fourcolor.IllegalMoveError) as refused:
        rnd.push(record.events[1])
    err = refused.value
    assert isinstance(err, IllegalRecordError) and isinstance(err, ValueError)
    second = record.events[1]
    assert (err.category, err.ply, err.line, err.col, err.event) == (
        "turn",
        2,
        second.line,
        second.col,
        "2x rA",
    )
    assert second.line > 0 and str(err).startswith(f"{second.line}:{second.col}: error[turn]")


def test_it_names_whose_turn_it_is() -> None:
    record = parse_record(fcn({1: "rA rP", 2: "rA"}, "1x rA", result="*"))
    rnd = Round.from_record(record)
    assert rnd.turn == 1  # the dealer opens
    rnd.push(record.events[0])
    assert rnd.turn == 2  # the next seat draws (claims aside)
    rnd.push(Event(2, "d", tuple(cards("yP"))))
    assert rnd.turn == 2  # the drawer melds or discards its draw




def test_it_says_in_its_repr_the_ruleset_seats_ply_and_whose_turn() -> None:
    record = generate_record("bga", 3, 5)
    rnd = Round.from_record(record)
    assert repr(rnd) == "<Round bga, 3 seats, ply 0, seat 1 to play>"
    rnd.push(record.events[0])
    card = record.events[0].cards[0]
    live = f"{card} live from seat 1's discard"
    assert repr(rnd) == f"<Round bga, 3 seats, ply 1, seat 2 to play, {live}>"
    for event in record.events[1:]:
        rnd.push(event)
    assert repr(rnd) == f"<Round bga, 3 seats, ply {len(record.events)}, ended>"
