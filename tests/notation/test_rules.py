"""Every rule of RULES.md §9, as a table: records that keep the rule are accepted with the
expected Result, records that break it are refused at the expected line, column, ply and
category (the column is the head of the event at fault; ply 0 is the tags or the deal; the
number of events + 1 is the end of the record)."""

from __future__ import annotations

import pytest

import fourcolor
from fourcolor.rulesets import CLASSIC, with_switches

from .fcn import (
    DEAL_A,
    DEAL_A3,
    DEAL_B,
    DEAL_B_LOW,
    DEAL_H,
    DEAL_R,
    EVENTS_LINE,
    Fault,
    fault_of,
    fcn,
    generated,
    pile_for,
)

L = EVENTS_LINE
WIN_A = "1x yE 2w yE yK yA"

# (id, record text, Result the engine must compute) for records that keep every rule.
VALID = [
    ("win-on-discard", fcn(WIN_A, result="2:9"), "2:9"),
    ("win-without-result-tag", fcn(WIN_A, result=None), "2:9"),
    (
        "win-declared-split",
        fcn(
            "1x yE 2w yK yA yE (yH yH yH) (gP gP gP) (rP rP) (wK) (gK) (wR wR) (gE gE) "
            "(gC gC) (wH wH)",
            result="2:9",
        ),
        "2:9",
    ),
    ("win-on-own-draw", fcn("1x yE 2d yE 2w yE yK yA", result="2:9"), "2:9"),
    ("chi-then-discard-unfinished", fcn("1x yE 2m yE yK yA 2x wH"), "*"),
    ("draw-and-discard-it", fcn("1x yE 2d rC 2x rC"), "*"),
    ("pong-of-a-draw", fcn("1x yE 2d wC 1m wC wC wC 1x wA"), "*"),
    ("gan-of-a-draw", fcn("1x yE 2d gA 1m gA gA gA gA 1x wA"), "*"),
    ("drawn-general-melded-alone", fcn("1x yE 2d rK 2m rK 2x wH"), "*"),
    ("no-events-unfinished", fcn(""), "*"),
    ("fourth-copy-drawn", fcn("1x yE 2d yH 2x yH"), "*"),
    ("redeal", fcn("2r", deal=DEAL_R, result="R"), "R"),
    ("chi-by-next-seat-of-three", fcn("1x yE 2m yE yK yA", deal=DEAL_A3), "*"),
    ("pong-by-any-seat", fcn("1x yE 2d rC 2x rC 3m rC rC", deal=DEAL_A3), "*"),
    (
        "bga-win-with-lucky",
        fcn(WIN_A, deal=DEAL_B, ruleset="bga", result="2:16", extra=['[Lucky "gE"]']),
        "2:16",
    ),
    (
        "bga-win-with-pile",
        fcn(
            WIN_A,
            deal=DEAL_B,
            ruleset="bga",
            result="2:16",
            extra=[f'[Pile "{pile_for(DEAL_B)}"]', '[Lucky "rK"]'],
        ),
        "2:16",
    ),
    (
        "draws-follow-the-pile",
        fcn("1x yE 2d rK 2m rK 2x wH 1d rK", extra=[f'[Pile "{pile_for(DEAL_A)}"]']),
        "*",
    ),
]


@pytest.mark.parametrize("text,result", [v[1:] for v in VALID], ids=[v[0] for v in VALID])
def test_it_accepts_records_that_keep_the_rules(text: str, result: str) -> None:
    check = fourcolor.check_record(text)
    assert check.error is None, str(check.error)
    assert check.game is not None and check.game.finish.result_tag == result


