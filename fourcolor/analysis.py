"""The reviewer: every decision of a round rated by simulation (docs/analysis.md).

At every point where a seat chose between two or more options, each option's expected
settlement for the seat is estimated by Monte Carlo over what the seat could not see: the unseen
cards dealt among the other hands (inferred from what their seats did, fourcolor/inference.py)
and the pile, the option applied, the round played out by the greedy bot at every seat
(fourcolor/playout.py). Every option of a decision is played on the same deals with the same
random choices (common random numbers). The marks (best option, loss, verdict) are
fourcolor/marks.py's. The result depends only on the record, the seats, the sample count and
the seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from .game import validate
from .round import LIVE, Round
from .notation import Record
from .decisions import PASS, Option, Point, decision_points
from .inference import HandSampler, History
from .marks import EXTEND, KEEP, Z, judge, screened, unit, verdict
from .playout import greedy_playout

DEFAULT_SAMPLES = 128
# Chains of inferred hands (`inference.HandSampler`) a decision's deals take turns from: one
# chain can stay for many deals among hands of one kind (a seat holding a pair or not). Each
# chain has its own burn-in on both styles, from where the first chain's moves on the greedy
# style ended, which costs as much as about 100 deals' moves: a chain for
# every `DEALS_PER_CHAIN` deals, so that an analysis at a few samples (the demo's 8) burns in
# one chain, not four (its CPU would double).
CHAINS = 4
DEALS_PER_CHAIN = 16


@dataclass(frozen=True)
class OptionValue:
    event: str  # canonical FCN event ("2x rK", "3m rK rK rK", ...) or "pass"
    ev: float  # the seat's expected settlement in points after choosing it


@dataclass(frozen=True)
class Decision:
    ply: int  # ply of the event that followed the decision
    seat: int
    played: str  # an OptionValue.event
    best: str  # an OptionValue.event
    options: tuple[OptionValue, ...]  # best first
    loss: float  # best ev - played ev, >= 0
    verdict: str  # one of VERDICTS
    about_equal: bool = False  # sampling cannot tell the best option from another

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "options": [asdict(o) for o in self.options]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        """The decision `to_dict` wrote."""
        options = tuple(OptionValue(**option) for option in data["options"])
        return cls(**{**data, "options": options})


@dataclass(frozen=True)
class SeatSummary:
    decisions: int
    accuracy: float  # share of decisions rated "good" (1.0 for a seat with no decision)
    mean_loss: float


@dataclass(frozen=True)
class Analysis:
    index: int
    seats: Mapping[int, SeatSummary]
    decisions: tuple[Decision, ...]  # in ply order
    samples: int
    seed: int
    engine: str  # fourcolor.__version__

    def to_dict(self) -> dict[str, Any]:
        """The JSON line of `fourcolor analyse --json`."""
        seats = {str(s): asdict(v) for s, v in sorted(self.seats.items())}
        decisions = [d.to_dict() for d in self.decisions]
        return {**asdict(self), "seats": seats, "decisions": decisions}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Analysis:
        """The analysis `to_dict` wrote (a JSON line of `fourcolor analyse --json`)."""
        seats = {int(s): SeatSummary(**summary) for s, summary in data["seats"].items()}
        decisions = tuple(Decision.from_dict(d) for d in data["decisions"])
        return cls(**{**data, "seats": seats, "decisions": decisions})


# ---------------------------------------------------------------------- sampling


def _playout(world: Round, option: Option, seat: int, rng_seed: str) -> float:
    """The seat's settlement after `option` and the policy's play to the end of the round
    (`world` is changed): the greedy bot at every seat (`greedy_playout`)."""
    if option.event is not None:
        world.push(option.event)
        return float(greedy_playout(world, random.Random(rng_seed))[seat])
    return float(greedy_playout(world, random.Random(rng_seed), declining=seat)[seat])


def deal_chains(
    history: History | None, state: Round, before: int, seat: int, rng: random.Random,
    samples: int = DEFAULT_SAMPLES, sighted: bool = False,
) -> list[HandSampler]:
    """The samplers whose deals a decision of `samples` deals takes in turn (deal k from chain
    k mod their number): `CHAINS`, or one for every `DEALS_PER_CHAIN` deals when that is fewer,
    sharing the likelihoods of the hands one chain has seen. Each chain of inferred hands has a
    greedy start of its own (late in a round a chain seldom leaves the hands its start found:
    chains sharing one are no more than one, `marks.paired`); uniform deals need none.
    `sighted`: one sampler of the other hands as they are (`HandSampler`), not inferred."""
    if sighted:
        return [HandSampler(None, state, before, seat, rng, sighted=True)]
    chains = [HandSampler(history, state, before, seat, rng)]
    start = chains[0] if history is None else None
    for _ in range(min(CHAINS, samples // DEALS_PER_CHAIN) - 1):
        chains.append(HandSampler(history, state, before, seat, rng, chains[0].known, start))
    return chains


def _rate(
    point: Point, state: Round, samples: int, seed: int, history: History | None, z: float = Z,
    sighted: bool = False,
) -> Decision:
    """Value every option of a decision on the same deals, and judge the one played.

    With more than `KEEP` options (which card to discard), the first quarter of the deals
    values them all, the rest only those `marks.screened` keeps. The best option, the loss and
    "about equal" are `marks.judge`'s. While the decision is unclear (it may be a mistake and
    the deals so far do not settle whether it is), the number of deals is doubled, up to
    `EXTEND` times `samples`, for the options still in the race (`z`: `marks.judge`'s
    standard errors for "better"). `point.played` None: the reviewer's advice (`advise`), no
    option played, no deals added. The deals come in turn from `deal_chains`: the other hands
    inferred from `history` (None: uniform; `sighted`: the hands as they are)."""
    options, players = point.options, state.players
    results: list[list[float]] = [[] for _ in options]
    played_at = next((k for k, o in enumerate(options) if o.label == point.played), None)
    scale = unit(state.ruleset, players)
    rng = random.Random(f"fourcolor-analysis:{seed}:{point.before}:{point.seat}")
    chains = deal_chains(history, state, point.before, point.seat, rng, samples, sighted)
    clusters = len(chains) if chains[0].moves else 1  # uniform deals: independent (`paired`)
    active = list(range(len(options)))
    screen = max(samples // 4, min(samples, 8)) if len(options) > KEEP + 1 else 0
    kept = active  # the options valued on every deal after the screening
    done, total = 0, samples
    while True:
        for sample in range(done, total):
            if sample == screen and screen and len(active) > KEEP + 1:
                active = kept = screened(results, active, played_at, scale, clusters)
            world = chains[sample % len(chains)].world()
            playout_seed = f"{seed}:{point.before}:{point.seat}:{sample}"
            for k in active:
                # A pass leaves the round as it is: only a move needs a copy to be pushed on.
                here = world if options[k].event is None else world.copy()
                results[k].append(_playout(here, options[k], point.seat, playout_seed))
        done = total
        # The options kept after the screening are judged on the later deals only: the deals
        # that chose them would flatter them (the best of several noisy means is too high).
        fresh = screen if len(kept) < len(options) and total > screen else 0
        judged = [r[fresh:] if k in kept else r for k, r in enumerate(results)]
        wins = [o.event is not None and o.event.verb == "w" for o in options]
        judgement = judge(judged, active, wins, played_at, scale, z, clusters)
        if not judgement.unclear or total >= samples * EXTEND:
            break
        # The next deals go to the options still in the race: the one played, the top one and
        # those sampling cannot yet tell from the top (the others cannot be named the best).
        active = judgement.racing
        total = min(total * 2, samples * EXTEND)
    values, best_at, loss = judgement.values, judgement.best, judgement.loss
    rest = sorted((k for k in range(len(options)) if k != best_at), key=lambda k: (-values[k], k))
    return Decision(
        ply=point.ply,
        seat=point.seat,
        played=options[best_at].label if point.played is None else point.played,
        best=options[best_at].label,
        options=tuple(OptionValue(options[k].label, values[k]) for k in [best_at, *rest]),
        loss=loss,
        verdict=verdict(loss, players, state.ruleset),
        about_equal=judgement.close,
    )


def advise(
    state: Round,
    seat: int,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    history: History | None = None,
    reference: str | None = None,
    z: float = Z,
    sighted: bool = False,
) -> Decision | None:
    """The reviewer's advice to `seat` on `state`, a round in play: the options the seat has
    now (a discard; or claims on the live card besides letting it go, for its drawer
    discarding it) rated as a decision, `best` the one to play (`played` is the same, the loss
    0); None when the seat has fewer than two options. Only what the seat sees is used.
    `history`: the round's `inference.History` up to `state`, for the other hands inferred
    from what they did (None: dealt uniformly). `reference`: one option's text, rated as if
    the seat had played it (`played`, the loss and the verdict are then that option's): the
    analyst bot asks how the patient bot's choice would be marked. `z`: the standard errors by
    which an option's gain must be clear to count as better (`marks.judge`; the marks use
    `marks.Z`). `sighted`: the other hands as they are on `state`, seen rather than inferred
    (what seeing them would gain: the `analyst-sighted` bot)."""
    listed = [e for e in state.legal_events() if e.seat == seat]
    if state.phase == LIVE and state.live is not None:
        live = state.live
        claims = tuple(Option(e.text(), e) for e in listed if e.verb in "mw")
        if live.source == "draw" and live.owner == seat:
            options = claims + tuple(Option(e.text(), e) for e in listed if e.verb == "x")
        else:
            options = claims + (Option(PASS),) if claims else ()
    else:
        options = tuple(Option(e.text(), e) for e in listed if e.verb == "x")
    if len(options) < 2:
        return None
    if reference is not None and reference not in (o.label for o in options):
        raise ValueError(f"{reference!r} is not an option of seat {seat}")
    point = Point(state.ply, state.ply + 1, seat, options, reference)
    return _rate(point, state, samples, seed, history, z, sighted)


def analyse(
    record: Record,
    *,
    seats: Iterable[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    index: int = 0,
    progress: Callable[[int, int], None] | None = None,
    plies: Iterable[int] | None = None,
) -> Analysis:
    """Rate every decision of `seats` (default: all) in a valid record; `IllegalRecordError`
    (a `ValueError`) for an invalid one. `progress(done, total)` follows each decision.
    `plies`: only the decisions followed by these plies (the seats' summaries then cover
    only those)."""
    from . import __version__

    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    game = validate(record)
    players = record.players
    chosen = set(range(1, players + 1)) if seats is None else set(seats)
    for s in chosen:
        if not 1 <= s <= players:
            raise ValueError(f"seat must be between 1 and {players}, not {s}")
    state = Round.from_record(record, game.ruleset)
    rounds = [state.copy()]
    for event in record.events:
        state.push(event)
        rounds.append(state.copy())
    exhausted = game.finish.outcome == "exhausted"
    points = decision_points(record, rounds, chosen, exhausted=exhausted)
    if plies is not None:
        wanted = set(plies)
        points = [p for p in points if p.ply in wanted]
    history = History(rounds, record.events)
    decisions = []
    for done, point in enumerate(points, start=1):
        decisions.append(_rate(point, rounds[point.before], samples, seed, history))
        if progress is not None:
            progress(done, len(points))
    summaries = {}
    for s in sorted(chosen):
        mine = [d for d in decisions if d.seat == s]
        good = sum(1 for d in mine if d.verdict == "good")
        summaries[s] = SeatSummary(
            decisions=len(mine),
            accuracy=round(good / len(mine), 4) if mine else 1.0,
            mean_loss=round(sum(d.loss for d in mine) / len(mine), 3) if mine else 0.0,
        )
    return Analysis(
        index=index,
        seats=summaries,
        decisions=tuple(decisions),
        samples=samples,
        seed=seed,
        engine=__version__,
    )
