"""Build small FCN records for engine tests from short strings.

A test names only the cards that matter (`hands={2: "rR rH"}`); `deal` pads every hand to its
size (21 for the dealer, 20 for the others) from the rest of the deck, leaving out the cards the
test reserves for draws. Padding prefers kinds the test does not mention and never adds a
general unless the deck runs out of other cards, so padding cannot make a hand fail a redeal,
hold a general or end a round by itself.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from fourcolor.cards import CARDS, COPIES, Card, counts_of, parse_card
from fourcolor.errors import FcnError
from fourcolor.deal import pile_size
from fourcolor.game import Game, validate
from fourcolor.round import Round
from fourcolor.notation import Record, parse_record
from fourcolor.rulesets import Ruleset


def _pad_order(mentioned: set[int]) -> list[Card]:
    """Padding takes first copies of the non-general kinds no test card mentions, then second
    copies, and so on; then the mentioned kinds; generals only when nothing else is left. So a
    padded hand rarely adds a copy to the cards a test is about."""
    plain = [c for c in CARDS if c.rank != "K"]
    fresh = [c for c in plain if c.index not in mentioned]
    used = [c for c in plain if c.index in mentioned]
    generals = [c for c in CARDS if c.rank == "K"]
    return [c for group in (fresh, used, generals) for _ in range(COPIES) for c in group]


def cards(text: str) -> list[Card]:
    """`"rK yA"` -> the cards."""
    return [parse_card(t) for t in text.split()]


def counts(text: str) -> list[int]:
    return counts_of(cards(text))


def tokens(cs: Iterable[Card]) -> list[str]:
    return [c.token for c in cs]


def deal(
    hands: Mapping[int, str],
    *,
    players: int = 2,
    dealer: int = 1,
    reserve: str = "",
    pad: bool = True,
) -> dict[int, list[Card]]:
    """Each seat's dealt cards: the given ones, padded to 21/20 from the cards nobody was given
    and the test did not reserve (for draws or the Pile)."""
    given = {s: cards(hands.get(s, "")) for s in range(1, players + 1)}
    left = [COPIES] * len(CARDS)
    for cs in [*given.values(), cards(reserve)]:
        for c in cs:
            left[c.index] -= 1
            if left[c.index] < 0:
                raise ValueError(f"test bug: more than {COPIES} copies of {c} given or reserved")
    mentioned = {c.index for cs in [*given.values(), cards(reserve)] for c in cs}
    order = _pad_order(mentioned)
    out: dict[int, list[Card]] = {}
    for s in range(1, players + 1):
        want = 21 if s == dealer else 20
        hand = list(given[s])
        if len(hand) > want:
            raise ValueError(f"test bug: seat {s} is given {len(hand)} cards")
        if pad:
            for c in order:
                if len(hand) == want:
                    break
                if left[c.index] > 0:
                    left[c.index] -= 1
                    hand.append(c)
        out[s] = hand
    return out


def full_pile(dealt: Mapping[int, list[Card]], first: str, players: int) -> list[Card]:
    """A Pile tag's cards: `first` in that order, then every other undealt card (canonical)."""
    left = [COPIES] * len(CARDS)
    for cs in dealt.values():
        for c in cs:
            left[c.index] -= 1
    pile = cards(first)
    for c in pile:
        left[c.index] -= 1
        if left[c.index] < 0:
            raise ValueError(f"test bug: the pile's first cards hold a fifth {c}")
    pile += [CARDS[i] for i, n in enumerate(left) for _ in range(n)]
    assert len(pile) == pile_size(players)
    return pile