# (id, record text, fault) for every way of breaking §9; the comment names the rule.
# fmt: off
INVALID = [
    # Cards that do not exist: in the deal, in an event, in the Pile and Lucky tags.
    (
        "no-such-card-deal",
        fcn("", deal=DEAL_A | {1: DEAL_A[1].replace("rA", "rX")}),
        7, 7, 0, "deal",
    ),
    ("no-such-card-event", fcn("1x yE 2d kK"), L, 10, 2, "syntax"),
    ("no-such-card-pile", fcn("", extra=['[Pile "rK qQ"]']), 6, 1, 0, "tags"),
    ("no-such-card-lucky", fcn("", extra=['[Lucky "K"]']), 6, 1, 0, "tags"),
    # More than 4 copies of a kind across deal and draws (and the Pile tag).
    (
        "five-copies-dealt",
        fcn("", deal=DEAL_A | {2: DEAL_A[2].replace("gE gE", "gA gA")}),
        8, 1, 0, "too-many-copies",
    ),
    ("five-copies-drawn", fcn("1x yE 2d gA 2x gA 1d gA"), L, 19, 4, "too-many-copies"),
    (
        "five-copies-in-pile",
        fcn("", extra=['[Pile "' + pile_for(DEAL_A).replace("rK", "gA", 1) + '"]']),
        6, 1, 0, "too-many-copies",
    ),
    # Wrong hand sizes.
    ("dealer-22-cards", fcn("", deal=DEAL_A | {1: DEAL_A[1] + " yR"}), 7, 1, 0, "deal"),
    ("seat-19-cards", fcn("", deal=DEAL_A | {2: DEAL_A[2][:-3]}), 8, 1, 0, "deal"),
    ("non-dealer-21-cards", fcn("", dealer=2), 7, 1, 0, "deal"),
    # A seat acting out of turn.
    ("non-dealer-opens", fcn("2x yK"), L, 1, 1, "turn"),
    ("no-such-seat", fcn("3x yE"), L, 1, 1, "turn"),
    ("seat-zero", fcn("0x yE"), L, 1, 1, "turn"),
    ("discard-while-draw-due", fcn("1x yE 1x yR"), L, 7, 2, "turn"),
    ("discard-by-wrong-seat-after-meld", fcn("1x yE 2m yE yK yA 1x yR"), L, 19, 3, "turn"),
    ("other-seat-discards-a-draw", fcn("1x yE 2d rC 3x rC", deal=DEAL_A3), 12, 13, 3, "turn"),
    ("meld-without-live-card", fcn("1x yE 2m yE yK yA 2m gP gP gP"), L, 19, 3, "turn"),
    ("meld-before-opening", fcn("2m yK yA yE"), L, 1, 1, "turn"),
    # Drawing out of turn or from an empty pile.
    ("draw-by-wrong-seat", fcn("1x yE 1d rP"), L, 7, 2, "turn"),
    ("draw-on-a-draw", fcn("1x yE 2d rC 2d rR"), L, 13, 3, "turn"),
    ("draw-at-opening", fcn("2d rC"), L, 1, 1, "turn"),
    ("draw-skipping-a-seat", fcn("1x yE 2d rC 2x rC 1d rR", deal=DEAL_A3), 12, 19, 4, "turn"),
    # A drawer discarding anything but the drawn card without melding it.
    ("drawer-discards-from-hand", fcn("1x yE 2d rC 2x wH"), L, 13, 3, "not-live"),
    # Discarding a card not in hand, or a general.
    ("discard-not-in-hand", fcn("1x yK"), L, 1, 1, "not-in-hand"),
    ("discard-general-from-hand", fcn("1x rK"), L, 1, 1, "discard-general"),
    ("discard-drawn-general", fcn("1x yE 2d rK 2x rK"), L, 13, 3, "discard-general"),
    # A meld without the live card, with cards not in hand, not a meld, not the claimant's.
    ("meld-lacks-live-card", fcn("1x yE 2m yH yH yH"), L, 7, 2, "not-live"),
    ("meld-cards-not-in-hand", fcn("1x yE 2m yE yE yE"), L, 7, 2, "not-in-hand"),
    ("not-a-meld", fcn("1x yE 2m yE yK yH"), L, 7, 2, "not-a-meld"),
    (
        "bga-three-colour-horses",
        fcn("1x rH 2m rH yH wH", deal=DEAL_B, ruleset="bga"),
        L, 7, 2, "not-a-meld",
    ),
    ("pair-from-another-seats-draw", fcn("1x yE 2d wC 1m wC wC"), L, 13, 3, "claim-right"),
    ("chi-by-a-seat-not-next", fcn("1x yE 3m yE yK yA", deal=DEAL_A3), 12, 7, 2, "claim-right"),
    (
        "general-pong-out-of-turn",
        fcn("1x yE 2d gK 3m gK gK gK", deal=DEAL_A3),
        12, 13, 3, "claim-right",
    ),
    # A win whose hand does not split, or (bga) scores under the threshold.
    ("win-hand-does-not-split", fcn("1x yE 2d gE 2w gE gE gE"), L, 13, 3, "no-win"),
    ("win-on-own-discard", fcn("1x yP 1w yP yP"), L, 7, 2, "claim-right"),
    ("bga-win-under-threshold", fcn(WIN_A, deal=DEAL_B_LOW, ruleset="bga"), L, 7, 2, "no-win"),
    # A declared split or Result that does not match.
    ("split-misses-cards", fcn(WIN_A + " (yH yH yH)"), L, 7, 2, "bad-split"),
    ("split-group-not-a-meld", fcn(WIN_A + " (yH yH gP)"), L, 7, 2, "bad-split"),
    ("result-other-points", fcn(WIN_A, result="2:8"), L, 1, 3, "result-mismatch"),
    ("result-other-seat", fcn(WIN_A, result="1:9"), L, 1, 3, "result-mismatch"),
    ("result-exhausted", fcn(WIN_A, result="-"), L, 1, 3, "result-mismatch"),
    ("finished-round-marked-unfinished", fcn(WIN_A, result="*"), L, 1, 3, "result-mismatch"),
    ("redeal-marked-win", fcn("2r", deal=DEAL_R, result="2:1"), L, 1, 2, "result-mismatch"),
    # A redeal by a hand that does not qualify (or when there is none).
    ("redeal-hand-has-general", fcn("2r"), L, 1, 1, "redeal"),
    ("redeal-after-opening", fcn("1x wA 2r", deal=DEAL_R), L, 7, 2, "redeal"),
    ("bga-has-no-redeal", fcn("2r", deal=DEAL_R, ruleset="bga"), L, 1, 1, "redeal"),
    # Any event after the round ended.
    ("event-after-win", fcn(WIN_A + " 1x wC", result="2:9"), L, 19, 3, "after-end"),
    ("event-after-redeal", fcn("2r 1x wA", deal=DEAL_R, result="R"), L, 4, 2, "after-end"),
    # A record that stops before the end without saying it is unfinished.
    ("stops-early", fcn("1x yE", result=None), L - 1, 1, 2, "truncated"),
    ("stops-before-any-event", fcn("", result=None), 1, 1, 1, "truncated"),
    ("stops-after-a-meld", fcn("1x yE 2m yE yK yA", result=None), L - 1, 1, 3, "truncated"),
    # The Pile tag: the undealt cards exactly, and every draw its next card.
    ("pile-too-short", fcn("", extra=['[Pile "rK rK"]']), 6, 1, 0, "pile-mismatch"),
    (
        "draw-not-the-piles-next",
        fcn("1x yE 2d rA", extra=[f'[Pile "{pile_for(DEAL_A)}"]']),
        L + 1, 7, 2, "pile-mismatch",
    ),
    # bga: the lucky card must be known and agree.
    ("bga-win-without-lucky", fcn(WIN_A, deal=DEAL_B, ruleset="bga"), L, 1, 3, "lucky"),
    (
        "bga-lucky-disagrees-with-pile",
        fcn(
            WIN_A,
            deal=DEAL_B,
            ruleset="bga",
            extra=[f'[Pile "{pile_for(DEAL_B)}"]', '[Lucky "wP"]'],
        ),
        L + 2, 1, 3, "lucky",
    ),
]
# fmt: on


