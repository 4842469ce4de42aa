"""Claim rights and the priority resolver (RULES.md §6), as functions and in records."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcolor.cards import parse_card
from fourcolor.claims import (
    Claim,
    ClaimRefused,
    ClaimRight,
    Live,
    claim_order,
    claim_right,
    may_claim,
    resolve_claims,
)
from fourcolor.generate import generate_record
from fourcolor.round import Round
from fourcolor.rulesets import Ruleset, get_ruleset, with_switches
from tests.engine.helpers import WAITS, all_rights_game, fault, play

WIN, PONG, GAN, CHI, OWN = (
    ClaimRight.WIN,
    ClaimRight.PONG,
    ClaimRight.GAN,
    ClaimRight.CHI,
    ClaimRight.OWN_DRAW,
)
NEVER = with_switches(get_ruleset("classic"), steal_generals="never")
BGA_NO_PAIR_CHI = Ruleset.from_mapping(
    {
        "extends": "bga",
        "name": "bga without pair chi",
        "chi_melds": ["command", "field", "three_colour", "four_colour", "lone"],
    }
)


def live(token: str, owner: int, source: str) -> Live:
    return Live(parse_card(token).index, owner, source)


# ruleset, players, live card (token, owner, source), claimant, meld kind, win?, expected right
# (or the start of the refusal message)
RIGHTS: list[tuple[str | Ruleset, int, tuple[str, int, str], int, str, bool, object]] = [
    # win: anyone but the discarder; the drawer on its own draw; over every limit
    ("classic", 4, ("rA", 1, "discard"), 3, "triple", True, WIN),
    ("classic", 4, ("rA", 1, "discard"), 2, "pair", True, WIN),
    ("classic", 4, ("rA", 1, "discard"), 1, "triple", True, "seat 1 may not win on its own"),
    ("classic", 4, ("rA", 1, "draw"), 1, "pair", True, WIN),
    ("classic", 4, ("rA", 1, "draw"), 3, "pair", True, WIN),
    ("classic", 4, ("rK", 1, "draw"), 2, "lone", True, WIN),
    (NEVER, 4, ("rK", 1, "draw"), 3, "quad", True, WIN),
    # pong / gan: any seat but the owner, on a discard or another seat's draw
    ("classic", 4, ("rA", 1, "discard"), 3, "triple", False, PONG),
    ("classic", 4, ("rA", 1, "discard"), 2, "triple", False, PONG),
    ("classic", 4, ("rA", 1, "discard"), 4, "quad", False, GAN),
    ("classic", 4, ("rA", 2, "draw"), 4, "triple", False, PONG),
    ("classic", 4, ("rA", 2, "draw"), 1, "quad", False, GAN),
    ("bga", 3, ("gP", 3, "discard"), 2, "triple", False, PONG),
    ("classic", 4, ("rA", 1, "discard"), 1, "triple", False, "seat 1 may not make a triple"),
    # chi: the seat after the discarder, on a discard, any meld but a lone general
    ("classic", 4, ("rA", 1, "discard"), 2, "pair", False, CHI),
    ("classic", 4, ("rA", 1, "discard"), 2, "command", False, CHI),
    ("classic", 4, ("rR", 1, "discard"), 2, "field", False, CHI),
    ("classic", 4, ("rA", 1, "discard"), 2, "three_colour", False, CHI),
    ("classic", 4, ("rA", 1, "discard"), 2, "four_colour", False, CHI),
    ("classic", 4, ("rA", 4, "discard"), 1, "pair", False, CHI),
    ("classic", 2, ("rR", 2, "discard"), 1, "field", False, CHI),
    ("classic", 3, ("rR", 3, "discard"), 1, "field", False, CHI),
    ("classic", 4, ("rA", 1, "discard"), 3, "pair", False, "seat 3 may not make a pair"),
    ("classic", 4, ("rA", 1, "discard"), 4, "command", False, "seat 4 may not make a command"),
    ("classic", 4, ("rA", 1, "draw"), 2, "pair", False, "seat 2 may not make a pair with another"),
    ("classic", 4, ("rK", 1, "discard"), 2, "lone", False, "seat 2 may not make a lone"),
    ("classic", 4, ("rK", 1, "discard"), 2, "three_colour", False, "seat 2 may not make a three"),
    # own draw: any meld
    ("classic", 4, ("rK", 1, "draw"), 1, "lone", False, OWN),
    ("classic", 4, ("rA", 1, "draw"), 1, "pair", False, OWN),
    ("classic", 4, ("rA", 1, "draw"), 1, "command", False, OWN),
    ("classic", 4, ("rA", 1, "draw"), 1, "quad", False, OWN),
    ("classic", 4, ("rK", 1, "draw"), 1, "triple", False, OWN),
    ("bga", 4, ("rK", 1, "draw"), 1, "lone", False, OWN),
    # generals out of turn: only a gan (steal_generals = gan) or a win
    ("classic", 4, ("rK", 1, "draw"), 2, "lone", False, "seat 2 may not make a lone"),
    ("classic", 4, ("rK", 1, "draw"), 3, "triple", False, "seat 3 may not make a triple"),
    ("classic", 4, ("rK", 1, "draw"), 2, "three_colour", False, "seat 2 may not make a three"),
    ("classic", 4, ("rK", 1, "draw"), 3, "quad", False, GAN),
    ("bga", 4, ("rK", 1, "draw"), 3, "quad", False, GAN),
    (NEVER, 4, ("rK", 1, "draw"), 3, "quad", False, "seat 3 may not make a quad"),
    (NEVER, 4, ("rA", 1, "draw"), 3, "quad", False, GAN),  # only generals are protected
    # bga: the chi melds are data (chi_melds)
    ("bga", 4, ("rA", 1, "discard"), 2, "pair", False, CHI),
    ("bga", 4, ("rA", 1, "discard"), 2, "command", False, CHI),
    ("bga", 4, ("rP", 1, "discard"), 2, "three_colour", False, CHI),
    ("bga", 4, ("rP", 1, "discard"), 2, "four_colour", False, CHI),
    ("bga", 4, ("rP", 1, "discard"), 3, "three_colour", False, "seat 3 may not make a three"),
    (BGA_NO_PAIR_CHI, 4, ("rA", 1, "discard"), 2, "pair", False, "seat 2 may not make a pair"),
    (BGA_NO_PAIR_CHI, 4, ("rA", 1, "discard"), 2, "command", False, CHI),
    (BGA_NO_PAIR_CHI, 4, ("rA", 1, "discard"), 2, "triple", False, PONG),
    # nobody claims its own discard
    ("classic", 3, ("rA", 1, "discard"), 1, "quad", False, "seat 1 may not make a quad with its"),
    ("classic", 2, ("rA", 2, "discard"), 2, "pair", True, "seat 2 may not win on its own discard"),
]


@pytest.mark.parametrize("rules,players,card,claimant,kind,win,want", RIGHTS)
def test_it_gives_every_claim_its_right_or_refuses_it(
    rules: str | Ruleset,
    players: int,
    card: tuple[str, int, str],
    claimant: int,
    kind: str,
    win: bool,
    want: object,
) -> None:
    rs = get_ruleset(rules) if isinstance(rules, str) else rules
    token, owner, source = card
    args = (rs, players, live(token, owner, source), claimant, kind, token[1])
    if isinstance(want, ClaimRight):
        assert claim_right(*args, win=win) is want
    else:
        with pytest.raises(ClaimRefused) as refused:
            claim_right(*args, win=win)
        assert str(refused.value).startswith(str(want)), str(refused.value)


@pytest.mark.parametrize(
    "rules,message",
    [("classic", "only for a gan or a win"), (NEVER, "only for a win")],
)
def test_it_says_why_a_general_may_not_be_stolen(rules: str | Ruleset, message: str) -> None:
    rs = get_ruleset(rules) if isinstance(rules, str) else rules
    with pytest.raises(ClaimRefused, match=message):
        claim_right(rs, 4, live("rK", 1, "draw"), 3, "triple", "K", win=False)


def test_it_ranks_rights_win_over_pong_and_gan_over_chi_and_own_draw() -> None:
    assert WIN.priority > PONG.priority == GAN.priority > CHI.priority == OWN.priority
    assert [r.label for r in (CHI, OWN, PONG, GAN, WIN)] == [
        "chi",
        "own draw",
        "pong",
        "gan",
        "win",
    ]


@pytest.mark.parametrize(
    "players,card,order",
    [
        (4, ("rA", 1, "discard"), [2, 3, 4, 1]),
        (4, ("rA", 4, "discard"), [1, 2, 3, 4]),
        (4, ("rA", 1, "draw"), [1, 2, 3, 4]),
        (4, ("rA", 3, "draw"), [3, 4, 1, 2]),
        (3, ("rA", 3, "draw"), [3, 1, 2]),
        (3, ("rA", 2, "discard"), [3, 1, 2]),
        (2, ("rA", 2, "discard"), [1, 2]),
    ],
)
def test_it_orders_claimants_from_the_drawer_or_the_seat_after_the_discarder(
    players: int, card: tuple[str, int, str], order: list[int]
) -> None:
    assert claim_order(live(*card), players) == order


# live card, players, claims (seat, right), the claim that takes effect
PRIORITY: list[
    tuple[tuple[str, int, str], int, list[tuple[int, ClaimRight]], tuple[int, ClaimRight]]
] = [
    # win > pong/gan > chi, whatever the seats
    (("rA", 1, "discard"), 4, [(2, CHI), (3, PONG)], (3, PONG)),
    (("rA", 1, "discard"), 4, [(2, CHI), (4, GAN)], (4, GAN)),
    (("rA", 1, "discard"), 4, [(2, CHI), (4, WIN)], (4, WIN)),
    (("rA", 1, "discard"), 4, [(3, PONG), (4, WIN)], (4, WIN)),
    (("rA", 1, "discard"), 4, [(3, GAN), (2, WIN)], (2, WIN)),
    (("rA", 1, "discard"), 4, [(4, PONG), (2, CHI), (3, WIN)], (3, WIN)),
    (("rA", 2, "draw"), 4, [(2, OWN), (4, PONG)], (4, PONG)),
    (("rA", 2, "draw"), 4, [(2, OWN), (1, GAN)], (1, GAN)),
    (("rA", 2, "draw"), 4, [(2, OWN), (3, WIN)], (3, WIN)),
    (("rA", 2, "draw"), 4, [(4, PONG), (1, WIN)], (1, WIN)),
    # ties among wins on a discard: from the seat after the discarder
    (("rA", 1, "discard"), 4, [(3, WIN), (2, WIN)], (2, WIN)),
    (("rA", 1, "discard"), 4, [(4, WIN), (3, WIN)], (3, WIN)),
    (("rA", 1, "discard"), 4, [(4, WIN), (2, WIN), (3, WIN)], (2, WIN)),
    (("rA", 3, "discard"), 4, [(2, WIN), (4, WIN)], (4, WIN)),
    (("rA", 3, "discard"), 4, [(2, WIN), (1, WIN)], (1, WIN)),
    (("rA", 3, "discard"), 3, [(2, WIN), (1, WIN)], (1, WIN)),
    # ties among wins on a draw: from the drawer
    (("rA", 2, "draw"), 4, [(3, WIN), (2, WIN)], (2, WIN)),
    (("rA", 2, "draw"), 4, [(1, WIN), (3, WIN)], (3, WIN)),
    (("rA", 2, "draw"), 4, [(1, WIN), (4, WIN)], (4, WIN)),
    (("rA", 4, "draw"), 4, [(3, WIN), (1, WIN)], (1, WIN)),
    (("rA", 2, "draw"), 2, [(1, WIN), (2, WIN)], (2, WIN)),
    (("rA", 3, "draw"), 3, [(2, WIN), (1, WIN)], (1, WIN)),
    # a lone claim takes effect
    (("rA", 1, "discard"), 4, [(2, CHI)], (2, CHI)),
]


@pytest.mark.parametrize("card,players,claims,want", PRIORITY)
def test_it_resolves_every_priority_case(
    card: tuple[str, int, str],
    players: int,
    claims: list[tuple[int, ClaimRight]],
    want: tuple[int, ClaimRight],
) -> None:
    chosen = resolve_claims([Claim(s, r) for s, r in claims], live(*card), players)
    assert (chosen.seat, chosen.right) == want


def test_it_refuses_to_resolve_no_claims() -> None:
    with pytest.raises(ValueError):
        resolve_claims([], live("rA", 1, "discard"), 4)


# ---------------------------------------------------------------------- in records


def test_it_logs_the_right_of_every_claim_of_a_round() -> None:
    game = all_rights_game()
    assert [(c.ply, c.seat, c.right) for c in game.claims] == [
        (2, 3, PONG),
        (4, 4, CHI),
        (7, 2, GAN),
        (10, 3, OWN),
        (12, 1, WIN),
    ]
    assert [str(c.meld) for c in game.claims] == [
        "rP rP rP",
        "yR yH yC",
        "wE wE wE wE",
        "yK",
        "wR wH wC",
    ]
    assert [(c.live.owner, c.live.source) for c in game.claims] == [
        (1, "discard"),
        (3, "discard"),
        (1, "draw"),
        (3, "draw"),
        (3, "discard"),
    ]


# 4 players: seat 3 holds a pair and a triple of generals, seat 2 a chi partner.
REFUSALS = [
    ("chi by a seat that is not next", {3: "rA"}, "1x rA 3m rA rA", "classic", 2),
    ("chi of a draw", {3: "yR yH"}, "1x rA 2d yC 3m yC yR yH", "classic", 3),
    ("lone general from another seat's draw", {}, "1x rA 2d yK 3m yK", "classic", 3),
    ("pong of a drawn general", {3: "yK yK"}, "1x rA 2d yK 3m yK yK yK", "classic", 3),
    ("own-draw meld of another seat's draw", {3: "yC"}, "1x rA 2d yC 3m yC yC", "classic", 3),
    ("meld of one's own discard", {1: "rA rA rA"}, "1x rA 1m rA rA rA", "classic", 2),
    ("win on one's own discard", {1: "rA rA rA"}, "1x rA 1w rA rA rA", "classic", 2),
    ("bga chi by a seat that is not next", {3: "yP gP"}, "1x rP 3m rP yP gP", "bga", 2),
]


@pytest.mark.parametrize("why,hands,events,ruleset,ply", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_it_refuses_a_claim_without_its_right_in_a_record(
    why: str, hands: dict[int, str], events: str, ruleset: str, ply: int
) -> None:
    hands = {1: "rA rP", **hands}
    got = fault(hands, events, ruleset=ruleset, players=4, reserve="yK yC")
    assert got == ("claim-right", ply)


@pytest.mark.parametrize(
    "rules,want",
    [
        (get_ruleset("classic"), None),
        (get_ruleset("bga"), None),
        (NEVER, ("claim-right", 3)),
    ],
)
def test_it_lets_a_gan_steal_a_drawn_general_unless_steal_generals_is_never(
    rules: Ruleset, want: tuple[str, int] | None
) -> None:
    events = "1x rA 2d yK 3m yK yK yK yK 3x rP"
    got = fault(
        {1: "rA", 3: "yK yK yK rP"}, events, rules=rules, players=4, reserve="yK", result="*"
    )
    assert got == want


@pytest.mark.parametrize(
    "events,ruleset,want",
    [
        ("1x rP 2m rP yP gP 2x rA", "bga", None),  # soldiers: a bga chi
        ("1x rA 2m rA yA gA", "bga", ("not-a-meld", 2)),  # advisors: no colour group in bga
        ("1x rA 2m rA yA gA 2x rP", "classic", None),
        ("1x rP 2m rP rP", "bga", ("not-a-meld", 2)),  # no soldier pair in bga
        ("1x rA 2m rA rA 2x rP", "bga", None),
        ("1x rA 2m rK rA rE 2x rP", "bga", None),
    ],
)
def test_it_allows_the_chi_melds_of_each_ruleset(
    events: str, ruleset: str, want: tuple[str, int] | None
) -> None:
    hands = {1: "rA rP", 2: "yP gP yA gA rP rA rK rE"}
    assert fault(hands, events, ruleset=ruleset, players=4, result="*") == want


def test_it_refuses_a_chi_the_house_ruleset_left_out() -> None:
    hands = {1: "rA rP", 2: "rA rP"}
    assert fault(hands, "1x rA 2m rA rA 2x rP", rules=BGA_NO_PAIR_CHI, players=4) == (
        "claim-right",
        2,
    )


# ---------------------------------------------------------------------- competing calls
# WAITS: seats 2 and 4 both wait on wC (19 points), seat 3 holds wC wC, seat 1 discards wC.


@pytest.mark.parametrize(
    "events,want",
    [
        ("1x wC 2w wC wR wH", None),
        ("1x wC 4w wC wR wH", None),  # declining a win is legal: seat 2 simply did not call
        ("1x wC 3c wC wC wC 4w wC wR wH", None),  # win beats a pong call
        ("1x wC 4h wC wR wH 3m wC wC wC", ("priority", 3)),  # pong does not beat a win call
        ("1x wC 4h wC wR wH 2w wC wR wH", None),  # tie: seat 2 comes first after seat 1
        ("1x wC 2h wC wR wH 4w wC wR wH", ("priority", 3)),
        ("1x wC 3c wC wC wC 3c wC wC wC", ("priority", 3)),  # a seat calls only once
        ("1x wC 3c wC wC wC 3m wC wC wC", ("priority", 3)),  # a call is one that lost
        ("1x wC 3c wC wC wC 2d rA", ("priority", 3)),  # a call must be followed by a claim
        ("1x wC 3h wC wC wC", ("no-win", 2)),  # a win call is checked like a win
    ],
)
def test_it_checks_the_effective_claim_against_the_listed_calls(
    events: str, want: tuple[str, int] | None
) -> None:
    won = any(word[1:] == "w" for word in events.split())
    result = None if won else "*"
    assert fault(WAITS, events, players=4, reserve="rA", result=result) == want


def test_it_scores_the_win_that_took_priority_over_the_calls() -> None:
    game = play(WAITS, "1x wC 3c wC wC wC 4h wC wR wH 2w wC wR wH", players=4, result="2:19")
    assert (game.finish.outcome, game.finish.seat, game.finish.points) == ("win", 2, 19)
    assert game.finish.settlement == {1: -19, 2: 57, 3: -19, 4: -19}


@settings(max_examples=25)
@given(st.sampled_from(["classic", "bga"]), st.integers(2, 4), st.integers(0, 2**32))
def test_it_never_offers_a_seat_a_claim_on_its_own_discard(
    ruleset: str, players: int, seed: int
) -> None:
    record = generate_record(ruleset, players, seed)
    rnd = Round.from_record(record)
    for event in record.events:
        live = rnd.live
        if live is not None and live.source == "discard":
            owner = live.owner
            assert not may_claim(live, owner)
            assert all(e.seat != owner for e in rnd.legal_events() if e.verb in "mwch")
            assert rnd.meld_claims(owner) == []
        rnd.push(event)