def fcn(
    hands: Mapping[int, str],
    events: str = "",
    *,
    ruleset: str = "classic",
    players: int = 2,
    dealer: int = 1,
    pile: str | None = None,
    lucky: str | None = None,
    result: str | None = None,
    reserve: str = "",
    pad: bool = True,
    tags: Mapping[str, str] | None = None,
) -> str:
    """The FCN text of a record. `pile` gives the Pile tag's first cards (the rest follows in
    canonical order); None writes no Pile tag."""
    dealt = deal(
        hands,
        players=players,
        dealer=dealer,
        reserve=reserve + " " + (pile or ""),
        pad=pad,
    )
    lines = [f'[Ruleset "{ruleset}"]']
    lines += [f'[Seat{s} "P{s}"]' for s in range(1, players + 1)]
    lines.append(f'[Dealer "{dealer}"]')
    if result is not None:
        lines.append(f'[Result "{result}"]')
    if pile is not None:
        lines.append(f'[Pile "{" ".join(tokens(full_pile(dealt, pile, players)))}"]')
    if lucky is not None:
        lines.append(f'[Lucky "{lucky}"]')
    for name, value in (tags or {}).items():
        lines.append(f'[{name} "{value}"]')
    lines.append("")
    lines += [f"{s}: " + " ".join(tokens(dealt[s])) for s in range(1, players + 1)]
    lines += ["", events]
    return "\n".join(lines) + "\n"


@dataclass
class Outcome:
    """A record and the engine's verdict on it: `game` when valid, `error` when not."""

    record: Record
    game: Game | None
    error: FcnError | None

    @property
    def fault(self) -> tuple[str, int] | None:
        return None if self.error is None else (self.error.category, self.error.ply)


def run(
    hands: Mapping[int, str],
    events: str = "",
    *,
    rules: Ruleset | None = None,
    **kw: object,
) -> Outcome:
    """Parse and validate a record built by `fcn`. `rules` replaces the named ruleset (for
    `with_switches` and house rulesets); the Ruleset tag then says its name."""
    if rules is not None:
        kw.setdefault("ruleset", rules.name)
    text = fcn(hands, events, **kw)  # type: ignore[arg-type]
    record = parse_record(text)
    try:
        game = validate(record, rules)
    except FcnError as err:
        return Outcome(record, None, err)
    return Outcome(record, game, None)


def play(hands: Mapping[int, str], events: str = "", **kw: object) -> Game:
    """`run` for a record that must be valid."""
    out = run(hands, events, **kw)  # type: ignore[arg-type]
    assert out.error is None, str(out.error)
    assert out.game is not None
    return out.game


def fault(hands: Mapping[int, str], events: str = "", **kw: object) -> tuple[str, int] | None:
    """(category, ply) of the record's first fault, None when it is valid."""
    return run(hands, events, **kw).fault  # type: ignore[arg-type]


def accounted(r: Round) -> int:
    """Every card of a Round: hands, displays, discards, a drawn live card, the pile."""
    seats = range(1, r.players + 1)
    held = sum(sum(r.hands[s]) for s in seats)
    shown = sum(len(m.cards) for s in seats for m in r.displays[s])
    drawn_live = 1 if r.live is not None and r.live.source == "draw" else 0
    return held + shown + len(r.discards) + drawn_live + r.pile_left


# ---------------------------------------------------------------------------------------------
# Shared hands (2 players, seat 1 deals).

# Seat 2 waits on rC (field rR rH rC) with triples and fields hidden:
#   classic and bga: exposed field 1; hidden triples rA yA gE wE 3*4 = 12, fields yRHC gRHC 2.
WIN_HAND = "rR rH rA rA rA yA yA yA gE gE gE wE wE wE yR yH yC gR gH gC"

# Seat 2 sheds 16 cards by chi (5 fields) and discards, then melds its last yE as a pair, which
# leaves four generals: it cannot discard. exposed: 5 fields 5 + pair 0; hidden: four generals 4.
FORCED_HAND = "rK yK gK wK rR rR rH rH yR yH gR gH wR wH rA yA gA wA rE yE"
FORCED_EVENTS = (
    "1x rC 2m rC rH rR 2x rA 1d yC 1x yC 2m yC yH yR 2x yA 1d gC 1x gC 2m gC gH gR 2x gA "
    "1d wC 1x wC 2m wC wH wR 2x wA 1d rC 1x rC 2m rC rH rR 2x rE 1d yE 1x yE 2m yE yE"
)
FORCED_RESERVE = "yC gC wC rC yE"

