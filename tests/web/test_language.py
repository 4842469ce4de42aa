"""The interface in English, Traditional Chinese and Vietnamese: from the browser's language
or the selector (Django's set_language), with compiled catalogues kept in the repository."""

from __future__ import annotations

import ast
import gettext
import tempfile
import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from records.models import Game
from tests.web.conftest import Archive, illegal_text
from tests.web.dom import parse
from tests.web.upload_result import upload_and_follow

# Only the words are checked: the pages' queries run on both databases in their own modules.
pytestmark = [pytest.mark.django_db, pytest.mark.any_database]


@pytest.mark.parametrize(
    ("accept", "lang", "archive_title", "upload"),
    [
        ("en-GB,en;q=0.8", "en", "Archive", "Upload"),
        ("zh-TW,zh;q=0.9", "zh-hant", "牌譜庫", "上傳"),
        ("zh-Hant-HK", "zh-hant", "牌譜庫", "上傳"),
        ("vi-VN,vi;q=0.9,en;q=0.5", "vi", "Kho ván bài", "Tải lên"),
    ],
)
def test_it_speaks_the_browsers_language(
    client: Client, archive: Archive, accept: str, lang: str, archive_title: str, upload: str
) -> None:
    response = client.get(reverse("archive"), headers={"accept-language": accept})
    doc = parse(response.content)
    assert doc.find("html").attrs["lang"] == lang
    assert doc.find("h1").text() == archive_title
    assert upload in [a.text() for a in doc.find("nav", "site-nav").find_all("a")]


def test_it_translates_the_replay_including_card_names_for_the_script(
    client: Client, archive: Archive
) -> None:
    url = reverse("game", args=[archive.four.pk])
    zh = parse(client.get(url, {"ply": 41}, headers={"accept-language": "zh-TW"}).content)
    assert zh.find(data_field="ply-of").words() == "第 41 步，共 41 步"
    assert zh.find("h2", id="end-heading").text() == "結果"
    vi = client.get(url, {"ply": 1}, headers={"accept-language": "vi"}).content.decode()
    labels = parse(vi).find("script", id="replay-labels").text()
    assert json.loads(labels)["cards"]["rK"] == ["帥", "tướng đỏ"]
    assert "Nước 1 / 41" in vi


def test_it_switches_language_with_the_selector_and_remembers_it(
    client: Client, archive: Archive
) -> None:
    doc = parse(client.get(reverse("archive")).content)
    form = doc.find("form", "lang-form")
    assert form.attrs["action"] == reverse("set_language") and form.attrs["method"] == "post"
    options = {
        o.attrs["value"]: unicodedata.normalize("NFC", o.text())
        for o in form.find("select").find_all("option")
    }
    assert options == {"en": "English", "zh-hant": "繁體中文", "vi": "Tiếng Việt"}
    response = client.post(reverse("set_language"), {"language": "vi", "next": "/players/"})
    assert response.status_code == 302 and response["Location"] == "/players/"
    assert parse(client.get("/players/").content).find("h1").text() == "Người chơi"


def po_entries(po: Path) -> Iterator[dict[str, str]]:
    """The entries of a .po file as {"msgctxt", "msgid", "msgid_plural", "msgstr",
    "msgstr[0]", ...}, continuation lines joined and escapes undone."""
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        entry: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if line.startswith('"'):
                assert key is not None
                entry[key] += ast.literal_eval(line)
            else:
                key, value = line.split(" ", 1)
                entry[key] = ast.literal_eval(value)
        if entry.get("msgid"):
            yield entry


@pytest.mark.parametrize("code", ["zh_Hant", "vi"])
def test_it_ships_compiled_catalogues_that_match_the_sources(code: str) -> None:
    folder = Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)._catalog  # type: ignore[attr-defined]
    stale = []
    for entry in po_entries(folder / "django.po"):
        msgid = entry["msgid"]
        if "msgctxt" in entry:
            msgid = f"{entry['msgctxt']}\x04{msgid}"
        if "msgid_plural" in entry:
            pairs = [((msgid, int(k[7:-1])), v) for k, v in entry.items()
                     if k.startswith("msgstr[")]
        else:
            pairs = [(msgid, entry["msgstr"])]
        stale += [key for key, text in pairs if text and catalog.get(key) != text]
    assert stale == [], "run `manage.py compilemessages` and keep the .mo files"


def unfinished(po: Path) -> list[str]:
    """Every entry of a catalogue with an empty translation (any msgstr, msgstr[n] for
    plurals) or marked fuzzy (a guess by makemessages that nobody checked: gettext does not
    use it, so the page shows English), as "fuzzy: msgid" / "untranslated: msgid"."""
    out = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        flags = [f.strip() for line in block.splitlines() if line.startswith("#,")
                 for f in line[2:].split(",")]
        if block.lstrip().startswith("#~"):
            continue  # obsolete: no longer used by the code
        entries = list(po_entries_of(block))
        if not entries:
            continue
        entry = entries[0]
        texts = [v for k, v in entry.items() if k.startswith("msgstr")]
        if "fuzzy" in flags:
            out.append(f"fuzzy: {entry['msgid']}")
        elif not texts or any(not text for text in texts):
            out.append(f"untranslated: {entry['msgid']}")
    return out


