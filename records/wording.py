"""What happened at a ply, in words and in the reader's language ("Jonas pongs Noor's
discard", "Ελένη chis her own draw", "… skipping Ann").

The engine says it in codes (`Replay.state`'s `event` verb and its `claim`: kind, owner, whose
card, skipped seats); these templates turn them into one sentence with the players' names.
The web pages (move list, ply header), replay.js (the same templates, through the page's
labels) and the API's ply state (`says`) all use them, so every place reads the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Events that are not claims (and, should a meld or win come without its claim, those).
VERB_TEMPLATES = {
    "x": gettext_lazy("%(name)s discards"),
    "d": gettext_lazy("%(name)s draws"),
    "r": gettext_lazy("%(name)s declares a redeal"),
    "c": gettext_lazy("%(name)s calls"),
    "h": gettext_lazy("%(name)s calls a win with"),
    "m": gettext_lazy("%(name)s melds"),
    "w": gettext_lazy("%(name)s wins with"),
}
# Claims that took effect, by "kind:taken" (fourcolor.claims.CLAIM_KINDS and TAKEN_FROM). A
# pong or gan is never on one's own draw (that meld is a chi), a chi never on another's draw.
CLAIM_TEMPLATES = {
    "win:self_draw": gettext_lazy("%(name)s wins on their own draw with"),
    "win:draw": gettext_lazy("%(name)s wins on %(owner)s’s draw with"),
    "win:discard": gettext_lazy("%(name)s wins on %(owner)s’s discard with"),
    "pong:draw": gettext_lazy("%(name)s pongs %(owner)s’s draw"),
    "pong:discard": gettext_lazy("%(name)s pongs %(owner)s’s discard"),
    "gan:draw": gettext_lazy("%(name)s gans %(owner)s’s draw"),
    "gan:discard": gettext_lazy("%(name)s gans %(owner)s’s discard"),
    "chi:self_draw": gettext_lazy("%(name)s chis their own draw"),
    "chi:discard": gettext_lazy("%(name)s chis %(owner)s’s discard"),
}
SKIPPED_TEMPLATE = gettext_lazy("skipping %(names)s")


def event_template(verb: str, claim: Mapping[str, Any] | None) -> str:
    """The sentence template (with %(name)s, maybe %(owner)s) for an event."""
    if claim is not None:
        template = CLAIM_TEMPLATES.get(f"{claim['kind']}:{claim['taken']}")
        if template is not None:
            return str(template)
    return str(VERB_TEMPLATES.get(verb, "%(name)s"))


def skipped_words(claim: Mapping[str, Any] | None, names: Mapping[int, str]) -> str:
    """"skipping Ann, Bao" for a claim that took other seats' turns; "" otherwise."""
    skipped: Sequence[int] = (claim or {}).get("skipped") or ()
    if not skipped:
        return ""
    return str(SKIPPED_TEMPLATE) % {"names": _(", ").join(names.get(s, "") for s in skipped)}


def event_words(
    verb: str, seat: int, claim: Mapping[str, Any] | None, names: Mapping[int, str]
) -> str:
    """The whole sentence as plain text, without the cards: "Jonas pongs Noor’s discard
    (skipping Ann)"."""
    owner = names.get(claim["owner"], "") if claim else ""
    text = event_template(verb, claim) % {"name": names.get(seat, ""), "owner": owner}
    skipped = skipped_words(claim, names)
    return f"{text} ({skipped})" if skipped else text


def js_templates() -> dict[str, Any]:
    """The templates for replay.js, translated."""
    return {
        "verbs": {verb: str(t) for verb, t in VERB_TEMPLATES.items()},
        "claims": {key: str(t) for key, t in CLAIM_TEMPLATES.items()},
        "skipped": str(SKIPPED_TEMPLATE),
        "separator": _(", "),
    }
