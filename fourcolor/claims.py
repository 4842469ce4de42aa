"""Claim rights and the priority resolver (RULES.md §6).

Who may meld the live card, and with which melds, follows from the claimant, the live card's
owner and source (a discard or a draw) and the meld. `claim_right` names the right or says why
there is none; `resolve_claims` picks the claim that takes effect among several on one card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from .cards import KINDS
from .messages import render
from .rulesets import Ruleset


class ClaimRight(Enum):
    """The right a claim uses, in priority order (higher value wins)."""

    CHI = 1  # the seat after the discarder, on a discard
    OWN_DRAW = 2  # the drawer, on its own draw (any meld); same priority class as chi
    PONG = 3  # a hidden pair + the live card, any seat but the owner
    GAN = 4  # a hidden triple + the live card, any seat but the owner
    WIN = 5

    @property
    def priority(self) -> int:
        """win 3 > pong/gan 2 > chi and own-draw melds 1."""
        return {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}[self.value]

    @property
    def label(self) -> str:
        return {1: "chi", 2: "own draw", 3: "pong", 4: "gan", 5: "win"}[self.value]


class Live(NamedTuple):
    """The live card: what was just discarded or drawn, by whom."""

    card_index: int
    owner: int  # seat, 1-based
    source: str  # "discard" or "draw"


class ClaimRefused(Exception):
    """Why a claim has no right: an error code and its parameters (fourcolor/messages.py),
    which the validator raises as an `IllegalMoveError`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return render(self.code, self.params)


# Every live card a discard or a draw can make, [seat][card index], for the seats a record can
# name (one digit; a round built by hand with more seats makes its live cards as they come):
# a round makes one per discard and draw, the reviewer's playouts millions.
_DISCARD_LIVES = [[Live(i, seat, "discard") for i in range(KINDS)] for seat in range(10)]
_DRAW_LIVES = [[Live(i, seat, "draw") for i in range(KINDS)] for seat in range(10)]


def discard_live(index: int, seat: int) -> Live:
    """The live card of `seat`'s discard of kind `index`."""
    return _DISCARD_LIVES[seat][index] if seat < 10 else Live(index, seat, "discard")


def draw_live(index: int, seat: int) -> Live:
    """The live card of `seat`'s draw of kind `index`."""
    return _DRAW_LIVES[seat][index] if seat < 10 else Live(index, seat, "draw")


def next_seat(seat: int, players: int) -> int:
    return seat % players + 1


def may_claim(live: Live, seat: int) -> bool:
    """Whether `seat` may claim the live card at all: any seat but its discarder (nobody
    claims its own discard, §6; a drawer may meld or win on its own draw)."""
    return seat != live.owner or live.source != "discard"


def must_meld(live: Live, seat: int) -> bool:
    """Whether `seat` must meld the live card: a general it drew, which it may neither discard
    nor let go."""
    return live.source == "draw" and live.owner == seat and live.card_index % 7 == 0


def pong_or_gan_only(live: Live, seat: int, players: int) -> bool:
    """Whether `seat` may meld the live card only as a pong or a gan (with a hidden pair or
    triple of it), wins aside: any seat but its drawer and, on a discard, the next seat (who
    may chi it, §6)."""
    return seat != live.owner and (live.source == "draw" or seat != next_seat(live.owner, players))


def seat_limits(live: Live, players: int, rs: Ruleset) -> tuple[tuple[bool, bool], ...]:
    """`may_claim` and `pong_or_gan_only` of every seat (indexed by seat; 0 unused) for one live
    card: what a loop over the seats asks of each card once (kept in `rs.caches`)."""
    key = (live.owner, live.source, players)
    cache = rs.caches.seat_limits
    limits = cache.get(key)
    if limits is None:
        limits = cache[key] = ((False, False),) + tuple(
            (may_claim(live, seat), pong_or_gan_only(live, seat, players))
            for seat in range(1, players + 1)
        )
    return limits


# The members as plain names: reading `ClaimRight.X` goes through the enum's class-level
# lookup (about 50 ns on 3.11), and the validator asks for a right on every meld.
_CHI, _OWN_DRAW, _PONG, _GAN, _WIN = ClaimRight


