"""Properties of generated rounds (hypothesis): they validate after a round trip through FCN, all
112 cards are accounted for at every ply, replaying can stop and go on from a copy, and the
generator is deterministic from its seed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcolor.game import validate
from fourcolor.round import ENDED, MUST_DISCARD, OPENING, Round
from fourcolor.generate import generate_record
from fourcolor.notation import Record, parse_record, record_from_json, record_to_json, write_fcn
from fourcolor.rulesets import get_ruleset, with_switches
from tests.sizes import sweep
from tests.engine.helpers import accounted

rounds = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["classic", "bga"]),
        "players": st.integers(2, 4),
        "seed": st.integers(0, 2**32),
        "bot": st.sampled_from(["random", "greedy"]),
        "dealer": st.integers(1, 4),
    }
)


def generated(args: dict[str, Any]) -> Record:
    args = dict(args)
    args["dealer"] = (args["dealer"] - 1) % args["players"] + 1
    return generate_record(
        args["ruleset"], args["players"], args["seed"], dealer=args["dealer"], bot=args["bot"]
    )


def snapshot(rnd: Round) -> tuple[object, ...]:
    finish = rnd.finish
    return (
        [list(h) for h in rnd.hands],
        [[(m.kind, tuple(c.token for c in m.cards)) for m in d] for d in rnd.displays],
        [(s, c.token) for s, c in rnd.discards],
        rnd.live,
        rnd.pile_left,
        rnd.phase,
        rnd.actor,
        None
        if finish is None
        else (finish.outcome, finish.seat, finish.points, finish.settlement, finish.lucky_card),
    )


@settings(max_examples=sweep(full=80, ci=25))
@given(args=rounds)
def test_it_validates_every_generated_round_after_writing_and_reading_it(
    args: dict[str, Any],
) -> None:
    record = generated(args)
    text = write_fcn(record)
    again = parse_record(text)
    game = validate(again)
    assert game.finish.result_tag == record.tags["Result"]
    assert game.finish.outcome in ("win", "forced", "exhausted", "redeal")
    assert write_fcn(again) == text  # the canonical text is a fixed point
    assert write_fcn(record_from_json(record_to_json(again))) == text
    assert sum(game.finish.settlement.values()) == 0


@settings(max_examples=sweep(full=60, ci=20))
@given(args=rounds)
def test_it_accounts_for_all_112_cards_at_every_ply(args: dict[str, Any]) -> None:
    record = generated(args)
    rnd = Round.from_record(record)
    players = record.players
    for ply in range(len(record.events) + 1):
        if ply:
            rnd.push(record.events[ply - 1])
        assert accounted(rnd) == 112, ply
        for seat in range(1, players + 1):
            held = sum(rnd.hands[seat]) + sum(len(m.cards) for m in rnd.displays[seat])
            extra = (
                (rnd.phase == OPENING and seat == rnd.dealer)
                or (rnd.phase == MUST_DISCARD and seat == rnd.actor)
                or (
                    rnd.phase == ENDED
                    and rnd.finish is not None
                    and rnd.finish.outcome in ("win", "forced")
                    and seat == rnd.finish.seat
                )
                or (
                    rnd.phase == ENDED
                    and rnd.finish is not None
                    and seat == rnd.dealer
                    and rnd.finish.outcome == "redeal"
                )
            )
            assert held == (21 if extra else 20), (ply, seat)


@settings(max_examples=sweep(full=60, ci=20))
@given(args=rounds, cut=st.floats(0, 1))
def test_it_replays_to_any_ply_and_goes_on_from_a_copy_like_from_the_start(
    args: dict[str, Any], cut: float
) -> None:
    record = generated(args)
    events = record.events
    n = int(cut * len(events))
    whole = Round.from_record(record)
    for event in events:
        whole.push(event)
    part = Round.from_record(record)
    for event in events[:n]:
        part.push(event)
    before = snapshot(part)
    going_on = part.copy()
    for event in events[n:]:
        going_on.push(event)
    assert snapshot(going_on) == snapshot(whole)
    assert snapshot(part) == before  # the copy did not touch the original


@settings(max_examples=30)
@given(args=rounds)
def test_it_generates_the_same_round_from_the_same_seed(args: dict[str, Any]) -> None:
    assert write_fcn(generated(args)) == write_fcn(generated(args))


@pytest.mark.parametrize("ruleset", ["classic", "bga"])
def test_it_generates_valid_rounds_with_dealt_sets_locked(ruleset: str) -> None:
    rules = with_switches(get_ruleset(ruleset), dealt_sets_locked=True)
    for seed in range(20):
        for players in (2, 4):
            record = generate_record(rules, players, seed, bot="greedy")
            assert validate(record, rules).finish.result_tag == record.tags["Result"]


_KIND = st.tuples(st.sampled_from("rygw"), st.sampled_from("KAERHCP"))


@settings(max_examples=sweep(full=300, ci=100))
@given(st.lists(_KIND, min_size=1, max_size=4), st.sampled_from(["classic", "bga"]))
def test_cards_made_by_hand_copied_or_unpickled_are_the_parsed_cards(
    kinds: list[tuple[str, str]], ruleset: str
) -> None:
    import copy
    import pickle

    from fourcolor.cards import CARDS, Card, parse_card
    from fourcolor.melds import classify
    from fourcolor.rulesets import get_ruleset

    made = [Card(colour, rank) for colour, rank in kinds]
    parsed = [parse_card(colour + rank) for colour, rank in kinds]
    assert all(a is b is CARDS[a.index] for a, b in zip(made, parsed, strict=True))
    assert copy.deepcopy(made) == parsed and pickle.loads(pickle.dumps(made)) == parsed
    rs = get_ruleset(ruleset)
    assert classify(made, rs) == classify(parsed, rs)
    pair = classify([made[0], parsed[0]], rs)
    assert (pair is not None and pair.kind == "pair") == rs.allows("pair", made[0].rank)


@settings(max_examples=sweep(full=60, ci=20))
@given(args=rounds)
def test_validate_s_one_pass_gives_the_seat_facts_a_replay_does(args: dict[str, Any]) -> None:
    # The observer sees the round before every event; `seat_facts` replays the round again.
    from fourcolor.facts import SeatFactsObserver, seat_facts

    record = generated(args)
    observer = SeatFactsObserver(record)
    turns = []
    game = validate(
        record, observer=lambda state, event: (observer(state, event), turns.append(state.turn))
    )
    assert observer.facts(game) == seat_facts(game)
    # Whose turn it is: the seat that moves next, unless a claim takes the card.
    for event, turn in zip(record.events, turns, strict=True):
        assert event.seat == turn or event.verb in "mwchr", (event.text(), turn)
