"""`best_split`: hand-worked cases, a brute-force cross-check, and classic's odd parity
(RULES.md §4).

The brute force below scores melds from its own reading of the RULES.md §4 table, not from the
engine's meld table, so a wrong table entry and a wrong search both show up.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fourcolor.cards import CARDS, Card, parse_card
from fourcolor.melds import classify
from fourcolor.rulesets import get_ruleset
from fourcolor.split import RANK_BLOCK, best_points, best_split, block_splits
from tests.sizes import sweep
from tests.engine.helpers import cards, counts

# cards, classic best, bga best (None: the cards do not split)
HAND_TABLE: list[tuple[str, int | None, int | None]] = [
    ("", 0, 0),
    ("rA", None, None),
    ("rA yE", None, None),
    ("rK", 1, 1),
    ("rK rK", 2, 2),  # two lone generals beat a pair
    ("rK rK rK", 3, 3),  # classic: triple 3 = three lones; bga: lones only
    ("rK rK rK rK", 8, 6),  # quad of generals; bga's hidden value is 6
    ("rK yK gK wK", 4, 4),
    ("rP yP gP wP", 4, 5),
    ("rP rP yP", None, None),
    ("rP rP yP yP gP gP", 2, 6),  # two three-colour groups (classic pairs would score 0)
    ("rP rP rP yP gP wP", 4, 6),
    ("rK rA rA rA rE", 1, 2),  # command + pair of advisors
    ("rK rK rA rA rE rE", 2, 4),
    ("gK gK gK gA gE", 3, 4),  # two lones + command beat the triple of generals
    ("rR rH rC rR rH rC rR rH rC", 9, 9),  # three triples beat three fields
    ("rA yA gA wA rA yA gA wA", 8, 0),  # two four-colour groups; bga: four pairs
    ("yR yR yR yA yA yA wK gE gE", 7, 7),  # docs/rules.md bga worked example
    ("rK yK gK gA gE wR wR wH wH wC wC", 5, 6),  # docs/rules.md classic worked example
    ("wR wR wH wH wC wC", 2, 2),
    ("rP rP", 0, None),
]


def _is_partition(split_cards: list[Card], hand: list[Card]) -> bool:
    return sorted(c.index for c in split_cards) == sorted(c.index for c in hand)


@pytest.mark.parametrize("ruleset", ["classic", "bga"])
@pytest.mark.parametrize("text,classic,bga", HAND_TABLE, ids=[r[0] or "empty" for r in HAND_TABLE])
def test_it_finds_the_best_split_of_hand_worked_hands(
    ruleset: str, text: str, classic: int | None, bga: int | None
) -> None:
    rs = get_ruleset(ruleset)
    want = classic if ruleset == "classic" else bga
    hand = cards(text)
    split = best_split(hand, rs)
    assert best_points(counts(text), rs) == want
    if want is None:
        assert split is None
        return
    assert split is not None
    assert split.points == want
    assert _is_partition([c for m in split.melds for c in m.cards], hand)
    assert sum(m.points(rs, exposed=False) for m in split.melds) == want


def test_it_names_the_split_of_the_classic_worked_example() -> None:
    split = best_split(cards("rK yK gK gA gE wR wR wH wH wC wC"), get_ruleset("classic"))
    assert split is not None
    assert sorted(str(m) for m in split.melds) == sorted(
        ["rK", "yK", "gK gA gE", "wR wH wC", "wR wH wC"]
    )


# ---------------------------------------------------------------------- brute force


def meld_value(group: tuple[str, ...], ruleset: str) -> int | None:
    """Hidden points of a group of tokens under RULES.md §4, None when it is no meld."""
    bga = ruleset == "bga"
    n = len(group)
    colours = [t[0] for t in group]
    ranks = [t[1] for t in group]
    rank = ranks[0]
    if len(set(group)) == 1:
        if n == 1:
            return 1 if rank == "K" else None
        if n == 2:
            return None if bga and rank in "KP" else 0
        if n == 3:
            return None if bga and rank == "K" else 3
        return 6 if bga and rank == "K" else 8
    if len(set(ranks)) == 1 and len(set(colours)) == n and n in (3, 4):
        if bga:
            return (3 if n == 3 else 5) if rank == "P" else None
        return 1 if n == 3 else 4
    if n == 3 and len(set(colours)) == 1:
        if sorted(ranks) == sorted("KAE"):
            return 2 if bga else 1
        if sorted(ranks) == sorted("RHC"):
            return 1
    return None


@lru_cache(maxsize=None)
def brute_best(hand: tuple[str, ...], ruleset: str) -> int | None:
    """Try every meld holding the hand's first card, then the rest, recursively."""
    if not hand:
        return 0
    first, rest = hand[0], hand[1:]
    best: int | None = None
    for size in range(0, 4):
        for others in set(combinations(rest, size)):
            value = meld_value((first, *others), ruleset)
            if value is None:
                continue
            left = list(rest)
            for t in others:
                left.remove(t)
            tail = brute_best(tuple(left), ruleset)
            if tail is not None and (best is None or value + tail > best):
                best = value + tail
    return best


