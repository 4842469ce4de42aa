"""The extensions: competing calls on one live card (`c` a meld call, `h` a win call, that did
not take effect, written before the claim that did, checked against the priority rule) and
unfinished games (`[Result "*"]`)."""

from __future__ import annotations

import pytest

import fourcolor

from .fcn import DEAL_A, DEAL_H, EVENTS_LINE, Fault, fault_of, fcn

L = EVENTS_LINE
# After `1x yE 2d gH` seat 1 may pong gH (gH gH gH) and seat 2, the drawer, may meld its own
# draw (gH wH yH); pong comes first.
DRAW_GH = "1x yE 2d gH"

ACCEPTED = [
    ("own-draw-call-loses-to-pong", DEAL_A, DRAW_GH + " 2c gH wH yH 1m gH gH gH", "*"),
    ("pong-call-alone-then-pong", DEAL_A, DRAW_GH + " 1m gH gH gH 1x wA", "*"),
    ("win-call-loses-tie-to-drawer", DEAL_H, "1x rP 2d yE 1h yE yK yA 2w yE yK yA", "2:17"),
    ("meld-call-loses-to-win", DEAL_H, "1x rP 2d yE 2c yE yK yA 1w yE yK yA", "1:15"),
    (
        "win-call-with-split",
        DEAL_H,
        "1x rP 2d yE 1h yE yK yA (rK) (gK) (rH rH rH) (rC rC rC) "
        "(gR gR gR) (gC gC gC) (wA wA) (wP wP) 2w yE yK yA",
        "2:17",
    ),
    ("calls-then-record-stops", DEAL_A, DRAW_GH + " 2c gH wH yH", "*"),
]


@pytest.mark.parametrize(
    "deal,events,result", [v[1:] for v in ACCEPTED], ids=[v[0] for v in ACCEPTED]
)
def test_it_accepts_calls_when_the_priority_rule_picks_the_claim(
    deal: dict[int, str], events: str, result: str
) -> None:
    check = fourcolor.check_record(fcn(events, deal=deal, result=result))
    assert check.error is None, str(check.error)
    assert check.game is not None and check.game.finish.result_tag == result


# fmt: off
REFUSED = [
    (
        "own-draw-over-a-pong-call",
        DEAL_A,
        DRAW_GH + " 1c gH gH gH 2m gH wH yH",
        L, 25, 4, "priority",
    ),
    (
        "win-over-an-earlier-seats-win-call",
        DEAL_H,
        "1x rP 2d yE 2h yE yK yA 1w yE yK yA",
        L, 25, 4, "priority",
    ),
    ("meld-over-a-win-call", DEAL_H, "1x rP 2d yE 1h yE yK yA 2m yE yK yA", L, 25, 4, "priority"),
    ("discard-after-a-call", DEAL_A, DRAW_GH + " 2c gH wH yH 2x gH", L, 25, 4, "priority"),
    ("draw-after-a-call", DEAL_A, "1x yE 2c yE yK yA 2d rC", L, 19, 3, "priority"),
    ("redeal-after-a-call", DEAL_A, DRAW_GH + " 2c gH wH yH 2r", L, 25, 4, "priority"),
    ("seat-calls-twice", DEAL_A, DRAW_GH + " 2c gH wH yH 2c gH wH yH", L, 25, 4, "priority"),
    # A call is checked like the claim it would have been.
    ("call-without-the-right", DEAL_A, DRAW_GH + " 1c gH gH", L, 13, 3, "claim-right"),
    ("call-not-a-meld", DEAL_A, DRAW_GH + " 2c gH wH wH", L, 13, 3, "not-a-meld"),
    ("call-cards-not-held", DEAL_H, "1x rP 2d yE 1c yE yE", L, 13, 3, "not-in-hand"),
    ("call-without-live-card", DEAL_A, "1c yE yK yA", L, 1, 1, "turn"),
    ("call-lacks-live-card", DEAL_A, DRAW_GH + " 2c wH wH", L, 13, 3, "not-live"),
    ("win-call-that-is-no-win", DEAL_A, DRAW_GH + " 1h gH gH gH", L, 13, 3, "no-win"),
    ("call-after-the-end", DEAL_H, "1x rP 2d yE 2w yE yK yA 1h yE yK yA", L, 25, 4, "after-end"),
    # Calls and no claim, without saying the game is unfinished.
    ("calls-then-record-stops", DEAL_A, DRAW_GH + " 2c gH wH yH", L, 1, 4, "truncated"),
]
# fmt: on


@pytest.mark.parametrize(
    "deal,events,line,col,ply,category",
    [(v[1], v[2], *v[3:]) for v in REFUSED],
    ids=[v[0] for v in REFUSED],
)
def test_it_refuses_calls_against_the_priority_rule(
    deal: dict[int, str], events: str, line: int, col: int, ply: int, category: str
) -> None:
    result = None if category == "truncated" else "*"
    assert fault_of(fcn(events, deal=deal, result=result)) == Fault(
        line - (result is None), col, ply, category
    )


def test_it_logs_only_the_claim_that_took_effect() -> None:
    game = fourcolor.check_record(fcn(DRAW_GH + " 2c gH wH yH 1m gH gH gH")).game
    assert game is not None
    assert [(c.ply, c.seat, c.right.label) for c in game.claims] == [(4, 1, "pong")]


def test_it_keeps_calls_through_the_canonical_text_and_json() -> None:
    text = fcn("1x rP 2d yE 1h yA yE yK 2w yE yK yA", deal=DEAL_H, result="2:17")
    record = fourcolor.parse_record(text)
    canonical = fourcolor.write_fcn(record)
    assert "1h yK yA yE 2w yK yA yE" in canonical  # cards of calls sorted like melds
    twin = fourcolor.record_to_json(record)
    assert twin["events"][2] == {"seat": 1, "verb": "h", "cards": ["yK", "yA", "yE"]}
    assert fourcolor.write_fcn(fourcolor.record_from_json(twin)) == canonical


@pytest.mark.parametrize("events", ["", "1x yE", "1x yE 2d rC", "1x yE 2m yE yK yA"])
def test_it_accepts_a_game_stopped_anywhere_as_unfinished(events: str) -> None:
    game = fourcolor.check_record(fcn(events, result="*")).game
    assert game is not None
    assert (game.finish.outcome, game.finish.seat, game.finish.points) == ("unfinished", None, None)
    assert game.finish.settlement == {1: 0, 2: 0}


@pytest.mark.parametrize(
    "deal,events",
    [
        (DEAL_A, DRAW_GH + " 2c gH wH yH 2m gH wH yH"),
        (DEAL_H, "1x rP 2d yE 2h yE yK yA 2w yE yK yA"),
    ],
    ids=["meld-call-then-meld", "win-call-then-win"],
)
def test_it_refuses_a_claim_by_a_seat_whose_call_did_not_take_effect(
    deal: dict[int, str], events: str
) -> None:
    fault = fault_of(fcn(events, deal=deal))
    assert fault is not None and (fault.ply, fault.category) == (4, "priority")
