"""Inferred hands: the other seats' hidden hands sampled from what they did (docs/analysis.md,
"Inferred hands", tabulates the model and its constants).

A card never joins a hand after the deal, so a guess of a seat's current hand fixes its whole
history: its hand before any event is the guess plus every card that has left it since. Each
public decision of the seat then has an exact probability given the hand it held then, under
two styles of play: the soft style (the greedy bot's discard value softened by `SOFT`; a live
card let go that would have won, or melded with a right that would have taken effect:
`PASS_WIN`, `PASS_MELD`) and the greedy bot itself (`History._greedy_pick`; each decision it
would not have made costs `SLIP`), mixed with prior probability `GREEDY` for the greedy style.

`HandSampler` draws the other hands from the posterior, the uniform deal of the unseen cards
weighted by the seats' likelihoods, by Metropolis: a move swaps one card between two bins
(another seat's hand, the rest that makes the pile), so every state agrees with everything
public. A chain first moves on the greedy style alone (`GREEDY_START` moves per hidden card),
then on the mixture (`BURN_IN`). Everything is drawn from the caller's random generator: the
same seed gives the same deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import CARDS, KINDS, MAX_COPIES
from .claims import Claim, ClaimRight, Live, may_claim, must_meld, pong_or_gan_only, resolve_claims
from .deal import qualifies_for_redeal
from .decisions import claim_of
from .hands import keeps_others, rank_rules, unforced
from .melds import Meld, classify
from .moves import best_completing_win, meld_claims, melds_with
from .notation import Event
from .round import LIVE, MUST_DISCARD, OPENING, Round
from .split import BLOCK_OF, splits_with

# The policy model (module docstring): how sharply the discards follow the greedy bot's value,
# and how likely a seat lets go a live card it could win with, or meld.
SOFT = 4.0
PASS_WIN = 0.02
PASS_MELD = 0.05
# The greedy style: each decision the bot would have made otherwise costs SLIP (not 0: a
# chain started anywhere still finds the hands it would have played); its prior probability.
SLIP = 1e-6
GREEDY = 0.9
# Metropolis moves per card hidden in the other hands on the greedy style alone, then on the
# mixture before the first deal, and moves between deals: with one move between deals, a
# decision's deals hold nearly the same hands (a few distinct hands in 128 deals late in a
# round), and two seeds' deals differ by more than either's error.
GREEDY_START = 24
BURN_IN = 8
THIN = 4
# A move whose log-likelihood ratio is surely below -_REFUSED is refused without working the
# rest of it out (`HandSampler._move`); _ROUNDING covers the floating-point sums' rounding.
_REFUSED = 10.0
_ROUNDING = 1e-6

_LOG_PASS_WIN = math.log(PASS_WIN)
_LOG_PASS_MELD = math.log(PASS_MELD)
_LOG_SLIP = math.log(SLIP)
_LOG_SOFT_STYLE, _LOG_GREEDY_STYLE = math.log(1 - GREEDY), math.log(GREEDY)
_DISCARD, _PASS, _CLAIM = 0, 1, 2


@dataclass(frozen=True)
class _Seen:
    """One public decision of a seat: made on the round `rounds[at]`, public once the event
    `known` was (a discard: itself; a live card: the event that followed the claims)."""

    at: int
    known: int
    what: int  # _DISCARD, _PASS or _CLAIM
    card: int  # the card discarded, or the live card
    live: Live | None = None
    exposed: int = 0  # the seat's exposed points then (a win's points count them)
    rival: Claim | None = None  # another seat's meld that took the card
    meld: Meld | None = None  # the seat's own meld of it (_CLAIM)


class History:
    """Every seat's public decisions and the cards that left its hand, for a record's rounds
    (`rounds[i]`: the round before event i). Built once per record."""

    def __init__(self, rounds: Sequence[Round], events: Sequence[Event]) -> None:
        first = rounds[0]
        self.ruleset = first.ruleset
        self.players = first.players
        self.copies = first.copies
        self.weights = discard_weights(*rank_rules(self.ruleset))
        self.redeal = self.ruleset.redeal
        n = first.players + 1
        self.left: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(n)]
        self.seen: list[list[_Seen]] = [[] for _ in range(n)]
        # Per `moves.melds_with` tuple (by identity: the ruleset's cache keeps it) and decision
        # (`_Seen.at`, the seat): the greedy bot's meld (`_greedy_pick`) and whether a meld
        # took effect (`_melds`), which depend on the hand only through those melds.
        self.picks: dict[tuple[int, int, int], tuple[Meld, ClaimRight] | None] = {}
        self.takes: dict[tuple[int, int, int], bool] = {}
        for i, event in enumerate(events):
            before, after = rounds[i].hands[event.seat], rounds[i + 1].hands[event.seat]
            gone = tuple(k for k in range(KINDS) for _ in range(before[k] - after[k]))
            if gone:
                self.left[event.seat].append((i, gone))
            state = rounds[i]
            if state.phase in (OPENING, MUST_DISCARD) and event.verb == "x":
                self.seen[event.seat].append(_Seen(i, i, _DISCARD, event.cards[0].index))
            elif state.phase == LIVE and state.live is not None:
                if i == 0 or events[i - 1].verb not in "ch":
                    self._live(rounds, events, i)

    def _live(self, rounds: Sequence[Round], events: Sequence[Event], i: int) -> None:
        """The seats' decisions on the live card of `rounds[i]`."""
        state = rounds[i]
        live = state.live
        assert live is not None
        j = i
        callers = set()
        while j < len(events) and events[j].verb in "ch":
            callers.add(events[j].seat)
            j += 1
        if j >= len(events):
            return  # the last discard of an exhausted round: nothing follows it
        follow = events[j]
        taken = follow.verb in "mw"
        if taken and follow.verb == "w":
            return  # the round ended: no later decision reads it
        rival = claim_of(state, follow) if taken else None
        for seat in range(1, self.players + 1):
            if seat in callers or not may_claim(live, seat):
                continue
            exposed = state.exposed_points(seat)
            card = live.card_index
            if taken and follow.seat == seat:
                meld = classify(follow.cards, self.ruleset)
                self.seen[seat].append(_Seen(i, j, _CLAIM, card, live, exposed, None, meld))
            else:
                self.seen[seat].append(_Seen(i, j, _PASS, card, live, exposed, rival))

    def plan(self, seat: int, before: int) -> list[tuple[int, ...] | _Seen]:
        """`seat`'s steps public before event `before`, latest first: the cards that left its
        hand at an event (a tuple of kinds), each after the decisions made before it."""
        steps: list[tuple[int, int, tuple[int, ...] | _Seen]] = [
            (i, 1, gone) for i, gone in self.left[seat] if i < before
        ]
        steps += [(s.at, 0, s) for s in self.seen[seat] if s.known < before]
        steps.sort(key=lambda x: (x[0], x[1]))
        return [item for _at, _kind, item in reversed(steps)]

    def styles(
        self, seat: int, hand: Sequence[int], plan: Sequence[tuple[int, ...] | _Seen],
        floor: float = -math.inf, greedy_only: bool = False,
    ) -> tuple[float, float] | None:
        """The log-probabilities of `seat`'s decisions in `plan` given that it holds `hand`
        (counts) at the end of it, under the softened model and under the greedy bot (`_mixed`
        weighs them by their prior probabilities). None once the likelihood is surely below
        `floor`: every decision adds a log-probability of at most 0, so a partial sum bounds
        the whole (the greedy style's alone when `greedy_only`; the mixture is at most the
        larger of the two)."""
        counts = list(hand)
        soft = greedy = 0.0
        blocks: list[bool | None] = [None, None, None]
        for item in plan:
            if isinstance(item, tuple):
                for k in item:
                    counts[k] += 1
                    blocks[BLOCK_OF[k]] = None  # the other blocks split as they did
            elif item.what == _DISCARD:
                # Not kept per hand: a hand's counts before a discard seldom recur (1 % in a
                # bga round), and the key would cost more than the sum.
                mine, ties = _discard_loglik(counts, item.card, self.weights)
                soft += mine
                greedy += -math.log(ties) if ties else _LOG_SLIP
            elif self._wins(counts, blocks, item):
                soft += _LOG_PASS_WIN
                greedy += _LOG_SLIP
            elif item.what == _PASS:
                if self._melds(seat, counts, item):
                    soft += _LOG_PASS_MELD
                    if self._greedy_claims(seat, counts, item):
                        greedy += _LOG_SLIP
            else:
                pick = self._greedy_pick(seat, counts, item)
                if pick is None or pick[0] != item.meld:
                    greedy += _LOG_SLIP
            if (greedy if greedy_only else max(soft, greedy)) < floor:
                return None
        if self.redeal and qualifies_for_redeal(counts, self.ruleset):
            greedy += _LOG_SLIP  # the greedy bot redeals when its dealt hand may
        return soft, greedy

    def _greedy_pick(
        self, seat: int, hand: list[int], seen: _Seen
    ) -> tuple[Meld, ClaimRight] | None:
        """The meld the greedy bot holding `hand` would claim of the live card (None: it lets
        the card go), as `generate._Table` asks it: the highest `Meld.greedy_rank` among those
        `hands.unforced` leaves it."""
        live = seen.live
        assert live is not None
        card = CARDS[seen.card]
        key = (id(melds_with(card, hand, self.ruleset)), seen.at, seat)
        # Only a meld that forces a finish (`hands.unforced`) asks more of the hand than its melds.
        kept = self.ruleset.threshold is None or keeps_others(hand)
        if kept and key in self.picks:
            return self.picks[key]
        options = meld_claims(self.ruleset, self.players, live, seat, hand)
        melds = [option[0] for option in options]
        choosable = unforced(options, melds, hand, seen.exposed, card, None,
                             self.ruleset, must_meld(live, seat))
        pick = max(choosable, key=lambda o: o[0].greedy_rank(self.ruleset)) if choosable else None
        if kept:
            self.picks[key] = pick
        return pick

    def _greedy_claims(self, seat: int, hand: list[int], seen: _Seen) -> bool:
        """Whether the greedy bot holding `hand` would have claimed the live card that `seat`
        let go, with a right that would have taken effect."""
        pick = self._greedy_pick(seat, hand, seen)
        if pick is None or seen.rival is None:
            return pick is not None  # with no rival claim, its claim takes effect
        live = seen.live
        assert live is not None
        mine = Claim(seat, pick[1], pick[0].kind)
        return resolve_claims([seen.rival, mine], live, self.players) is mine

    def _wins(self, hand: list[int], blocks: list[bool | None], seen: _Seen) -> bool:
        """Whether `hand` would have won with the live card (`blocks`: which rank blocks of
        the hand split, filled in as they are asked)."""
        if not splits_with(hand, seen.card, blocks, self.ruleset, self.copies):
            return False
        return best_completing_win(hand, CARDS[seen.card], self.ruleset, seen.exposed) is not None

    def _melds(self, seat: int, hand: list[int], seen: _Seen) -> bool:
        """Whether `hand` had a meld of the live card that would have taken effect."""
        live = seen.live
        assert live is not None
        if pong_or_gan_only(live, seat, self.players) and hand[seen.card] < 2:
            return False
        key = (id(melds_with(CARDS[seen.card], hand, self.ruleset)), seen.at, seat)
        if key not in self.takes:
            rival = seen.rival
            claims = (Claim(seat, right, meld.kind)
                      for meld, right in meld_claims(self.ruleset, self.players, live, seat, hand))
            self.takes[key] = any(rival is None or resolve_claims([rival, mine], live, self.players)
                                  is mine for mine in claims)
        return self.takes[key]


