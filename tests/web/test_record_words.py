"""The record editor in every language and in plain words: its status line names the players
("Göran to discard", not "seat 1 to discard"), an exhausted round says so, and the tags are
labelled in the page's language."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

import fourcolor
from drafts import services
from drafts.models import Draft
from drafts.play import state_json
from tests.web.dom import parse

pytestmark = pytest.mark.django_db
VALID = Path(__file__).resolve().parents[1] / "data" / "corpus" / "valid.fcn"
EXHAUSTED = 14  # a bga round of Göran, Bình and Jun, dealer Bình, that ends with the pile out


def draft_of(user: User, plies: int | None, tags: dict[str, str] | None = None) -> Draft:
    with VALID.open(encoding="utf-8") as lines:
        text = list(fourcolor.iter_records(lines))[EXHAUSTED].text
    record = fourcolor.parse_record(text)
    record.tags.pop("Result")
    record.tags.update(tags or {})
    if plies is not None:
        record.events = record.events[:plies]
    return services.create_from_fcn(user, fourcolor.write_fcn(record))


# (plies played, language, the status line)
STATUS = [
    (0, "en", "Bình (the dealer) to discard"),
    (0, "vi", "Bình (nhà cái) đánh bài"),
    (0, "zh-hant", "輪到莊家 Bình 打牌"),
    (1, "en", "claims, or Jun to draw"),
    (1, "vi", "ăn bài, hoặc Jun bốc"),
    (1, "zh-hant", "可吃碰胡，或輪到 Jun 摸牌"),
    (None, "en", "The pile ran out: nobody won"),
    (None, "vi", "Hết nọc: không ai ù"),
    (None, "zh-hant", "牌墩已摸完：無人胡牌"),
]


@pytest.mark.parametrize(("plies", "language", "status"), STATUS)
def test_it_says_what_the_round_waits_for_naming_the_players(
    user: User, plies: int | None, language: str, status: str
) -> None:
    draft = draft_of(user, plies)
    with translation.override(language):
        state = state_json(draft, lookahead=True)
    assert state["expected"] == status
    assert "seat" not in " ".join(n["expected"] for n in state["next"].values())


@pytest.mark.parametrize(("language", "label", "status"), [
    ("en", "Site: Hanoi", "Bình (the dealer) to discard"),
    ("vi", "Địa điểm: Hanoi", "Bình (nhà cái) đánh bài"),
    ("zh-hant", "地點：Hanoi", "輪到莊家 Bình 打牌"),
])
def test_the_editor_page_speaks_the_readers_language(
    client: Client, user: User, language: str, label: str, status: str
) -> None:
    draft = draft_of(user, 0, {"Site": "Hanoi"})
    client.force_login(user)
    client.cookies["django_language"] = language
    page = parse(client.get(f"/record/{draft.pk}/").content)
    assert page.find(data_field="expected").words() == status
    assert label in page.find("p", "game-meta").words()


def test_the_english_status_of_the_engine_names_seats() -> None:
    """The engine's own words (command line, replays) stay plain English with seat numbers."""
    with VALID.open(encoding="utf-8") as lines:
        record = fourcolor.parse_record(list(fourcolor.iter_records(lines))[EXHAUSTED].text)
    rnd = fourcolor.Round.from_record(record)
    assert rnd.expected() == "seat 2 (the dealer) to discard"
    for event in record.events:
        rnd.push(event)
    assert rnd.waiting() == ("exhausted", None)
    assert rnd.expected() == "the pile ran out: nobody won"


def test_every_status_of_the_engine_has_words() -> None:
    from fourcolor.messages import WAITING as ENGLISH
    from records.wording import WAITING

    assert set(WAITING) == set(ENGLISH)
