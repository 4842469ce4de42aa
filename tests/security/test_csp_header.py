"""The Content-Security-Policy header on every page, and no template or page that needs
inline script or style (which the policy would block): a fast check of what the browser test
(tests/web/browser/test_content_security_policy.py) sees in Chromium, covering templates no
test visits."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from tests.web.conftest import Archive

POLICY = {
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "font-src 'self'", "connect-src 'self'", "worker-src 'self' blob:", "object-src 'none'",
    "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'",
}
# Inline code the policy refuses: a <script> without src (JSON data blocks are not run), a
# <style> element, a style attribute, an event-handler attribute, a javascript: address.
INLINE = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I),
    "style element": re.compile(r"<style\b", re.I),
    "style attribute": re.compile(r"<[a-z][^>]*\sstyle=", re.I),
    "event handler": re.compile(r"<[a-z][^>]*\son[a-z]+=", re.I),
    "javascript: address": re.compile(r"(?:href|src|action)=[\"']?javascript:", re.I),
}


def _inline(html: str) -> list[str]:
    return [name for name, pattern in INLINE.items() if pattern.search(html)]


def _templates() -> list[Path]:
    roots = [Path(settings.BASE_DIR) / "templates",
             *Path(settings.BASE_DIR).glob("*/templates")]
    return sorted(p for root in roots for p in root.rglob("*.html"))


@pytest.mark.parametrize("template", _templates(), ids=lambda p: str(p.relative_to(
    settings.BASE_DIR)))
def test_it_has_no_inline_script_or_style_in_any_template(template: Path) -> None:
    # {% comment %} blocks may talk about <style>; only the markup counts.
    text = re.sub(r"{% comment %}.*?{% endcomment %}", "", template.read_text(), flags=re.S)
    assert _inline(text) == []


@pytest.mark.django_db
def test_it_sends_the_policy_with_every_page(
    client: Client, archive: Archive, user: User
) -> None:
    User.objects.create_superuser("admin", password="x")
    # Signed in, the account pages send one on to the site: read them first, signed out.
    for page in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        response = client.get(page)
        assert response.status_code == 200, page
        assert {d.strip() for d in response["Content-Security-Policy"].split(";")} >= POLICY
    pages = ["/", "/players/", "/matches/", "/admin/login/",
             f"/games/{archive.four.pk}/", f"/players/{archive.player('Ann').pk}/",
             "/api/v1/docs/", "/api/v1/redoc/", "/api/v1/", "/healthz"]
    client.force_login(user)
    pages.append("/upload/")
    for page in pages:
        response = client.get(page)
        assert response.status_code == 200, page
        directives = {d.strip() for d in response["Content-Security-Policy"].split(";")}
        extra = {d for d in directives - POLICY if not d.startswith("style-src 'self' 'nonce-")}
        if page == "/api/v1/redoc/":
            # Redocly's logo in Redoc's menu, that one file (tests/api/test_docs_pages.py).
            extra -= {"img-src 'self' data: https://cdn.redoc.ly/redoc/logo-mini.svg"}
            directives.add("img-src 'self' data:")
        assert POLICY - directives <= {"style-src 'self'"} and not extra, (page, directives)
        assert "unsafe-inline" not in response["Content-Security-Policy"]
        assert "unsafe-eval" not in response["Content-Security-Policy"]
        if response["Content-Type"].startswith("text/html") and not page.startswith("/api/v1/"):
            # The site's own pages; DRF's browsable API (/api/v1/ in a browser) has style
            # attributes of its own, which its pages' policy allows (the test below).
            assert _inline(response.content.decode()) == [], page


@pytest.mark.django_db
def test_it_allows_redoc_styles_by_nonce_on_the_redoc_page_only(client: Client) -> None:
    redoc = client.get("/api/v1/redoc/")
    swagger = client.get("/api/v1/docs/")["Content-Security-Policy"]

    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", redoc["Content-Security-Policy"])
    assert nonce is not None
    # The page hands that nonce to Redoc (js/redoc-init.js reads it from its script element).
    assert f'nonce="{nonce.group(1)}"' in redoc.content.decode()
    assert "nonce-" not in swagger


def _directives(response: HttpResponse) -> dict[str, str]:
    parts = (d.strip().split(" ", 1) for d in response["Content-Security-Policy"].split(";"))
    return {name: (rest[0] if rest else "") for name, *rest in parts}


@pytest.mark.django_db
def test_it_allows_the_browsable_apis_styles_on_its_html_pages_only(
    client: Client, archive: Archive
) -> None:
    html = {"accept": "text/html"}
    pages = ["/api/v1/", "/api/v1/games/", f"/api/v1/games/{archive.four.pk}/", "/api/v1/uploads/"]
    for page in pages:
        response = client.get(page, headers=html)
        assert response["Content-Type"].startswith("text/html"), page
        directives = _directives(response)
        # What DRF's templates need: their style attributes, and their one <style> element
        # (Pygments' rules), by its hash.
        assert directives["style-src-attr"] == "'unsafe-inline'", page
        body = response.content.decode()
        elements = re.findall(r"<style>(.*?)</style>", body, re.S)
        if page == "/api/v1/games/":
            assert elements and re.search(r"<[a-z][^>]*\sstyle=", body)  # what it is for
        hashes = {"'sha256-{}'".format(base64.b64encode(
            hashlib.sha256(css.encode()).digest()).decode()) for css in elements}
        assert directives["style-src"] == " ".join(["'self'", *sorted(hashes)]), page
        # Nothing else: scripts and the rest as strict as anywhere.
        assert {f"{k} {v}" for k, v in directives.items()
                if k not in ("style-src", "style-src-attr")} == POLICY - {"style-src 'self'"}
        assert "'unsafe-inline'" not in directives["style-src"] + directives["script-src"]

    # The same addresses in JSON, the API's documentation pages and the site's own pages:
    # the strict policy, no style-src-attr.
    strict = [*pages, "/api/v1/games/?format=json", "/api/v1/docs/", "/", "/players/",
              "/accounts/login/"]
    for page in strict:
        response = client.get(page)
        if page.startswith("/api/v1/") and "docs" not in page:
            assert response["Content-Type"].startswith("application/json"), page
        directives = _directives(response)
        assert "style-src-attr" not in directives, page
        assert directives["style-src"] == "'self'", page
