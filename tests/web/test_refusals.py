"""Refusals in the reader's language, naming players ("seat 4 may not make a field
with another seat's draw" and its category in zh-Hant and vi too).

A refusal carries the engine's code and parameters; records.refusal_text says it per language
from those alone. Every code has a template here, the upload result and the API show it
translated with names, a refusal stored before codes shows its English, and rewording the
engine's English changes no page (nothing reads the English back)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

import fourcolor
from fourcolor import messages
from fourcolor.messages import MESSAGES
from records import refusal_text
from records.services import import_records
from tests.engine.helpers import placeholders
from tests.web.dom import parse

DATA = Path(__file__).resolve().parents[1] / "data"
INVALID = DATA / "corpus" / "invalid"

# A representative refusal per rule family, from the public corpus: (file, code, the message
# in English, Vietnamese and Traditional Chinese, with players and cards named).
CASES = [
    ("0002.fcn", "claim.no_right", {
        "en": "Noor may not make a field with another player’s draw",
        "vi": "Noor không được hạ một bộ xe pháo mã bằng bài người khác bốc",
        "zh-hant": "Noor 不可用他人摸的牌組成「車馬包」"}),
    ("0007.fcn", "hand.missing", {
        "en": "Hana does not hold green cannon, green cannon",
        "vi": "Hana không có pháo xanh, pháo xanh",
        "zh-hant": "Hana 手中沒有綠包炮、綠包炮"}),
    ("0014.fcn", "turn.draw", {
        "en": "Hana cannot draw now", "vi": "Hana chưa được bốc",
        "zh-hant": "Hana 現在不能摸牌"}),
    ("0015.fcn", "live.drawn", {
        "en": "the drawer must meld or discard the drawn yellow cannon, not discard yellow "
              "chariot",
        "vi": "người bốc phải hạ hoặc đánh lá pháo vàng vừa bốc, không được đánh xe vàng",
        "zh-hant": "摸牌者必須組合或打出摸到的黃包炮，而不是打出黃車俥"}),
    ("0013.fcn", "copies.dealt", {
        "en": "5 copies of red elephant dealt (a card has 4)",
        "vi": "chia 5 lá tượng đỏ (mỗi loại chỉ có 4 lá)",
        "zh-hant": "發出 5 張紅象相（每種牌只有 4 張）"}),
    ("0009.fcn", "tags.dealer_bad", {
        "en": "bad Dealer tag '9'", "vi": "thẻ Dealer sai: '9'",
        "zh-hant": "Dealer 標籤錯誤：'9'"}),
    ("0005.fcn", "syntax.card", {
        "en": "no such card 'Rk'", "vi": "không có lá 'Rk'", "zh-hant": "沒有 'Rk' 這張牌"}),
    ("0026.fcn", "record.result", {
        "en": "the Result tag says '4:10', the round gives '3:10'",
        "vi": "thẻ Result ghi '4:10', ván bài cho '3:10'",
        "zh-hant": "Result 標籤寫的是 '4:10'，牌局結果是 '3:10'"}),
]
LANGUAGES = ["en", "vi", "zh-hant"]


def test_every_code_has_a_template_with_the_engines_placeholders() -> None:
    """A template may only use parameters the engine gives for its code."""
    engine_only = {"stored"}  # a stored English message: shown as it is
    assert set(refusal_text.TEXTS) == set(MESSAGES) - engine_only
    for code, text in refusal_text.TEXTS.items():
        with translation.override("en"):
            names = set(re.findall(r"%\((\w+)\)s", str(text)))
        assert names <= placeholders(MESSAGES[code][1]), code


def test_every_category_has_a_label() -> None:
    assert {category for category, _ in MESSAGES.values()} <= set(refusal_text.CATEGORIES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_renders_in_every_language(language: str) -> None:
    """With any parameters of the right kinds, no template leaves a placeholder or fails."""
    sample: dict[str, Any] = {"cards": ["rK", "gP"], "card": "rK", "card2": "gP", "seat": 1,
                              "seat2": 2, "meld": "field", "kind": "triple", "rank": "R",
                              "where": "draw", "verb": "win", "right": "pong", "right2": "chi",
                              "verb_name": "discard", "n": 3, "m": 4}
    with translation.override(language):
        for code in refusal_text.TEXTS:
            params = {name: sample.get(name, "x") for name in placeholders(MESSAGES[code][1])}
            text = refusal_text.refusal_text({"code": code, "params": params, "message": "?"},
                                             ["Ann", "Bo"])
            assert text != "?" and "%(" not in text, code


@pytest.mark.django_db
def test_every_refusal_of_the_corpora_is_said_from_its_code() -> None:
    seen = 0
    for path in sorted(INVALID.glob("*.fcn")) + sorted(
        p for p in (DATA / "hostile").iterdir() if p.suffix != ".json"
    ):
        report = import_records(path.read_bytes(), max_problems=10_000)
        for result in report.problems:
            if result.status != "refused" or result.error is None:
                continue
            seen += 1
            assert result.error["code"] in refusal_text.TEXTS, result.error
            with translation.override("vi"):
                said = refusal_text.refusal_text(result.error)
            assert said and "%(" not in said
    assert seen > 80


@pytest.mark.parametrize(("name", "code", "said"), CASES, ids=[c[1] for c in CASES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_it_says_a_refusal_of_each_family_naming_players_and_cards(
    name: str, code: str, said: dict[str, str], language: str
) -> None:
    check = fourcolor.check_record((INVALID / name).read_text(encoding="utf-8"))
    assert check.error is not None and check.error.code == code
    seats = check.record.seats if check.record is not None else ()
    with translation.override(language):
        assert refusal_text.refusal_text(check.error.as_dict(), seats) == said[language]


def test_it_falls_back_to_the_seat_number_without_names() -> None:
    error = {"code": "turn.drawer", "params": {"seat": 2, "seat2": 1}, "seats": []}
    with translation.override("en"):
        assert refusal_text.refusal_text(error) == "seat 2 draws now, not seat 1"
    with translation.override("vi"):
        assert refusal_text.refusal_text(error) == "lúc này ghế 2 bốc, không phải ghế 1"


@pytest.mark.parametrize("language", LANGUAGES)
def test_it_shows_a_refusal_stored_before_codes_as_it_was_stored(language: str) -> None:
    old = {"category": "turn", "message": "seat 2 draws, not seat 1", "seats": ["Ann", "Bo"]}
    with translation.override(language):
        assert refusal_text.refusal_text(old) == "seat 2 draws, not seat 1"
    # Parameters of another engine version: its stored English rather than a 500.
    odd = {"code": "turn.drawer", "params": {"seat": 2}, "message": "as stored"}
    assert refusal_text.refusal_text(odd) == "as stored"


def upload(language: str, text: bytes) -> Any:
    client = Client()
    client.force_login(User.objects.get_or_create(username="uploader")[0])
    client.cookies["django_language"] = language
    file = SimpleUploadedFile("bad.fcn", text, "text/plain")
    response = client.post(reverse("upload"), {"file": file}, follow=True)
    return parse(response.content).find("li", data_status="refused")


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "code", "said"), CASES[:3], ids=[c[1] for c in CASES[:3]])
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_upload_result_says_it_in_the_readers_language(
    name: str, code: str, said: dict[str, str], language: str
) -> None:
    row = upload(language, (INVALID / name).read_bytes())
    assert row.find(data_field="message").words().startswith(said[language])
    category = MESSAGES[code][0]
    with translation.override(language):
        assert row.find(data_field="category").words() == refusal_text.category_label(category)
    if language != "en":
        assert "seat " not in row.words() and category not in row.words()


@pytest.mark.django_db
def test_rewording_the_engines_english_changes_no_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing parses the English: a new wording of the engine's template (here the claim
    refusal's) leaves every page as it was, and the engine's message says the new words."""
    monkeypatch.setitem(messages.MESSAGES, "claim.no_right",
                        ("claim-right", "no {meld} for seat {seat} from {where}, sorry"))
    row = upload("vi", (INVALID / "0002.fcn").read_bytes())
    assert row.find(data_field="message").words().startswith(CASES[0][2]["vi"])
    row = upload("en", (INVALID / "0002.fcn").read_bytes())
    assert row.find(data_field="message").words().startswith(CASES[0][2]["en"])
    check = fourcolor.check_record((INVALID / "0002.fcn").read_text(encoding="utf-8"))
    assert check.error is not None
    assert check.error.message == "no field for seat 4 from another seat’s draw, sorry"


@pytest.mark.django_db
def test_a_report_stored_before_codes_shows_its_english() -> None:
    """A job's report from before refusals had codes: its words as stored, no 500."""
    from jobs.models import Job

    user = User.objects.create_user("old-uploader")
    report = import_records((INVALID / "0002.fcn").read_bytes(), user).as_dict()
    for key in ("results", "problems"):
        for result in report[key]:
            del result["error"]["code"], result["error"]["params"]
    job = Job.objects.create(kind="import", created_by=user, status="done", report=report)
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "vi"
    response = client.get(reverse("upload-result", args=[job.pk]))
    assert response.status_code == 200
    row = parse(response.content).find("li", data_status="refused")
    assert row.find(data_field="message").words().startswith(
        "seat 4 may not make a field with another seat’s draw"
    )
