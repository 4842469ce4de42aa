"""Markup that assistive technology relies on, on every page: the language, one main heading
and no skipped heading levels, a label for every control, named charts and card images."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.web.conftest import SHARED, Archive
from tests.web.dom import Node, parse
from tests.web.upload_result import upload_and_follow

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]

UNLABELLED_TYPES = {"hidden", "submit", "button"}


def pages(archive: Archive) -> list[str]:
    assert archive.match is not None
    return [
        reverse("archive"),
        reverse("archive") + "?min_points=x",
        reverse("game", args=[archive.long.pk]) + "?ply=50",
        reverse("game", args=[archive.four.pk]) + "?ply=41&seat=2",
        reverse("players"),
        reverse("player", args=[archive.player("Ann").pk]),
        reverse("leaderboard") + "?min_rounds=1",
        reverse("leaderboard") + "?metric=rating",
        reverse("matches"),
        reverse("match", args=[archive.match.pk]),
        reverse("upload"),
        reverse("login"),
        reverse("account_signup"),
        reverse("account_reset_password"),
        reverse("check"),
        reverse("account_email"),
        reverse("account_reauthenticate"),
        reverse("account_change_password"),
    ]


def labelled(doc: Node, control: Node) -> bool:
    if control.attrs.get("aria-label") or control.attrs.get("aria-labelledby"):
        return True
    ident = control.attrs.get("id")
    return bool(ident) and bool(doc.find_all("label", **{"for": ident}))


def check_page(html: bytes) -> None:
    doc = parse(html)
    assert doc.find("html").attrs.get("lang")
    assert len(doc.find_all("h1")) == 1
    levels = [int(n.tag[1]) for n in doc.iter() if n.tag in {"h1", "h2", "h3", "h4", "h5"}]
    for before, after in zip(levels, levels[1:], strict=False):
        assert after <= before + 1, f"heading level jumps from h{before} to h{after}"
    for control in doc.iter():
        if control.tag in {"input", "select", "textarea"}:
            if control.attrs.get("type") in UNLABELLED_TYPES:
                continue
            assert labelled(doc, control), f"unlabelled {control.tag} {control.attrs}"
    for svg in doc.find_all("svg"):
        assert svg.attrs.get("role") == "img" and svg.find("title").text()
    for card in doc.find_all("li", "card"):
        if "card--back" in card.classes:
            continue
        assert card.find("span", "sr-only").text() == card.attrs["title"]
    assert doc.find("a", "skip-link").attrs["href"] == "#main"
    assert doc.find("main").attrs["id"] == "main"


def test_it_gives_every_page_accessible_markup(
    client: Client, archive: Archive, user: User
) -> None:
    client.force_login(user)
    # Signed in, the account pages send one on to the site (allauth): read them signed out.
    anonymous = {reverse("login"), reverse("account_signup"), reverse("account_reset_password")}
    for url in pages(archive):
        response = (Client() if url in anonymous else client).get(url)
        assert response.status_code == 200, url
        check_page(response.content)


def test_it_gives_the_upload_result_accessible_markup(
    client: Client, archive: Archive, user: User
) -> None:
    client.force_login(user)
    response = upload_and_follow(client, {"text": "[Ruleset \"classic\"]\n1x rK\n"})
    check_page(response.content)
