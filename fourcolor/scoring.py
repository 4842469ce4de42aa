"""How a round ends and what it pays (RULES.md §4, §7): the finish of a win or a forced finish,
the finisher's best hidden split, the lucky card and the settlement.

`Round` calls `win_finish` when a win is claimed (and when one is called) and `forced_finish`
when a meld leaves nothing to discard; both raise `IllegalMoveError` for a win the rules refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import CARDS, KINDS, Card
from .claims import Live
from .errors import IllegalMoveError
from .melds import Meld, classify, meld_shape
from .moves import locked_sets, without_locked_sets
from .notation import Event
from .rulesets import Ruleset
from .split import best_split_counts

if TYPE_CHECKING:
    from .round import Round


def settle(
    ruleset: Ruleset, players: int, seat: int, points: int, lucky_bonus: int = 0
) -> dict[int, int]:
    """Payments per seat when `seat` finishes (a win or a forced finish) with `points` (§7):
    every other seat pays the finisher the same (a negative sum under a bga threshold)."""
    if ruleset.threshold is None:
        each = points + lucky_bonus
    elif points >= ruleset.threshold:
        each = points - ruleset.threshold + ruleset.base + lucky_bonus
    elif ruleset.below_threshold == "fixed":
        each = -(ruleset.threshold + ruleset.base)
    else:
        each = -(ruleset.threshold - points + ruleset.base)
    payments = {s: -each for s in range(1, players + 1)}
    payments[seat] = each * (players - 1)
    return payments


@dataclass
class Finish:
    """How a round ended, with the finisher's score and the payments."""

    outcome: str  # win, forced, exhausted, redeal, unfinished
    seat: int | None = None
    on: str | None = None  # draw or discard: where the winning card came from
    points: int | None = None
    exposed_points: int | None = None
    hidden_points: int | None = None
    exposed_melds: tuple[Meld, ...] = ()
    hidden_melds: tuple[Meld, ...] = ()
    declared_split: bool = False
    best_hidden_points: int | None = None  # the maximum, shown beside a declared split
    lucky_card: Card | None = None
    lucky_bonus: int = 0
    settlement: dict[int, int] = field(default_factory=dict)
    lucky_error: IllegalMoveError | None = None

    @property
    def result_tag(self) -> str:
        if self.outcome in ("win", "forced"):
            return f"{self.seat}:{self.points}"
        return {"exhausted": "-", "redeal": "R", "unfinished": "*"}[self.outcome]


def split_hidden(
    rest: Sequence[int], locked: Sequence[int], ruleset: Ruleset
) -> tuple[int, tuple[Meld, ...]] | None:
    """The best split of a finisher's hidden cards (counts) with its points; dealt sets still
    locked score as hidden triples/quads, unsplit. None when the cards do not split."""
    counts, points, sets = without_locked_sets(rest, locked, ruleset)
    split = best_split_counts(counts, ruleset)
    if split is None:
        return None
    melds = [Meld(kind, (CARDS[i],) * n) for kind, i, n in sets] + list(split.melds)
    ordered = sorted(melds, key=lambda m: [c.index for c in m.cards])
    return split.points + points, tuple(ordered)


def no_payments(players: int) -> dict[int, int]:
    """The settlement of a round nobody finished: every seat pays 0."""
    return {s: 0 for s in range(1, players + 1)}


def _declared_split(
    groups: Sequence[Sequence[Card]], rest: list[int], locked: Sequence[int], ruleset: Ruleset
) -> tuple[int, tuple[Meld, ...]]:
    """The points and melds of a win's declared split of the rest of the hand (`rest`,
    counts), or `IllegalMoveError`: a group no meld, not the rest, or a locked set broken."""
    hidden_melds = []
    declared = [0] * KINDS
    for group in groups:
        meld = classify(group, ruleset)
        if meld is None:
            raise IllegalMoveError("split.not_a_meld", cards=[c.token for c in group])
        hidden_melds.append(meld)
        for card in group:
            declared[card.index] += 1
    if declared != rest:
        raise IllegalMoveError(
            "split.rest", cards=[CARDS[i].token for i, n in enumerate(rest) for _ in range(n)]
        )
    for i, n in enumerate(locked):
        if n and rest[i] >= n and not _keeps_sets(hidden_melds, i, locked_sets(n)):
            raise IllegalMoveError("split.locked", card=CARDS[i].token)
    return sum(m.points(ruleset, exposed=False) for m in hidden_melds), tuple(hidden_melds)


