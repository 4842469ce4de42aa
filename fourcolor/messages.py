"""The English of every error code: one table, so that a message and its code cannot drift.

Each `FcnError` carries a stable `code` (a key here) and its parameters as data; its message
is this table's template filled with them (`render`). Pages and the API translate the code,
not the English (records/refusal_text.py), so a template here can be reworded freely.

The parameters' names say what they hold, for every code alike:

    seat, seat2     a seat number (int)
    card, card2     a card token ("rK")
    cards           card tokens (a list)
    meld            a meld kind (`MELD_LABELS` key): "field"
    kind            a meld shape (`meld_shape`): "three_colour"
    rank            a rank letter: "R"
    where           whose live card: "own_discard", "discard" or "draw"
    verb            "meld" or "win";  right, right2: a claim right ("pong", "own draw", ...)
    verb_name       an event's verb as `VERB_NAMES` names it: "discard"
    ruleset         a ruleset's name;  tag: a tag's name
    n, m            numbers
    value, value2   text from the record (quoted with `!r` where the message quotes it)
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from typing import Any

# The meld kinds in English words (also the rulesets' labels).
MELD_LABELS = {
    "lone": "lone general",
    "pair": "pair",
    "command": "command",
    "field": "field",
    "triple": "triple",
    "quad": "quad",
    "three_colour": "three-colour",
    "four_colour": "four-colour",
}

# code -> (category, English template). The category is the rule family a page groups by.
MESSAGES: dict[str, tuple[str, str]] = {
    # --- the rules (fourcolor.round, claims, scoring, game, deal) ---------------------------
    "round.ended": ("after-end", "event after the round ended"),
    "turn.no_seat": ("turn", "there is no seat {n} in a {m}-player round"),
    "turn.dealer_opens": (
        "turn", "seat {seat} cannot discard now: the dealer (seat {seat2}) opens"
    ),
    "turn.must_discard": ("turn", "seat {seat} cannot discard now (seat {seat2} must discard)"),
    "turn.drawer_discards": ("turn", "only the drawer (seat {seat}) may discard now"),
    "turn.discard": ("turn", "seat {seat} cannot discard now (a claim or draw is due)"),
    "turn.draw": ("turn", "seat {seat} cannot draw now"),
    "turn.drawer": ("turn", "seat {seat} draws, not seat {seat2}"),
    "turn.no_live": ("turn", "seat {seat} cannot {verb} now: no live card"),
    "priority.claim_due": (
        "priority", "calls were made on the live card, so a claim must take effect next"
    ),
    "priority.called": ("priority", "seat {seat} has already called this card"),
    "priority.caller_melds": (
        "priority", "seat {seat} called this card, so its call did not take effect"
    ),
    "priority.outranked": (
        "priority", "seat {seat}'s {right} takes priority over seat {seat2}'s {right2}"
    ),
    "discard.general": ("discard-general", "generals are never discarded"),
    "live.drawn": (
        "not-live", "the drawer must meld or discard the drawn {card}, not discard {card2}"
    ),
    "live.not_in_meld": ("not-live", "the meld does not contain the live card {card}"),
    "hand.missing": ("not-in-hand", "seat {seat} does not hold {cards}"),
    "hand.locked": ("locked", "seat {seat}'s dealt set of {card} is locked (dealt_sets_locked)"),
    "pile.empty": ("empty-pile", "seat {seat} draws from an empty pile"),
    "pile.mismatch": ("pile-mismatch", "the pile gives {card}, not {card2}"),
    "pile.size": ("pile-mismatch", "the Pile tag holds {n} cards, not {m}"),
    "copies.drawn": ("too-many-copies", "{n} copies of {card} dealt and drawn"),
    "copies.dealt": ("too-many-copies", "{n} copies of {card} dealt"),
    "copies.pile": ("too-many-copies", "{n} copies of {card} in the deal and the Pile tag"),
    "meld.invalid": ("not-a-meld", "{cards} is not a meld of {ruleset}"),
    "meld.excluded": ("not-a-meld", "a {kind} of {rank} is not a meld of {ruleset}"),
    "claim.own_discard": ("claim-right", "seat {seat} may not win on its own discard"),
    "claim.general_for_win": (
        "claim-right",
        "seat {seat} may not make a {meld} with {where}: a general is claimed out of turn only "
        "for a win",
    ),
    "claim.general_for_gan": (
        "claim-right",
        "seat {seat} may not make a {meld} with {where}: a general is claimed out of turn only "
        "for a gan or a win",
    ),
    "claim.no_right": ("claim-right", "seat {seat} may not make a {meld} with {where}"),
    "redeal.none": ("redeal", "ruleset {ruleset} has no redeal"),
    "redeal.late": ("redeal", "redeal only before the dealer's first discard"),
    "redeal.hand": ("redeal", "seat {seat}'s dealt hand does not qualify for a redeal"),
    "split.not_a_meld": ("bad-split", "declared group ({cards}) is not a meld"),
    "split.rest": (
        "bad-split", "the declared split does not cover the rest of the hand ({cards})"
    ),
    "split.locked": ("bad-split", "the locked dealt set of {card} is split"),
    "win.no_split": ("no-win", "seat {seat}'s hand does not split into melds"),
    "win.threshold": (
        "no-win", "seat {seat}'s melds score {n}, under the {ruleset} threshold {m}"
    ),
    "lucky.opening": (
        "lucky",
        "Lucky says {value}, but the pile is used up and the dealer's opening discard {card} "
        "serves",
    ),
    "lucky.pile": ("lucky", "Lucky says {value}, the pile gives {card}"),
    "lucky.missing": ("lucky", "a bga win needs its lucky card: a Lucky or Pile tag"),
    "record.truncated": ("truncated", "the record stops before the round ends"),
    "record.result": ("result-mismatch", "Result says {value!r}, the round gives {value2!r}"),
    "deal.size": ("deal", "seat {seat} is dealt {n} cards, not {m}"),
    "deal.missing": ("deal", "no deal line for seat {n}"),
    "deal.extra": ("deal", "bad or repeated deal line for seat {n} (the record has {m} seats)"),
    "deal.repeated": ("deal", "bad or repeated deal line for seat {n}"),
    "deal.card": ("deal", "no such card {value!r} in the deal"),
    # --- the tags (fourcolor.notation.tags, fourcolor.game) ---------------------------------
    "tags.ruleset_missing": ("tags", "missing Ruleset tag"),
    "tags.ruleset_unknown": ("tags", "unknown ruleset {value!r}"),
    "tags.seat1_missing": ("tags", "missing Seat1 tag"),
    "tags.seat_gap": ("tags", "missing Seat{n} tag (seats are numbered 1..N with no gap)"),
    "tags.seat_count": ("tags", "{n} seats: a round has 2 to {m} players"),
    "tags.ruleset_players": ("tags", "{n} seats: {ruleset} is played by 2 to {m} players"),
    "switches.item": ("tags", "Switches: {value!r} is not name=value"),
    "switches.unknown": ("tags", "Switches: unknown switch {value!r} (known: {names})"),
    "switches.twice": ("tags", "Switches: {value} is given twice"),
    "switches.number": (
        "tags", "Switches: {value} must be an integer from 0 to 100, not {value2!r}"
    ),
    "switches.choice": ("tags", "Switches: {value} must be {choices}, not {value2!r}"),
    "tags.name_empty": ("tags", "Seat{n} has an empty name"),
    "tags.name_control": ("tags", "Seat{n} name {value!r} holds the control character {value2}"),
    "tags.name_bidi": (
        "tags",
        "Seat{n} name {value!r} holds the bidi control {value2}, which reorders the text shown "
        "after it",
    ),
    "tags.name_invisible": (
        "tags", "Seat{n} name {value!r} has no visible character (only {value2})"
    ),
    "tags.same_player": (
        "tags",
        "Seat{n} {value!r} is the same player as Seat{m} {value2!r} (names are compared ignoring "
        "case, accents' encoding and blanks)",
    ),
    "tags.dealer_missing": ("tags", "missing Dealer tag"),
    "tags.dealer_bad": ("tags", "bad or missing Dealer {value!r}"),
    "tags.result": ("tags", "malformed Result {value!r}: expected S:P, -, R or *"),
    "tags.date": ("tags", "malformed Date {value!r}: expected YYYY.MM.DD"),
    "tags.card": ("tags", "{tag}: no such card {value!r}"),
    "tags.lucky_one": ("tags", "Lucky names one card"),
    "tags.repeated": ("tags", "duplicated tag {tag}"),
    "tags.malformed": ("tags", 'malformed tag line {value!r}: expected [Name "value"]'),
    "tags.unclosed": ("tags", "tag {tag}: unclosed value"),
    "tags.escape": ("tags", 'tag {tag}: only \\" and \\\\ are escapes'),
    "tags.bracket": ("tags", "tag {tag}: expected ] after the value"),
    "tags.control": ("tags", "tag {tag}: control character in the value"),
    # --- the move text (fourcolor.notation) -------------------------------------------------
    "syntax.control": (
        "syntax",
        "control character {value} in the record: FCN is printable text (tabs and line breaks "
        "aside)",
    ),
    "syntax.comment_first": ("syntax", "an unclosed comment before the first event"),
    "syntax.before_first": ("syntax", "{value!r} before the first event"),
    "syntax.event": (
        "syntax",
        "malformed event {value!r}: expected a seat digit and a verb (x d m w r, or the "
        "extensions c h), then cards, as in 2x rK, 3d gC, 1m rP yP wP",
    ),
    "syntax.unclosed_comment": ("syntax", "unclosed comment"),
    "syntax.stray_brace": ("syntax", "'}}' without a comment to close"),
    "syntax.group_verb": ("syntax", "a group in a {verb_name} event"),
    "syntax.unclosed_group": ("syntax", "unclosed group"),
    "syntax.stray_paren": ("syntax", "')' without a group to close"),
    "syntax.empty_group": ("syntax", "empty group"),
    "syntax.card": ("syntax", "no such card {value!r}"),
    "syntax.after_groups": ("syntax", "card {card} after the declared groups"),
    "syntax.one_card": ("syntax", "a {verb_name} names exactly one card, not {n}"),
    "syntax.redeal_cards": ("syntax", "a redeal names no cards"),
    "syntax.meld_cards": ("syntax", "a {verb_name} names the 1 to 4 cards of its meld, not {n}"),
    "syntax.comment_brace": ("syntax", "a comment cannot contain '}}'"),
    # One event typed alone (`Event.parse`: the record editor).
    "event.comment": (
        "syntax", "a comment in an event typed alone: write a seat, a verb and its cards, as 3x rK"
    ),
    "event.second": ("syntax", "one event at a time: {value!r} begins another"),
    "event.none": ("syntax", "no event: write a seat, a verb and its cards, as 3x rK"),
    # --- sizes the reader and the archive accept --------------------------------------------
    "limit.record": ("limit", "the record is longer than {n} characters"),
    "limit.line": ("limit", "line longer than {n} characters"),
    "limit.tags": ("limit", "more than {n} tags"),
    "limit.tag_value": ("limit", "tag {tag}: value longer than {n}"),
    "limit.comment": ("limit", "comment longer than {n} characters"),
    "limit.events": ("limit", "more than {n} events"),
    "limit.player_name": (
        "limit", "Seat{n}: a player name has at most {m} characters, not {value}"
    ),
    "limit.records": ("limit", "too many records in one upload: at most {n} (split the file)"),
    # --- the bytes of an upload (records.services.reading) ----------------------------------
    "encoding.utf8": (
        "encoding", "invalid UTF-8: byte {value} ({value2}); records must be UTF-8 text"
    ),
    "encoding.surrogate": (
        "encoding", "{value} is a lone surrogate, not a character; records must be UTF-8 text"
    ),
    "import.unavailable": (
        "unavailable", "not stored: database unavailable (resume at record {n})"
    ),
    # --- the JSON twin (fourcolor.notation.twin) --------------------------------------------
    "json.object": ("syntax", "JSON record: expected an object"),
    "json.tags": ("syntax", "JSON record: 'tags' must map names to strings"),
    "json.tag_name": ("syntax", "JSON record: bad tag name {value!r}"),
    "json.deal": ("syntax", "JSON record: 'deal' must map seats to card lists"),
    "json.deal_seat": ("syntax", "JSON record: bad deal seat {value!r}"),
    "json.comments": ("syntax", "JSON record: 'comments' must be a list of strings"),
    "json.events": ("syntax", "JSON record: 'events' must be a list"),
    "json.event": ("syntax", "JSON record: an event must be an object"),
    "json.seat": ("syntax", "JSON record: an event needs a seat digit"),
    "json.verb": ("syntax", "JSON record: bad verb {value!r}"),
    "json.split": ("syntax", "JSON record: 'split' must be a list of card lists"),
    "json.split_verb": ("syntax", "JSON record: only a win has a declared split"),
    "json.comment_control": (
        "syntax", "JSON record: a comment cannot hold control character {value}"
    ),
    "json.card_list": ("syntax", "JSON record: {value}: expected a list of cards"),
    "json.card": ("syntax", "JSON record: {value}: no such card {value2!r}"),
    # --- the record editor (drafts) ---------------------------------------------------------
    "draft.result": ("tags", "a draft's Result is absent or '*', not {value!r}"),
    "draft.no_seat": ("deal", "there is no seat {n} to deal to: the round has {m} seats"),
    "draft.deal_incomplete": ("deal", "the deal is not complete: every seat needs its cards first"),
    "draft.refused": ("error", "the archive refused the record"),
    # A refusal stored before refusals had codes: only its English words are known.
    "stored": ("error", "{value}"),
}

# What a round waits for (`Round.waiting`), in English.
WAITING = {
    "opening": "seat {seat} (the dealer) to discard",
    "discard": "seat {seat} to discard",
    "own_draw": "claims on seat {seat}'s draw, or its meld or discard",
    "last_discard": "claims on the last discard, or the pile has run out: nobody won",
    "exhausted": "the pile ran out: nobody won",
    "draw": "claims, or seat {seat} to draw",
    "ended": "nothing: the round has ended",
}

# How a parameter's value reads in English, for the parameters whose value is a name.
WORDS: dict[str, Mapping[str, str]] = {
    "where": {
        "own_discard": "its own discard",
        "discard": "a discard",
        "draw": "another seat\u2019s draw",
    },
    "meld": MELD_LABELS,
}


# How a list reads, for the parameters that are not cards.
_JOINS = {"names": ", ", "choices": " or "}


class _English(string.Formatter):
    """str.format, with a list of cards written as FCN writes it and named values in words."""

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        value = kwargs[str(key)]
        words = WORDS.get(str(key))
        return words.get(value, value) if words is not None else value

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        value, key = super().get_field(field_name, args, kwargs)
        if isinstance(value, (list, tuple)):  # cards as FCN writes them, names as a list
            value = _JOINS.get(field_name, " ").join(str(v) for v in value)
        return value, key


_FORMATTER = _English()


def render(code: str, params: Mapping[str, Any]) -> str:
    """The English message of `code` with `params`."""
    return _FORMATTER.vformat(MESSAGES[code][1], (), params)
