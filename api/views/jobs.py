"""Background jobs (a large upload, a revalidation, a batch of analyses), followed until done:
one's own jobs, and staff's requests (api/schema/jobs.py says what each answers)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.caching import PRIVATE_CACHE_CONTROL
from api.pagination import ApiPagination
from api.schema.jobs import JOBS
from api.serializers.jobs import (
    AnalyseRequest,
    JobDetailSerializer,
    JobSerializer,
    RevalidateRequest,
)
from api.views.base import ApiViewMixin, valid
from jobs.analysis import Parameters
from jobs.batches import submit_batch
from jobs.models import Job
from jobs.queue import submit_revalidate


@JOBS
class JobViewSet(
    ApiViewMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    permission_classes = [IsAuthenticated]
    pagination_class = ApiPagination
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

    @action(detail=False, methods=["post"], permission_classes=[IsAdminUser])
    def revalidate(self, request: Request) -> Response:
        options = valid(RevalidateRequest, request.data)
        return _started(submit_revalidate(request.user, **options), request)

    @action(detail=False, methods=["post"], permission_classes=[IsAdminUser])
    def analyse(self, request: Request) -> Response:
        data = valid(AnalyseRequest, request.data)
        params = Parameters.of(data.get("samples"), data.get("seed"))
        return _started(submit_batch(request.user, params, games=data.get("games"),
                                     player=data.get("player"), limit=data.get("limit")),
                        request)


def _started(job: Job, request: Request) -> Response:
    """202 with a job a POST started, `Location` its address."""
    body = JobDetailSerializer(job, context={"request": request}).data
    return Response(body, status=202, headers={"Location": body["url"]})
