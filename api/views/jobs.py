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
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.caching import PRIVATE_CACHE_CONTROL
from api.pagination import ApiPagination
from api.serializers.common import absolute
from api.serializers.errors import ErrorDoc
from api.serializers.games import UploaderField
from api.serializers.uploads import UploadReportDoc, report_json
from api.views.base import PAGES, ApiViewMixin, names
from api.views.analysis import AnalysisRequest
from jobs.analysis import Parameters
from jobs.batches import submit_batch
from jobs.models import Job
from jobs.queue import submit_revalidate
from records.models import MAX_ID, Player
from records.services import ImportReport

# ----------------------------------------------------------------------------- representations


class RevalidateDetailDoc(serializers.Serializer[Any]):
    game_id = serializers.IntegerField()
    reason = serializers.CharField()


class RevalidateReportDoc(serializers.Serializer[Any]):
    """What a revalidation found so far."""

    checked = serializers.IntegerField()
    unchanged = serializers.IntegerField()
    changed = serializers.IntegerField(help_text="still valid, derived data differs (now stale)")
    refused = serializers.IntegerField(help_text="the engine now refuses the original text")
    updated = serializers.IntegerField(help_text="changed games rewritten (with `update`)")
    details = RevalidateDetailDoc(many=True, help_text="the first games that differ")
    details_omitted = serializers.IntegerField()


class FailedGameDoc(serializers.Serializer[Any]):
    game_id = serializers.IntegerField()
    reason = serializers.CharField()


class AnalysesReportDoc(serializers.Serializer[Any]):
    """What a batch of analyses did so far."""

    analysed = serializers.IntegerField(help_text="games analysed by the batch")
    current = serializers.IntegerField(
        help_text="games left out: already analysed (or queued) by this engine with the same "
                  "samples and seed")
    failed = serializers.IntegerField(help_text="games whose analysis failed")
    failed_games = FailedGameDoc(many=True, help_text="the first failed games, once done")
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()


class JobSerializer(serializers.ModelSerializer[Job]):
    """A job as lists show it: what it is, how far it got."""

    url = serializers.SerializerMethodField(help_text="this job in the API")
    page = serializers.SerializerMethodField(help_text="this job's web page")
    created_by = UploaderField(allow_null=True, read_only=True)
    file_name = serializers.CharField(source="payload_name", read_only=True)
    size = serializers.IntegerField(source="payload_size", read_only=True,
                                    help_text="bytes uploaded (imports)")
    percent = serializers.IntegerField(allow_null=True, read_only=True,
                                       help_text="0-100; null while the size is unknown")
    finished = serializers.BooleanField(read_only=True, help_text="done or failed")

    class Meta:
        model = Job
        fields = [
            "id", "url", "page", "kind", "status", "finished", "created_by", "created_at",
            "started_at", "finished_at", "file_name", "size", "total", "resume_at", "percent",
            "seen", "stored", "duplicates", "refused", "not_stored", "attempts", "error",
        ]
        extra_kwargs = {
            "total": {"help_text": "records in the file, games to revalidate or to analyse, or "
                                   "decisions to rate (once started)"},
            "resume_at": {"help_text": "records (games, decisions) handled so far: a resumed "
                                       "job starts after them"},
            "seen": {"help_text": "records (or games) with a verdict"},
            "stored": {"help_text": "records stored (imports); games analysed (batches)"},
            "duplicates": {"help_text": "records already in the archive (imports); games "
                                        "already analysed so (batches)"},
            "refused": {"help_text": "records refused (imports, revalidations); analyses "
                                     "failed (batches)"},
            "not_stored": {"help_text": "records left unstored when the job stopped early"},
            "error": {"help_text": "why the job failed ('' otherwise)"},
        }

    def get_url(self, job: Job) -> str:
        return absolute(self.context, "job-detail", job.pk)

    def get_page(self, job: Job) -> str:
        path = reverse("job", args=[job.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class JobDetailSerializer(JobSerializer):
    """One job, with its report so far: every record's verdict (imports, as the upload
    endpoint answers them) or the games that differ (revalidations)."""

    import_report = serializers.SerializerMethodField()
    revalidate_report = serializers.SerializerMethodField()
    analyses_report = serializers.SerializerMethodField()

    class Meta(JobSerializer.Meta):
        fields = [*JobSerializer.Meta.fields, "import_report", "revalidate_report",
                  "analyses_report"]

    @extend_schema_field(UploadReportDoc(allow_null=True))
    def get_import_report(self, job: Job) -> dict[str, Any] | None:
        if job.kind != Job.Kind.IMPORT:
            return None
        return report_json(ImportReport.from_dict(job.report or {}), self.context)

    @extend_schema_field(RevalidateReportDoc(allow_null=True))
    def get_revalidate_report(self, job: Job) -> dict[str, Any] | None:
        if job.kind != Job.Kind.REVALIDATE:
            return None
        data = job.report or {}
        return {
            key: data.get(key, [] if key == "details" else 0)
            for key in RevalidateReportDoc().fields
        }


    @extend_schema_field(AnalysesReportDoc(allow_null=True))
    def get_analyses_report(self, job: Job) -> dict[str, Any] | None:
        if job.kind != Job.Kind.ANALYSES:
            return None
        data, options = job.report or {}, job.options or {}
        return {
            "analysed": int(data.get("analysed", 0)),
            "current": int(data.get("current", 0)),
            "failed": int(data.get("failed", 0)),
            "failed_games": list(data.get("failed_games", [])),
            "samples": int(options.get("samples", 0)),
            "seed": int(options.get("seed", 0)),
        }


class AnalyseRequest(AnalysisRequest):
    """A batch's selection, with an analysis request's `samples` and `seed` (and its refusal
    of a field it does not know)."""

    games = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID), required=False,
        max_length=100_000, help_text="these games (ids); without it, every game (or "
                                      "`player`'s)")
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, required=False,
                                      help_text="only this player's games (his id)")
    limit = serializers.IntegerField(min_value=1, max_value=2**31 - 1, required=False,
                                     help_text="the newest games of the selection, at most")

    def validate_player(self, value: int) -> int:
        if not Player.objects.filter(pk=value).exists():
            raise serializers.ValidationError(f"No player {value}.")
        return value


class RevalidateRequest(serializers.Serializer[Any]):
    stale = serializers.BooleanField(
        default=False, help_text="only games checked by another engine version"
    )
    update = serializers.BooleanField(
        default=False, help_text="rewrite the derived data of games still valid but changed"
    )


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