# A few kinds that make commands, fields, colour groups of advisors and soldiers, generals.
POOL = "rK rA rE yK yA yE gA wA rP yP gP wP rR rH rC".split()


def _fits(hand: list[str]) -> bool:
    return all(n <= 4 for n in Counter(hand).values())


random_hands = st.lists(st.sampled_from(POOL), max_size=9).filter(_fits)


def _pool_melds() -> list[tuple[str, ...]]:
    # Every sorted group of up to four of the pool's kinds (a kind at most four times, as the
    # deck holds it): drawn from the 15 kinds rather than the 60 cards, the same groups in
    # 4,000 tries instead of 530,000, at each test process's collection.
    groups = (group for size in range(1, 5)
              for group in combinations_with_replacement(sorted(POOL), size))
    return sorted(group for group in groups
                  if any(meld_value(group, ruleset) is not None for ruleset in ("classic", "bga")))


POOL_MELDS = _pool_melds()
meld_hands = (
    st.lists(st.sampled_from(POOL_MELDS), max_size=4)
    .map(lambda ms: [t for m in ms for t in m])
    .filter(lambda h: _fits(h) and len(h) <= 9)
)


@settings(max_examples=sweep(full=250, ci=80))
@given(hand=st.one_of(random_hands, meld_hands), ruleset=st.sampled_from(["classic", "bga"]))
def test_it_equals_a_brute_force_search_on_small_hands(hand: list[str], ruleset: str) -> None:
    rs = get_ruleset(ruleset)
    want = brute_best(tuple(sorted(hand)), ruleset)
    split = best_split([parse_card(t) for t in hand], rs)
    if want is None:
        assert split is None
        return
    assert split is not None
    assert split.points == want
    melded = [c for m in split.melds for c in m.cards]
    assert _is_partition(melded, [parse_card(t) for t in hand])
    for meld in split.melds:
        assert classify(meld.cards, rs) == meld
    assert sum(meld_value(tuple(c.token for c in m.cards), ruleset) or 0 for m in split.melds) == (
        want
    )


# ---------------------------------------------------------------------- classic parity


def _classic_melds() -> list[tuple[Card, ...]]:
    """Every meld of classic, written out from RULES.md §4 (one entry per distinct meld)."""
    out: list[tuple[Card, ...]] = []
    for card in CARDS:
        for n in (2, 3, 4):
            out.append((card,) * n)
        if card.rank == "K":
            out.append((card,))
    for colour in "rygw":
        out.append(tuple(parse_card(colour + r) for r in "KAE"))
        out.append(tuple(parse_card(colour + r) for r in "RHC"))
    for rank in "KAERHCP":
        for three in combinations("rygw", 3):
            out.append(tuple(parse_card(c + rank) for c in three))
        out.append(tuple(parse_card(c + rank) for c in "rygw"))
    return out


CLASSIC_MELDS = _classic_melds()


def test_it_gives_every_classic_meld_points_of_the_parity_of_its_size() -> None:
    rs = get_ruleset("classic")
    assert len(CLASSIC_MELDS) == 4 + 3 * 28 + 8 + 7 * 5
    for group in CLASSIC_MELDS:
        meld = classify(group, rs)
        assert meld is not None, group
        for exposed in (False, True):
            assert meld.points(rs, exposed=exposed) % 2 == len(group) % 2, (group, exposed)


