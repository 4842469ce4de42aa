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
from django.utils.translation import gettext_lazy, pgettext_lazy

from fourcolor.cards import parse_card

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


# Cards, melds and claim rights in words (the replay's labels, refusals, the editor).
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
CLAIMS = {
    "win": gettext_lazy("win"),
    "pong": gettext_lazy("pong"),
    "gan": gettext_lazy("gan"),
    "chi": gettext_lazy("chi"),
    "own draw": gettext_lazy("own draw"),
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


# What a round waits for (`fourcolor.Round.waiting`): the record editor's status line.
WAITING = {
    "opening": gettext_lazy("%(seat)s (the dealer) to discard"),
    "discard": gettext_lazy("%(seat)s to discard"),
    "own_draw": gettext_lazy("claims on %(seat)s’s draw, or their meld or discard"),
    "last_discard": gettext_lazy("claims on the last discard, or the pile has run out: nobody won"),
    "exhausted": gettext_lazy("The pile ran out: nobody won"),
    "draw": gettext_lazy("claims, or %(seat)s to draw"),
    "ended": gettext_lazy("the round has ended"),
}
# A record's tags as the editor lists them.
TAG_LABELS = {
    "Event": gettext_lazy("Event"),
    "Site": gettext_lazy("Site"),
    "Date": gettext_lazy("Date"),
    "Match": gettext_lazy("Match"),
    "Round": gettext_lazy("Round"),
    "Lucky": gettext_lazy("Lucky card"),
    "Pile": gettext_lazy("Pile"),
    "Ruleset": gettext_lazy("Ruleset"),
    "Dealer": gettext_lazy("Dealer"),
    "Result": gettext_lazy("Result"),
}


def seat_name(seat: int, seats: Sequence[str]) -> str:
    """The player at `seat` (1-based), or "seat N" when the seat has no name."""
    if 0 < seat <= len(seats) and str(seats[seat - 1]).strip():
        return str(seats[seat - 1])
    return _("seat %(number)s") % {"number": seat}


def waiting_words(code: str, seat: int | None, seats: Sequence[str]) -> str:
    """"Noor to discard": what the round waits for, naming the player."""
    template = WAITING.get(code)
    if template is None:
        return ""
    return str(template) % {"seat": seat_name(seat, seats) if seat is not None else ""}


def tag_label(name: str) -> str:
    return str(TAG_LABELS.get(name, name))
