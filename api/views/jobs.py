"""Background jobs: a large upload, a revalidation or a batch of analyses, followed until it
is done.

`GET /api/v1/jobs/` lists the caller's own jobs, `GET /api/v1/jobs/{id}/` shows one (its
creator and staff only; anyone else is told it does not exist), and staff start a
revalidation of the archive with `POST /api/v1/jobs/revalidate/` and a batch of analyses with
`POST /api/v1/jobs/analyse/`. Every upload to
`/api/v1/uploads/` answers with its job (201 done, 202 running) and its address in
`Location`.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.caching import PRIVATE_CACHE_CONTROL
from api.pagination import ApiPagination
from api.serializers.errors import ErrorDoc
from api.serializers.jobs import (
    AnalyseRequest,
    JobDetailSerializer,
    JobSerializer,
    RevalidateRequest,
)
from api.views.base import PAGES, ApiViewMixin, names
from jobs.analysis import Parameters
from jobs.batches import submit_batch
from jobs.models import Job
from jobs.queue import submit_revalidate

# ----------------------------------------------------------------------------- views

ERRORS = {401: OpenApiResponse(ErrorDoc, "Not signed in."), 429: ErrorDoc}


@extend_schema(tags=["jobs"])
class JobViewSet(
    ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    permission_classes = [IsAuthenticated]
    pagination_class = ApiPagination
    lookup_value_regex = r"\d+"
    allowed_query = {"list": names(PAGES)}
    cache_control = PRIVATE_CACHE_CONTROL  # one's own jobs

    def get_queryset(self) -> QuerySet[Job]:
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular: no request user
            return Job.objects.none()
        jobs = Job.objects.select_related("created_by")
        user = self.request.user
        if self.action == "list" or not user.is_staff:
            # A list is the caller's own jobs; staff may open anyone's job by its id.
            jobs = jobs.filter(created_by=user)
        if self.action == "list":
            # A batch of analyses stands for its games' analyses (each still has its address).
            jobs = jobs.defer("report").filter(batch__isnull=True)
        return jobs.order_by("-created_at", "-pk")

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        return JobSerializer if self.action == "list" else JobDetailSerializer

    @extend_schema(summary="Your background jobs",
                   description="The jobs you started (uploads, revalidations, analyses), newest "
                   "first, with their status and progress; a batch of analyses stands for "
                   "its games' analyses, which are not listed.",
                   responses={200: JobSerializer(many=True),
                                                              404: ErrorDoc, **ERRORS})
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(
        summary="A background job",
        description="Its status, progress and report so far. Only its creator and staff see "
                    "it; for anyone else it does not exist (404).",
        responses={200: JobDetailSerializer,
                   404: OpenApiResponse(ErrorDoc, "No such job (or not yours)."), **ERRORS},
    )
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        summary="Revalidate the archive in the background (staff)",
        description="Re-run the engine over every stored game (or only the stale ones) as a "
                    "background job; answers 202 with the job, `Location` is its address.",
        request=RevalidateRequest,
        responses={
            202: OpenApiResponse(JobDetailSerializer, "The job was started."),
            400: OpenApiResponse(ErrorDoc, "An invalid option."),
            403: OpenApiResponse(ErrorDoc, "Not staff (or CSRF check failed)."),
            **ERRORS,
        },
    )
    @action(detail=False, methods=["post"], permission_classes=[IsAdminUser])
    def revalidate(self, request: Request) -> Response:
        options = RevalidateRequest(data=request.data)
        options.is_valid(raise_exception=True)
        return _started(submit_revalidate(request.user, **options.validated_data), request)

    @extend_schema(
        summary="Analyse many games in the background (staff)",
        description="A batch of analyses (every seat's decisions rated by simulation) of the "
                    "given games, or of every game (a player's; the `limit` newest): one job "
                    "showing the whole progress, each game's analysis run by any worker. Games "
                    "already analysed by this engine with the same `samples` and `seed` are "
                    "left out. Answers 202 with the job, `Location` is its address.",
        request=AnalyseRequest,
        responses={
            202: OpenApiResponse(JobDetailSerializer, "The batch was queued."),
            400: OpenApiResponse(ErrorDoc, "An invalid option."),
            403: OpenApiResponse(ErrorDoc, "Not staff (or CSRF check failed)."),
            **ERRORS,
        },
    )
    @action(detail=False, methods=["post"], permission_classes=[IsAdminUser])
    def analyse(self, request: Request) -> Response:
        options = AnalyseRequest(data=request.data)
        options.is_valid(raise_exception=True)
        data = options.validated_data
        params = Parameters.of(data.get("samples"), data.get("seed", 0))
        return _started(submit_batch(request.user, params, games=data.get("games"),
                                     player=data.get("player"), limit=data.get("limit")),
                        request)


def _started(job: Job, request: Request) -> Response:
    """202 with a job a POST started, `Location` its address."""
    body = JobDetailSerializer(job, context={"request": request}).data
    return Response(body, status=202, headers={"Location": body["url"]})
