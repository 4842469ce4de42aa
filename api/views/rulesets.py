"""GET /api/v1/rulesets/: the shipped rulesets, their switches and numbers, the table sizes
they allow and what each switch means, in English, Vietnamese and Traditional Chinese."""

from __future__ import annotations


from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema.rulesets import RULESETS
from api.views.base import ApiViewMixin
from records.variants import shipped_rulesets


@RULESETS
class RulesetsView(ApiViewMixin, APIView):

    def get(self, request: Request) -> Response:
        return Response({"results": shipped_rulesets()})
