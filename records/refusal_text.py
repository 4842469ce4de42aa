"""Refusals in the reader's language, from the error's code and parameters.

The engine says why it refused a record with a stable code and its parameters (seats, cards,
meld kinds, numbers: fourcolor/messages.py); its English message is for the command line.
Pages and the API say it here, one template per code, with each seat replaced by the player's
name ("Noor may not make a field with another player’s draw", not "seat 4 ...") and each card
by its name. Nothing reads the English back: rewording the engine's message changes no page.

A refusal stored before refusals had codes has only its English message: it is shown as
stored. `tests/web/test_refusal_text.py` holds every code to a template here.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from fourcolor.messages import MESSAGES
from fourcolor.rulesets import RulesetError
from records.wording import CLAIMS, MELD_NAMES, RANK_NAMES, card_name, seat_name

CATEGORIES = {
    "syntax": pgettext_lazy("error category", "notation"),
    "tags": pgettext_lazy("error category", "tags"),
    "deal": pgettext_lazy("error category", "deal"),
    "limit": pgettext_lazy("error category", "size limit"),
    "illegal": pgettext_lazy("error category", "rules"),
    "after-end": pgettext_lazy("error category", "after the end"),
    "turn": pgettext_lazy("error category", "out of turn"),
    "priority": pgettext_lazy("error category", "claim priority"),
    "claim-right": pgettext_lazy("error category", "claim right"),
    "discard-general": pgettext_lazy("error category", "general discarded"),
    "not-in-hand": pgettext_lazy("error category", "card not in hand"),
    "not-live": pgettext_lazy("error category", "not the live card"),
    "not-a-meld": pgettext_lazy("error category", "not a meld"),
    "locked": pgettext_lazy("error category", "locked set"),
    "empty-pile": pgettext_lazy("error category", "empty pile"),
    "pile-mismatch": pgettext_lazy("error category", "pile mismatch"),
    "too-many-copies": pgettext_lazy("error category", "too many copies"),
    "redeal": pgettext_lazy("error category", "redeal"),
    "bad-split": pgettext_lazy("error category", "declared split"),
    "no-win": pgettext_lazy("error category", "not a win"),
    "lucky": pgettext_lazy("error category", "lucky card"),
    "truncated": pgettext_lazy("error category", "record cut short"),
    "result-mismatch": pgettext_lazy("error category", "wrong result"),
    "encoding": pgettext_lazy("error category", "encoding"),
    "duplicate": pgettext_lazy("error category", "duplicate"),
    "error": pgettext_lazy("error category", "error"),
    "unavailable": pgettext_lazy("error category", "database unavailable"),
}

# Parameter values that are names (fourcolor/messages.py), in words.
WHERE = {
    "own_discard": gettext_lazy("their own discard"),
    "discard": gettext_lazy("a discard"),
    "draw": gettext_lazy("another player’s draw"),
}
VERBS = {"meld": gettext_lazy("meld"), "win": gettext_lazy("win")}
RIGHTS = {**CLAIMS, "own draw": gettext_lazy("meld of their own draw")}
VERB_NAMES = {
    "discard": pgettext_lazy("event verb", "discard"),
    "draw": pgettext_lazy("event verb", "draw"),
    "meld": pgettext_lazy("event verb", "meld"),
    "win": pgettext_lazy("event verb", "win"),
    "redeal": pgettext_lazy("event verb", "redeal"),
    "call": pgettext_lazy("event verb", "call"),
    "win call": pgettext_lazy("event verb", "win call"),
}

T = gettext_lazy
TEXTS: dict[str, Promise] = {
    # --- the rules -----------------------------------------------------------------------
    "round.ended": T("a move after the round had ended"),
    "turn.no_seat": T("there is no seat %(n)s in a %(m)s-player round"),
    "turn.dealer_opens": T("%(seat)s cannot discard now: the dealer, %(seat2)s, opens"),
    "turn.must_discard": T("%(seat)s cannot discard now (%(seat2)s must discard)"),
    "turn.drawer_discards": T("only the drawer, %(seat)s, may discard now"),
    "turn.discard": T("%(seat)s cannot discard now (a claim or a draw is due)"),
    "turn.draw": T("%(seat)s cannot draw now"),
    "turn.drawer": T("%(seat)s draws now, not %(seat2)s"),
    "turn.no_live": T("%(seat)s cannot %(verb)s now: there is no live card"),
    "priority.claim_due": T("calls were made on the live card, so a claim must take effect next"),
    "priority.called": T("%(seat)s has already called this card"),
    "priority.caller_melds": T("%(seat)s called this card, so their call did not take effect"),
    "priority.outranked": T("%(seat)s’s %(right)s takes priority over %(seat2)s’s %(right2)s"),
    "discard.general": T("generals are never discarded"),
    "live.drawn": T("the drawer must meld or discard the drawn %(card)s, not discard %(card2)s"),
    "live.not_in_meld": T("the meld does not contain the live card %(card)s"),
    "hand.missing": T("%(seat)s does not hold %(cards)s"),
    "hand.locked": T("%(seat)s’s dealt set of %(card)s is locked"),
    "pile.empty": T("%(seat)s draws from an empty pile"),
    "pile.mismatch": T("the pile gives %(card)s, not %(card2)s"),
    "pile.size": T("the Pile tag holds %(n)s cards, not %(m)s"),
    "copies.drawn": T("%(n)s copies of %(card)s dealt and drawn (a card has 4)"),
    "copies.dealt": T("%(n)s copies of %(card)s dealt (a card has 4)"),
    "copies.pile": T("%(n)s copies of %(card)s in the deal and the Pile tag (a card has 4)"),
    "meld.invalid": T("%(cards)s is not a meld of %(ruleset)s"),
    "meld.excluded": T("a %(kind)s of %(rank)s is not a meld of %(ruleset)s"),
    "claim.own_discard": T("%(seat)s may not win on their own discard"),
    "claim.general_for_win": T(
        "%(seat)s may not make a %(meld)s with %(where)s: a general is claimed out of turn only "
        "for a win"
    ),
    "claim.general_for_gan": T(
        "%(seat)s may not make a %(meld)s with %(where)s: a general is claimed out of turn only "
        "for a gan or a win"
    ),
    "claim.no_right": T("%(seat)s may not make a %(meld)s with %(where)s"),
    "redeal.none": T("the %(ruleset)s rules have no redeal"),
    "redeal.late": T("a redeal is only declared before the dealer’s first discard"),
    "redeal.hand": T("%(seat)s’s dealt hand does not qualify for a redeal"),
    "split.not_a_meld": T("the declared group (%(cards)s) is not a meld"),
    "split.rest": T("the declared split does not cover the rest of the hand (%(cards)s)"),
    "split.locked": T("the locked dealt set of %(card)s is split"),
    "win.no_split": T("%(seat)s’s hand does not split into melds"),
    "win.threshold": T("%(seat)s’s melds score %(n)s, under the %(ruleset)s threshold of %(m)s"),
    "lucky.opening": T(
        "the Lucky tag says %(value)s, but the pile is used up and the dealer’s opening discard "
        "%(card)s serves"
    ),
    "lucky.pile": T("the Lucky tag says %(value)s, the pile gives %(card)s"),
    "lucky.missing": T("a bga win needs its lucky card: a Lucky or Pile tag"),
    "record.truncated": T("the record stops before the round ends"),
    "record.result": T("the Result tag says %(value)s, the round gives %(value2)s"),
    "deal.size": T("%(seat)s is dealt %(n)s cards, not %(m)s"),
    "deal.missing": T("no deal line for seat %(n)s"),
    "deal.extra": T("a bad or repeated deal line for seat %(n)s (the record has %(m)s seats)"),
    "deal.repeated": T("a bad or repeated deal line for seat %(n)s"),
    "deal.card": T("no such card %(value)s in the deal"),
    # --- the tags ------------------------------------------------------------------------
    "tags.ruleset_missing": T("the Ruleset tag is missing"),
    "tags.ruleset_unknown": T("unknown ruleset %(value)s"),
    "tags.seat1_missing": T("the Seat1 tag is missing"),
    "tags.seat_gap": T("the Seat%(n)s tag is missing (seats are numbered from 1 with no gap)"),
    "tags.seat_count": T("%(n)s seats: a round has 2 to %(m)s players"),
    "tags.ruleset_players": T("%(n)s seats: %(ruleset)s is played by 2 to %(m)s players"),
    "switches.item": T("Switches tag: %(value)s is not name=value"),
    "switches.unknown": T("Switches tag: unknown switch %(value)s (known: %(names)s)"),
    "switches.twice": T("Switches tag: %(value)s is given twice"),
    "switches.number": T("Switches tag: %(value)s must be a whole number from 0 to 100, not "
                         "%(value2)s"),
    "switches.choice": T("Switches tag: %(value)s must be one of %(choices)s, not %(value2)s"),
    "tags.name_empty": T("Seat%(n)s has an empty name"),
    "tags.name_control": T("Seat%(n)s name %(value)s holds the control character %(value2)s"),
    "tags.name_bidi": T(
        "Seat%(n)s name %(value)s holds the bidi control %(value2)s, which reorders the text "
        "shown after it"
    ),
    "tags.name_invisible": T("Seat%(n)s name %(value)s has no visible character (only %(value2)s)"),
    "tags.same_player": T(
        "Seat%(n)s %(value)s is the same player as Seat%(m)s %(value2)s (names are compared "
        "ignoring case, the encoding of accents and blanks)"
    ),
    "tags.dealer_missing": T("the Dealer tag is missing"),
    "tags.dealer_bad": T("bad Dealer tag %(value)s"),
    "tags.result": T("malformed Result tag %(value)s: expected S:P, -, R or *"),
    "tags.date": T("malformed Date tag %(value)s: expected YYYY.MM.DD"),
    "tags.card": T("%(tag)s tag: no such card %(value)s"),
    "tags.lucky_one": T("the Lucky tag names one card"),
    "tags.repeated": T("the %(tag)s tag is repeated"),
    "tags.malformed": T("malformed tag line %(value)s: expected [Name \"value\"]"),
    "tags.unclosed": T("%(tag)s tag: the value is not closed"),
    "tags.escape": T("%(tag)s tag: only \\\" and \\\\ are escapes in a value"),
    "tags.bracket": T("%(tag)s tag: “]” expected after the value"),
    "tags.control": T("%(tag)s tag: a control character in the value"),
    # --- the move text -------------------------------------------------------------------
    "syntax.control": T(
        "control character %(value)s in the record: FCN is printable text (tabs and line breaks "
        "aside)"
    ),
    "syntax.comment_first": T("a comment before the first move is not closed"),
    "syntax.before_first": T("%(value)s before the first move"),
    "syntax.event": T(
        "malformed move %(value)s: expected a seat digit and a verb (x d m w r, or the "
        "extensions c h), then cards, as in 2x rK, 3d gC, 1m rP yP wP"
    ),
    "syntax.unclosed_comment": T("a comment is not closed"),
    "syntax.stray_brace": T("“}” with no comment to close"),
    "syntax.group_verb": T("a group in a %(verb_name)s move"),
    "syntax.unclosed_group": T("a group is not closed"),
    "syntax.stray_paren": T("“)” with no group to close"),
    "syntax.empty_group": T("an empty group"),
    "syntax.card": T("no such card %(value)s"),
    "syntax.after_groups": T("card %(card)s after the declared groups"),
    "syntax.one_card": T("a %(verb_name)s names exactly one card, not %(n)s"),
    "syntax.redeal_cards": T("a redeal names no cards"),
    "syntax.meld_cards": T("a %(verb_name)s names the 1 to 4 cards of its meld, not %(n)s"),
    "syntax.comment_brace": T("a comment cannot contain “}”"),
    "event.comment": T(
        "a comment in a move typed alone: write a seat, a verb and its cards, as 3x rK"
    ),
    "event.second": T("one move at a time: %(value)s begins another"),
    "event.none": T("no move: write a seat, a verb and its cards, as 3x rK"),
    # --- sizes ---------------------------------------------------------------------------
    "limit.record": T("the record is longer than %(n)s characters"),
    "limit.line": T("a line longer than %(n)s characters"),
    "limit.tags": T("more than %(n)s tags"),
    "limit.tag_value": T("%(tag)s tag: the value is longer than %(n)s characters"),
    "limit.comment": T("a comment longer than %(n)s characters"),
    "limit.events": T("more than %(n)s moves"),
    "limit.player_name": T("Seat%(n)s: a player name has at most %(m)s characters, not %(value)s"),
    "limit.records": T("too many records in one upload: at most %(n)s (split the file)"),
    "encoding.utf8": T("invalid UTF-8: byte %(value)s; records must be UTF-8 text"),
    "encoding.surrogate": T(
        "%(value)s is a lone surrogate, not a character; records must be UTF-8 text"
    ),
    "import.unavailable": T("not stored: the database is unavailable (resume at record %(n)s)"),
    # --- the JSON twin -------------------------------------------------------------------
    "json.object": T("JSON record: an object was expected"),
    "json.tags": T("JSON record: “tags” must map names to strings"),
    "json.tag_name": T("JSON record: bad tag name %(value)s"),
    "json.deal": T("JSON record: “deal” must map seats to card lists"),
    "json.deal_seat": T("JSON record: bad deal seat %(value)s"),
    "json.comments": T("JSON record: “comments” must be a list of strings"),
    "json.events": T("JSON record: “events” must be a list"),
    "json.event": T("JSON record: a move must be an object"),
    "json.seat": T("JSON record: a move needs a seat digit"),
    "json.verb": T("JSON record: bad verb %(value)s"),
    "json.split": T("JSON record: “split” must be a list of card lists"),
    "json.split_verb": T("JSON record: only a win has a declared split"),
    "json.comment_control": T("JSON record: a comment cannot hold control character %(value)s"),
    "json.card_list": T("JSON record: %(value)s: a list of cards was expected"),
    "json.card": T("JSON record: %(value)s: no such card %(value2)s"),
    # --- the record editor ---------------------------------------------------------------
    "draft.result": T("a draft’s Result is absent or “*”, not %(value)s"),
    "draft.no_seat": T("there is no seat %(n)s to deal to: the round has %(m)s seats"),
    "draft.deal_incomplete": T("the deal is not complete: every seat needs its cards first"),
    "draft.refused": T("the archive refused the record"),
}


def _quoted() -> dict[str, set[str]]:
    """Per code, the parameters its English template quotes (`{value!r}`): quoted here too."""
    quoted: dict[str, set[str]] = {}
    for code, (_category, template) in MESSAGES.items():
        quoted[code] = {name for _, name, _, conversion in string.Formatter().parse(template)
                        if name and conversion == "r"}
    return quoted


QUOTED = _quoted()


def _cards(tokens: Any) -> str:
    if isinstance(tokens, str):
        tokens = tokens.split()
    return _(", ").join(card_name(str(t)) or str(t) for t in tokens)


def _listed(values: Any) -> str:
    return _(", ").join(str(v) for v in values) if isinstance(values, list) else str(values)


def _shown(params: Mapping[str, Any], code: str, seats: Sequence[str]) -> dict[str, str]:
    """The parameters as the reader sees them: seats as names, cards and melds named."""

    def seat(number: Any) -> str:
        return seat_name(int(number), seats)

    def named(table: Mapping[str, Promise]) -> Callable[[Any], str]:
        return lambda value: str(table.get(value, value))

    shown: dict[str, Callable[[Any], str]] = {
        "seat": seat, "seat2": seat,
        "card": lambda t: card_name(t) or str(t), "card2": lambda t: card_name(t) or str(t),
        "cards": _cards, "names": _listed, "choices": _listed,
        "meld": named(MELD_NAMES), "kind": named(MELD_NAMES),
        "where": named(WHERE), "verb": named(VERBS), "verb_name": named(VERB_NAMES),
        "right": named(RIGHTS), "right2": named(RIGHTS), "rank": named(RANK_NAMES),
    }
    quoted = QUOTED.get(code, set())
    return {
        name: repr(value) if name in quoted else shown.get(name, str)(value)
        for name, value in params.items()
    }


def refusal_text(error: Mapping[str, Any], seats: Sequence[str] | None = None) -> str:
    """A refusal (`FcnError.as_dict()`, or a stored one with its `seats`) in the active
    language, naming players. A refusal without a code (stored before codes) or with the code
    `stored` is shown in the English it was stored with."""
    code, params = error.get("code"), error.get("params")
    message = str(error.get("message") or "")
    template = TEXTS.get(code) if isinstance(code, str) else None
    if template is None or not isinstance(params, Mapping):
        return message
    if seats is None:
        seats = error.get("seats") or ()
    try:
        return str(template) % _shown(params, code, seats)
    except (KeyError, TypeError, ValueError):
        return message  # parameters stored by another version of the engine


def ruleset_refusal(error: RulesetError) -> str:
    """A ruleset's or a Switches value's refusal in the active language, from its code (a
    refusal without one, as the engine wrote it)."""
    return refusal_text({"code": getattr(error, "code", None),
                         "params": getattr(error, "params", None), "message": str(error)})


def category_label(category: str) -> str:
    return str(CATEGORIES.get(category, category))


__all__ = ["CATEGORIES", "TEXTS", "category_label", "refusal_text", "ruleset_refusal"]
