"""The site's icon: a small static SVG that every page links, and /favicon.ico (asked for by
browsers on pages without the link: the admin, the API's pages) redirected to it, not a 404."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.web.dom import parse

pytestmark = pytest.mark.django_db

ICON = Path(settings.BASE_DIR) / "static" / "img" / "favicon.svg"
ICON_URL = "/static/img/favicon.svg"


def test_it_links_the_icon_from_every_page(client: Client) -> None:
    for url in (reverse("archive"), reverse("players"), reverse("login")):
        links = [link for link in parse(client.get(url).content).find_all("link")
                 if link.attrs.get("rel") == "icon"]
        assert [(link.attrs["href"], link.attrs["type"]) for link in links] == [
            (ICON_URL, "image/svg+xml")], url


def test_it_redirects_favicon_ico_to_the_icon(client: Client) -> None:
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"] == ICON_URL
    assert "max-age=86400" in response["Cache-Control"]
    assert client.head("/favicon.ico").status_code == 302
    assert client.post("/favicon.ico").status_code == 405


def test_it_serves_the_icon_as_a_small_svg_from_the_site_itself(client: Client) -> None:
    # A static file of the project's own (whitenoise serves it, same origin: img-src 'self').
    assert finders.find(ICON_URL.removeprefix("/static/")) == str(ICON)
    assert "img-src 'self'" in client.get("/")["Content-Security-Policy"]
    text = ICON.read_text()
    assert len(text.encode()) < 1024
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert all(node.tag.split("}")[1] in {"svg", "rect", "circle", "path"}
               for node in root.iter())
    assert all("style" not in node.attrib and "href" not in node.attrib for node in root.iter())
