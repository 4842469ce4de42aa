"""The rulesets' operation as the OpenAPI schema documents it (api.views.rulesets)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema

from api.schema import resource
from api.serializers.rulesets import RulesetsDoc

RULESETS = resource(
    "rulesets",
    get=extend_schema(
        summary="The shipped rulesets",
        description=(
            "Each ruleset with its table sizes (`players`), its bga numbers, and every switch a "
            "record's `Switches` tag may set: the ruleset's value, the values allowed (on/off "
            "for the booleans, 0 to 100 for `threshold` and `base`) and what it means in each "
            "language of the site."
        ),
        responses={200: RulesetsDoc},
    ),
)
