"""GET /api/v1/rulesets/: the shipped rulesets, their switches and numbers, the table sizes
they allow and what each switch means in the three languages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from fourcolor.rulesets import SWITCH_NAMES


@pytest.mark.django_db
def test_it_lists_the_shipped_rulesets_with_their_switches(api: APIClient) -> None:
    response = api.get("/api/v1/rulesets/")
    assert response.status_code == 200
    rulesets = {r["name"]: r for r in response.json()["results"]}
    assert set(rulesets) == {"classic", "bga"}
    assert rulesets["classic"]["players"] == {"min": 2, "max": 8}
    assert rulesets["bga"]["players"] == {"min": 2, "max": 4}
    assert (rulesets["bga"]["threshold"], rulesets["bga"]["base"]) == (10, 1)
    switches = {s["name"]: s for s in rulesets["classic"]["switches"]}
    assert list(switches) == list(SWITCH_NAMES)
    assert switches["steal_generals"]["value"] == "gan"
    assert switches["steal_generals"]["values"] == ["gan", "never"]
    assert switches["redeal"]["value"] == "on" and switches["redeal"]["values"] == ["on", "off"]
    assert switches["threshold"]["values"] == {"minimum": 0, "maximum": 100}
    meaning = switches["dealt_sets_locked"]["meaning"]
    assert set(meaning) == {"en", "vi", "zh_Hant"}
    assert meaning["en"] == "dealt triples and quads may not be split during play"
    assert meaning["vi"] != meaning["en"] and meaning["zh_Hant"] != meaning["en"]


@pytest.mark.django_db
def test_it_refuses_a_query_it_does_not_take(api: APIClient) -> None:
    assert api.get("/api/v1/rulesets/?ruleset=classic").status_code == 400
