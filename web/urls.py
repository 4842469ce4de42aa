"""URLs of the web pages (mounted at the root by config.urls)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path
from django.views.generic.base import RedirectView

from web.views import (account, analysis, archive, check, game_delete, job, leaderboard, matches,
                       players, record, replay, upload, upload_result, users)

urlpatterns: list[URLPattern | URLResolver] = [
    path("", archive.archive, name="archive"),
    path("games/<int:pk>/", replay.game_replay, name="game"),
    path("games/<int:pk>/original.fcn", replay.download_original, name="game-original"),
    path("games/<int:pk>/canonical.fcn", replay.download_canonical, name="game-canonical"),
    # The game object is the API's (api.game_object): the download is its file there. Only
    # reads are sent on: a write answers 405 as on every other web page.
    path("games/<int:pk>/game.json",
         RedirectView.as_view(pattern_name="api:game-json", http_method_names=["get", "head"]),
         name="game-json"),
    path("games/<int:pk>/delete/", game_delete.game_delete, name="game-delete"),
    path("games/<int:pk>/analysis/", analysis.game_analyse, name="game-analyse"),
    path("upload/", upload.upload, name="upload"),
    path("check/", check.check, name="check"),
    path("upload/<int:pk>/", upload_result.upload_result, name="upload-result"),
    path("jobs/<int:pk>/", job.job_detail, name="job"),
    path("record/", record.record_start, name="record"),
    path("record/<int:pk>/", record.record_draft, name="record-draft"),
    path("record/<int:pk>/draft.fcn", record.record_download, name="record-download"),
    path("account/", account.account, name="account"),
    path("users/<str:username>/", users.user_detail, name="user"),
    path("players/", players.player_list, name="players"),
    path("players/<int:pk>/", players.player_detail, name="player"),
    path("leaderboard/", leaderboard.leaderboard, name="leaderboard"),
    path("matches/", matches.match_list, name="matches"),
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("matches/<int:pk>/analysis/", analysis.match_analyse, name="match-analyse"),
]
