"""Drafts: a round recorded event by event (the record editor's API; the /record/ page uses it).

A draft belongs to the user who made it: anyone else is told it does not exist (404). The
engine judges every change; what a request sends and the rules refuse is 400 `illegal`, what
the draft's state does not allow is 409 (`refusals`; api/schema/drafts.py says it per
operation, docs/api.md, "Drafts", in full).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.utils.translation import gettext as _
from django.db.models import QuerySet
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.caching import PRIVATE_CACHE_CONTROL
from api.exceptions import Conflict, Illegal, RecordSyntax
from api.pagination import ApiPagination
from api.parsers import JsonParser
from api.serializers.common import absolute
from api.serializers.drafts import (
    DraftCommentSerializer,
    DraftEventSerializer,
    DraftFcnSerializer,
    DraftFieldsSerializer,
    DraftSerializer,
    DraftUpdateSerializer,
    draft_json,
)
from api.schema.drafts import DRAFTS
from api.views.base import ApiViewMixin, valid
from drafts import services
from drafts.models import Draft
from fourcolor.errors import FcnError, FcnSyntaxError
from fourcolor.notation import Event


@contextmanager
def refusals() -> Iterator[None]:
    """A draft that is not the user's (404), the engine's refusal of what was sent (400
    `illegal`), or what the draft's state forbids (409)."""
    try:
        yield
    except Draft.DoesNotExist:
        raise NotFound(_("No such draft.")) from None
    except services.DraftConflict as error:
        raise Conflict(error.message, error.code) from None
    except FcnError as error:
        # The typed event's syntax was checked before: any FcnError here is the rules'.
        raise Illegal(error) from None


@DRAFTS
class DraftViewSet(ApiViewMixin, viewsets.GenericViewSet):
    permission_classes = [IsAuthenticated]
    pagination_class = ApiPagination
    cache_control = PRIVATE_CACHE_CONTROL  # one's own drafts
    serializer_class = DraftSerializer
    parser_classes = [JsonParser]

    @property
    def request_body_required(self) -> bool | None:
        # `create` takes one of two bodies (api.schema.drafts: DraftCreate), never none.
        return True if self.action == "create" else None

    def get_throttles(self) -> list[Any]:
        # Reads count as any API read; changes also under the "drafts" scope.
        self.throttle_scope = "" if self.request.method in ("GET", "HEAD") else "drafts"
        return super().get_throttles()

    def get_queryset(self) -> QuerySet[Draft]:
        if getattr(self, "swagger_fake_view", False):
            return Draft.objects.none()
        return services.open_drafts(self.request.user)

    def _pk(self) -> int:
        return int(self.kwargs["pk"])

    def _answer(self, draft: Draft, status: int = 200) -> Response:
        return Response(draft_json(draft, self.request, detail=True), status=status)

    def _run(self, operation: Any, *args: Any) -> Response:
        with refusals():
            draft = operation(self.request.user, self._pk(), *args)
        return self._answer(draft)

    def list(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset()) or []
        return self.get_paginated_response([draft_json(d, request, detail=False) for d in page])

    def create(self, request: Request) -> Response:
        fields = DraftFieldsSerializer(data=request.data)
        fcn = DraftFcnSerializer(data=request.data)
        as_fields, as_fcn = fields.is_valid(), fcn.is_valid()
        if as_fields == as_fcn:
            # Neither (what is wrong with the fields) or both (which one was meant?).
            raise ValidationError(
                (fcn.errors if "fcn" in request.data else fields.errors) if not as_fields
                else {"non_field_errors": [_("Send the start form's fields or `fcn`, not both.")]}
            )
        with refusals():
            if as_fcn:
                draft = services.create_from_fcn(request.user, fcn.validated_data["fcn"])
            else:
                data = fields.validated_data
                draft = services.create_draft(
                    request.user, ruleset=data["ruleset"], seats=data["seats"],
                    dealer=data["dealer"], tags=data.get("tags"), deal=data.get("deal"),
                )
        body = draft_json(draft, request, detail=True)
        return Response(body, status=201, headers={"Location": body["url"]})

    def retrieve(self, request: Request, pk: str) -> Response:
        with refusals():
            return self._answer(services.user_drafts(request.user).get(pk=self._pk()))

    def partial_update(self, request: Request, pk: str) -> Response:
        return self._run(services.update_draft, valid(DraftUpdateSerializer, request.data))

    def destroy(self, request: Request, pk: str) -> Response:
        with refusals():
            services.delete_draft(request.user, self._pk())
        return Response(status=204)

    @action(detail=True, methods=["post"])
    def events(self, request: Request, pk: str) -> Response:
        body = DraftEventSerializer(data=request.data)
        well_formed = body.is_valid()
        text = request.data.get("event") if hasattr(request.data, "get") else None
        if isinstance(text, str) and (well_formed or set(body.errors) == {"event"}):
            try:
                Event.parse(text)  # text that is not FCN: 400 `syntax`, in the engine's words
            except FcnSyntaxError as error:
                raise RecordSyntax(error) from None
        if not well_formed:
            raise ValidationError(body.errors)
        data = body.validated_data
        with refusals():
            draft, created = services.add_event(request.user, self._pk(), data["event"],
                                                data.get("comment", ""), data.get("ply"))
        return self._answer(draft, 201 if created else 200)

    @action(detail=True, methods=["put"], url_path=r"events/(?P<ply>[0-9]{1,9})")
    def comment(self, request: Request, pk: str, ply: str) -> Response:
        comment = valid(DraftCommentSerializer, request.data)["comment"]
        return self._run(services.set_comment, int(ply), comment)

    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        return self._run(services.undo)

    @action(detail=True, methods=["post"])
    def redo(self, request: Request, pk: str) -> Response:
        return self._run(services.redo)

    @action(detail=True, methods=["post"])
    def save(self, request: Request, pk: str) -> Response:
        try:
            with refusals():
                saved = services.save_draft(request.user, self._pk())
        except Illegal as illegal:
            # The archive refused the ended round: the draft's content, not this empty request.
            raise Conflict(str(illegal.detail), "illegal", illegal.record) from None
        draft = draft_json(saved.draft, request, detail=True)  # the saved game is its game
        status = ("running" if saved.game_id is None else "duplicate" if saved.duplicate
                  else "created")
        body = {"status": status, "game": draft["game"], "game_page": draft["game_page"],
                "job": absolute({"request": request}, "job-detail", saved.job.pk),
                "draft": draft}
        code = {"created": 201, "duplicate": 200, "running": 202}[status]
        headers = {"Location": body["game"] or body["job"]}
        return Response(body, status=code, headers=headers)
