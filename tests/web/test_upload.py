"""Upload: signed-in users only, CSRF-protected; each record stored, a duplicate or refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from jobs.models import Job
from records.models import Game
from tests.web.conftest import (
    FOUR,
    HOUSE_SWITCH,
    HTML_NAME,
    house_text,
    illegal_text,
    record_text,
)
from tests.web.dom import Node, parse
from tests.web.upload_result import upload_and_follow

pytestmark = pytest.mark.django_db


def good(seed: int) -> str:
    return record_text("classic", 4, seed, FOUR)


def results(doc: Node) -> list[Node]:
    return doc.find("ol", "results-list").find_all("li", "result")


def test_it_sends_visitors_to_sign_in_first(client: Client) -> None:
    response = client.get(reverse("upload"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('upload')}"
    assert client.post(reverse("upload"), {"text": good(1)}).status_code == 302
    assert Game.objects.count() == 0


def test_it_shows_the_form_with_a_csrf_token(signed_in: Client) -> None:
    doc = parse(signed_in.get(reverse("upload")).content)
    form = doc.find("form", cls="form--upload")
    assert form.attrs["method"] == "post" and form.attrs["enctype"] == "multipart/form-data"
    assert form.find_all("input", name="csrfmiddlewaretoken")
    assert doc.find("label", **{"for": "id_text"}).words() == "Paste records"
    assert doc.find("label", **{"for": "id_file"}).words() == "or choose a file"


def test_it_refuses_a_post_without_the_csrf_token(user: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("upload"), {"text": good(1)})
    assert response.status_code == 403
    assert "security token" in response.content.decode()
    assert Game.objects.count() == 0


def test_it_stores_pasted_records_and_links_each_to_its_game(signed_in: Client) -> None:
    text = good(1) + "\n" + good(2)
    response = upload_and_follow(signed_in, {"text": text})
    doc = parse(response.content)
    rows = results(doc)
    assert [r.attrs["data-status"] for r in rows] == ["stored", "stored"]
    games = list(Game.objects.order_by("pk"))
    assert [r.find("a").attrs["href"] for r in rows] == [f"/games/{g.pk}/" for g in games]
    assert all(g.uploaded_by is not None and g.uploaded_by.username == "uploader" for g in games)
    assert HTML_NAME not in response.content.decode()  # the names are listed, escaped


def test_it_reports_a_file_with_a_good_a_duplicate_and_an_illegal_record(
    signed_in: Client,
) -> None:
    signed_in.post(reverse("upload"), {"text": good(4)})
    existing = Game.objects.get()
    bad, bad_line, bad_text = illegal_text()
    content = "\n".join([good(5), good(4), bad])
    upload = SimpleUploadedFile("club.fcn", content.encode("utf-8"), "text/plain")
    response = upload_and_follow(signed_in, {"file": upload})
    doc = parse(response.content)
    assert {n.attrs["data-count"]: n.words() for n in doc.find_all("strong", data_count=True)} == {
        "stored": "1", "duplicate": "1", "refused": "1"}
    stored, duplicate, refused = results(doc)
    new = Game.objects.exclude(pk=existing.pk).get()
    assert stored.attrs["data-status"] == "stored"
    assert stored.find("a").attrs["href"] == f"/games/{new.pk}/"
    assert duplicate.attrs["data-status"] == "duplicate"
    assert duplicate.find("a").attrs["href"] == f"/games/{existing.pk}/"
    assert refused.attrs["data-status"] == "refused"
    first_line = 1 + (good(5) + "\n" + good(4) + "\n").count("\n")
    fields = {n.attrs["data-field"]: n.words() for n in refused.find_all(data_field=True)}
    assert fields["line"] == str(first_line + bad_line - 1)
    assert fields["col"] == "1" and fields["ply"] == "1"
    assert fields["category"] == "card not in hand"
    assert refused.find(data_field="category").attrs["data-category"] == "not-in-hand"
    assert fields["message"].startswith("Ann does not hold ")  # the player, not "seat 1"
    code = refused.find("pre").find("code")
    assert code.find("mark").text() == bad_text[0]
    assert code.text().endswith(bad_text)
    assert Game.objects.count() == 2


def test_it_refuses_a_file_that_is_not_utf8_with_its_position(signed_in: Client) -> None:
    content = good(6).replace("Ann", "Ann\udcff").encode("utf-8", "surrogateescape")
    upload = SimpleUploadedFile("latin1.fcn", content, "text/plain")
    doc = parse(upload_and_follow(signed_in, {"file": upload}).content)
    (row,) = results(doc)
    fields = {n.attrs["data-field"]: n.words() for n in row.find_all(data_field=True)}
    assert row.attrs["data-status"] == "refused"
    assert fields["category"] == "encoding" and "invalid UTF-8" in fields["message"]
    assert row.find(data_field="category").attrs["data-category"] == "encoding"
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Paste at least one record or choose a file."),
        ({"text": "   \n"}, "Paste at least one record or choose a file."),
        ({"text": "x", "file": "both"}, "Paste records or choose a file, not both."),
    ],
)
def test_it_explains_an_empty_or_double_submission(
    signed_in: Client, data: dict[str, str], message: str
) -> None:
    if data.get("file") == "both":
        data = {"text": good(1), "file": SimpleUploadedFile("a.fcn", good(2).encode())}
    response = signed_in.post(reverse("upload"), data)
    assert response.status_code == 400
    assert parse(response.content).find("div", "errors").words() == message
    assert Game.objects.count() == 0


def test_it_says_when_the_text_holds_no_record(signed_in: Client) -> None:
    doc = parse(upload_and_follow(signed_in, {"text": "just some words\n"}).content)
    rows = results(doc)
    assert len(rows) == 1 and rows[0].attrs["data-status"] == "refused"


def test_it_refuses_a_file_above_the_size_limit(
    signed_in: Client, settings: object
) -> None:
    settings.UPLOAD_MAX_BYTES = 100  # type: ignore[attr-defined]
    upload = SimpleUploadedFile("big.fcn", good(1).encode())
    response = signed_in.post(reverse("upload"), {"file": upload})
    assert response.status_code == 400
    assert "the upload page takes at most 100 bytes" in response.content.decode()


def test_it_refuses_only_the_record_holding_a_nul_character(signed_in: Client) -> None:
    bad = good(8).replace("Club night", "Club\x00night", 1)
    assert "\x00" in bad
    text = good(7) + "\n" + bad + "\n" + good(9)
    doc = parse(upload_and_follow(signed_in, {"text": text}).content)
    rows = results(doc)
    assert [r.attrs["data-status"] for r in rows] == ["stored", "refused", "stored"]
    assert Game.objects.count() == 2


@pytest.mark.parametrize("path", ["/upload/", "/check/"])
def test_it_refuses_several_files_under_one_field_rather_than_keep_one(
    signed_in: Client, path: str
) -> None:
    files = [SimpleUploadedFile(f"{n}.fcn", good(n).encode()) for n in (10, 11)]
    response = signed_in.post(path, {"file": files})
    assert response.status_code == 400
    assert parse(response.content).find("div", "errors").words() == (
        "Choose one file at a time: this upload sent 2.")
    assert Game.objects.count() == 0


@pytest.mark.parametrize("on_worker", [False, True], ids=["in-the-request", "on-the-worker"])
def test_it_reads_records_without_their_own_switches_under_the_picked_house_rules(
    signed_in: Client, settings: Any, on_worker: bool
) -> None:
    if on_worker:  # the picked rules travel with the job (its options) to the worker's run
        settings.BACKGROUND_IMPORT_MIN_BYTES = 200
    text, line = house_text()
    # Under bga's own colour groups (soldiers only) the four generals are no meld: refused, at
    # the meld, and nothing stored.
    doc = parse(upload_and_follow(signed_in, {"text": text,
                                              "switches": "color_groups=soldiers"}).content)
    [refused] = results(doc)
    assert refused.attrs["data-status"] == "refused"
    assert refused.find(**{"data-field": "line"}).words() == str(line)
    assert refused.find(**{"data-field": "category"}).attrs["data-category"] == "not-a-meld"
    assert Game.objects.count() == 0
    # Under the house rule that allows them: stored, as the uploaded text plus the tag line,
    # and the result names the variant in words.
    doc = parse(upload_and_follow(signed_in, {"text": text, "switches": HOUSE_SWITCH}).content)
    [stored] = results(doc)
    assert stored.attrs["data-status"] == "stored"
    game = Game.objects.get()
    assert game.original_text == f'[Switches "{HOUSE_SWITCH}"]\n{text}'
    assert game.switches == HOUSE_SWITCH
    assert stored.find(**{"data-field": "variant"}).words().startswith(
        "(bga, colour groups of any rank, 4 players;")
    assert doc.find(**{"data-field": "given"}).find("code").words() == (
        f'[Switches "{HOUSE_SWITCH}"]')
    assert Job.objects.filter(options={"given": {"Switches": HOUSE_SWITCH}}).count() == 1


@pytest.mark.parametrize(("own", "picked", "status", "added"), [
    ('[Switches "color_groups=soldiers"]', {"switches": HOUSE_SWITCH}, "refused", ""),
    ('[Switches "color_groups=any"]', {"switches": "color_groups=soldiers"}, "stored", ""),
    ("", {"switches": HOUSE_SWITCH, "ruleset": "classic"}, "stored",
     f'[Switches "{HOUSE_SWITCH}"]\n'),
], ids=["own-refusing-switches", "own-allowing-switches", "own-ruleset"])
def test_it_leaves_a_records_own_tags_as_they_are(
    signed_in: Client, own: str, picked: dict[str, str], status: str, added: str
) -> None:
    text, _line = house_text()
    if own:
        text = f"{own}\n{text}"
    doc = parse(upload_and_follow(signed_in, {"text": text, **picked}).content)
    assert [row.attrs["data-status"] for row in results(doc)] == [status]
    if status == "stored":
        game = Game.objects.get()
        assert game.original_text == added + text  # only the tag it lacked is added
        assert game.ruleset == "bga"


def test_it_gives_the_picked_ruleset_to_records_without_one(signed_in: Client) -> None:
    text = good(5).replace('[Ruleset "classic"]\n', "")
    assert Client().post("/check/", {"text": text}).content.count(b"refused") >= 1
    doc = parse(upload_and_follow(signed_in, {"text": text, "ruleset": "classic"}).content)
    assert [row.attrs["data-status"] for row in results(doc)] == ["stored"]
    assert Game.objects.get().original_text == f'[Ruleset "classic"]\n{text}'


def test_it_refuses_an_unknown_switch_in_the_form(signed_in: Client) -> None:
    response = signed_in.post(reverse("upload"), {"text": good(1), "switches": "steal=never"})
    assert response.status_code == 400
    error = parse(response.content).find("p", "field__error").words()
    assert "unknown switch 'steal'" in error
    assert Game.objects.count() == 0


@pytest.mark.parametrize(("accept", "legend", "switch_help"), [
    ("en", "Records that do not name their ruleset or house rules", "What each switch does"),
    ("vi", "Ván bài không ghi bộ luật hoặc luật riêng", "Mỗi công tắc làm gì"),
    ("zh-Hant", "未註明規則或自訂規則的牌譜", "每個選項的作用"),
])
def test_it_says_what_the_picked_rules_do_in_the_pages_language(
    signed_in: Client, accept: str, legend: str, switch_help: str
) -> None:
    doc = parse(signed_in.get(reverse("upload"), headers={"accept-language": accept}).content)
    assert doc.find("fieldset", "form__given").find("legend").words() == legend
    assert doc.find("details", "house-rules").find("summary").words() == switch_help
    note = doc.find(**{"data-field": "given-note"}).words()
    assert ("plus that line" in note) == (accept == "en")  # the stored text is said, translated
    assert len(doc.find("dl", "house-rules__list").find_all("dt")) == 8