@settings(max_examples=sweep(full=150, ci=50))
@given(data=st.data())
def test_it_scores_every_classic_winning_hand_odd(data: st.DataObject) -> None:
    """Compose random melds (at most 4 copies of a kind) up to 21 cards, expose some of them:
    exposed values + best hidden split is odd, and no lower than the composed melds."""
    rs = get_ruleset("classic")
    used = [0] * len(CARDS)
    melds: list[tuple[Card, ...]] = []
    size = 0
    while size < 21:
        fitting = [
            m
            for m in CLASSIC_MELDS
            if len(m) <= 21 - size and all(used[c.index] + m.count(c) <= 4 for c in set(m))
        ]
        if not fitting:
            # Only happens with one card to go and every general used: start again smaller.
            melds.pop()
            used = [0] * len(CARDS)
            for m in melds:
                for c in m:
                    used[c.index] += 1
            size = sum(len(m) for m in melds)
            continue
        meld = data.draw(st.sampled_from(fitting))
        melds.append(meld)
        for c in meld:
            used[c.index] += 1
        size += len(meld)
    exposed_count = data.draw(st.integers(0, len(melds)))
    exposed = melds[:exposed_count]
    hidden_cards = [c for m in melds[exposed_count:] for c in m]
    split = best_split(hidden_cards, rs)
    assert split is not None
    exposed_points = sum(classify(m, rs).points(rs, exposed=True) for m in exposed)  # type: ignore[union-attr]
    composed_hidden = sum(
        classify(m, rs).points(rs, exposed=False)  # type: ignore[union-attr]
        for m in melds[exposed_count:]
    )
    assert split.points >= composed_hidden
    assert (exposed_points + split.points) % 2 == 1
    assert _is_partition([c for m in split.melds for c in m.cards], hidden_cards)


# 21 of the 112 cards: four copies of each of the 28 kinds.
deals = st.lists(st.integers(0, 111), min_size=21, max_size=21, unique=True).map(
    lambda picks: [CARDS[p // 4] for p in picks]
)


@given(hand=st.one_of(deals, meld_hands), ruleset=st.sampled_from(["classic", "bga"]))
def test_it_splits_a_hand_exactly_when_each_rank_block_splits(
    hand: list[Card] | list[str], ruleset: str
) -> None:
    rs = get_ruleset(ruleset)
    cards_ = [c if isinstance(c, Card) else parse_card(c) for c in hand]
    hand_counts = [0] * len(CARDS)
    for c in cards_:
        hand_counts[c.index] += 1
    blocks = [block_splits(hand_counts, b, rs) for b in sorted(set(RANK_BLOCK))]
    assert all(blocks) == (best_points(hand_counts, rs) is not None)
    # A block's verdict depends on its own cards only.
    for b, verdict in enumerate(blocks):
        others_removed = [n if RANK_BLOCK[i % 7] == b else 0 for i, n in enumerate(hand_counts)]
        assert block_splits(others_removed, b, rs) == verdict


@pytest.mark.parametrize("tokens", ["wR " * 9, "rP " * 9 + "yP", "gK " * 10])
def test_it_refuses_more_copies_than_the_largest_deck(tokens: str) -> None:
    with pytest.raises(ValueError, match="copies of .*: the largest deck has 8"):
        best_split(cards(tokens), get_ruleset("classic"))


@pytest.mark.parametrize(
    "tokens,points",
    [
        ("wR " * 5, 3),  # a pair and a triple
        ("wR " * 6, 8),  # a quad and a pair (two triples: 6)
        ("wR " * 7, 11),  # a quad and a triple
        ("wR " * 8, 16),  # two quads
        ("gK " * 5, 9),  # a quad of generals (8) and a lone general (1)
        ("rP " * 5 + "yP gP", 9),  # a quad and a three-colour group
    ],
)
def test_it_splits_five_to_eight_copies_of_a_card(tokens: str, points: int) -> None:
    split = best_split(cards(tokens), get_ruleset("classic"))
    assert split is not None
    assert split.points == points
    assert sorted(c.index for m in split.melds for c in m.cards) == sorted(
        c.index for c in cards(tokens)
    )
