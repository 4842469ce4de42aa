"""Fast greedy playouts for the reviewer (fourcolor/analysis.py).

`greedy_playout(round, rng)` plays a round to its end exactly as the `greedy` bot of
fourcolor/bots.py does at every seat (the same choices, random numbers and settlement: a test
plays both on thousands of deals), but on the hands' counts alone: no events are built, no rule
is checked again. The reviewer plays tens of thousands of rounds per record: its hot path.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import CARDS, KINDS, Card
from .claims import (
    Claim,
    ClaimRefused,
    ClaimRight,
    Live,
    claim_right,
    discard_live,
    draw_live,
    must_meld,
    next_seat,
    resolve_claims,
    seat_limits,
)
from .hands import (
    DISCARDABLE,
    forces_finish_below_threshold,
    partners,
    rank_rules,
    ready,
    ready_discards,
    stays_ready,
)
from .round import ENDED, LIVE, MUST_DISCARD, Round
from .scoring import lucky_bonus, next_lucky_card, settle, split_hidden
from .moves import best_completing_win, locked_ok, melds_with, rest_after, unlock
from .melds import Meld
from .split import BLOCK_OF, OTHER_BLOCKS, splits_with

_UNKNOWN = object()
_WIN = ClaimRight.WIN
_ALL_PAIRS = (True,) * 7


class _Table:
    """The round's state as counts, and the greedy bot's play on it."""

    def __init__(
        self, state: Round, rng: random.Random, careful: frozenset[int], patient: frozenset[int]
    ) -> None:
        rs = state.ruleset
        # Seats that play as the patient bot: a ready hand kept ready (`ready_discards`,
        # `stays_ready`).
        self.patient = patient
        self.copies = state.copies
        # Seats that never make a plain meld ending the round by a forced finish under the
        # threshold when they have another choice (`_forces_below`): the greedy bot's rule;
        # only rulesets with a threshold have one.
        self.careful = careful if rs.threshold is not None else frozenset()
        # The same seats value ranks whose pairs are no melds as the greedy bot does
        # (`partners`), whatever the threshold.
        self.careful_discards = careful
        self.rs = rs
        self.players = state.players
        self.rng = rng
        self.hands = [list(h) for h in state.hands]
        self.exposed = [0] + [state.exposed_points(s) for s in range(1, state.players + 1)]
        self.shown = [[0] * KINDS for _ in range(state.players + 1)]
        for s in range(1, state.players + 1):
            for meld in state.displays[s]:
                for card in meld.cards:
                    self.shown[s][card.index] += 1
        assert state.pile is not None, "a playout needs the pile's order"
        self.pile = state.pile
        self.drawn = state.drawn
        self.pile_left = state.pile_left
        self.live = state.live
        self.phase = state.phase
        self.actor = state.actor
        self.opening = state.opening_discard
        self.locked = [list(x) for x in state.locked] if rs.dealt_sets_locked else None
        # Per seat: whether each rank block of its hand splits (None: not known yet).
        self.blocks: list[list[bool | None] | None] = [None] * (state.players + 1)
        self.groups, self.pairs = rank_rules(rs)

    # -------------------------------------------------------------- the greedy bot's choices

    def _discard(self, seat: int) -> None:
        hand = self.hands[seat]
        locked = self.locked[seat] if self.locked is not None else None
        rand = self.rng.random
        groups = self.groups
        # A reckless seat values every rank as if its pairs were melds (`partners`).
        pairs = self.pairs if seat in self.careful_discards else _ALL_PAIRS
        keep: tuple[int, ...] | None = None
        if seat in self.patient:
            keep = ready_discards(hand, self.exposed[seat], self.rs, self.copies, locked) or None
        best = -1
        best_score = best_tie = 0.0
        for i in DISCARDABLE:
            if hand[i] > (locked[i] if locked is not None else 0):
                # The lowest value, ties broken by a random number drawn for every card (a
                # patient seat's too, whether or not the card keeps its hand ready).
                tie = rand()
                if keep is not None and i not in keep:
                    continue
                score = partners(i, hand, groups[i % 7], pairs[i % 7])
                if best < 0 or score < best_score or (score == best_score and tie < best_tie):
                    best, best_score, best_tie = i, score, tie
        hand[best] -= 1
        self._changed(seat, best)
        self.live = discard_live(best, seat)
        self.phase = LIVE

    def _changed(self, seat: int, kind: int) -> None:
        """Forget whether the rank block of `kind` of `seat`'s hand splits: its count changed."""
        known = self.blocks[seat]
        if known is not None:
            known[BLOCK_OF[kind]] = None

    def _win_points(self, seat: int, card: Card) -> int | None:
        """The best win `seat` could make with the live card (None: none, or under T)."""
        hand = self.hands[seat]
        known = self.blocks[seat]
        if known is None:
            known = self.blocks[seat] = [None, None, None]
        if not splits_with(hand, card.index, known, self.rs, 4):
            return None
        locked = self.locked[seat] if self.locked is not None else None
        win = best_completing_win(hand, card, self.rs, self.exposed[seat], locked)
        return None if win is None else win.points

    def _meld_choice(
        self, seat: int, live: Live, card: Card, only_pong_or_gan: bool
    ) -> tuple[Meld, ClaimRight] | None:
        """The meld the greedy bot claims (`_best_meld`), with its right; None when it has
        none. `only_pong_or_gan`: `pong_or_gan_only` of the seat and the live card."""
        hand = self.hands[seat]
        if only_pong_or_gan and hand[live.card_index] < 2:
            return None
        # Without locked sets the choice depends only on the melds the card makes with the
        # hand and on the seat's relation to the live card (its own draw, the seat after the
        # discarder, any other): remembered on the ruleset (`RulesetCaches.bot_choices`) by
        # that key. `melds_with`'s tuple is kept in the same ruleset's caches per hand shape,
        # so its identity stands for it for as long as both tables live.
        rs = self.rs
        melds = melds_with(card, hand, rs)
        relation = 0 if seat == live.owner else (2 if only_pong_or_gan else 1)
        key = (id(melds), relation)
        cache = rs.caches.bot_choices if self.locked is None else None
        if cache is not None:
            known = cache.get(key, _UNKNOWN)
            if known is not _UNKNOWN:
                return known  # type: ignore[return-value]
        best = self._best_meld(seat, live, card, melds, careful=False)
        if cache is not None:
            cache[key] = best
        return best

    def _best_meld(
        self, seat: int, live: Live, card: Card, melds: Iterable[Meld], *, careful: bool
    ) -> tuple[Meld, ClaimRight] | None:
        """The greedy bot's choice among `melds` (the most exposed points, then the most cards,
        then the lowest first card) with its right; `careful`: none that forces a finish under
        the threshold (`_forces_below`)."""
        hand = self.hands[seat]
        locked = self.locked[seat] if self.locked is not None else None
        rs = self.rs
        best: tuple[Meld, ClaimRight] | None = None
        best_key = (0, 0, 0)
        for meld in melds:
            if not locked_ok(meld, card, locked, hand):
                continue
            if careful and self._forces_below(seat, meld, card):
                continue
            try:
                right = claim_right(rs, self.players, live, seat, meld.kind, card.rank, win=False)
            except ClaimRefused:
                continue
            rank_key = meld.greedy_rank(rs)
            if best is None or rank_key > best_key:
                best, best_key = (meld, right), rank_key
        return best

    def _forces_below(self, seat: int, meld: Meld, card: Card) -> bool:
        locked = self.locked[seat] if self.locked is not None else None
        return forces_finish_below_threshold(
            self.hands[seat], self.exposed[seat], meld, card, locked, self.rs
        )

    def _careful_choice(
        self, seat: int, live: Live, card: Card, choice: tuple[Meld, ClaimRight] | None
    ) -> tuple[Meld, ClaimRight] | None:
        """A careful seat's meld: the greedy one unless it forces a finish under the threshold,
        then the greedy best of the melds that do not (None: it lets the card go)."""
        if choice is None or not self._forces_below(seat, choice[0], card):
            return choice
        melds = melds_with(card, self.hands[seat], self.rs)
        best = self._best_meld(seat, live, card, melds, careful=True)
        return choice if best is None and must_meld(live, seat) else best

    def _waits(self, seat: int, live: Live, meld: Meld) -> bool:
        """Whether a patient seat lets the live card go rather than claim `meld`: its hand is
        ready and would not be after the meld (a drawn general is melded all the same)."""
        if must_meld(live, seat):
            return False
        hand, exposed = self.hands[seat], self.exposed[seat]
        locked = self.locked[seat] if self.locked is not None else None
        known = self.blocks[seat]
        if known is None:
            known = self.blocks[seat] = [None, None, None]
        if not ready(hand, exposed, self.rs, self.copies, locked, known):
            return False
        card = CARDS[live.card_index]
        return not stays_ready(hand, exposed, meld, card, self.rs, self.copies, locked)

    # -------------------------------------------------------------- the rules, on counts

    def _finish(self, seat: int, points: int, lucky_counts: Sequence[int]) -> dict[int, int]:
        """The settlement of a win or forced finish; `lucky_counts`: the finisher's 21 cards
        by kind, for a bga lucky card."""
        lucky = next_lucky_card(self.pile_left, self.pile, self.drawn, self.opening)
        bonus = lucky_bonus(self.rs, points, lucky, lucky_counts)
        return settle(self.rs, self.players, seat, points, bonus)

    def _claims(self, declining: int | None) -> dict[int, int] | None:
        """Everyone's call on the live card, the one that takes effect applied; the settlement
        when the round ends."""
        live = self.live
        assert live is not None
        index = live.card_index
        card = CARDS[index]
        calls: list[tuple[Claim, Meld | None, int]] = []
        first, second = OTHER_BLOCKS[index]
        limits = seat_limits(live, self.players, self.rs)  # once per live card, not per seat
        hands, blocks = self.hands, self.blocks
        for seat in range(1, self.players + 1):
            allowed, only_pong_or_gan = limits[seat]
            if seat == declining or not allowed:
                continue
            # The cheap refusals first: most seats can neither win with the card (another
            # rank block of the hand is known not to split) nor meld it (fewer than two
            # copies, and neither its drawer nor the seat after its discarder).
            known = blocks[seat]
            may_win = known is None or (known[first] is not False and known[second] is not False)
            if not may_win and hands[seat][index] < 2 and only_pong_or_gan:
                continue
            points = self._win_points(seat, card) if may_win else None
            if points is not None:
                calls.append((Claim(seat, _WIN), None, points))
                continue
            choice = self._meld_choice(seat, live, card, only_pong_or_gan)
            if seat in self.careful:
                choice = self._careful_choice(seat, live, card, choice)
            if choice is not None and seat in self.patient and self._waits(seat, live, choice[0]):
                choice = None
            if choice is not None:
                calls.append((Claim(seat, choice[1], choice[0].kind), choice[0], 0))
        if not calls and declining is not None and must_meld(live, declining):
            return self._claims(None)
        if not calls:
            return self._no_claim()
        if len(calls) == 1:
            claim, meld, points = calls[0]
        else:
            chosen = resolve_claims([c[0] for c in calls], live, self.players)
            claim, meld, points = next(c for c in calls if c[0] is chosen)
        return self._take_call(claim.seat, meld, card, points)

    def _take_call(self, seat: int, meld: Meld | None, card: Card,
                   points: int) -> dict[int, int] | None:
        """The call that took effect applied: a win settled, or a meld shown (and a forced
        finish settled when nothing is left to discard); the settlement when the round ends."""
        hand = self.hands[seat]
        if meld is None:  # a win: the finisher's 21 cards are its hand, display and the card
            counts = [hand[i] + self.shown[seat][i] for i in range(KINDS)]
            counts[card.index] += 1
            return self._finish(seat, points, counts)
        hand = self.hands[seat] = rest_after(hand, meld, card)
        for c in meld.cards:
            self.shown[seat][c.index] += 1
            self._changed(seat, c.index)
        if self.locked is not None:
            locked = self.locked[seat]
            if any(locked[c.index] for c in meld.cards):
                unlock(locked, hand, meld)
        self.exposed[seat] += meld.points(self.rs, exposed=True)
        self.live = None
        locked_now = self.locked[seat] if self.locked is not None else None
        if not any(
            hand[i] > (locked_now[i] if locked_now is not None else 0) and i % 7
            for i in range(KINDS)
        ):
            # Nothing to discard: a forced finish, scored like a win.
            split = split_hidden(hand, locked_now or [0] * KINDS, self.rs)
            assert split is not None
            counts = [hand[i] + self.shown[seat][i] for i in range(KINDS)]
            return self._finish(seat, self.exposed[seat] + split[0], counts)
        self.phase = MUST_DISCARD
        self.actor = seat
        return None

    def _no_claim(self) -> dict[int, int] | None:
        live = self.live
        assert live is not None
        if live.source == "draw":
            self.live = discard_live(live.card_index, live.owner)  # the drawer's discard
            return None
        if self.pile_left == 0:
            return {s: 0 for s in range(1, self.players + 1)}  # exhausted
        card = self.pile[self.drawn]
        self.drawn += 1
        self.pile_left -= 1
        self.live = draw_live(card.index, next_seat(live.owner, self.players))
        return None

    def play(self, declining: int | None) -> dict[int, int]:
        for _ in range(2000):
            if self.phase == MUST_DISCARD:
                self._discard(self.actor)
                declining = None
                continue
            if self.phase != LIVE:
                raise ValueError(f"a playout starts on a live card or a discard, not {self.phase}")
            done = self._claims(declining)
            declining = None
            if done is not None:
                return done
        raise RuntimeError("a playout did not finish")


def greedy_playout(
    state: Round,
    rng: random.Random,
    *,
    declining: int | None = None,
    reckless: Iterable[int] = (),
    patient: Iterable[int] = (),
) -> dict[int, int]:
    """The settlement of `state` played to its end by the greedy bot at every seat, drawing its
    random numbers from `rng` (a round that has ended: its own). `declining`: a seat that lets
    the current live card go. `reckless`: seats that play as `GreedyBot(careful=False)`, the
    greedy bot before its two bga rules (forced finishes under a threshold, soldier discards),
    for comparisons (bench/analysis.py). `patient`: seats that play as the `patient` bot
    (`GreedyBot(patient=True)`). The round is not changed."""
    if state.phase == ENDED:
        return state.end_of_record().settlement
    careful = frozenset(range(1, state.players + 1)) - frozenset(reckless)
    return _Table(state, rng, careful, frozenset(patient)).play(declining)