# The kinds a seat may discard (all but the generals) in index order, each with its rank and
# the first kind of its command or field (-1 for a soldier): `_discard_loglik`'s loop.
_DISCARDABLE = tuple(
    (i, i % 7, i - i % 7 + (0 if i % 7 < 3 else 3) if i % 7 < 6 else -1)
    for i in range(KINDS)
    if i % 7
)


def _weight_at(rank: int, n: int, held: int, same: int) -> int:
    """Where `discard_weights` keeps the weight of a kind of `rank` held `n` times, with `held`
    kinds of its command or field held (0 for a soldier) and `same` colours of its rank."""
    return ((rank * (MAX_COPIES + 1) + n) * 4 + held) * 5 + same


def discard_weights(groups: tuple[bool, ...], pairs: tuple[bool, ...]) -> list[float]:
    """exp(-SOFT * `hands.partners`'s value) for every kind a hand can hold, at `_weight_at`
    (the value worked out from the counts in the same operations, to the bit)."""
    weights = []
    for rank in range(7):
        pair = pairs[rank]
        for n in range(MAX_COPIES + 1):
            for held in range(4):
                for same in range(5):
                    score = (2.0 if pair else 0.5) * (n - 1)
                    if rank < 6:
                        score += float(held - 1)
                    if groups[rank] and (pair or n == 1):
                        score += 0.7 * (same - 1)
                    weights.append(math.exp(-SOFT * score))
    return weights


