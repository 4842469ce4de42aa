"""A decision whose best options the simulations cannot tell apart says so ("about equal") on
the replay page, in the reader's language, and in the API; an analysis stored before the
engine said so reads as not about equal."""

from __future__ import annotations

import pytest
from django.test import Client

from records.models import GameAnalysis
from tests.web.conftest import SHARED, Archive
from tests.web.test_replay_analysis import hand_made, page, visible

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("few_analysis_samples", SHARED)]


def _about_equal(archive: Archive, flag: bool | None) -> dict[str, int]:
    """The hand-made analysis with its good decision (at ply p2) marked about equal, or not,
    or (None) without the flag, as an analysis stored before the engine wrote it."""
    known = hand_made(archive.four)
    row = GameAnalysis.objects.get(game=archive.four)
    for decision in row.result["decisions"]:
        decision.pop("about_equal", None)
        if decision["ply"] == known["p2"] and flag is not None:
            decision["about_equal"] = flag
    row.save(update_fields=["result"])
    return known


def _sentence(client: Client, archive: Archive, ply: int, lang: str = "en") -> str:
    doc = page(client, archive.four, lang=lang, ply=ply)
    return visible(doc.find("div", data_analysis_ply=str(ply)).find("p", "decision__sentence"))


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "The best options are about equal"),
    ("zh-hant", "大致相當"),
    ("vi", "ngang nhau"),
])
def test_it_says_about_equal_in_the_readers_language(
    client: Client, archive: Archive, lang: str, words: str
) -> None:
    known = _about_equal(archive, True)
    assert words in _sentence(client, archive, known["p2"], lang)


@pytest.mark.parametrize("flag", [False, None])
def test_it_says_nothing_of_the_kind_otherwise(
    client: Client, archive: Archive, flag: bool | None
) -> None:
    known = _about_equal(archive, flag)
    sentence = _sentence(client, archive, known["p2"])
    assert sentence.endswith("was as good as the best option.")


def test_the_api_gives_the_flag_of_every_decision(client: Client, archive: Archive) -> None:
    known = _about_equal(archive, True)
    answer = client.get(f"/api/v1/games/{archive.four.pk}/analysis/").json()
    flags = {d["ply"]: d["about_equal"] for d in answer["result"]["decisions"]}
    assert flags.pop(known["p2"]) is True
    assert flags and not any(flags.values())  # absent from the stored ones: false
