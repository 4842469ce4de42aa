"""The games' operations as the OpenAPI schema documents them (api.views.games)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

from api.schema import JSON, errors, resource
from api.serializers.analysis import AnalysisAnswerDoc, AnalysisRequest
from api.serializers.games import (
    DeletedGameSerializer,
    GameDetailSerializer,
    GameExportLineSerializer,
    GameSerializer,
    RecordJsonDoc,
)
from api.serializers.replays import PlyStateDoc, PlyStatesDoc, ReviewDoc

NOT_ACCEPTABLE = "No format the Accept header allows."
REPLAY_FAILS = "The current engine cannot replay the stored text."
ERRORS_READ = errors({404: "No such game."})
ERRORS_LIST = errors({400: "An invalid filter value.", 404: "No such page."})

GAMES = resource(
    "games",
    list=extend_schema(
        summary="List games",
        description=(
            "The archive, filtered and sorted as the web archive does (same parameter names), "
            "a page at a time. Each game is the summary the game page heads with: seats, "
            "outcome, points, result."
        ),
        responses={200: GameSerializer(many=True), **ERRORS_LIST},
    ),
    retrieve=extend_schema(
        summary="A game: tags, seats, outcome, settlement, events",
        description=(
            "Everything stored and derived for one game: its tags, each seat's facts, the "
            "finish and settlement, the deal and events (the record's JSON twin), and links to "
            "the record's texts, its plies and its review."
        ),
        responses={200: GameDetailSerializer, **ERRORS_READ},
    ),
    destroy=extend_schema(
        summary="Delete a game (its uploader or staff)",
        description=(
            "Deletes the game and its seats; the statistics and ratings are updated at once. "
            "An audit entry keeps who deleted it, when, `reason`, and the original text, "
            "from which staff can restore it."
        ),
        responses={204: None, **errors({
            400: "An invalid `reason`.",
            403: "Not the uploader, nor staff (or, with a session, no CSRF token)."}),
            **ERRORS_READ},
    ),
    record=extend_schema(
        summary="The record: original FCN, canonical FCN or JSON",
        description=(
            "`?format=fcn` (or `Accept: text/x-fcn`): the record exactly as uploaded; "
            "`?format=canonical` (`Accept: text/x-fcn; variant=canonical`): as the engine "
            "writes it; `?format=json` (the default): its JSON twin."
        ),
        responses={
            (200, "application/json"): RecordJsonDoc,
            (200, "text/x-fcn"): OpenApiTypes.STR,
            (200, "text/x-fcn; variant=canonical"): OpenApiTypes.STR,
            **errors({404: "No such game, or format.", 406: NOT_ACCEPTABLE,
                      422: "The current engine cannot read the stored text."}, JSON),
        },
    ),
    ply=extend_schema(
        summary="The table at a ply",
        description=(
            "The table after ply `ply` (0: the deal): hands, displays, the live card, the pile, "
            "discards, whose turn, and what each seat may claim; `?seat=N` hides the other "
            "hands as seat N saw them."
        ),
        parameters=[OpenApiParameter("ply", OpenApiTypes.INT, OpenApiParameter.PATH,
                                     description="0 (the deal) to the game's number of plies")],
        responses={200: PlyStateDoc, **errors({
            400: "An invalid seat.", 404: "No such game, ply or seat.", 422: REPLAY_FAILS})},
    ),
    plies=extend_schema(
        operation_id="games_plies_list",
        summary="The table at every ply, or a range of plies",
        description=(
            "Every ply state of a game in one answer (`from` and `to` inclusive, by default "
            "the deal to the last ply; `from` after `to` is a 400), each as `/plies/{ply}/` "
            "gives it: a replay's steps without a request per ply. `?seat=N` hides the other "
            "hands as seat N saw them."
        ),
        responses={200: PlyStatesDoc, **errors({
            400: "An invalid seat, `from` or `to`.", 404: "No such game, ply or seat.",
            422: REPLAY_FAILS})},
    ),
    review=extend_schema(
        summary="The engine's review: waits, missed wins, comments",
        description=(
            "Per ply, the cards each seat was waiting on and any win a seat could have claimed "
            "but did not, with the record's comments; and every missed win of the round."
        ),
        responses={200: ReviewDoc, **errors({422: REPLAY_FAILS}), **ERRORS_READ},
    ),
    export=extend_schema(
        summary="Export games (streamed NDJSON or FCN)",
        description=(
            "Every game the filters select, in the `ordering` asked for (newest played first "
            "by default), streamed: NDJSON (`?format=ndjson` or `Accept: "
            "application/x-ndjson`, the default), one game per line, each line the game "
            "object of `/games/{id}/` (with `text`, the record as uploaded, when "
            "`with_text=true`); or FCN (`?format=fcn`, `Accept: text/x-fcn`): the original "
            "texts separated by blank lines, ready to import elsewhere. `since` and `until` "
            "bound the played date like Lichess's export; `max` stops after that many games, "
            "and when more follow, a `Link: <…>; rel=\"next\"` header gives the address of "
            "the next batch (a cursor: nothing repeated or skipped whatever is uploaded "
            "meanwhile)."
        ),
        responses={
            (200, "application/x-ndjson"): OpenApiResponse(
                GameExportLineSerializer, "One JSON object per line (the schema of one line)."),
            (200, "text/x-fcn"): OpenApiTypes.STR,
            **errors({400: "An invalid filter value.", 404: "An unknown `format`.",
                      406: NOT_ACCEPTABLE}, JSON),
        },
    ),
)

# A game's analysis (api.views.analysis).
ANALYSIS = resource(
    "games",
    get=extend_schema(
        summary="A game's analysis: every decision rated",
        description=(
            "200 with the analysis once stored: per seat the number of decisions, the share "
            "rated good (`accuracy`) and the mean loss in points; per decision the options "
            "with their expected settlement, the loss and the verdict (`good`, `inaccuracy`, "
            "`mistake`, `blunder`). 202 while the first analysis is queued or running (the "
            "job's progress in `job`; `Retry-After` says when to ask again). 404 when "
            "nobody asked for one yet (POST does)."
        ),
        responses={
            200: AnalysisAnswerDoc,
            202: OpenApiResponse(AnalysisAnswerDoc, "Queued or running: `result` is null."),
            **errors({404: "No such game, or no analysis requested yet."}),
        },
    ),
    post=extend_schema(
        summary="Ask for a game's analysis (signed in)",
        description=(
            "Queues an analysis of every seat's decisions as a background job and answers "
            "202 with it (or with the one already queued or running for the game). When the "
            "stored analysis was made by this engine with the same `samples` and `seed`, "
            "answers 200 with it and queues nothing. Defaults: `samples` = "
            "ANALYSIS_SAMPLES, `seed` = 0."
        ),
        request=AnalysisRequest,
        responses={
            200: OpenApiResponse(AnalysisAnswerDoc, "Already analysed so: nothing queued."),
            202: OpenApiResponse(AnalysisAnswerDoc, "Queued (or already running)."),
            **errors({400: "Invalid samples or seed.", 404: "No such game.",
                      429: "Too many analyses requested in the last hour."}),
        },
    ),
)

# The games deleted (api.views.deleted).
DELETED = resource(
    "games",
    get=extend_schema(
        summary="Games deleted, oldest deletion first",
        description="Each deleted game's id and when it was deleted (`deleted_at`), from "
                    "`since` on: a script that keeps a copy of the archive removes these, "
                    "then fetches `/games/?updated_since=` for the games stored or changed.",
        responses={200: DeletedGameSerializer(many=True),
                   **errors({400: "An invalid `since` or page.", 404: "No such page."})},
    ),
)
