"""/api/v1/docs/ (Swagger UI) and /api/v1/redoc/ (Redoc): served by the project, no CDN."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

ASSET = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_it_serves_the_api_documentation_from_its_own_static_files(
    client: Client, path: str
) -> None:
    response = client.get(path)

    assert response.status_code == 200
    html = response.content.decode()
    assets = ASSET.findall(html)
    assert assets, "the page loads its scripts"
    # Swagger UI's initialising script comes from the page's own address (?script), not
    # inline (Content-Security-Policy); it, or the Redoc page itself, names the schema.
    scripts = [a for a in assets if a.startswith(f"{path}?script")]
    assert "/api/v1/schema/" in "".join(
        [html, *(client.get(a).content.decode() for a in scripts)]
    )
    for asset in assets:
        if asset in scripts or asset == "data:,":  # data:, the empty favicon: no request
            continue
        if asset == "/api/v1/redoc/redoc.standalone.js":  # the sidecar's bundle, logo removed
            bundle = client.get(asset)
            assert bundle.status_code == 200 and b"redoc.ly/redoc/logo" not in bundle.content
            continue
        assert asset.startswith("/static/"), f"{asset} is not served by the project"
        assert finders.find(asset.removeprefix("/static/")), f"{asset} is missing"
    assert not re.search(r"""(?:src|href)=["']https?://""", html)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/players/", "/upload/"])
def test_every_page_footer_links_the_api_documentation(client: Client, path: str) -> None:
    html = client.get(path, follow=True).content.decode()

    footer = html[html.index('<footer class="site-footer">'):]
    assert 'href="/api/v1/redoc/"' in footer[: footer.index("</footer>")]


@pytest.mark.django_db
def test_the_redoc_page_allows_nothing_from_redocly(client: Client) -> None:
    for path in ("/api/v1/redoc/", "/"):
        assert "redoc.ly" not in client.get(path)["Content-Security-Policy"]
