"""How a round ended, in one translated sentence that names the players (the replay's result,
each round of a match page)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def round_sentence(
    outcome: str, name: str, points: int | None, taken: str | None = None, owner: str = ""
) -> str:
    """`name` is the finisher (or the seat that declared the redeal); `taken` whose card ended
    the round (self_draw, draw, discard) and `owner` who drew or discarded it."""
    values = {"name": name, "owner": owner, "points": points}
    if outcome == "win" and taken == "self_draw":
        return _("%(name)s wins on their own draw with %(points)s points.") % values
    if outcome == "win" and taken == "draw":
        return _("%(name)s wins on %(owner)s’s draw with %(points)s points.") % values
    if outcome == "win":
        return _("%(name)s wins on %(owner)s’s discard with %(points)s points.") % values
    if outcome == "forced":
        return _("%(name)s makes a forced finish with %(points)s points.") % values
    if outcome == "exhausted":
        return _("The pile ran out: nobody won.")
    if outcome == "redeal":
        return _("%(name)s declared a redeal.") % values
    return _("The record stops before the end of the round.")