def claim_right(
    ruleset: Ruleset,
    players: int,
    live: Live,
    claimant: int,
    kind: str,
    live_rank: str,
    *,
    win: bool,
) -> ClaimRight:
    """The right under which `claimant` makes a meld of `kind` with the live card, or
    `ClaimRefused` saying why it may not. The meld is assumed well-formed and held."""
    owner, source = live.owner, live.source
    if not may_claim(live, claimant):
        if win:
            raise ClaimRefused("claim.own_discard", seat=claimant)
        raise ClaimRefused("claim.no_right", seat=claimant, meld=kind, where="own_discard")
    if win:
        return _WIN
    if claimant == owner:
        return _OWN_DRAW  # a meld on one's own draw
    if kind == "triple" or kind == "quad":
        if live_rank == "K" and (kind == "triple" or ruleset.steal_generals == "never"):
            never = ruleset.steal_generals == "never"
            raise ClaimRefused(
                "claim.general_for_win" if never else "claim.general_for_gan",
                seat=claimant, meld=kind, where=source,
            )
        return _PONG if kind == "triple" else _GAN
    if (
        not pong_or_gan_only(live, claimant, players)
        and kind in ruleset.chi_melds
        and live_rank != "K"
    ):
        return _CHI
    # Another seat's live card: `where` is its source (fourcolor/messages.py's `WORDS`).
    raise ClaimRefused("claim.no_right", seat=claimant, meld=kind, where=source)


# Whose card a claim takes, named for what happened at the table: the claimant's own draw,
# another seat's draw, or a discard (always another seat's: nobody claims its own discard).
SELF_DRAW, DRAW, DISCARD = "self_draw", "draw", "discard"
TAKEN_FROM: tuple[str, ...] = (SELF_DRAW, DRAW, DISCARD)
# The claim as players say it: a meld on one's own draw is a chi, like the next seat's meld
# on a discard (both have the lowest priority).
CLAIM_KINDS = {
    ClaimRight.WIN: "win",
    ClaimRight.PONG: "pong",
    ClaimRight.GAN: "gan",
    ClaimRight.CHI: "chi",
    ClaimRight.OWN_DRAW: "chi",
}


def taken_from(live: Live, claimant: int) -> str:
    """`self_draw`, `draw` or `discard`: whose card `claimant` takes when it claims `live`."""
    if live.source == "discard":
        return DISCARD
    return SELF_DRAW if live.owner == claimant else DRAW


def skipped_seats(owner: int, source: str, claimant: int, players: int) -> list[int]:
    """Seats that lose their turn when `claimant` takes the live card: those between the seat
    that would have moved next (after the discarder; after the drawer for a draw) and the
    claimant, in turn order."""
    if claimant == owner:
        return []  # the drawer melding or winning on its own draw skips nobody
    start = next_seat(owner, players)
    out = []
    s = start
    while s != claimant and s != owner:
        out.append(s)
        s = next_seat(s, players)
    return out if s == claimant else []


@dataclass(frozen=True, slots=True)
class Claim:
    seat: int
    right: ClaimRight
    # The meld's kind, where it matters: the drawer's own triple or quad of its draw ranks
    # with pong and gan (§6), a tie that five or more copies make possible.
    kind: str = ""

    @property
    def priority(self) -> int:
        if self.right is _OWN_DRAW and (self.kind == "triple" or self.kind == "quad"):
            return _PONG.priority
        return self.right.priority

    def __reduce__(self) -> tuple[type[Claim], tuple[int, ClaimRight, str]]:
        return (Claim, (self.seat, self.right, self.kind))  # as `Meld.__reduce__`


def claim_order(live: Live, players: int) -> list[int]:
    """Seats in the order that breaks ties: from the drawer for a draw, from the seat after
    the discarder for a discard."""
    start = live.owner if live.source == "draw" else next_seat(live.owner, players)
    return [(start - 1 + k) % players + 1 for k in range(players)]


def resolve_claims(claims: Sequence[Claim], live: Live, players: int) -> Claim:
    """The claim that takes effect: win > pong/gan (and the drawer's own triple or quad of its
    draw) > chi; ties in turn order (§6), among pongs and gans too (five or more copies)."""
    if not claims:
        raise ValueError("no claims to resolve")
    order = claim_order(live, players)
    return min(claims, key=lambda c: (-c.priority, order.index(c.seat)))