def _discard_loglik(hand: list[int], card: int, weights: list[float]) -> tuple[float, int]:
    """The log-probability of discarding `card` from `hand` under the softened greedy choice,
    each kind's weight looked up in `discard_weights` (this is the sampler's inner loop); and
    how many kinds tie for the greedy bot's discard when `card` is one of them (else 0)."""
    total = mine = top = 0.0
    ties = 0
    for i, rank, first in _DISCARDABLE:
        n = hand[i]
        if not n:
            continue
        held = 0
        if first >= 0:
            held = (hand[first] > 0) + (hand[first + 1] > 0) + (hand[first + 2] > 0)
        same = (
            (hand[rank] > 0) + (hand[rank + 7] > 0) + (hand[rank + 14] > 0) + (hand[rank + 21] > 0)
        )
        w = weights[_weight_at(rank, n, held, same)]
        total += w
        if w > top:
            top, ties = w, 1
        elif w == top:
            ties += 1
        if i == card:
            mine = w
    if mine <= 0:
        return -math.inf, 0
    return math.log(mine / total), (ties if mine == top else 0)


def _mixed(styles: tuple[float, float]) -> float:
    """The seat's log-likelihood, each style weighted by its prior probability."""
    soft, greedy = styles[0] + _LOG_SOFT_STYLE, styles[1] + _LOG_GREEDY_STYLE
    top = max(soft, greedy)
    return top + math.log(math.exp(soft - top) + math.exp(greedy - top))


