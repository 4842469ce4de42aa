"""The drafts' operations as the OpenAPI schema documents them (api.views.drafts)."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)

from api.schema import errors, resource
from api.serializers.drafts import (
    DraftCommentSerializer,
    DraftDetailDoc,
    DraftEventSerializer,
    DraftFcnSerializer,
    DraftFieldsSerializer,
    DraftSavedDoc,
    DraftSerializer,
    DraftUpdateSerializer,
)
from api.serializers.errors import ErrorDoc
from drafts.services import MAX_OPEN_DRAFTS

NOT_YOURS = OpenApiResponse(ErrorDoc, "No such draft (or not yours).")
REFUSED = OpenApiResponse(
    ErrorDoc, "Refused by the draft's state: `code` says why (stale, saved, unfinished, "
    "nothing_to_undo, too_many_drafts, ...).",
)
ILLEGAL = OpenApiResponse(
    ErrorDoc, "A malformed body (`validation`, `syntax`), or what it sends is refused by the "
    "rules: `illegal`, with the engine's category, message, ply and event in `record`.",
)
ERRORS = {404: NOT_YOURS}
BAD = {400: ILLEGAL}
DETAIL = OpenApiResponse(DraftDetailDoc, "The draft's state after the change.")
CREATE_REQUEST = PolymorphicProxySerializer(
    component_name="DraftCreate", serializers=[DraftFieldsSerializer, DraftFcnSerializer],
    resource_type_field_name=None,
)
EXAMPLE_START = {"ruleset": "classic", "seats": ["An", "Bình"], "dealer": 1,
                 "tags": {"Event": "Friday club", "Date": "2026.11.27"}}

DRAFTS = resource(
    "drafts",
    list=extend_schema(summary="Your unfinished drafts",
                   description="The drafts you have not saved yet, last changed first.",
                   responses={200: DraftSerializer(many=True), **ERRORS}),
    create=extend_schema(
        summary="Start a draft",
        description="From the start form's fields (ruleset, seats, dealer, optional tags and "
        "the deal so far), or from a record's text `{\"fcn\": ...}`: its tags and deal with "
        f"any events already played (`Result` absent or `*`). At most "
        f"{MAX_OPEN_DRAFTS} unfinished drafts per user (409 `too_many_drafts`).",
        request=CREATE_REQUEST,
        responses={201: OpenApiResponse(DraftDetailDoc, "The new draft."),
                   **BAD, 409: REFUSED, **ERRORS},
        examples=[OpenApiExample("start form", value=EXAMPLE_START, request_only=True)],
    ),
    retrieve=extend_schema(summary="A draft",
                   description="Its state: the FCN so far, the table, the legal next events.",
                   responses={200: DraftDetailDoc, **ERRORS}),
    partial_update=extend_schema(summary="Change a draft's names, tags or deal",
                   description="The names and the optional tags at any time (`Lucky`: the "
                   "lucky card a bga win waits for); the ruleset, the dealer and the deal (each "
                   "seat's cards so far) until the first event is entered. Checked by the "
                   "engine: a fifth copy, a seat over its size, a bad name are 400 `illegal`.",
                   request=DraftUpdateSerializer,
                   responses={200: DETAIL, **BAD, 409: REFUSED, **ERRORS}),
    destroy=extend_schema(summary="Delete a draft",
                   description="Unfinished or saved: a saved draft's game stays in the archive.",
                   responses={204: OpenApiResponse(description="Deleted."), **ERRORS}),
    events=extend_schema(
        summary="Enter the next event",
        description="One event in FCN, checked by the engine after the played ones (undone "
        "events are dropped). 201 with the new state; 400 `illegal` with the engine's category "
        "and message when the rules refuse it, 400 `syntax` when it is not FCN; 409 `stale` "
        "when `ply` is not the next number.",
        request=DraftEventSerializer,
        responses={201: DETAIL, 200: OpenApiResponse(DraftDetailDoc, "Already entered (`ply` "
                   "repeated)."), **BAD, 409: REFUSED, **ERRORS},
        examples=[OpenApiExample("a discard", value={"event": "1x wP", "comment": "safe"},
                                 request_only=True)],
    ),
    comment=extend_schema(
        summary="Change an event's comment",
        description="On any event, played or undone, by its number (1 is the first).",
        request=DraftCommentSerializer,
        responses={200: DETAIL, **errors({400: "A malformed body."}),
                   409: REFUSED, **ERRORS},
    ),
    undo=extend_schema(summary="Undo the last event", request=None,
                   description="Steps back one event (as often as there are events); the "
                   "undone events stay for redo until a new event is entered.",
                   responses={200: DETAIL, 409: REFUSED, **ERRORS}),
    redo=extend_schema(summary="Redo the last undone event", request=None,
                   description="Plays the next undone event again.",
                   responses={200: DETAIL, 409: REFUSED, **ERRORS}),
    save=extend_schema(
        summary="Save the round in the archive",
        description="Stores the ended round as an upload of its FCN (the same checks, "
        "duplicates and statistics as `/uploads/`). 201 with the new game; 200 when the "
        "archive holds it already (`duplicate`, the game is that one); 202 while the upload "
        "still runs (the database stopped it half-way: follow `job`). The draft is then "
        "read-only and leaves the list.",
        request=None,
        responses={201: DraftSavedDoc, 200: DraftSavedDoc, 202: DraftSavedDoc, 409: REFUSED,
                   **ERRORS},
    ),

)
