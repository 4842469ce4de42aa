"""The inferred hands follow what the seats did (fourcolor/inference.py): a hand that would
have won with a card its seat let go is unlikely, and so is a pair of a discard the seat could
have ponged and let go, or the copy that would have made a greedy seat's pong a gan, which
uniform deals give far more often."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path

from fourcolor.claims import pong_or_gan_only
from fourcolor.generate import generate_record
from fourcolor.inference import (
    _CLAIM,
    _PASS,
    PASS_WIN,
    HandSampler,
    History,
    _mixed,
    _Seen,
)
from fourcolor.notation import Record, parse_record
from fourcolor.round import ENDED, Round

from fourcolor import iter_records

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def _rounds(record: Record) -> list[Round]:
    state = Round.from_record(record)
    rounds = [state.copy()]
    for event in record.events:
        state.push(event)
        rounds.append(state.copy())
    return rounds


def _observed(seeds: range) -> Iterator[tuple[int, History, list[Round], int, _Seen]]:
    """Every public decision of every seat in generated classic 4-seat rounds: the round's
    seed, its history and states, the seat, the decision."""
    for seed in seeds:
        record = generate_record("classic", 4, seed)
        rounds = _rounds(record)
        history = History(rounds, record.events)
        for seat in range(1, 5):
            for seen in history.seen[seat]:
                yield seed, history, rounds, seat, seen


def _shares(
    history: History, state: Round, before: int, reviewer: int, seat: int, seed: int,
    card: int, copies: int,
) -> tuple[float, float]:
    """The share of 64 deals, seen by `reviewer`, in which `seat` holds `copies` or more of
    `card`: with the hands inferred from `history`, and dealt uniformly."""
    k = [s for s in range(1, state.players + 1) if s != reviewer].index(seat)
    shares = []
    for history_or_none in (history, None):
        rng = random.Random(f"{seed}:{before}:{seat}")
        sampler = HandSampler(history_or_none, state, before, reviewer, rng)
        draws = [sampler.hands()[k] for _ in range(64)]
        shares.append(sum(h[card] >= copies for h in draws) / len(draws))
    return shares[0], shares[1]

def test_it_finds_a_win_let_go_unlikely() -> None:
    # Each missed win of the conformance sample: the seat's real hand would have won with the
    # card it let go (or melded instead), so the likelihood of that hand carries PASS_WIN.
    with (CORPUS / "missed_wins.fcn").open(encoding="utf-8") as f:
        records = [parse_record(t.text, t.line) for t in iter_records(f)]
    misses = [json.loads(line) for line in (CORPUS / "missed_wins.jsonl").read_text().splitlines()]
    for miss in misses:
        record = records[miss["index"]]
        rounds = _rounds(record)
        history = History(rounds, record.events)
        before = len(record.events)
        seat = miss["seat"]
        plan = history.plan(seat, before)
        real = _mixed(history.styles(seat, rounds[before].hands[seat], plan))
        assert real <= math.log(PASS_WIN) + 1e-9, miss


def test_it_rarely_deals_a_pair_of_a_discard_its_seat_could_have_ponged() -> None:
    inferred = uniform = points = 0.0
    for seed, history, rounds, seat, seen in _observed(range(3)):
        live, before = seen.live, seen.known + 1
        if seen.what != _PASS or seen.rival is not None or before >= len(rounds):
            continue
        assert live is not None
        if live.source != "discard" or not pong_or_gan_only(live, seat, 4):
            continue
        state = rounds[before]
        if state.phase == ENDED or state.hands[seat] != rounds[seen.at].hands[seat]:
            continue  # the hand changed since: the pass says less about it now
        reviewer = live.owner  # the discarder: it sees neither hand
        mine, anyone = _shares(history, state, before, reviewer, seat, seed, seen.card, 2)
        inferred, uniform, points = inferred + mine, uniform + anyone, points + 1
    assert points >= 20
    assert uniform / points > 0.02  # uniform deals hold such a pair now and then
    assert inferred < uniform / 2


def test_it_rarely_deals_a_greedy_seat_the_copy_that_would_have_made_its_pong_a_gan() -> None:
    # The greedy bot claims its meld worth most: holding three copies of a discard it gans
    # (8 points), never pongs (3). A seat that ponged holds no fourth copy then; uniform deals,
    # and a model that does not read which meld was claimed, give it one in 18 % of the deals.
    inferred = uniform = points = 0.0
    for seed, history, rounds, seat, seen in _observed(range(24)):
        live, before = seen.live, seen.known + 1
        if seen.what != _CLAIM or seen.meld is None or seen.meld.kind != "triple":
            continue
        assert live is not None
        state = rounds[before]
        reviewer = live.owner  # the discarder: it sees neither hand
        if state.phase == ENDED or reviewer == seat:
            continue
        if not state.unseen(reviewer)[seen.card]:
            continue
        mine, anyone = _shares(history, state, before, reviewer, seat, seed, seen.card, 1)
        inferred, uniform, points = inferred + mine, uniform + anyone, points + 1
    assert points >= 40
    assert uniform / points > 0.1
    assert inferred < uniform / 3


def test_a_discards_likelihood_is_the_softened_greedy_value_of_each_kind() -> None:
    # `_discard_loglik` works out `hands.partners` in its own loop: the same value, to the bit,
    # for random hands of both rulesets (soldier pairs are no melds in bga).
    from fourcolor.hands import partners
    from fourcolor.inference import SOFT, _discard_loglik, discard_weights
    from fourcolor.rulesets import get_ruleset

    rng = random.Random(5)
    for name in ("classic", "bga"):
        rs = get_ruleset(name)
        groups = tuple(rs.allows("three_colour", r) for r in "KAERHCP")
        pairs = tuple(rs.allows("pair", r) for r in "KAERHCP")
        weights = discard_weights(groups, pairs)
        for _ in range(300):
            hand = [0] * 28
            for k in rng.sample([k for k in range(28) for _ in range(4)], rng.randint(2, 21)):
                hand[k] += 1
            kinds = [i for i in range(28) if hand[i] and i % 7]
            value = {
                i: math.exp(-SOFT * partners(i, hand, groups[i % 7], pairs[i % 7])) for i in kinds
            }
            total = sum(value[i] for i in kinds)
            for card in range(28):
                expected = math.log(value[card] / total) if card in value else -math.inf
                assert _discard_loglik(hand, card, weights)[0] == expected, (hand, card)
