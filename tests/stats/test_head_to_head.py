"""ratings.stats.head_to_head on the club archive, worked out by hand."""

from __future__ import annotations

import pytest

from ratings.stats import head_to_head
from tests.stats.conftest import player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_counts_shared_rounds_wins_each_and_net_points_between_two(
    club: dict[str, int], source: str
) -> None:
    # Ann and Chi share A, A2, B1, B2, B3, D. Chi wins A, A2 and B2; Ann never wins.
    # Between them: A: Ann paid Chi 7; A2: Ann paid 7 from each of her two seats; B2: Ann
    # paid Chi 4 (12 - 10 + 1 + lucky 1). B1 and B3 were finished by Bao, D was exhausted.
    result = head_to_head(player("Ann"), player("Chi"), source=source)
    assert result["rounds"] == 6
    assert result["a"] == {"id": player("Ann").pk, "name": "Ann", "wins": 0, "net": -(7 + 14 + 4)}
    assert result["b"] == {"id": player("Chi").pk, "name": "Chi", "wins": 3, "net": 7 + 14 + 4}
    assert result["other_rounds"] == 3


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_counts_a_forced_finish_under_the_threshold_as_a_payment_to_the_other(
    club: dict[str, int], source: str
) -> None:
    # Ann and Bao: B1 Bao's forced finish under 10 pays Ann 11; B3 Bao wins, Ann pays 4.
    result = head_to_head(player("Ann").pk, player("Bao").pk, source=source)
    assert (result["rounds"], result["a"]["wins"], result["b"]["wins"]) == (6, 0, 1)
    assert (result["a"]["net"], result["b"]["net"]) == (11 - 4, -(11 - 4))


@pytest.mark.parametrize("source", ["auto", "seats"])
def test_it_applies_the_filters(club: dict[str, int], source: str) -> None:
    classic = head_to_head(player("Ann"), player("Chi"), ruleset="classic", source=source)
    assert (classic["rounds"], classic["b"]["wins"], classic["a"]["net"]) == (3, 2, -21)
    four = head_to_head(player("Ann"), player("Chi"), players=3, source=source)
    assert (four["rounds"], four["b"]["wins"], four["a"]["net"]) == (3, 1, -4)
    none = head_to_head(player("Ann"), player("Em"), source=source)
    assert none["rounds"] == 0 and none["a"]["net"] == 0 and none["other_rounds"] == 0


def test_it_applies_a_date_range(club: dict[str, int]) -> None:
    # 2026-11-28 only: B1, B2, B3.
    day = head_to_head(player("Ann"), player("Chi"), since="2026-11-28", until="2026-11-28")
    assert (day["rounds"], day["a"]["wins"], day["b"]["wins"], day["a"]["net"]) == (3, 0, 1, -4)


def test_it_refuses_the_same_player_twice(club: dict[str, int]) -> None:
    with pytest.raises(ValueError, match="two different players"):
        head_to_head(player("Ann"), player("ANN"))
