"""An upload's result page (/upload/<job>/): the upload form's POST answers 303 to it whatever
the verdicts, so the result has an address of its own that is reloaded and shared without
sending the file again; only the uploader and staff see it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from jobs.models import Job
from records.models import Game
from tests.web.conftest import FOUR, illegal_text, record_text
from tests.web.dom import parse

pytestmark = pytest.mark.django_db


def good(seed: int) -> str:
    return record_text("classic", 4, seed, FOUR)


def statuses(content: bytes) -> list[str]:
    return [row.attrs["data-status"] for row in parse(content).find_all("li", "result")]


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param(lambda: good(1), ["stored"], id="accepted"),
    pytest.param(lambda: good(2) + "\n" + illegal_text()[0], ["stored", "refused"],
                 id="partly-refused"),
    pytest.param(lambda: illegal_text()[0], ["refused"], id="wholly-refused"),
])
def test_it_redirects_every_upload_to_its_result_page(
    signed_in: Client, text: object, expected: list[str]
) -> None:
    response = signed_in.post(reverse("upload"), {"text": text()})  # type: ignore[operator]

    job = Job.objects.get(kind=Job.Kind.IMPORT)
    # 303: the browser GETs the result; a wholly refused upload is no longer a 400 answer.
    assert response.status_code == 303
    assert response["Location"] == reverse("upload-result", args=[job.pk]) == f"/upload/{job.pk}/"
    page = signed_in.get(response["Location"])
    assert page.status_code == 200
    assert statuses(page.content) == expected
    assert parse(page.content).find("h1").words() == "Upload result"
    # "Upload more" sends the next file to the upload form, not to this page.
    assert parse(page.content).find("form", cls="form--upload").attrs["action"] == "/upload/"


def test_it_shows_the_same_result_on_a_reload_without_storing_anything_again(
    signed_in: Client,
) -> None:
    response = signed_in.post(reverse("upload"), {"text": good(3) + "\n" + good(4)})
    first = signed_in.get(response["Location"])
    stored = list(Game.objects.values_list("pk", flat=True))

    again = signed_in.get(response["Location"])

    assert again.status_code == 200
    assert statuses(again.content) == statuses(first.content) == ["stored", "stored"]
    # The verdicts, not duplicates: the reload read the result, it did not upload again.
    links = [a.attrs["href"] for a in parse(again.content).find("ol", "results-list").find_all("a")]
    assert links == [f"/games/{pk}/" for pk in sorted(stored)]
    assert Game.objects.count() == 2 and Job.objects.filter(kind=Job.Kind.IMPORT).count() == 1


@pytest.mark.parametrize(("who", "status"), [("uploader", 200), ("staff", 200), ("other", 404)])
def test_it_shows_a_result_only_to_its_uploader_and_staff(
    signed_in: Client, who: str, status: int
) -> None:
    location = signed_in.post(reverse("upload"), {"text": good(5)})["Location"]
    viewer = signed_in
    if who != "uploader":
        viewer = Client()
        viewer.force_login(User.objects.create_user(who, is_staff=who == "staff"))

    page = viewer.get(location)

    assert page.status_code == status
    if status == 404:  # as for an upload that does not exist: nothing of it shown
        assert "Ann" not in page.content.decode() and b"results-list" not in page.content


def test_it_sends_anonymous_visitors_to_sign_in(signed_in: Client) -> None:
    location = signed_in.post(reverse("upload"), {"text": good(6)})["Location"]

    response = Client().get(location)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={location}"


def test_it_has_no_result_page_for_another_kind_of_job(signed_in: Client, user: User) -> None:
    job = Job.objects.create(kind=Job.Kind.REVALIDATE, created_by=user)

    assert signed_in.get(reverse("upload-result", args=[job.pk])).status_code == 404
    assert signed_in.get(reverse("upload-result", args=[job.pk + 1])).status_code == 404


def test_it_refuses_a_post_to_the_result_page(signed_in: Client) -> None:
    location = signed_in.post(reverse("upload"), {"text": good(7)})["Location"]

    assert signed_in.post(location, {"text": good(8)}).status_code == 405
    assert Game.objects.count() == 1
