"""Refusals in the reader's language, naming players.

The engine stays Django-free and says why it refused a record in English, with an error
category (`claim-right`, `turn`, ...) and the parameters written into the message (seats,
cards, meld kinds, numbers). This catalogue is keyed by the category and the message's shape:
each entry's pattern takes the parameters back out of the English message, and its template
says the same in the page's language, with each seat replaced by the player's name ("Noor may
not make a field with another player's draw", not "seat 4 ...") and each card by its name.

A message no entry matches (a new engine message) is shown as the engine wrote it; the test
`tests/web/test_refusals.py` runs every refusal of the public corpus and of the hostile corpus
through the catalogue and fails on any such message, so a new one gets its entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from fourcolor.rulesets import MELD_LABELS
from web.views.labels import MELD_NAMES, RANK_NAMES, card_name

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
}

WHERE = {
    "its own discard": gettext_lazy("their own discard"),
    "a discard": gettext_lazy("a discard"),
    "another seat’s draw": gettext_lazy("another player’s draw"),
}
VERBS = {"meld": gettext_lazy("meld"), "win": gettext_lazy("win")}
RIGHTS = {
    "win": gettext_lazy("win"),
    "pong": gettext_lazy("pong"),
    "gan": gettext_lazy("gan"),
    "chi": gettext_lazy("chi"),
    "own draw": gettext_lazy("meld of their own draw"),
}
MELD_BY_LABEL = {label: kind for kind, label in MELD_LABELS.items()}

# The parameters a pattern may take, each with the pattern it reads and how it is shown.
_CARD = r"[rygw][KAERHCP]"
SLOTS: dict[str, str] = {
    "seat": r"\d+", "seat2": r"\d+", "card": _CARD, "card2": _CARD,
    "cards": rf"{_CARD}(?: {_CARD})*", "meld": "|".join(re.escape(x) for x in MELD_BY_LABEL),
    "where": "|".join(re.escape(x) for x in WHERE), "verb": "meld|win",
    "right": "|".join(RIGHTS), "right2": "|".join(RIGHTS),
    "n": r"\d+", "m": r"\d+", "ruleset": r"[\w-]+", "value": r".*", "value2": r".*",
    "tag": r"\w+", "kind": "|".join(MELD_LABELS), "rank": "[KAERHCP]",
}


@dataclass(frozen=True)
class Entry:
    category: str
    pattern: re.Pattern[str]
    template: Promise


def _entry(category: str, shape: str, template: Promise) -> Entry:
    """`shape` is the engine's message with {slot} where a parameter goes."""
    regex = ""
    for part in re.split(r"(\{\w+\})", shape):
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1]
            regex += f"(?P<{name}>{SLOTS[name]})"
        else:
            regex += re.escape(part)
    return Entry(category, re.compile(regex + r"\Z"), template)


