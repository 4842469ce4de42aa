"""A game's variant in words ("classic, generals never stolen, 5 players") and the shipped
rulesets as data for the API: their switches, numbers, table sizes and what each means, in the
reader's language. The rules themselves are the engine's (fourcolor.rulesets)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from fourcolor.rulesets import (
    RULESETS,
    SWITCH_NAMES,
    SWITCH_VALUES,
    Ruleset,
    RulesetError,
    format_switches,
    parse_switches,
)
from records.refusal_text import refusal_text, ruleset_refusal

# What each switch means, and each of its values in a game's description.
MEANINGS = {
    "steal_generals": _("whether a general another seat drew may be claimed for a gan (gan) or "
                        "only for a win (never)"),
    "below_threshold": _("what a forced finish under the threshold pays each other seat: "
                         "threshold + base (fixed) or threshold − points + base (shortfall)"),
    "lucky_draw": _("a lucky card turned after a win adds the copies of it the winner holds to "
                    "what each other seat pays"),
    "redeal": _("a dealt hand with no general, triple, quad or four-colour group may void the "
                "round before the first discard"),
    "dealt_sets_locked": _("dealt triples and quads may not be split during play"),
    "color_groups": _("which ranks make three- and four-colour groups: any rank (any) or "
                      "soldiers only (soldiers)"),
    "threshold": _("the points a win needs, and where a forced finish starts to pay (bga)"),
    "base": _("the base each other seat pays beyond the threshold (bga)"),
}
WORDS = {
    ("steal_generals", "gan"): _("generals stolen for a gan"),
    ("steal_generals", "never"): _("generals never stolen"),
    ("below_threshold", "fixed"): _("short finishes pay a fixed sum"),
    ("below_threshold", "shortfall"): _("short finishes pay the shortfall"),
    ("lucky_draw", True): _("lucky card"),
    ("lucky_draw", False): _("no lucky card"),
    ("redeal", True): _("redeals"),
    ("redeal", False): _("no redeals"),
    ("dealt_sets_locked", True): _("dealt sets locked"),
    ("dealt_sets_locked", False): _("dealt sets free"),
    ("color_groups", "any"): _("colour groups of any rank"),
    ("color_groups", "soldiers"): _("colour groups of soldiers only"),
}


def canonical_switches(text: str | None) -> str:
    """A Switches tag's value written canonically; "" for none (or one the engine refuses,
    which no stored game has)."""
    try:
        return format_switches(parse_switches(text or ""))
    except RulesetError:
        return ""


class PickError(ValueError):
    """A ruleset or house rules an uploader picked that the engine does not know: the form
    field at fault and what is wrong, in the active language."""

    def __init__(self, field: str, text: str) -> None:
        super().__init__(text)
        self.field, self.text = field, text


def picked_tags(ruleset: str = "", switches: str = "") -> dict[str, str]:
    """The `Ruleset` and `Switches` an uploader picked for the records whose own tags do not
    say (records.services.ImportOptions's `given`), as the upload page, the check page and the
    API's upload take them: only what was picked, the switches written canonically. A ruleset
    the engine does not ship or a bad switch is a PickError, in the words of a record's
    refusal."""
    tags = {}
    if ruleset:
        if ruleset not in RULESETS:
            raise PickError("ruleset", refusal_text({
                "code": "tags.ruleset_unknown", "params": {"value": ruleset},
                "message": f"unknown ruleset {ruleset!r}"}))
        tags["Ruleset"] = ruleset
    try:
        canonical = format_switches(parse_switches(switches))
    except RulesetError as error:
        raise PickError("switches", ruleset_refusal(error)) from None
    if canonical:
        tags["Switches"] = canonical
    return tags


def switch_words(switches: str) -> list[str]:
    """Each switch a (canonical) Switches value sets, in words in the active language."""
    words = []
    given = parse_switches(switches)
    for name in SWITCH_NAMES:
        if name not in given:
            continue
        value = given[name]
        if name in ("threshold", "base"):
            label = gettext("threshold %(n)s") if name == "threshold" else gettext("base %(n)s")
            words.append(label % {"n": value})
        else:
            words.append(str(WORDS[(name, value)]))
    return words


def describe(ruleset: str, switches: str, players: int) -> str:
    """The variant in the active language: the ruleset, each switch it changes, the table."""
    table = ngettext("%(n)s player", "%(n)s players", players) % {"n": players}
    return ", ".join([ruleset, *switch_words(switches), table])


def _word(value: Any) -> Any:
    if isinstance(value, bool):
        return "on" if value else "off"
    return value


def switch_help() -> list[dict[str, str]]:
    """Each switch's name, values and meaning in the active language: the help of the forms
    that pick a house variant."""
    return [{"name": name,
             "values": (" | ".join(str(_word(v)) for v in SWITCH_VALUES[name])
                        if name in SWITCH_VALUES else "0–100"),
             "meaning": str(MEANINGS[name])}
            for name in SWITCH_NAMES]


def _in_languages(text: Any) -> dict[str, str]:
    out = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            out[code.replace("-hant", "_Hant")] = str(text)
    return out


def _ruleset_data(ruleset: Ruleset) -> dict[str, Any]:
    switches = []
    for name in SWITCH_NAMES:
        if name in SWITCH_VALUES:
            values = [_word(v) for v in SWITCH_VALUES[name]]
        else:
            values = {"minimum": 0, "maximum": 100}
        switches.append({
            "name": name,
            "value": _word(getattr(ruleset, name)),
            "values": values,
            "meaning": _in_languages(MEANINGS[name]),
        })
    return {
        "name": ruleset.name,
        "description": ruleset.description,
        "players": {"min": 2, "max": ruleset.max_players},
        "threshold": ruleset.threshold,
        "base": ruleset.base,
        "match_rounds": ruleset.match_rounds,
        "switches": switches,
    }


def shipped_rulesets() -> list[dict[str, Any]]:
    """Every shipped ruleset with its switches, numbers, allowed table sizes and meanings."""
    return [_ruleset_data(ruleset) for ruleset in RULESETS.values()]
