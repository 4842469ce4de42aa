"""The jobs' operations as the OpenAPI schema documents them (api.views.jobs)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema

from api.schema import errors, resource
from api.serializers.jobs import (
    AnalyseRequest,
    JobDetailSerializer,
    JobSerializer,
    RevalidateRequest,
)

STAFF_ERRORS = errors({400: "An invalid option.", 403: "Not staff (or CSRF check failed)."})

JOBS = resource(
    "jobs",
    list=extend_schema(summary="Your background jobs",
                   description="The jobs you started (uploads, revalidations, analyses), newest "
                   "first, with their status and progress; a batch of analyses stands for "
                   "its games' analyses, which are not listed.",
                   responses={200: JobSerializer(many=True),
                              **errors({404: "No such page."})}),
    retrieve=extend_schema(
        summary="A background job",
        description="Its status, progress and report so far. Only its creator and staff see "
                    "it; for anyone else it does not exist (404).",
        responses={200: JobDetailSerializer,
                   **errors({404: "No such job (or not yours)."})},
    ),
    revalidate=extend_schema(
        summary="Revalidate the archive in the background (staff)",
        description="Re-run the engine over every stored game (or only the stale ones) as a "
                    "background job; answers 202 with the job, `Location` is its address.",
        request=RevalidateRequest,
        responses={
            202: OpenApiResponse(JobDetailSerializer, "The job was started."),
            **STAFF_ERRORS,
        },
    ),
    analyse=extend_schema(
        summary="Analyse many games in the background (staff)",
        description="A batch of analyses (every seat's decisions rated by simulation) of the "
                    "given games, or of every game (a player's; the `limit` newest): one job "
                    "showing the whole progress, each game's analysis run by any worker. Games "
                    "already analysed by this engine with the same `samples` and `seed` are "
                    "left out. Answers 202 with the job, `Location` is its address.",
        request=AnalyseRequest,
        responses={
            202: OpenApiResponse(JobDetailSerializer, "The batch was queued."),
            **STAFF_ERRORS,
        },
    ),

)
