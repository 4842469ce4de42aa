"""The reviewer (fourcolor/analysis.py): decisions, options, values, verdicts, determinism, and
that it never uses what the seat could not see. Small sample counts keep these fast; the real
figures (strength, missed wins, stability, speed) are bench/analysis.py's, in docs/analysis.md."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import fourcolor
from fourcolor.analysis import DEFAULT_SAMPLES, Analysis, analyse
from fourcolor.marks import THRESHOLDS, VERDICTS, verdict
from fourcolor.marks import KEEP, SCREEN_Z, SURE, Z
from fourcolor.marks import judge as _judge
from fourcolor.marks import margin as _margin
from fourcolor.marks import paired as _paired
from fourcolor.marks import screened as _screened
from fourcolor.cards import parse_card
from fourcolor.decisions import PASS
from fourcolor.round import Round
from fourcolor.generate import generate_record
from fourcolor.notation import Record, parse_record, write_fcn
from fourcolor.replay import Replay

from tests.sizes import sweep

from .helpers import WIN_HAND, fcn

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus"


def _states(record: Record) -> list[Round]:
    state = Round.from_record(record)
    out = [state.copy()]
    for event in record.events:
        state.push(event)
        out.append(state.copy())
    return out


@pytest.fixture(scope="module")
def mixed() -> tuple[Record, Analysis]:
    record = generate_record("classic", 4, 5, bot=["greedy", "random", "greedy", "random"])
    return record, analyse(record, samples=6, seed=1)


def test_it_rates_every_decision_with_consistent_values(mixed: tuple[Record, Analysis]) -> None:
    record, result = mixed
    assert result.decisions, "a 4-seat round has decisions"
    assert [d.ply for d in result.decisions] == sorted(d.ply for d in result.decisions)
    for d in result.decisions:
        events = [o.event for o in d.options]
        assert len(events) >= 2 and len(set(events)) == len(events)
        assert d.played in events and d.best in events
        values = {o.event: o.ev for o in d.options}
        assert d.options[0].event == d.best
        rest = [o.ev for o in d.options[1:]]
        assert rest == sorted(rest, reverse=True)
        if d.best == d.played:
            assert d.loss == 0
        elif d.loss == 0:
            # Nothing beats the option played: the best named is the top (of the options the
            # screening kept), or a win sampling cannot tell from it; about equal to another.
            assert d.about_equal
            assert d.best[1] == "w" or values[d.best] >= values[d.played]
        else:
            assert values[d.best] > values[d.played]
            assert d.loss == pytest.approx(values[d.best] - values[d.played], abs=1e-6)
        assert d.loss >= 0
        assert d.verdict == verdict(d.loss, record.players)
    for seat, summary in result.seats.items():
        mine = [d for d in result.decisions if d.seat == seat]
        assert summary.decisions == len(mine)
        good = sum(d.verdict == "good" for d in mine)
        assert summary.accuracy == pytest.approx(good / len(mine), abs=1e-4)
        assert summary.mean_loss == pytest.approx(sum(d.loss for d in mine) / len(mine), abs=1e-3)
    assert (result.samples, result.seed, result.engine) == (6, 1, fourcolor.__version__)


def test_it_offers_only_legal_events_and_names_the_one_played(
    mixed: tuple[Record, Analysis],
) -> None:
    record, result = mixed
    states = _states(record)
    texts = [e.text() for e in record.events]
    for d in result.decisions:
        # The state the decision was taken in: before the event that followed it.
        legal = {e.text() for e in states[d.ply - 1].legal_events() if e.seat == d.seat}
        for option in d.options:
            assert option.event == PASS or option.event in legal
        if d.played != PASS:
            event = record.events[d.ply - 1]
            assert event.seat == d.seat
            assert d.played.split(" (")[0] == texts[d.ply - 1].split(" (")[0]


def test_it_gives_the_same_analysis_for_the_same_seed_only(mixed: tuple[Record, Analysis]) -> None:
    record, result = mixed
    assert analyse(record, samples=6, seed=1) == result
    other = analyse(record, samples=6, seed=2)
    assert [(d.ply, d.seat, d.played) for d in other.decisions] == [
        (d.ply, d.seat, d.played) for d in result.decisions
    ]
    assert [d.options for d in other.decisions] != [d.options for d in result.decisions]


def test_it_round_trips_through_its_json_shape(mixed: tuple[Record, Analysis]) -> None:
    _record, result = mixed
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data) == {"index", "seats", "decisions", "samples", "seed", "engine"}
    assert set(data["seats"]) == {"1", "2", "3", "4"}
    assert set(data["seats"]["1"]) == {"decisions", "accuracy", "mean_loss"}
    assert set(data["decisions"][0]) == {
        "ply",
        "seat",
        "played",
        "best",
        "options",
        "loss",
        "verdict",
        "about_equal",
    }
    assert set(data["decisions"][0]["options"][0]) == {"event", "ev"}
    assert Analysis.from_dict(data) == result


def test_it_rates_a_seat_only_when_asked_and_reports_progress() -> None:
    record = generate_record("bga", 3, 8, bot=["random", "greedy", "random"])
    seen: list[tuple[int, int]] = []
    result = analyse(record, seats=[2], samples=2, progress=lambda d, t: seen.append((d, t)))
    assert set(result.seats) == {2}
    assert {d.seat for d in result.decisions} <= {2}
    assert seen == [(k, len(result.decisions)) for k in range(1, len(result.decisions) + 1)]


def test_it_refuses_bad_arguments_and_illegal_records() -> None:
    record = generate_record("classic", 2, 1)
    with pytest.raises(ValueError, match="samples must be at least 1"):
        analyse(record, samples=0)
    with pytest.raises(ValueError, match="seat must be between 1 and 2"):
        analyse(record, seats=[3])
    record.events[0] = fourcolor.Event(2, "x", (parse_card("wP"),))
    with pytest.raises(fourcolor.IllegalRecordError):
        analyse(record)


def test_its_thresholds_are_per_other_seat_and_in_order() -> None:
    assert VERDICTS == ("good", "inaccuracy", "mistake", "blunder")
    assert list(THRESHOLDS) == sorted(THRESHOLDS)
    assert isinstance(DEFAULT_SAMPLES, int) and DEFAULT_SAMPLES > 0
    inaccuracy, mistake, blunder = THRESHOLDS
    assert verdict(0.0, 4) == "good"
    assert verdict(inaccuracy * 3 - 0.01, 4) == "good"
    assert verdict(inaccuracy * 3, 4) == "inaccuracy"
    assert verdict(mistake, 2) == "mistake"
    assert verdict(blunder * 2, 3) == "blunder"


def test_it_rates_a_missed_win_a_mistake_or_worse_with_the_win_best() -> None:
    # Seat 2 could win on the dealer's rC and draws instead.
    text = fcn({1: "rC", 2: WIN_HAND}, "1x rC 2d wP", reserve="wP", result="*")
    record = parse_record(text)
    [decision] = analyse(record, seats=[2], samples=24).decisions
    assert (decision.ply, decision.played) == (2, PASS)
    assert decision.best.startswith("2w ")
    assert decision.verdict in ("mistake", "blunder")
    wins = [o for o in decision.options if o.event.startswith("2w ")]
    # A classic win of 15 points on a discard, 2 players: +15, certain.
    assert max(o.ev for o in wins) == 15.0


def test_it_rates_every_missed_win_of_the_sample_with_the_win_among_its_options() -> None:
    """The 40 missed wins of missed_wins.fcn, at a small sample count (bench/analysis.py runs
    the default and reports how many are rated a mistake or worse). Each is a decision of its
    seat with the win among the options; a classic win is worth exactly P from each other seat;
    and a plain meld that ends the round at once by a forced finish is worth exactly the win
    it did not declare (the rules score and settle both alike), so it is never a loss."""
    with open(CORPUS / "missed_wins.fcn", encoding="utf-8", newline="") as f:
        texts = list(fourcolor.iter_records(f))
    rows = [json.loads(line) for line in (CORPUS / "missed_wins.jsonl").read_text().splitlines()]
    assert len(rows) == 40
    forced_alike = 0
    for row in rows:
        text = texts[row["index"]]
        record = parse_record(text.text, text.line)
        game = fourcolor.validate(record)
        # The missed win the row names: its seat and card, the event after it on its line.
        [missed] = [
            m
            for m in Replay(record, game).missed_wins()
            if (m.seat, m.card.token, record.events[m.ply].line)
            == (row["seat"], row["card"], row["line"])
        ]
        ply = missed.ply + 1
        result = analyse(record, seats=[row["seat"]], plies=[ply], samples=3)
        [d] = result.decisions
        assert (d.ply, d.seat) == (ply, row["seat"])
        wins = {o.event: o.ev for o in d.options if o.event[1] == "w"}
        assert wins, row
        if record.ruleset_name == "classic":
            assert max(wins.values()) == missed.points * (record.players - 1)
        if game.finish.outcome == "forced" and ply == len(record.events):
            # Settled exactly as the win (the same points, lucky bonus and payments on every
            # deal): never a loss against the win, and when nothing beats the meld played, the
            # win, certain, is named the best of the equals.
            values = {o.event: o.ev for o in d.options}
            assert values[d.played] == max(wins.values())
            assert d.loss == 0 or d.best[1] != "w"
            if d.loss == 0:
                assert d.best[1] == "w", d
            forced_alike += 1
    assert forced_alike == 15


def _hidden_swap(record: Record, seat: int) -> Record | None:
    """The record with a card that `seat` never sees (in a hand other than its own and the
    finisher's, never melded or discarded) swapped with another such card of another kind, or
    with a card of the pile never drawn (nor turned as a lucky card); None when no such swap
    keeps the record valid."""
    game = fourcolor.validate(record)
    final = game.round
    pile = [parse_card(t) for t in record.tags["Pile"].split()]
    hidden = [
        (other, fourcolor.CARDS[index])
        for other in range(1, record.players + 1)
        if other not in (seat, game.finish.seat)
        for index, n in enumerate(final.hands[other])
        if n
    ]
    for k, (other, card) in enumerate(hidden):
        # (None, pile position, card) past the lucky card (the pile's next one), or
        # (another seat, -1, one of its hidden cards).
        swaps: list[tuple[int | None, int, fourcolor.Card]] = [
            (None, at, pile[at]) for at in range(len(pile) - 1, final.drawn, -1)
        ]
        swaps += [(o, -1, c) for o, c in hidden[k + 1 :] if o != other]
        for into, at, there in swaps:
            if there is card:
                continue
            deal = {s: list(cards) for s, cards in record.deal.items()}
            new_pile = list(pile)
            deal[other].remove(card)
            deal[other].append(there)
            if into is None:
                new_pile[at] = card
            else:
                deal[into].remove(there)
                deal[into].append(card)
            tags = dict(record.tags)
            tags["Pile"] = " ".join(c.token for c in new_pile)
            changed = Record(
                tags=tags,
                deal={s: tuple(sorted(c, key=lambda x: x.index)) for s, c in deal.items()},
                events=list(record.events),
            )
            check = fourcolor.check_record(write_fcn(changed))
            if check.ok:
                assert check.record is not None
                return check.record
    return None


# Both rulesets at the CI size; two more deals at the full size.
HIDDEN_SWAPS = [("classic", 3), ("bga", 4), ("classic", 21), ("bga", 9)][:sweep(full=4, ci=2)]


@pytest.mark.parametrize("ruleset,seed", HIDDEN_SWAPS)
def test_it_never_sees_what_the_seat_could_not(ruleset: str, seed: int) -> None:
    record = generate_record(ruleset, 4, seed, bot=["greedy", "random", "greedy", "random"])
    for seat in (1, 2):
        changed = _hidden_swap(record, seat)
        assert changed is not None
        assert write_fcn(changed) != write_fcn(record)
        assert analyse(changed, seats=[seat], samples=3, seed=5) == analyse(
            record, seats=[seat], samples=3, seed=5
        )


def _screening_deals(offsets: list[float], deals: int = 32) -> list[list[float]]:
    """Each option's values on the same deals: a deal's swing shared by every option (common
    random numbers), the option's own offset, and a little noise of its own."""
    rng = random.Random("screening")
    swings = [rng.gauss(0.0, 20.0) for _ in range(deals)]
    return [[s + offset + rng.gauss(0.0, 1.0) for s in swings] for offset in offsets]


def test_it_keeps_every_option_the_screening_cannot_tell_from_the_best() -> None:
    # Five discards worth about 10, one worth 0, and the one played (the last) worth -8: a
    # mistake at a table of four. The three best of 32 deals are chance among the five.
    results = _screening_deals([10.2, 10.0, 9.9, 10.1, 9.8, 0.0, -8.0])
    assert KEEP == 3 and SCREEN_Z > 0
    assert _screened(results, range(7), 6, 3.0) == [0, 1, 2, 3, 4, 6]


def test_it_keeps_only_the_best_few_when_the_option_played_cannot_be_a_mistake() -> None:
    # The option played (the last, worth 9.5) is within a mistake of the best: the close ones
    # are not needed to name a best option that no mistake verdict will show.
    results = _screening_deals([10.2, 10.0, 9.9, 10.1, 9.8, 0.0, 9.5])
    kept = _screened(results, range(7), 6, 3.0)
    assert len(kept) == KEEP + 1 and 6 in kept and 5 not in kept


def test_it_names_the_highest_estimate_among_options_as_good_as_it_about_equal() -> None:
    # Three discards on the same 64 deals: the first in the engine's order (0), the top (1),
    # the one played (2). The top beats the played; 0 is as good as the top as far as the
    # deals can tell, but its own gain over the played is under Z standard errors.
    # Each option's own noise is +-4 in a pattern of its own, so that the means are exact.
    rng = random.Random("naming")
    swings = [rng.gauss(0.0, 20.0) for _ in range(64)]
    judged = [
        [s + 1.2 + (4.0 if i % 2 else -4.0) for i, s in enumerate(swings)],
        [s + 2.5 + (4.0 if i // 2 % 2 else -4.0) for i, s in enumerate(swings)],
        list(swings),
    ]
    assert _margin(judged[1], judged[2]) > Z  # the top beats the played
    assert _margin(judged[0], judged[2]) <= Z  # option 0 alone does not
    assert _margin(judged[1], judged[0]) <= Z  # but it is as good as the top
    options = [False, False, False]  # none is a win
    judgement = _judge(judged, [0, 1, 2], options, 2, 3.0)
    assert (judgement.best, judgement.close) == (1, True)
    assert judgement.loss == round(judgement.values[1] - judgement.values[2], 3) > 0


def test_a_lower_z_counts_a_smaller_gain_as_better() -> None:
    # The analyst bot's bar (`generate.ANALYST_Z`): a gain 2 standard errors clear beats the
    # option played at z = 1, not at the marks' Z.
    rng = random.Random("lower bar")
    swings = [rng.gauss(0.0, 20.0) for _ in range(64)]
    judged = [[s + 1.0 + (4.0 if i % 2 else -4.0) for i, s in enumerate(swings)], list(swings)]
    assert 1.0 < _margin(judged[0], judged[1]) <= Z
    assert _judge(judged, [0, 1], [False, False], 1, 3.0).loss == 0.0
    assert _judge(judged, [0, 1], [False, False], 1, 3.0, z=1.0).loss == 1.0


def test_deals_of_one_chain_count_as_one_cluster_in_the_standard_error() -> None:
    # Four chains take turns (deal j from chain j mod 4): each chain's deals share a gain of
    # their own (hands that changed little from one deal to the next), which the spread of the
    # deals alone does not show; deals dealt independently keep the plain error.
    rng = random.Random("chains")
    shift = [3.0, -2.0, 4.0, -3.0]
    played = [rng.gauss(0.0, 2.0) for _ in range(64)]
    option = [p + 1.0 + shift[j % 4] + rng.gauss(0.0, 0.5) for j, p in enumerate(played)]
    mean, plain = _paired(option, played)
    same, clustered = _paired(option, played, chains=4)
    assert same == mean and clustered > 3 * plain
    assert _margin(option, played) > Z >= _margin(option, played, chains=4)
    judged = [option, played]
    assert _judge(judged, [0, 1], [False, False], 1, 3.0).loss > 0
    assert _judge(judged, [0, 1], [False, False], 1, 3.0, chains=4).loss == 0.0
    # Independent deals: the chains' spread is no larger than the deals', the error as plain.
    alone = [p + 1.0 + rng.gauss(0.0, 2.0) for p in played]
    assert _paired(alone, played, chains=4)[1] <= 1.5 * _paired(alone, played)[1]


def _near_tie_deals(played: float) -> list[list[float]]:
    """Three discards on the same 64 deals: the top (0, worth 10), one a tenth of a point
    below it (1), and the one played (2, worth `played`). Each option's own noise is +-4 in a
    pattern of its own, so that the means are exact."""
    rng = random.Random("near tie")
    swings = [rng.gauss(0.0, 20.0) for _ in range(64)]
    return [
        [s + 10.0 + (4.0 if i % 2 else -4.0) for i, s in enumerate(swings)],
        [s + 9.9 + (4.0 if i // 2 % 2 else -4.0) for i, s in enumerate(swings)],
        [s + played for s in swings],
    ]


def test_it_calls_a_near_tie_about_equal_without_more_deals_once_the_loss_is_plain() -> None:
    # The top's gain over the option played is plain (a mistake at a table of four), and the
    # two best are a tenth of a point apart: more deals would not tell them apart, and the
    # decision already reads "about equal" whichever of the two is named.
    judged = _near_tie_deals(0.0)
    assert _margin(judged[0], judged[2]) > 5 * Z
    assert 0 <= _margin(judged[0], judged[1]) < Z / 2
    options = [False, False, False]  # none is a win
    judgement = _judge(judged, [0, 1, 2], options, 2, 3.0)
    assert judgement.close and not judgement.unclear
    assert verdict(judgement.loss, 4) in ("mistake", "blunder")


def test_it_gives_a_possible_mistake_more_deals_while_its_loss_is_not_plain() -> None:
    # The top beats the option played by more than Z standard errors but under SURE: a seed
    # could call it a mistake and another not, so the decision gets more deals.
    rng = random.Random("not plain")
    swings = [rng.gauss(0.0, 20.0) for _ in range(64)]
    judged = [
        [s + 5.0 + (12.0 if i % 2 else -12.0) for i, s in enumerate(swings)],
        list(swings),
    ]
    assert Z < _margin(judged[0], judged[1]) < SURE
    judgement = _judge(judged, [0, 1], [False, False], 1, 3.0)
    assert judgement.unclear and judgement.racing == [0, 1]


def test_it_leaves_a_near_tie_alone_when_the_option_played_cannot_be_a_mistake() -> None:
    # The option played is within an inaccuracy of the top: no verdict shows which of the two
    # best is named, so more deals would buy nothing.
    judged = _near_tie_deals(9.0)
    assert (_margin(judged[0], judged[2]) + Z) * 0.5 / 3 < THRESHOLDS[1]
    options = [False, False, False]  # none is a win
    assert not _judge(judged, [0, 1, 2], options, 2, 3.0).unclear


def test_it_rates_letting_the_last_discard_of_an_exhausted_round_go() -> None:
    # Random bots, bga, seed 49: nobody claims the last discard; seat 1 could have ponged it.
    record = generate_record("bga", 4, 49, bot=["random"] * 4)
    assert fourcolor.validate(record).finish.outcome == "exhausted"
    result = analyse(record, seats=[1], samples=2)
    last = [d for d in result.decisions if d.ply == len(record.events) + 1]
    assert [(d.seat, d.played) for d in last] == [(1, PASS)]
    assert {o.event for o in last[0].options} == {PASS, "1m yP yP yP"}
