"""`fourcolor.facts.seat_facts` follows the hands itself and refuses most wins by rank block
before asking a `Round`: it must give exactly what replaying the round with a `Round` at every
event and asking `Round.best_win` of every seat on every live card gives (the definition, as
the review's `Replay.missed_wins` applies it)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

import fourcolor
from fourcolor.claims import ClaimRight
from fourcolor.claims import skipped_seats
from fourcolor.facts import SeatFacts, SeatFactsObserver, seat_facts
from fourcolor.game import Game
from fourcolor.round import LIVE, Round
from fourcolor.generate import generate_record
from fourcolor.replay import Replay, missed_on_live
from tests.engine.helpers import WAITS, all_rights_game, play

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def reference_facts(game: Game) -> list[SeatFacts]:
    """seat_facts as first written: a `Round` pushed through every event."""
    record, rs, finish = game.record, game.ruleset, game.finish
    players = record.players
    draws = dict.fromkeys(range(1, players + 1), 0)
    turns = dict.fromkeys(range(1, players + 1), 0)
    turns[record.dealer] = 1
    missed = dict.fromkeys(range(1, players + 1), 0)
    win_turn = None
    dealt_in_seat = None
    state = Round.from_record(record, rs)
    events = record.events
    for ply, event in enumerate(events):
        live = state.live
        if state.phase == LIVE and live is not None:
            if not (ply > 0 and events[ply - 1].verb in "ch"):
                for s, _card, _points in missed_on_live(live, players, events, ply,
                                                         state.best_win):
                    missed[s] += 1
            if event.verb in "mw" and not (event.seat == live.owner and live.source == "draw"):
                turns[event.seat] += 1
            if event.verb == "w" and event.seat != live.owner:
                dealt_in_seat = live.owner
        if event.verb == "d":
            draws[event.seat] += 1
            turns[event.seat] += 1
        state.push(event)
        if event.verb == "w":
            win_turn = turns[event.seat]
    by_right: dict[int, dict[ClaimRight, int]] = {s: {} for s in range(1, players + 1)}
    steals = dict.fromkeys(range(1, players + 1), 0)
    lost = dict.fromkeys(range(1, players + 1), 0)
    for claim in game.claims:
        counts = by_right[claim.seat]
        counts[claim.right] = counts.get(claim.right, 0) + 1
        if claim.right in (ClaimRight.PONG, ClaimRight.GAN, ClaimRight.WIN):
            skipped = skipped_seats(claim.live.owner, claim.live.source, claim.seat, players)
            if skipped:
                steals[claim.seat] += 1
                for s in skipped:
                    lost[s] += 1
    below = (
        finish.outcome == "forced"
        and rs.threshold is not None
        and (finish.points or 0) < rs.threshold
    )
    win_melds = tuple(m.kind for m in finish.exposed_melds + finish.hidden_melds)
    # Whose card the win took: the live card of the last claim (the win itself).
    last = game.claims[-1] if game.claims else None
    winning_card = None
    if last is not None:
        winning_card = (
            "discard"
            if last.live.source == "discard"
            else ("self_draw" if last.live.owner == last.seat else "draw")
        )
    out = []
    for s in range(1, players + 1):
        is_finisher = finish.seat == s and finish.outcome in ("win", "forced")
        rights = by_right[s]
        out.append(
            SeatFacts(
                seat=s,
                name=record.seats[s - 1],
                is_dealer=s == record.dealer,
                finisher=is_finisher,
                won=is_finisher and finish.outcome == "win",
                forced=is_finisher and finish.outcome == "forced",
                won_on=winning_card if is_finisher and finish.outcome == "win" else None,
                dealt_in=dealt_in_seat == s,
                points=finish.points if is_finisher else None,
                delta=finish.settlement.get(s, 0),
                below_threshold=is_finisher and below,
                pongs=rights.get(ClaimRight.PONG, 0),
                gans=rights.get(ClaimRight.GAN, 0),
                chis=rights.get(ClaimRight.CHI, 0),
                own_draw_melds=rights.get(ClaimRight.OWN_DRAW, 0),
                steals=steals[s],
                turns_lost=lost[s],
                draws=draws[s],
                win_turn=win_turn if is_finisher and finish.outcome == "win" else None,
                redeal_declared=finish.outcome == "redeal" and finish.seat == s,
                missed_wins=missed[s],
                win_melds=win_melds if is_finisher else (),
            )
        )
    return out


# The sample, as cheap descriptions: each test builds (and this process keeps) only the games
# it asks for, so that collecting the module costs nothing. Generated rounds (ruleset, players,
# seed), hand-made rounds with calls, missed wins and wins on draws (tests/engine/helpers), and
# the conformance corpus's valid records (their text and line).
GENERATED = [(ruleset, players, seed)
             for ruleset in ("classic", "bga") for players in (2, 3, 4) for seed in range(40)]
HAND_MADE = ("all-rights", "waits")
with (CORPUS / "valid.fcn").open(encoding="utf-8", newline="") as f:
    VALID = [(rt.text, rt.line) for rt in fourcolor.iter_records(f)]
CASES = ([f"{r}-{p}-{seed}" for r, p, seed in GENERATED] + list(HAND_MADE)
         + [f"valid-{line}" for _text, line in VALID])


@functools.cache
def game_of(case: int) -> Game:
    """The sample's game number `case`, as `fourcolor.validate` gives it."""
    if case < len(GENERATED):
        ruleset, players, seed = GENERATED[case]
        bot = "random" if seed % 3 == 0 else "greedy"
        record = generate_record(ruleset, players, seed, dealer=1 + seed % players, bot=bot)
        return fourcolor.validate(record)
    case -= len(GENERATED)
    if case == 0:
        return all_rights_game()
    if case == 1:
        return play(WAITS, "1x wC 4h wC wR wH 2w wC wR wH", players=4)
    text, line = VALID[case - len(HAND_MADE)]
    check = fourcolor.check_record(text, line)
    assert check.game is not None, check
    return check.game


def test_the_sample_has_missed_wins_and_calls() -> None:
    games = [game_of(case) for case in range(len(CASES))]
    assert sum(f.missed_wins for g in games for f in seat_facts(g)) >= 4
    assert any(e.verb in "ch" for g in games for e in g.record.events)


@pytest.mark.parametrize("case", range(len(CASES)), ids=CASES)
def test_seat_facts_equal_the_reference(case: int) -> None:
    game = game_of(case)
    facts = seat_facts(game)
    assert facts == reference_facts(game)
    by_seat = {s: 0 for s in range(1, game.record.players + 1)}
    for missed in Replay(game.record, game).missed_wins():
        by_seat[missed.seat] += 1
    assert {f.seat: f.missed_wins for f in facts} == by_seat


@pytest.mark.parametrize("case", range(len(CASES)), ids=CASES)
def test_the_facts_of_validate_s_one_pass_equal_the_reference(case: int) -> None:
    # The import's one pass: validate with the facts observer.
    game = game_of(case)
    observer = SeatFactsObserver(game.record)
    again = fourcolor.validate(game.record, game.ruleset, observer=observer)
    assert observer.facts(again) == reference_facts(game)