@pytest.mark.parametrize(
    "text,line,col,ply,category", [v[1:] for v in INVALID], ids=[v[0] for v in INVALID]
)
def test_it_refuses_each_broken_rule_where_it_is_broken(
    text: str, line: int, col: int, ply: int, category: str
) -> None:
    assert fault_of(text) == Fault(line, col, ply, category)


def test_it_names_the_event_at_fault_in_the_message() -> None:
    err = fourcolor.check_record(fcn("1x yE 2m yE yK yH")).error
    assert err is not None
    assert err.event == "2m yE yK yH"
    assert str(err) == (
        f'{L}:7: error[not-a-meld]: yE yK yH is not a meld of classic (ply 2: "2m yE yK yH")'
    )


def test_it_refuses_a_draw_from_an_empty_pile() -> None:
    text = generated("exhausted", "classic")
    record = fourcolor.parse_record(text)
    players = record.players
    drawer = record.events[-1].seat % players + 1
    last_line = text.rstrip("\n").count("\n") + 1
    col = len(text.rstrip("\n").rsplit("\n", 1)[-1]) + 2
    broken = text.rstrip("\n").replace('[Result "-"]', '[Result "*"]') + f" {drawer}d rK\n"
    assert fault_of(broken) == Fault(last_line, col, len(record.events) + 1, "empty-pile")


def test_it_refuses_an_event_after_a_forced_finish() -> None:
    text = generated("forced", "bga")
    record = fourcolor.parse_record(text)
    assert fault_of(text) is None
    broken = text.rstrip("\n") + "\n1x rP\n"
    last_line = broken.rstrip("\n").count("\n") + 1
    assert fault_of(broken) == Fault(last_line, 1, len(record.events) + 1, "after-end")


def test_it_accepts_an_exhausted_round_only_as_exhausted() -> None:
    text = generated("exhausted", "bga")
    check = fourcolor.check_record(text)
    assert check.game is not None and check.game.finish.result_tag == "-"
    assert fault_of(text.replace('[Result "-"]', '[Result "*"]')) is not None


def test_it_keeps_dealt_sets_locked_when_the_switch_is_on() -> None:
    locked = with_switches(CLASSIC, dealt_sets_locked=True)
    record = fourcolor.parse_record(fcn("1x gA"))
    # classic: the dealt triple may split
    assert fourcolor.validate(record).finish.result_tag == "*"
    with pytest.raises(fourcolor.FcnError) as caught:
        fourcolor.validate(record, locked)
    err = caught.value
    assert (err.line, err.col, err.ply, err.category) == (L, 1, 1, "locked")


def test_it_reports_the_bga_lucky_bonus_in_the_settlement_not_the_points() -> None:
    game = fourcolor.check_record(
        fcn(WIN_A, deal=DEAL_B, ruleset="bga", result="2:16", extra=['[Lucky "gE"]'])
    ).game
    assert game is not None
    # 16 points; each other seat pays 16 - 10 + 1 + 2 (two gE in the winner's hand).
    finish = game.finish
    assert (finish.points, finish.lucky_bonus, finish.settlement) == (16, 2, {1: -9, 2: 9})


def test_it_scores_a_win_call_tie_for_the_first_seat_from_the_drawer() -> None:
    game = fourcolor.check_record(fcn("1x rP 2d yE 2w yE yK yA", deal=DEAL_H, result="2:17")).game
    assert game is not None and game.finish.settlement == {1: -17, 2: 17}