# 16 generals + a field wait and a pair wait: exposed field 1 + pair 0; hidden 16 generals:
#   classic four quads 8 * 4 = 32 (P 33); bga four quads of generals 6 * 4 = 24 (P 25).
GENERALS_HAND = "rK rK rK rK yK yK yK yK gK gK gK gK wK wK wK wK rR rH yR yH"
GENERALS_EVENTS = "1x rC 2m rC rH rR 2x yH 1d yR 1x yR 2m yR yR"


# Seats 2 and 4 both wait on wC (a field with wR wH; the rest six triples): 1 + 18 = 19.
# Seat 3 holds wC wC for a pong, seat 1 discards the third wC.
WAITS = {
    1: "wC rP",
    2: "wR wH rR rR rR rH rH rH rC rC rC yR yR yR yH yH yH yC yC yC",
    3: "wC wC",
    4: "wR wH gR gR gR gH gH gH gC gC gC rA rA rA yA yA yA gA gA gA",
}


# ---------------------------------------------------------------------------------------------
# A shared 4-player classic round with every claim right (used by the claims, facts and replay
# tests). Seat 1 deals and finally wins on seat 3's discard of wC with a field, for
#   exposed: field wR wH wC 1
#   hidden:  commands rK rA rE, yK yA yE 1 + 1, field gR gH gC 1, triples gE gE gE, yP yP yP,
#            rC rC rC 3 + 3 + 3 = 12        P = 13; each other seat pays 13.
ALL_RIGHTS_HANDS = {
    1: "rP rK rA rE yK yA yE gR gH gC gE gE gE yP yP yP rC rC rC wR wH",
    # After its gan and discard, seat 2 holds rR x4 and triples rH gP wA wP: it could have won
    # on seat 3's drawn yK (a lone general, as a win) for 6 + 1 + 8 + 12 = 27, a missed win.
    2: "wE wE wE gR rR rR rR rR rH rH rH gP gP gP wA wA wA wP wP wP",
    3: "rP rP yC wC rH gP wA wP rA rE rC rP yA yE yR yH yC yP gA gE",
    4: "yR yH gA rA rE yA yE yR yH yC gA gR gH gC wR wH wC rA rE yA",
}
ALL_RIGHTS_EVENTS = (
    "1x rP "  # 1  the dealer opens
    "3m rP rP rP "  # 2  seat 3 pongs, skipping seat 2
    "3x yC "  # 3
    "4m yC yR yH "  # 4  seat 4 (next after 3) chis a field
    "4x gA "  # 5
    "1d wE "  # 6  seat 1 draws ...
    "2m wE wE wE wE "  # 7  ... and seat 2 gans it
    "2x gR "  # 8
    "3d yK "  # 9  seat 3 draws a general ...
    "3m yK "  # 10 ... and melds it alone (own draw)
    "3x wC "  # 11
    "1w wC wH wR"  # 12 seat 1 wins on the discard, skipping seat 4
)


def all_rights_game() -> Game:
    return play(
        ALL_RIGHTS_HANDS,
        ALL_RIGHTS_EVENTS,
        players=4,
        dealer=1,
        reserve="wE yK",
        result="1:13",
        pad=False,
    )


def verdict(record: Record) -> tuple[str, int] | None:
    """(category, ply) of a record's first fault, None when it is valid."""
    try:
        validate(record)
    except FcnError as err:
        return err.category, err.ply
    return None


def placeholders(template: str) -> set[str]:
    """The parameter names an error message template (fourcolor/messages.py) uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}
