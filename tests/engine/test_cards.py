"""Cards: 28 kinds, tokens, glyphs, canonical order and bad tokens (RULES.md §1)."""

from __future__ import annotations

import pickle

import pytest

from fourcolor import check_record
from fourcolor.cards import (
    CARDS,
    KINDS,
    BadCardToken,
    card_or_none,
    counts_of,
    format_cards,
    full_deck,
    parse_card,
    sort_cards,
)
from tests.engine.helpers import fcn

CANONICAL = (
    "rK rA rE rR rH rC rP yK yA yE yR yH yC yP gK gA gE gR gH gC gP wK wA wE wR wH wC wP"
).split()


def test_it_has_28_kinds_in_canonical_order() -> None:
    assert KINDS == 28
    assert [c.token for c in CARDS] == CANONICAL
    assert [c.index for c in CARDS] == list(range(28))


def test_it_has_a_112_card_deck_with_four_copies_of_each_kind() -> None:
    deck = full_deck()
    assert len(deck) == 112
    assert counts_of(deck) == [4] * 28


@pytest.mark.parametrize(
    "token,colour,rank,glyph",
    [
        ("rK", "r", "K", "帥"),
        ("rA", "r", "A", "仕"),
        ("rE", "r", "E", "相"),
        ("rR", "r", "R", "俥"),
        ("rH", "r", "H", "傌"),
        ("rC", "r", "C", "炮"),
        ("rP", "r", "P", "兵"),
        ("yK", "y", "K", "帥"),
        ("yP", "y", "P", "兵"),
        ("yC", "y", "C", "炮"),
        ("gK", "g", "K", "將"),
        ("gA", "g", "A", "士"),
        ("gE", "g", "E", "象"),
        ("gR", "g", "R", "車"),
        ("gH", "g", "H", "馬"),
        ("gC", "g", "C", "包"),
        ("gP", "g", "P", "卒"),
        ("wK", "w", "K", "將"),
        ("wH", "w", "H", "馬"),
        ("wP", "w", "P", "卒"),
    ],
)
def test_it_reads_tokens_into_kinds_with_their_glyphs(
    token: str, colour: str, rank: str, glyph: str
) -> None:
    card = parse_card(token)
    assert (card.colour, card.rank, card.glyph) == (colour, rank, glyph)
    assert card.token == str(card) == token


def test_it_uses_the_red_glyphs_for_red_and_yellow_and_the_black_for_green_and_white() -> None:
    glyphs = {c: "".join(card.glyph for card in CARDS if card.colour == c) for c in "rygw"}
    assert glyphs == {
        "r": "帥仕相俥傌炮兵",
        "y": "帥仕相俥傌炮兵",
        "g": "將士象車馬包卒",
        "w": "將士象車馬包卒",
    }


def test_it_gives_one_object_per_kind() -> None:
    assert parse_card("gH") is CARDS[18]
    assert pickle.loads(pickle.dumps(parse_card("gH"))) is CARDS[18]


def test_it_keeps_cards_immutable() -> None:
    with pytest.raises(AttributeError):
        parse_card("rK").rank = "A"  # type: ignore[misc]


@pytest.mark.parametrize("token", ["", "r", "K", "Rk", "rk", "RK", "rX", "xK", "rKK", " rK", "卒"])
def test_it_refuses_tokens_that_name_no_card(token: str) -> None:
    with pytest.raises(BadCardToken) as err:
        parse_card(token)
    assert err.value.token == token
    assert isinstance(err.value, ValueError)
    assert card_or_none(token) is None


def test_it_sorts_and_counts_in_canonical_order() -> None:
    mixed = [parse_card(t) for t in "wP rK gC yA rK".split()]
    assert format_cards(sort_cards(mixed)) == "rK rK yA gC wP"
    counts = counts_of(mixed)
    assert counts[0] == 2 and counts[8] == 1 and counts[19] == 1 and counts[27] == 1
    assert sum(counts) == 5
    assert parse_card("wP") > parse_card("rK")  # type: ignore[operator]


@pytest.mark.parametrize(
    "events,ply,line,col",
    [
        ("1x rX", 1, 9, 4),  # a word that is no card, in an event
        ("1x rA 2d Rk", 2, 9, 10),
        ("1x rA 2d yK 2m yK zz", 3, 9, 19),
    ],
)
def test_it_refuses_a_record_naming_a_card_that_does_not_exist(
    events: str, ply: int, line: int, col: int
) -> None:
    check = check_record(fcn({1: "rA"}, events))
    assert check.error is not None
    assert (check.error.category, check.error.ply) == ("syntax", ply)
    assert (check.error.line, check.error.col) == (line, col)


def test_it_refuses_a_deal_naming_a_card_that_does_not_exist() -> None:
    text = fcn({}, "").replace("1: ", "1: qQ ", 1)
    check = check_record(text)
    assert check.error is not None
    assert (check.error.category, check.error.ply, check.error.line) == ("deal", 0, 6)


def test_it_makes_any_two_equal_cards_the_same_card() -> None:
    # The engine compares cards with `is`: a Card built by hand is the parsed one.
    from fourcolor.cards import Card
    from fourcolor.melds import classify
    from fourcolor.rulesets import get_ruleset

    assert Card("r", "A") is parse_card("rA") is CARDS[1]
    meld = classify([Card("r", "A"), parse_card("rA")], get_ruleset("classic"))
    assert meld is not None and meld.kind == "pair"


def test_it_refuses_to_make_a_card_that_does_not_exist() -> None:
    from fourcolor.cards import Card

    for colour, rank in [("x", "A"), ("r", "Z"), ("rA", ""), ("", "rA"), ("r", "")]:
        with pytest.raises(BadCardToken):
            Card(colour, rank)


def test_it_orders_cards_by_the_canonical_order_with_every_comparison() -> None:
    for a in CARDS:
        for b in CARDS:
            assert (a < b, a <= b, a > b, a >= b) == (
                a.index < b.index, a.index <= b.index, a.index > b.index, a.index >= b.index
            )
    assert max(CARDS) is CARDS[-1] and min(CARDS) is CARDS[0]
    with pytest.raises(TypeError):
        assert CARDS[0] <= 3  # type: ignore[operator]
