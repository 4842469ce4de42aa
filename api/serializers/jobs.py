"""Background jobs: a job as lists show it, one with its report (an upload's verdicts, a
revalidation's differences, a batch of analyses' progress), and the staff's requests."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.analysis import AnalysisRequest
from api.serializers.common import absolute
from api.serializers.uploads import UploadReportDoc, report_json
from jobs.models import Job
from records.models import MAX_ID, Player
from records.services import ImportReport


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
    created_by = serializers.CharField(source="created_by.username", allow_null=True,
                                       read_only=True)
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
        return absolute(self.context, "job", job.pk, page=True)


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
        counts = {key: int(data.get(key, 0)) for key in ("analysed", "current", "failed")}
        return counts | {"failed_games": list(data.get("failed_games", [])),
                         "samples": int(options.get("samples", 0)),
                         "seed": int(options.get("seed", 0))}


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
            raise serializers.ValidationError(_("No player %(id)s.") % {"id": value})
        return value


class RevalidateRequest(serializers.Serializer[Any]):
    stale = serializers.BooleanField(
        default=False, help_text="only games checked by another engine version"
    )
    update = serializers.BooleanField(
        default=False, help_text="rewrite the derived data of games still valid but changed"
    )
