"""A game's analysis: the request's options, the answer (the job under way, the stored
result with each seat's summary and each decision's options)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.conf import settings
from rest_framework import serializers

from api.serializers.common import ClosedSerializer, absolute
from jobs.analysis import max_samples
from jobs.models import Job
from records.models import GameAnalysis


class AnalysisRequest(ClosedSerializer):
    samples = serializers.IntegerField(
        required=False, min_value=1,
        # In the schema too (read at start-up), so that a client knows the bound.
        max_value=settings.ANALYSIS_MAX_SAMPLES,
        help_text="simulated playouts per option (default: ANALYSIS_SAMPLES; at most "
                  "ANALYSIS_MAX_SAMPLES)",
    )
    seed = serializers.IntegerField(
        required=False, min_value=-(2**63), max_value=2**63 - 1,
        help_text="random seed (default 0): the same seed gives the same analysis",
    )

    def validate_samples(self, value: int) -> int:
        # The setting as it is now (tests and a changed environment), not as at start-up.
        if value > max_samples():
            raise serializers.ValidationError(
                _("At most %(most)s samples per option.") % {"most": max_samples()})
        return value


class AnalysisJobDoc(serializers.Serializer[Job]):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField(help_text="the job in the API (its creator and staff)")
    status = serializers.ChoiceField(choices=Job.Status.choices)
    done = serializers.IntegerField(source="resume_at", help_text="decisions rated so far")
    total = serializers.IntegerField(allow_null=True, help_text="decisions to rate (once known)")
    percent = serializers.IntegerField(allow_null=True)
    samples = serializers.IntegerField(source="options.samples")
    seed = serializers.IntegerField(source="options.seed")
    error = serializers.CharField(help_text="why the job failed ('' otherwise)")

    def get_url(self, job: Job) -> str:
        return absolute(self.context, "job-detail", job.pk)


class OptionDoc(serializers.Serializer[Any]):
    event = serializers.CharField(help_text='canonical FCN event ("2x rK", "3m rK rK rK") or '
                                            '"pass" (letting the live card go)')
    ev = serializers.FloatField(help_text="the seat's expected settlement after choosing it")


class DecisionDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField(help_text="the ply of the event that followed the decision")
    seat = serializers.IntegerField()
    played = serializers.CharField()
    best = serializers.CharField()
    options = OptionDoc(many=True, help_text="best first")
    loss = serializers.FloatField(help_text="best ev - played ev, in points (>= 0)")
    verdict = serializers.ChoiceField(choices=["good", "inaccuracy", "mistake", "blunder"])
    about_equal = serializers.BooleanField(
        help_text="the simulations cannot tell the best option from another (false in "
                  "analyses made before the engine said so)")


class SeatSummaryDoc(serializers.Serializer[Any]):
    decisions = serializers.IntegerField()
    accuracy = serializers.FloatField(allow_null=True, help_text="share of decisions rated good")
    mean_loss = serializers.FloatField(allow_null=True, help_text="points lost per decision")
    inaccuracies = serializers.IntegerField()
    mistakes = serializers.IntegerField()
    blunders = serializers.IntegerField()
    player = serializers.DictField(help_text="id and name")


class AnalysisResultDoc(serializers.Serializer[Any]):
    engine = serializers.CharField(help_text="engine version that made it")
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()
    stale = serializers.BooleanField(help_text="made by another engine than the current one")
    analysed_at = serializers.DateTimeField()
    seconds = serializers.FloatField(help_text="time the job took")
    seats = serializers.DictField(child=SeatSummaryDoc(), help_text='seat ("1".."4") -> summary')
    decisions = DecisionDoc(many=True)


class AnalysisAnswerDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["done", "queued", "running", "failed"],
        help_text="done: `result` holds the analysis; otherwise the job's status",
    )
    job = AnalysisJobDoc(allow_null=True, help_text="the analysis job queued or running")
    result = AnalysisResultDoc(allow_null=True)


# ----------------------------------------------------------------------------- shaping

SEAT_FIGURES = ("decisions", "accuracy", "mean_loss", "inaccuracies", "mistakes", "blunders")


def result_json(analysis: GameAnalysis) -> dict[str, Any]:
    seats = {
        str(row.seat): {name: getattr(row, name) for name in SEAT_FIGURES}
        | {"player": {"id": row.player_id, "name": row.player.name}}
        for row in analysis.seats.select_related("player").order_by("seat")
    }
    return {
        "engine": analysis.engine_version,
        "samples": analysis.samples,
        "seed": analysis.seed,
        "stale": analysis.stale,
        "analysed_at": serializers.DateTimeField().to_representation(analysis.analysed_at),
        "seconds": analysis.seconds,
        "seats": seats,
        "decisions": [{"about_equal": False, **d} for d in analysis.result.get("decisions", [])],
    }