def win_finish(
    rnd: Round, seat: int, meld: Meld, event: Event, needs: tuple[tuple[int, int], ...]
) -> Finish:
    """The finish of a win with `meld`, which takes `needs` (kind, copies) from the hand
    besides the live card (see `Round._check_meld`)."""
    live = rnd.live
    assert live is not None
    rest = list(rnd.hands[seat])
    for index, copies in needs:
        rest[index] -= copies
    locked = rnd.locked[seat]
    found = split_hidden(rest, locked, rnd.ruleset)
    if event.groups:
        hidden = _declared_split(event.groups, rest, locked, rnd.ruleset)
    elif found is None:
        raise IllegalMoveError("win.no_split", seat=seat)
    else:
        hidden = found
    exposed = tuple(rnd.displays[seat]) + (meld,)
    exposed_points = rnd.exposed_points(seat) + meld.points(rnd.ruleset, exposed=True)
    points = exposed_points + hidden[0]
    threshold = rnd.ruleset.threshold
    if threshold is not None and points < threshold:
        raise IllegalMoveError(
            "win.threshold", seat=seat, n=points, ruleset=rnd.ruleset.name, m=threshold
        )
    finish = Finish(
        "win",
        seat=seat,
        on=live.source,
        points=points,
        exposed_points=exposed_points,
        hidden_points=hidden[0],
        exposed_melds=exposed,
        hidden_melds=hidden[1],
        declared_split=bool(event.groups),
        best_hidden_points=None if found is None else found[0],
    )
    _pay(rnd, finish, rest)
    return finish


def forced_finish(rnd: Round, seat: int, live: Live) -> Finish:
    hidden = split_hidden(rnd.hands[seat], rnd.locked[seat], rnd.ruleset)
    assert hidden is not None  # an empty or all-generals hand always splits
    exposed = tuple(rnd.displays[seat])
    exposed_points = rnd.exposed_points(seat)
    finish = Finish(
        "forced",
        seat=seat,
        on=live.source,
        points=exposed_points + hidden[0],
        exposed_points=exposed_points,
        hidden_points=hidden[0],
        exposed_melds=exposed,
        hidden_melds=hidden[1],
        best_hidden_points=hidden[0],
    )
    _pay(rnd, finish, rnd.hands[seat])
    return finish


def turns_lucky_card(ruleset: Ruleset, points: int) -> bool:
    """Whether a finish of `points` turns a lucky card (§7): one reaching the threshold of a
    ruleset with the lucky draw (bga); in a ruleset without a threshold under ``lucky_draw=on``
    (classic, §8a), every finish."""
    threshold = ruleset.threshold
    return ruleset.lucky_draw and (threshold is None or points >= threshold)


def lucky_bonus(ruleset: Ruleset, points: int, lucky: Card | None, counts: Sequence[int]) -> int:
    """The lucky card's bonus (§7): the copies of `lucky` among the finisher's 21 cards
    (`counts`, by kind) when the finish turns a lucky card; 0 otherwise or when the card is
    not known."""
    if lucky is None or not turns_lucky_card(ruleset, points):
        return 0
    return counts[lucky.index]


def next_lucky_card(
    pile_left: int, pile: Sequence[Card] | None, drawn: int, opening: Card | None
) -> Card | None:
    """The card a lucky draw turns: the pile's next, or the dealer's opening discard when the
    pile is used up; None when the pile is not known."""
    if pile_left == 0:
        return opening
    return pile[drawn] if pile is not None else None


def _keeps_sets(melds: Sequence[Meld], index: int, sets: Sequence[int]) -> bool:
    """Whether a declared split keeps the locked sets (sizes) of a kind whole: as many of its
    triples and quads, each at least as large."""
    sizes = sorted(
        (len(m.cards) for m in melds
         if m.cards[0].index == index and meld_shape(m.cards) in ("triple", "quad")),
        reverse=True,
    )
    return len(sizes) >= len(sets) and all(a >= b for a, b in zip(sizes, sets, strict=False))


def _lucky_card(rnd: Round) -> Card:
    """The lucky card turned after a win under lucky_draw (§7) (`next_lucky_card`: the pile's
    next card, or the dealer's opening discard when the pile is used up); without a Pile tag,
    the Lucky tag, which must otherwise agree."""
    lucky = next_lucky_card(rnd.pile_left, rnd.pile, rnd.drawn, rnd.opening_discard)
    tag = rnd.lucky_tag
    if lucky is not None:
        if tag is not None and tag is not lucky:
            if rnd.pile_left == 0:
                raise IllegalMoveError("lucky.opening", value=tag.token, card=lucky.token)
            raise IllegalMoveError("lucky.pile", value=tag.token, card=lucky.token)
        return lucky
    if tag is None:
        raise IllegalMoveError("lucky.missing")
    # The copies rule counts the deal and the draws (§9), not the lucky card.
    return tag


def _pay(rnd: Round, finish: Finish, hidden: Sequence[int]) -> None:
    """Lucky card and payments; `hidden`: the counts of the finisher's hidden cards."""
    rs = rnd.ruleset
    assert finish.seat is not None and finish.points is not None
    if turns_lucky_card(rs, finish.points):
        try:
            lucky = _lucky_card(rnd)
        except IllegalMoveError as err:
            # Reported when the record ends (ply N+1), like a disagreeing Result.
            finish.lucky_error = err
            lucky = None
        finish.lucky_card = lucky
        # The finisher's 21 cards are exactly its exposed melds and its hidden cards.
        counts = list(hidden)
        for meld in finish.exposed_melds:
            for card in meld.cards:
                counts[card.index] += 1
        finish.lucky_bonus = lucky_bonus(rs, finish.points, lucky, counts)
    finish.settlement = settle(rs, rnd.players, finish.seat, finish.points, finish.lucky_bonus)
