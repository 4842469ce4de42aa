"""Translated words for what the engine names with codes: cards, verbs, melds, phases, outcomes.

The engine speaks English codes (`rK`, `three_colour`, `x`); the pages show them in the
reader's language. The same words go to replay.js (`js_labels`), so the page reads the same
whether the server or the script drew it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from django.utils.translation import pgettext_lazy

from fourcolor.cards import CARDS, parse_card
from records.wording import js_templates

COLOUR_NAMES = {
    "r": pgettext_lazy("card colour", "red"),
    "y": pgettext_lazy("card colour", "yellow"),
    "g": pgettext_lazy("card colour", "green"),
    "w": pgettext_lazy("card colour", "white"),
}
RANK_NAMES = {
    "K": pgettext_lazy("card rank", "general"),
    "A": pgettext_lazy("card rank", "advisor"),
    "E": pgettext_lazy("card rank", "elephant"),
    "R": pgettext_lazy("card rank", "chariot"),
    "H": pgettext_lazy("card rank", "horse"),
    "C": pgettext_lazy("card rank", "cannon"),
    "P": pgettext_lazy("card rank", "soldier"),
}
MELD_NAMES = {
    "lone": gettext_lazy("lone general"),
    "pair": gettext_lazy("pair"),
    "command": gettext_lazy("command"),
    "field": gettext_lazy("field"),
    "triple": gettext_lazy("triple"),
    "quad": gettext_lazy("quad"),
    "three_colour": gettext_lazy("three-colour"),
    "four_colour": gettext_lazy("four-colour"),
}
PHASES = {
    "opening": gettext_lazy("the dealer's first discard"),
    "must-discard": gettext_lazy("to discard"),
    "live": gettext_lazy("claims on the live card"),
    "ended": gettext_lazy("the round has ended"),
}
CLAIMS = {
    "win": gettext_lazy("win"),
    "pong": gettext_lazy("pong"),
    "gan": gettext_lazy("gan"),
    "chi": gettext_lazy("chi"),
    "own draw": gettext_lazy("own draw"),
}
SOURCES = {
    "discard": gettext_lazy("discarded by"),
    "draw": gettext_lazy("drawn by"),
}


def card_name(token: str) -> str:
    """`rK` -> "red general" in the active language ("" for a token that names no card)."""
    try:
        card = parse_card(token)
    except ValueError:
        return ""
    return _("%(colour)s %(rank)s") % {
        "colour": COLOUR_NAMES[card.colour],
        "rank": RANK_NAMES[card.rank],
    }


def meld_name(kind: str) -> str:
    return str(MELD_NAMES.get(kind, kind))


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