E = _entry
CATALOGUE: tuple[Entry, ...] = (
    # --- the rules (fourcolor.game, fourcolor.claims) ------------------------------------
    E("after-end", "event after the round ended",
      gettext_lazy("a move after the round had ended")),
    E("turn", "there is no seat {n} in a {m}-player round",
      gettext_lazy("there is no seat %(n)s in a %(m)s-player round")),
    E("priority", "calls were made on the live card, so a claim must take effect next",
      gettext_lazy("calls were made on the live card, so a claim must take effect next")),
    E("turn", "seat {seat} cannot discard now: the dealer (seat {seat2}) opens",
      gettext_lazy("%(seat)s cannot discard now: the dealer, %(seat2)s, opens")),
    E("turn", "seat {seat} cannot discard now (seat {seat2} must discard)",
      gettext_lazy("%(seat)s cannot discard now (%(seat2)s must discard)")),
    E("turn", "only the drawer (seat {seat}) may discard now",
      gettext_lazy("only the drawer, %(seat)s, may discard now")),
    E("discard-general", "generals are never discarded",
      gettext_lazy("generals are never discarded")),
    E("not-live", "the drawer must meld or discard the drawn {card}, not discard {card2}",
      gettext_lazy("the drawer must meld or discard the drawn %(card)s, not discard %(card2)s")),
    E("turn", "seat {seat} cannot discard now (a claim or draw is due)",
      gettext_lazy("%(seat)s cannot discard now (a claim or a draw is due)")),
    E("not-in-hand", "seat {seat} does not hold {cards}",
      gettext_lazy("%(seat)s does not hold %(cards)s")),
    E("locked", "seat {seat}'s dealt set of {card} is locked (dealt_sets_locked)",
      gettext_lazy("%(seat)s’s dealt set of %(card)s is locked")),
    E("turn", "seat {seat} cannot draw now", gettext_lazy("%(seat)s cannot draw now")),
    E("turn", "seat {seat} draws, not seat {seat2}",
      gettext_lazy("%(seat)s draws now, not %(seat2)s")),
    E("empty-pile", "seat {seat} draws from an empty pile",
      gettext_lazy("%(seat)s draws from an empty pile")),
    E("pile-mismatch", "the pile gives {card}, not {card2}",
      gettext_lazy("the pile gives %(card)s, not %(card2)s")),
    E("too-many-copies", "{n} copies of {card} dealt and drawn",
      gettext_lazy("%(n)s copies of %(card)s dealt and drawn (a card has 4)")),
    E("turn", "seat {seat} cannot {verb} now: no live card",
      gettext_lazy("%(seat)s cannot %(verb)s now: there is no live card")),
    E("not-live", "the meld does not contain the live card {card}",
      gettext_lazy("the meld does not contain the live card %(card)s")),
    E("not-a-meld", "{cards} is not a meld of {ruleset}",
      gettext_lazy("%(cards)s is not a meld of %(ruleset)s")),
    E("not-a-meld", "a {kind} of {rank} is not a meld of {ruleset}",
      gettext_lazy("a %(kind)s of %(rank)s is not a meld of %(ruleset)s")),
    E("claim-right", "seat {seat} may not win on its own discard",
      gettext_lazy("%(seat)s may not win on their own discard")),
    E("claim-right", "seat {seat} may not make a {meld} with {where}: a general is claimed out "
      "of turn only for a win",
      gettext_lazy("%(seat)s may not make a %(meld)s with %(where)s: a general is claimed out "
                   "of turn only for a win")),
    E("claim-right", "seat {seat} may not make a {meld} with {where}: a general is claimed out "
      "of turn only for a gan or a win",
      gettext_lazy("%(seat)s may not make a %(meld)s with %(where)s: a general is claimed out "
                   "of turn only for a gan or a win")),
    E("claim-right", "seat {seat} may not make a {meld} with {where}",
      gettext_lazy("%(seat)s may not make a %(meld)s with %(where)s")),
    E("priority", "seat {seat} has already called this card",
      gettext_lazy("%(seat)s has already called this card")),
    E("priority", "seat {seat} called this card, so its call did not take effect",
      gettext_lazy("%(seat)s called this card, so their call did not take effect")),
    E("priority", "seat {seat}'s {right} takes priority over seat {seat2}'s {right2}",
      gettext_lazy("%(seat)s’s %(right)s takes priority over %(seat2)s’s %(right2)s")),
    E("redeal", "ruleset {ruleset} has no redeal",
      gettext_lazy("the %(ruleset)s rules have no redeal")),
    E("redeal", "redeal only before the dealer's first discard",
      gettext_lazy("a redeal is only declared before the dealer’s first discard")),
    E("redeal", "seat {seat}'s dealt hand does not qualify for a redeal",
      gettext_lazy("%(seat)s’s dealt hand does not qualify for a redeal")),
    E("bad-split", "declared group ({cards}) is not a meld",
      gettext_lazy("the declared group (%(cards)s) is not a meld")),
    E("bad-split", "the declared split does not cover the rest of the hand ({cards})",
      gettext_lazy("the declared split does not cover the rest of the hand (%(cards)s)")),
    E("bad-split", "the locked dealt set of {card} is split",
      gettext_lazy("the locked dealt set of %(card)s is split")),
    E("no-win", "seat {seat}'s hand does not split into melds",
      gettext_lazy("%(seat)s’s hand does not split into melds")),
    E("no-win", "seat {seat}'s melds score {n}, under the {ruleset} threshold {m}",
      gettext_lazy("%(seat)s’s melds score %(n)s, under the %(ruleset)s threshold of %(m)s")),
    E("lucky", "Lucky says {value}, but the pile is used up and the dealer's opening discard "
      "{card} serves",
      gettext_lazy("the Lucky tag says %(value)s, but the pile is used up and the dealer’s "
                   "opening discard %(card)s serves")),
    E("lucky", "Lucky says {value}, the pile gives {card}",
      gettext_lazy("the Lucky tag says %(value)s, the pile gives %(card)s")),
    E("lucky", "a bga win needs its lucky card: a Lucky or Pile tag",
      gettext_lazy("a bga win needs its lucky card: a Lucky or Pile tag")),
    E("truncated", "the record stops before the round ends",
      gettext_lazy("the record stops before the round ends")),
    E("result-mismatch", "Result says {value}, the round gives {value2}",
      gettext_lazy("the Result tag says %(value)s, the round gives %(value2)s")),
    # --- the deal and the tags (fourcolor.game, fourcolor.notation) ----------------------
    E("deal", "seat {seat} is dealt {n} cards, not {m}",
      gettext_lazy("%(seat)s is dealt %(n)s cards, not %(m)s")),
    E("deal", "bad or repeated deal line for seat {n} (the record has {m} seats)",
      gettext_lazy("a bad or repeated deal line for seat %(n)s (the record has %(m)s seats)")),
    E("too-many-copies", "{n} copies of {card} dealt",
      gettext_lazy("%(n)s copies of %(card)s dealt (a card has 4)")),
    E("too-many-copies", "{n} copies of {card} in the deal and the Pile tag",
      gettext_lazy("%(n)s copies of %(card)s in the deal and the Pile tag (a card has 4)")),
    E("pile-mismatch", "the Pile tag holds {n} cards, not {m}",
      gettext_lazy("the Pile tag holds %(n)s cards, not %(m)s")),
    E("tags", "missing Ruleset tag", gettext_lazy("the Ruleset tag is missing")),
    E("tags", "unknown ruleset {value}", gettext_lazy("unknown ruleset %(value)s")),
    E("tags", "missing Seat1 tag", gettext_lazy("the Seat1 tag is missing")),
    E("tags", "missing Seat{n} tag (seats are numbered 1..N with no gap)",
      gettext_lazy("the Seat%(n)s tag is missing (seats are numbered from 1 with no gap)")),
    E("tags", "{n} seats: a round has 2, 3 or 4 players",
      gettext_lazy("%(n)s seats: a round has 2, 3 or 4 players")),
    E("tags", "Seat{n} has an empty name", gettext_lazy("Seat%(n)s has an empty name")),
    E("tags", "Seat{n} name {value} holds the bidi control {value2}, which reorders the text "
      "shown after it",
      gettext_lazy("Seat%(n)s name %(value)s holds the bidi control %(value2)s, which reorders "
                   "the text shown after it")),
    E("tags", "Seat{n} name {value} holds the {value2}",
      gettext_lazy("Seat%(n)s name %(value)s holds the %(value2)s")),
    E("tags", "Seat{n} name {value} has no visible character (only {value2})",
      gettext_lazy("Seat%(n)s name %(value)s has no visible character (only %(value2)s)")),
    E("tags", "Seat{n} {value} is the same player as Seat{m} {value2} (names are compared "
      "ignoring case, accents' encoding and blanks)",
      gettext_lazy("Seat%(n)s %(value)s is the same player as Seat%(m)s %(value2)s (names are "
                   "compared ignoring case, the encoding of accents and blanks)")),
    E("tags", "missing Dealer tag", gettext_lazy("the Dealer tag is missing")),
    E("tags", "bad or missing Dealer {value}", gettext_lazy("bad Dealer tag %(value)s")),
    E("tags", "malformed Result {value}: expected S:P, -, R or *",
      gettext_lazy("malformed Result tag %(value)s: expected S:P, -, R or *")),
    E("tags", "malformed Date {value}: expected YYYY.MM.DD",
      gettext_lazy("malformed Date tag %(value)s: expected YYYY.MM.DD")),
    E("tags", "duplicated tag {tag}", gettext_lazy("the %(tag)s tag is repeated")),
    E("tags", "{tag}: no such card {value}", gettext_lazy("%(tag)s tag: no such card %(value)s")),
    E("tags", "Lucky names one card", gettext_lazy("the Lucky tag names one card")),
    # --- the move text (fourcolor.notation) ----------------------------------------------
    E("syntax", "no such card {value}", gettext_lazy("no such card %(value)s")),
    E("syntax", "unclosed group", gettext_lazy("a group is not closed")),
    E("syntax", "empty group", gettext_lazy("an empty group")),
    E("syntax", "')' without a group to close", gettext_lazy("“)” with no group to close")),
    E("syntax", "unclosed comment", gettext_lazy("a comment is not closed")),
    E("syntax", "'}' without a comment to close", gettext_lazy("“}” with no comment to close")),
    E("syntax", "a group in a {value} event", gettext_lazy("a group in a %(value)s move")),
    E("syntax", "card {card} after the declared groups",
      gettext_lazy("card %(card)s after the declared groups")),
    E("syntax", "a {value} names exactly one card, not {n}",
      gettext_lazy("a %(value)s names exactly one card, not %(n)s")),
    E("syntax", "a redeal names no cards", gettext_lazy("a redeal names no cards")),
    E("syntax", "a {value} names the 1 to 4 cards of its meld, not {n}",
      gettext_lazy("a %(value)s names the 1 to 4 cards of its meld, not %(n)s")),
    E("syntax", "NUL byte in the record", gettext_lazy("a NUL byte in the record")),
    E("syntax", "{value} in the record: FCN is printable text (tabs and line breaks aside)",
      gettext_lazy("%(value)s in the record: FCN is printable text (tabs and line breaks "
                   "aside)")),
    E("syntax", "'}' before the first event", gettext_lazy("“}” before the first move")),
    E("syntax", "malformed event {value}: expected a seat digit and a verb (x d m w r, or the "
      "extensions c h)",
      gettext_lazy("malformed move %(value)s: expected a seat digit and a verb (x d m w r, or "
                   "the extensions c h)")),
    E("tags", "tag {tag}: control character in the value",
      gettext_lazy("%(tag)s tag: a control character in the value")),
    E("tags", "tag {tag}: unclosed value", gettext_lazy("%(tag)s tag: the value is not closed")),
    E("tags", "tag {tag}: expected ] after the value",
      gettext_lazy("%(tag)s tag: “]” expected after the value")),
    E("deal", "no deal line for seat {n}", gettext_lazy("no deal line for seat %(n)s")),
    E("encoding", "invalid UTF-8: byte {value} ({value2}); records must be UTF-8 text",
      gettext_lazy("invalid UTF-8: byte %(value)s; records must be UTF-8 text")),
    E("encoding", "{value} is a lone surrogate, not a character; records must be UTF-8 text",
      gettext_lazy("%(value)s is a lone surrogate, not a character; records must be UTF-8 "
                   "text")),
    E("limit", "comment longer than {n} characters",
      gettext_lazy("a comment longer than %(n)s characters")),
    E("limit", "line longer than {n} characters",
      gettext_lazy("a line longer than %(n)s characters")),
    E("limit", "more than {n} tags", gettext_lazy("more than %(n)s tags")),
    E("limit", "the record is longer than {n} characters",
      gettext_lazy("the record is longer than %(n)s characters")),
    E("limit", "Seat{n}: a player name has at most {m} characters, not {value}",
      gettext_lazy("Seat%(n)s: a player name has at most %(m)s characters, not %(value)s")),
    E("limit", "too many records in one upload: at most {n} (split the file)",
      gettext_lazy("too many records in one upload: at most %(n)s (split the file)")),
)