class HandSampler:
    """Deals of the cards `seat` cannot see on `state` (the round before event `before` of
    `history`'s record), the other hands drawn from their posterior (module docstring); with
    `history` None, uniformly (every deal shuffled afresh); `sighted`: the other hands as they
    are on `state`, only the pile's order drawn (what seeing every hand would gain)."""

    def __init__(
        self,
        history: History | None,
        state: Round,
        before: int,
        seat: int,
        rng: random.Random,
        known: list[dict[tuple[int, ...], tuple[float, float]]] | None = None,
        start: HandSampler | None = None,
        sighted: bool = False,
    ) -> None:
        self.state = state
        self.seat = seat
        self.sighted = sighted
        self.rng = rng
        self.others = [s for s in range(1, state.players + 1) if s != seat]
        self.deck = [i for i, n in enumerate(state.unseen(seat)) for _ in range(n)]
        self.bins = self._shuffled() if start is None else [list(b) for b in start.found]
        self.found: list[list[int]] = []  # the state after the moves on the greedy style
        self.history = history
        self.plans = [history.plan(s, before) for s in self.others] if history else []
        # The moves: every pair of bins (another seat's hand, the rest) that both hold a card.
        sizes = [len(b) for b in self.bins]
        self.moves = [
            (a, b)
            for a in range(len(self.others))
            for b in range(a + 1, len(self.bins))
            if sizes[a] and sizes[b]
        ]
        if not any(self.plans):
            self.moves = []  # nothing public to infer from: uniform deals
        self.counts = [_counts(b) for b in self.bins[:-1]]
        # Each other seat's likelihood per hand seen: `known` shares it with another chain.
        self.known = [{} for _ in self.others] if known is None else known
        hidden = sum(sizes[:-1]) if self.moves else 0
        # Started on the greedy style alone, the chain finds the hands a greedy seat holds
        # (under both styles a random shuffle seldom leads there), then moves on both. `start`:
        # another chain whose state after its greedy moves this one starts from.
        for greedy in (True, False):
            self.greedy = greedy
            self.logl = [self._loglik(k, self.counts[k]) for k in range(len(self.others))]
            moves = BURN_IN if not greedy else GREEDY_START if start is None else 0
            for _ in range(moves * hidden):
                self._move()
            if greedy:
                self.found = [list(b) for b in self.bins]

    def _shuffled(self) -> list[list[int]]:
        """The unseen cards shuffled into the other hands (their sizes kept) and the rest."""
        deck = list(self.deck)
        self.rng.shuffle(deck)
        if self.sighted:  # the other hands first, then the rest in its shuffled order
            hands = [self.state.hands[o] for o in self.others]
            held = [i for hand in hands for i in range(KINDS) for _ in range(hand[i])]
            for i in held:
                deck.remove(i)
            deck = held + deck
        bins = []
        pos = 0
        for other in self.others:
            need = sum(self.state.hands[other])
            bins.append(deck[pos : pos + need])
            pos += need
        bins.append(deck[pos:])
        assert len(bins[-1]) == self.state.pile_left, "the unseen cards do not fill the hands"
        return bins

    def _loglik(self, k: int, counts: list[int], floor: float = -math.inf) -> float:
        """The log-likelihood of the other seat `k` holding `counts`; -inf, not worked out,
        once it is surely below `floor` (`History.styles`)."""
        if self.history is None or not self.plans[k]:
            return 0.0
        key = tuple(counts)
        styles = self.known[k].get(key)
        if styles is None:
            styles = self.history.styles(self.others[k], counts, self.plans[k], floor, self.greedy)
            if styles is None:
                return -math.inf
            self.known[k][key] = styles
        return styles[1] if self.greedy else _mixed(styles)

    def _move(self) -> None:
        """One Metropolis move: swap a card of one bin with a card of another. A move surely
        `_REFUSED` below the state's likelihood (each seat's is at most 1) is refused by the draw
        that would refuse it on the whole sums, worked out only in the e^-_REFUSED case left."""
        rng = self.rng
        a, b = self.moves[rng.randrange(len(self.moves))]
        first, second = self.bins[a], self.bins[b]
        x, y = rng.randrange(len(first)), rng.randrange(len(second))
        ca, cb = first[x], second[y]
        if ca == cb:
            return
        seat_b = b < len(self.others)
        old_a, old_b = self.logl[a], self.logl[b] if seat_b else 0.0
        counts_a = list(self.counts[a])
        counts_a[ca] -= 1
        counts_a[cb] += 1
        counts_b = counts_a  # only read when `seat_b`
        if seat_b:
            counts_b = list(self.counts[b])
            counts_b[cb] -= 1
            counts_b[ca] += 1
        floor = old_a + old_b - _REFUSED - _ROUNDING
        new_a = self._loglik(a, counts_a, floor)
        new_b = draw = 0.0
        refused = new_a < floor
        if seat_b and not refused:
            floor = old_b - _REFUSED - _ROUNDING - (new_a - old_a)
            new_b = self._loglik(b, counts_b, floor)
            refused = new_b < floor
        if refused:
            draw = rng.random()
            if draw >= math.exp(-_REFUSED):
                return
            new_a = self._loglik(a, counts_a)
            new_b = self._loglik(b, counts_b) if seat_b else 0.0
        delta = new_a - old_a
        if seat_b:
            delta += new_b - old_b
        if delta < 0 and (draw if refused else rng.random()) >= math.exp(delta):
            return
        first[x], second[y] = cb, ca
        self.counts[a], self.logl[a] = counts_a, new_a
        if seat_b:
            self.counts[b], self.logl[b] = counts_b, new_b

    def hands(self) -> list[list[int]]:
        """The next draw of the other seats' hands (counts, in seat order but the seat's), and
        of the rest (kinds, the pile's cards in no order): `THIN` moves on, or a fresh
        shuffle when there is nothing to infer."""
        if self.moves:
            for _ in range(THIN):
                self._move()
        else:
            self.bins = self._shuffled()
            self.counts = [_counts(b) for b in self.bins[:-1]]
        return [*(list(c) for c in self.counts), list(self.bins[-1])]

    def world(self) -> Round:
        """A copy of the round with the next draw dealt: the other hands, and the rest as the
        pile in a random order."""
        *hands, rest = self.hands()
        self.rng.shuffle(rest)
        state = self.state
        world = state.copy()
        for other, hand in zip(self.others, hands, strict=True):
            world.hands[other] = hand
            world.locked[other] = [0] * KINDS  # another seat's dealt sets are not public
        pile = [CARDS[i] for i in rest]
        # Draws check the pile's next card and the copies dealt or drawn: both from this deal.
        world.pile = [CARDS[0]] * state.drawn + pile
        seen = [state.copies] * KINDS
        for card in pile:
            seen[card.index] -= 1
        world.seen = seen
        world.lucky_tag = None  # the lucky card comes from this pile
        return world


def _counts(kinds: Sequence[int]) -> list[int]:
    counts = [0] * KINDS
    for k in kinds:
        counts[k] += 1
    return counts
