"""The upload page when the database stays unavailable during the import: a 503 page that lists
what was stored and says, for every record not stored, to upload the file again later (the
records already stored then come back as duplicates); in every language."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.test import Client
from django.urls import reverse

from records.models import Game
from tests.records.conftest import bad_record, fcn_file, first_line_of, good_texts
from tests.records.db_down import database_down_after
from tests.web.dom import parse

pytestmark = pytest.mark.django_db(transaction=True)  # the import's retries need autocommit

NOTICE = {
    "en": "Not stored: the database was unavailable — upload the file again later; records "
          "already stored will be reported as duplicates.",
    "vi": "Chưa lưu: cơ sở dữ liệu không truy cập được — hãy tải lên lại tệp sau; các ván đã "
          "lưu sẽ được báo là trùng.",
    "zh-hant": "未儲存：資料庫暫時無法使用 — 請稍後再上傳一次檔案；已儲存的牌譜會標示為重複。",
}


def _texts() -> list[str]:
    texts = good_texts(5, start=4500)
    texts.insert(2, bad_record().text)
    return texts


@pytest.mark.parametrize("lang", list(NOTICE))
def test_it_says_which_records_were_not_stored_and_to_upload_again(
    user: User, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    client = Client(headers={"accept-language": lang})
    client.force_login(user)
    upload = SimpleUploadedFile("club.fcn", fcn_file(_texts()).encode(), "text/plain")
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        response = client.post(reverse("upload"), {"file": upload})

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    doc = parse(response.content)
    assert doc.find(data_field="unavailable").words() == NOTICE[lang]
    rows = doc.find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == (
        ["stored", "stored", "refused"] + ["unavailable"] * 3)
    for row in rows[3:]:
        assert row.find("p", "unavailable").words()
        assert not row.find_all("a")  # no game to link to
    assert Game.objects.count() == 2


SUMMARY = {
    "en": ("not stored: database unavailable",
           "The import stopped at record 4 (line {line}): it and the records after it were not "
           "stored."),
    "vi": ("chưa lưu: cơ sở dữ liệu không truy cập được",
           "Việc nhập dừng ở ván 4 (dòng {line}): ván này và các ván sau chưa được lưu."),
    "zh-hant": ("份未儲存：資料庫無法使用",
                "匯入在牌譜 4（第 {line} 行）停止：該份及其後的牌譜都未儲存。"),
}


@pytest.mark.parametrize("lang", list(SUMMARY))
def test_it_counts_the_records_not_stored_and_says_where_the_import_stopped(
    user: User, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    client = Client(headers={"accept-language": lang})
    client.force_login(user)
    texts = _texts()
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        response = client.post(reverse("upload"), {"text": fcn_file(texts)})

    assert response.status_code == 503
    doc = parse(response.content)
    counts = {n.attrs["data-count"]: n.words() for n in doc.find_all("strong", data_count=True)}
    assert counts == {"stored": "2", "duplicate": "0", "refused": "1", "unavailable": "3"}
    label, hint = SUMMARY[lang]
    item = doc.find("li", "summary__item--not-stored")
    assert item.words() == f"3 {label}"
    # Record 4 is the first not stored (the third was refused): its first line in the file.
    assert doc.find(data_field="resume").words() == hint.format(line=first_line_of(texts, 3))


def test_it_stores_the_rest_when_the_file_is_sent_again(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    client.force_login(user)
    text = fcn_file(_texts())
    with monkeypatch.context() as patch:
        database_down_after(patch, batches=1)
        assert client.post(reverse("upload"), {"text": text}).status_code == 503

    response = client.post(reverse("upload"), {"text": text})

    assert response.status_code == 200
    doc = parse(response.content)
    assert not doc.find_all(data_field="unavailable")
    assert not doc.find_all(data_field="resume") and not doc.find_all(data_count="unavailable")
    rows = doc.find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == (
        ["duplicate", "duplicate", "refused"] + ["stored"] * 3)
    assert Game.objects.count() == 5


def test_it_still_answers_when_the_database_is_down_for_the_page_too(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    client.force_login(user)

    def down(*args: object, **kwargs: object) -> None:
        raise OperationalError("server closed the connection unexpectedly")

    with monkeypatch.context() as patch:
        database_down_after(patch, batches=0)
        patch.setattr(Game.objects, "filter", down)  # the result page's look-up of the games
        response = client.post(reverse("upload"), {"text": fcn_file(good_texts(2, start=4510))})

    assert response.status_code == 503
    rows = parse(response.content).find("ol", "results-list").find_all("li", "result")
    assert [row.attrs["data-status"] for row in rows] == ["unavailable"] * 2
