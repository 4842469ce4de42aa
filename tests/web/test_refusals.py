"""Refusals in the reader's language, naming players ("seat 4 may not make a field
with another seat's draw" and its category in zh-Hant and vi too).

web.refusals is a catalogue keyed by the engine's error category and the message's shape: every
refusal of the public corpus and of the hostile corpus must have an entry (a new engine message
fails here until it gets one), and the upload result shows it translated with names."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from records.services import import_records
from tests.web.dom import parse
from web import refusals

DATA = Path(__file__).resolve().parents[1] / "data"
CLAIM_RIGHT = DATA / "corpus" / "invalid" / "0002.fcn"  # seat 4 (Noor) makes a field


def corpus_files() -> list[Path]:
    files = sorted((DATA / "corpus" / "invalid").glob("*.fcn"))
    files += sorted(p for p in (DATA / "hostile").iterdir() if p.suffix != ".json")
    return files


@pytest.mark.django_db
def test_every_refusal_of_the_corpora_has_a_catalogue_entry() -> None:
    unknown: set[tuple[str, str]] = set()
    seen = 0
    for path in corpus_files():
        report = import_records(path.read_bytes(), max_problems=10_000)
        for result in report.problems:
            if result.status != "refused" or result.error is None:
                continue
            seen += 1
            if refusals.find(result.error["category"], result.error["message"]) is None:
                unknown.add((result.error["category"], result.error["message"]))
    assert seen > 80
    assert unknown == set()


def test_every_category_has_a_label() -> None:
    categories = {entry.category for entry in refusals.CATALOGUE}
    assert categories <= set(refusals.CATEGORIES)


@pytest.mark.parametrize(
    ("language", "message", "category"),
    [
        ("en", "Noor may not make a field with another player’s draw", "claim right"),
        ("zh-hant", "Noor 不可用他人摸的牌組成「車馬包」", "吃碰權"),
        ("vi", "Noor không được hạ một bộ xe pháo mã bằng bài người khác bốc", "quyền ăn"),
    ],
)
def test_it_translates_a_refusal_and_names_the_player(
    language: str, message: str, category: str
) -> None:
    error = {"category": "claim-right",
             "message": "seat 4 may not make a field with another seat’s draw",
             "seats": ["Мария", "Pita", "Farah", "Noor"]}
    with translation.override(language):
        assert refusals.refusal_message(error) == message
        assert refusals.category_label("claim-right") == category


def test_it_falls_back_to_the_seat_number_without_names() -> None:
    error = {"category": "turn", "message": "seat 2 draws, not seat 1", "seats": []}
    with translation.override("en"):
        assert refusals.refusal_message(error) == "seat 2 draws now, not seat 1"


def test_it_shows_a_message_it_does_not_know_as_the_engine_wrote_it() -> None:
    error = {"category": "turn", "message": "a brand new rule was broken", "seats": []}
    assert refusals.refusal_message(error) == "a brand new rule was broken"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words", "label"),
    [("zh-hant", "Noor 不可用他人摸的牌", "吃碰權"),
     ("vi", "Noor không được hạ", "quyền ăn")],
)
def test_the_upload_result_says_it_in_the_readers_language(
    language: str, words: str, label: str
) -> None:
    client = Client()
    client.force_login(User.objects.create_user("uploader", password="pw-12345678"))
    client.cookies["django_language"] = language
    upload = SimpleUploadedFile("bad.fcn", CLAIM_RIGHT.read_bytes(), "text/plain")
    response = client.post(reverse("upload"), {"file": upload}, follow=True)
    doc = parse(response.content)
    row = doc.find("li", data_status="refused")
    assert row.find(data_field="message").words().startswith(words)
    assert row.find(data_field="category").words() == label
    assert "seat 4" not in row.words() and "claim-right" not in row.words()