def _cards(tokens: str) -> str:
    return _(", ").join(card_name(token) or token for token in tokens.split())


def _values(match: re.Match[str], seats: Sequence[str]) -> dict[str, Any]:
    """The parameters as the reader sees them: seats as names, cards and melds named."""

    def seat(number: str) -> str:
        index = int(number) - 1
        if 0 <= index < len(seats) and seats[index].strip():
            return seats[index]
        return _("seat %(number)s") % {"number": number}

    shown: dict[str, Callable[[str], Any]] = {
        "seat": seat, "seat2": seat,
        "card": lambda t: card_name(t) or t, "card2": lambda t: card_name(t) or t,
        "cards": _cards,
        "meld": lambda label: str(MELD_NAMES.get(MELD_BY_LABEL.get(label, ""), label)),
        "where": lambda w: str(WHERE[w]), "verb": lambda v: str(VERBS[v]),
        "kind": lambda k: str(MELD_NAMES.get(k, k)), "rank": lambda r: str(RANK_NAMES[r]),
        "right": lambda r: str(RIGHTS[r]), "right2": lambda r: str(RIGHTS[r]),
    }
    return {
        name: shown.get(name, str)(value)
        for name, value in match.groupdict().items()
        if value is not None
    }


def find(category: str, message: str) -> tuple[Entry, re.Match[str]] | None:
    for entry in CATALOGUE:
        if entry.category != category:
            continue
        match = entry.pattern.match(message)
        if match:
            return entry, match
    return None


def refusal_message(error: Mapping[str, Any]) -> str:
    """The refusal's message in the active language, with players named (the engine's
    English when the catalogue has no entry for it)."""
    message = str(error.get("message") or "")
    found = find(str(error.get("category") or ""), message)
    if found is None:
        return message
    entry, match = found
    return str(entry.template) % _values(match, error.get("seats") or ())


def category_label(category: str) -> str:
    return str(CATEGORIES.get(category, category))
