"""Translated words for what the engine names with codes: cards, verbs, melds, phases, outcomes.

The engine speaks English codes (`rK`, `three_colour`, `x`); the pages show them in the
reader's language. The same words go to replay.js (`js_labels`), so the page reads the same
whether the server or the script drew it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext

from fourcolor.cards import CARDS
from records.wording import CLAIMS, MELD_NAMES, card_name, js_templates

PHASES = {
    "opening": gettext_lazy("the dealer's first discard"),
    "must-discard": gettext_lazy("to discard"),
    "live": gettext_lazy("claims on the live card"),
    "ended": gettext_lazy("the round has ended"),
}
SOURCES = {
    "discard": gettext_lazy("discarded by"),
    "draw": gettext_lazy("drawn by"),
}


def js_labels() -> dict[str, object]:
    """Everything replay.js writes, already translated."""
    return {
        "cards": {card.token: [card.glyph, card_name(card.token)] for card in CARDS},
        "melds": {kind: str(name) for kind, name in MELD_NAMES.items()},
        "phases": {phase: str(name) for phase, name in PHASES.items()},
        "claims": {claim: str(name) for claim, name in CLAIMS.items()},
        "words": js_templates(),
        "sources": {source: str(name) for source, name in SOURCES.items()},
        "deal": _("Deal"),
        # [one, other]: table.js picks by count (the site's languages have at most these two)
        "cardsHidden": [ngettext("%(count)s hidden card", "%(count)s hidden cards", n)
                        for n in (1, 2)],
        "pileLeft": [ngettext("card left", "cards left", n) for n in (1, 2)],
        "pointsShort": _("%(points)s pt"),
        "unseen": _("%(count)s unseen"),
        "noWaits": _("not waiting"),
        "nothing": _("none"),
        "turnOf": _("%(name)s to play"),
        "plyOf": _("Ply %(ply)s of %(plies)s"),
        "noComment": _("No comments at this ply."),
        "missedWin": _("%(name)s could have won on %(card)s for %(points)s points"),
        "mayClaim": _("may claim: %(claims)s"),
    }
