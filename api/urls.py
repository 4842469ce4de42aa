"""The REST API, version 1: everything under /api/v1/ (config.urls mounts this at /api/).

The OpenAPI schema is at /api/v1/schema/, Swagger UI at /api/v1/docs/ and Redoc at
/api/v1/redoc/, their scripts served by the project (drf-spectacular-sidecar), no CDN.
"""

from __future__ import annotations

from typing import Any

from csp.constants import NONCE
from csp.decorators import csp_update
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)
from rest_framework.routers import APIRootView, DefaultRouter

from api.game_object import download_game_json
from api.views.analysis import GameAnalysisView
from api.views.auth import TokenDetailView, TokenListView, TokenView
from api.views.base import BrowsableApiCspMixin, not_found
from api.views.deleted import DeletedGamesView
from api.views.drafts import DraftViewSet
from api.views.games import GameViewSet
from api.views.jobs import JobViewSet
from api.views.players import PlayerGamesView, PlayerViewSet
from api.views.rulesets import RulesetsView
from api.views.stats import GlobalStatsView, LeaderboardView, RatingsView
from api.views.redoc import redoc_bundle
from api.views.uploads import UploadView

app_name = "api"

# The <style> elements redoc.standalone.js (drf-spectacular-sidecar) writes on loading: an
# empty one, then perfect-scrollbar's rules. A new Redoc may change them: the browser test
# tests/web/browser/test_content_security_policy.py then reports the refused style and its
# new hash.
REDOC_STYLE_HASHES = (
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='",
)


class ApiRootView(BrowsableApiCspMixin, APIRootView):
    """/api/v1/, with the other API views' policy for its browsable HTML page."""


class ApiRouter(DefaultRouter):
    """The default router, whose root page (/api/v1/) lists every endpoint, not only the
    viewsets'."""

    APIRootView = ApiRootView

    more_links = {
        "uploads": "upload",
        "leaderboard": "leaderboard",
        "ratings": "ratings",
        "global-stats": "global-stats",
        "rulesets": "rulesets",
        "token": "token",
        "tokens": "tokens",
        "schema": "schema",
        "docs": "swagger-ui",
        "redoc": "redoc",
    }

    def get_api_root_view(self, api_urls: Any = None) -> Any:
        links = {prefix: self.routes[0].name.format(basename=basename)
                 for prefix, _viewset, basename in self.registry}
        return self.APIRootView.as_view(api_root_dict=links | self.more_links)


router = ApiRouter()
router.register("games", GameViewSet, basename="game")
router.register("players", PlayerViewSet, basename="player")
router.register("jobs", JobViewSet, basename="job")
router.register("drafts", DraftViewSet, basename="draft")

v1: list[URLPattern | URLResolver] = [
    path("games/deleted/", DeletedGamesView.as_view(), name="games-deleted"),
    path("games/<int:id>/analysis/", GameAnalysisView.as_view(), name="game-analysis"),
    # The game object as a file: the replay page's JSON download (web's `game-json`).
    path("games/<int:pk>/game.json", download_game_json, name="game-json"),
    path("players/<int:id>/games/", PlayerGamesView.as_view(), name="player-games"),
    path("stats/leaderboard/", LeaderboardView.as_view(), name="leaderboard"),
    path("stats/ratings/", RatingsView.as_view(), name="ratings"),
    path("stats/global/", GlobalStatsView.as_view(), name="global-stats"),
    path("rulesets/", RulesetsView.as_view(), name="rulesets"),
    path("uploads/", UploadView.as_view(), name="upload"),
    path("auth/token/", TokenView.as_view(), name="token"),
    path("auth/tokens/", TokenListView.as_view(), name="tokens"),
    path("auth/tokens/<int:id>/", TokenDetailView.as_view(), name="token-detail"),
    path("schema/", SpectacularAPIView.as_view(api_version="v1"), name="schema"),
    path(
        "docs/",
        # The split view serves Swagger UI's initialising script as a file (?script), not
        # inline, as the Content-Security-Policy requires; our template has no inline style.
        SpectacularSwaggerSplitView.as_view(url_name="api:schema",
                                            template_name="api/swagger_ui.html"),
        name="swagger-ui",
    ),
    path(
        "redoc/",
        # Our template: drf-spectacular's loads Google Fonts from their CDN and has inline
        # script and style. Redoc writes its styles into <style> elements at run time: this
        # page's policy accepts those that carry the response's nonce, and the two Redoc's
        # bundle writes as it loads, before it can know the nonce, by their hashes. Its
        # bundle is served by api.views.redoc (below), without Redocly's logo from their CDN.
        csp_update({"style-src": [NONCE, *REDOC_STYLE_HASHES]})(
            SpectacularRedocView.as_view(url_name="api:schema", template_name="api/redoc.html")
        ),
        name="redoc",
    ),
    path("redoc/redoc.standalone.js", redoc_bundle, name="redoc-bundle"),
    path("", include(router.urls)),
]

urlpatterns: list[URLPattern | URLResolver] = [
    path("v1/", include(v1)),
    # Any other address under /api/ is the API's JSON 404, not the site's HTML page.
    # [\s\S]: a path holding a newline (%0A) is an unknown address too (`.` would stop there;
    # an inline (?s) flag would break reverse()).
    re_path(r"^[\s\S]*$", not_found, name="not-found"),
]