def po_entries_of(block: str) -> Iterator[dict[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "one.po"
        path.write_text(block, encoding="utf-8")
        yield from po_entries(path)


@pytest.mark.parametrize("code", ["en", "zh_Hant", "vi"])
def test_it_has_no_untranslated_or_fuzzy_entry_in_the_catalogues(code: str) -> None:
    """Every entry of every catalogue is translated ("Sort by" options, refusal messages and
    categories in zh-Hant and vi too) and checked (English too: the source language's catalogue
    says each message as shown)."""
    po = Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES" / "django.po"
    assert unfinished(po) == []


def test_it_says_each_english_message_as_written() -> None:
    """The English catalogue translates every message to itself (a fuzzy match accepted by
    mistake would show another message's words)."""
    po = Path(settings.BASE_DIR) / "locale" / "en" / "LC_MESSAGES" / "django.po"
    wrong = []
    for entry in po_entries(po):
        if "msgid_plural" in entry:
            pairs = [(entry["msgid"], entry.get("msgstr[0]")),
                     (entry["msgid_plural"], entry.get("msgstr[1]"))]
        else:
            pairs = [(entry["msgid"], entry.get("msgstr"))]
        wrong += [msgid for msgid, text in pairs if text != msgid]
    assert wrong == []


def test_it_reports_an_untranslated_and_a_fuzzy_entry(tmp_path: Path) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Language: vi\\n"\n\n'
        '#: web/x.py:1\nmsgid "Sort by"\nmsgstr ""\n\n'
        '#: web/x.py:2\n#, fuzzy, python-format\n#| msgid "old %(n)s"\n'
        'msgid "new %(n)s"\nmsgstr "cũ %(n)s"\n\n'
        '#: web/x.py:3\nmsgid "one"\nmsgid_plural "many"\nmsgstr[0] ""\n\n'
        '#: web/x.py:4\nmsgid "done"\nmsgstr "xong"\n\n'
        '#~ msgid "gone"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    assert unfinished(po) == ["untranslated: Sort by", "fuzzy: new %(n)s", "untranslated: one"]


@pytest.mark.parametrize("code", ["zh-hant", "vi"])
def test_it_translates_every_sort_option_of_the_archive(client: Client, code: str) -> None:
    client.cookies["django_language"] = code
    doc = parse(client.get(reverse("archive")).content)
    options = [o.text() for o in doc.find("select", id="id_ordering").find_all("option")]
    assert len(options) == 11  # the default and both directions of five columns
    with translation.override("en"):
        english = [o.text() for o in parse(
            Client().get(reverse("archive")).content).find(
                "select", id="id_ordering").find_all("option")]
    assert not set(options) & set(english), set(options) & set(english)


@pytest.mark.parametrize(("lang", "move", "tag"), [
    ("en", "event", "event"), ("vi", "nước đi", "sự kiện"), ("zh-hant", "著法", "賽事"),
])
def test_it_tells_a_records_event_from_the_event_tag(
    signed_in: Client, lang: str, move: str, tag: str
) -> None:
    """"event" is both a move of the record (a refusal names the one at fault) and the `Event`
    tag (the game's field): two messages, told apart by their context."""
    text, _line, _bad = illegal_text()
    response = upload_and_follow(signed_in, {"text": text}, headers={"accept-language": lang})

    message = parse(response.content).find("p", "refusal__message").find("span", "muted")
    assert message.words().startswith(f"({move} ")
    with translation.override(lang):
        assert str(Game._meta.get_field("event").verbose_name) == tag


@pytest.mark.parametrize("code", ["zh_Hant", "vi"])
def test_it_keeps_the_two_events_apart_in_the_catalogues(code: str) -> None:
    po = Path(settings.BASE_DIR) / "locale" / code / "LC_MESSAGES" / "django.po"
    events = {entry.get("msgctxt", ""): entry["msgstr"] for entry in po_entries(po)
              if entry["msgid"] == "event"}
    assert set(events) == {"", "move in a game record"}
    assert len(set(events.values())) == 2 and all(events.values())


@pytest.mark.parametrize("code", ["en", "zh-hant", "vi"])
def test_it_gives_every_archive_filter_a_label_of_its_own(client: Client, code: str) -> None:
    """"Player" and "Players" (the number of seats) read the same in Vietnamese unless the
    second is said as a number."""
    client.cookies["django_language"] = code
    doc = parse(client.get(reverse("archive")).content)
    labels = [label.text() for label in doc.find("form", "form--filters").find_all("label")]
    assert len(labels) == len(set(labels)) == 13, labels
