"""GET /api/v1/games/ over an archive of house variants and tables up to eight: the switches
filter, and each game's switches (the archive's other filters: tests/api/test_games_list.py)."""

from __future__ import annotations


import pytest
from rest_framework.test import APIClient

import fourcolor
from records.models import Game

from .test_games_list import URL, ids

VARIANTS = [  # (ruleset, players, switches, seed)
    ("classic", 4, {}, 1),
    ("classic", 6, {"steal_generals": "never"}, 2),
    ("classic", 2, {"lucky_draw": True, "dealt_sets_locked": True}, 3),
    ("bga", 4, {"steal_generals": "never", "threshold": 8}, 4),
]
SWITCH_FILTERS = [
    ({"switches": "standard"}, [0]),
    ({"switches": "house"}, [1, 2, 3]),
    ({"switches": "steal_generals=never"}, [1]),  # that exact variant, not one that adds to it
    ({"switches": " threshold=8   steal_generals=never"}, [3]),  # any order and spacing
    ({"switches": "dealt_sets_locked=on lucky_draw=on"}, [2]),
    ({"switches": "house", "ruleset": "classic"}, [1, 2]),
    ({"players": "6"}, [1]),
    ({"players": "6", "switches": "standard"}, []),
]


@pytest.fixture
def variants() -> list[int]:
    from fourcolor.generate import generate_record
    from records.services import import_texts

    texts = [fourcolor.write_fcn(generate_record(rs, n, seed, switches=sw))
             for rs, n, sw, seed in VARIANTS]
    import_texts(texts, None, max_results=0)
    return list(Game.objects.order_by("pk").values_list("pk", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize(("params", "wanted"), SWITCH_FILTERS,
                         ids=[str(p) for p, _ in SWITCH_FILTERS])
def test_it_filters_by_the_house_variant_and_up_to_eight_seats(
    api: APIClient, variants: list[int], params: dict[str, str], wanted: list[int]
) -> None:
    assert len(variants) == len(VARIANTS)
    assert sorted(ids(api.get(URL, params))) == [variants[i] for i in wanted]


@pytest.mark.django_db
def test_it_gives_each_game_its_switches_and_refuses_an_unknown_one(
    api: APIClient, variants: list[int]
) -> None:
    games = {g["id"]: g for g in api.get(URL).json()["results"]}
    assert [games[pk]["switches"] for pk in variants] == [
        "", "steal_generals=never", "lucky_draw=on dealt_sets_locked=on",
        "steal_generals=never threshold=8"]
    assert api.get(f"{URL}{variants[1]}/").json()["switches"] == "steal_generals=never"
    refused = api.get(URL, {"switches": "steal_generals=sometimes"})
    assert refused.status_code == 400
    assert "steal_generals" in refused.json()["error"]["fields"]["switches"][0]
    assert api.get(URL, {"players": "9"}).status_code == 400
