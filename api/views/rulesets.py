"""GET /api/v1/rulesets/: the shipped rulesets, their switches and numbers, the table sizes
they allow and what each switch means, in English, Vietnamese and Traditional Chinese."""

from __future__ import annotations


from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.rulesets import RulesetsDoc
from api.views.base import ApiViewMixin
from records.variants import shipped_rulesets


class RulesetsView(ApiViewMixin, APIView):
    allowed_query = {"get": frozenset()}

    @extend_schema(
        summary="The shipped rulesets",
        description=(
            "Each ruleset with its table sizes (`players`), its bga numbers, and every switch a "
            "record's `Switches` tag may set: the ruleset's value, the values allowed (on/off "
            "for the booleans, 0 to 100 for `threshold` and `base`) and what it means in each "
            "language of the site."
        ),
        responses={200: RulesetsDoc},
    )
    def get(self, request: Request) -> Response:
        return Response({"results": shipped_rulesets()})
