"""Rulesets as data (RULES.md §4, §6, §7, §8).

A ruleset is a meld table (points per meld kind, hidden and exposed, with per-rank exceptions),
the set of melds a chi may make, and the switches. `classic` and `bga` ship; a house ruleset is
built from a plain mapping with `Ruleset.from_mapping`, e.g. ``{"extends": "bga", "name": "house",
"threshold": 8, "melds": {"pair": {"P": [0, 0]}}}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from .messages import MELD_LABELS as MELD_LABELS  # the meld kinds in words, read from here too
from .messages import render

if TYPE_CHECKING:
    from .cards import Card
    from .claims import ClaimRight
    from .melds import Meld
    from .split import _RankTables

MELD_KINDS = (
    "lone",
    "pair",
    "command",
    "field",
    "triple",
    "quad",
    "three_colour",
    "four_colour",
)
ANY_RANK = "*"
_COLOUR_KINDS = ("three_colour", "four_colour")
MAX_PLAYERS = 8  # the most seats any ruleset may allow (RULES.md §2, NOTATION.md)
_UNKNOWN = object()  # not yet in a ruleset's cache

Points = tuple[int, int]  # (hidden, exposed)
# kind -> rank (or "*") -> (hidden, exposed), or None where the rank is excluded.
MeldTable = Mapping[str, Mapping[str, Points | None]]

# The switches of a few values each, and the numbers (0 to 100) of the bga settlement.
SWITCH_VALUES: dict[str, tuple[Any, ...]] = {
    "steal_generals": ("gan", "never"),
    "below_threshold": ("fixed", "shortfall"),
    "lucky_draw": (True, False),
    "redeal": (True, False),
    "dealt_sets_locked": (True, False),
    "color_groups": ("any", "soldiers"),
}
_NUMBERS = ("threshold", "base")
# The names a `Switches` tag may set (RULES.md §8a), in the order the canonical tag writes them.
SWITCH_NAMES = (*SWITCH_VALUES, *_NUMBERS)
_NUMBER_RE = re.compile(r"0|[1-9][0-9]{0,2}")
# What the bga settlement's numbers mean for a ruleset settled without them (classic).
_SETTLEMENT_ONLY = ("threshold", "base", "below_threshold")


class RulesetError(ValueError):
    """A ruleset name or mapping that does not describe a ruleset."""


class SwitchesError(RulesetError):
    """A `Switches` tag value that names no variant: an error code and its parameters
    (fourcolor/messages.py); `offset` is where the bad item starts."""

    def __init__(self, code: str, offset: int, **params: Any) -> None:
        super().__init__(render(code, params))
        self.code = code
        self.params = params
        self.offset = offset


@dataclass(slots=True, eq=False)
class RulesetCaches:
    """The engine's memo tables for one ruleset, kept on the ruleset itself: they live and die
    with it, so a copy (`with_switches`, a house ruleset) never shares or inherits answers, and
    nothing is keyed by name or `id()`. Each table belongs to one module, named beside it."""

    # (kind, rank) -> points: `Ruleset.points`.
    points: dict[tuple[str, str], Points | None] = field(default_factory=dict)
    # cards as given -> meld or None: `melds.classify` (bounded: few groups recur).
    classified: dict[tuple[Card, ...], Meld | None] = field(default_factory=dict)
    # (card index, copies held, other colours held, partners held) -> melds:
    # `moves.melds_with` (at most 28 * 4 * 16 * 2 keys).
    melds_with: dict[tuple[int, int, int, bool], tuple[Meld, ...]] = field(default_factory=dict)
    # The best split's rank tables: `split.best_points`, built on first use.
    split_tables: _RankTables | None = None
    # (id of a `melds_with` tuple of this table, the seat's relation to the live card) ->
    # the greedy bot's meld and right: `playout` (rulesets without locked sets). The
    # tuples are the ones in `melds_with` above, alive as long as this table.
    bot_choices: dict[tuple[int, int], tuple[Meld, ClaimRight] | None] = field(
        default_factory=dict
    )
    # (hand counts, exposed points, copies) -> the discards that keep it ready:
    # `hands.ready_discards` (hands without locked sets; bounded).
    ready_discards: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = field(
        default_factory=dict
    )
    # (live card's owner, its source, players) -> every seat's claim limits:
    # `claims.seat_limits` (they depend on nothing else).
    seat_limits: dict[tuple[int, str, int], tuple[tuple[bool, bool], ...]] = field(
        default_factory=dict
    )
    # Per rank, whether its colour groups and its pairs are melds: `hands.rank_rules`.
    rank_rules: tuple[tuple[bool, ...], tuple[bool, ...]] | None = None


@dataclass(frozen=True, eq=False)
class Ruleset:
    name: str
    melds: MeldTable
    # Melds the seat after the discarder may make from a discard (the chi right, §6).
    chi_melds: frozenset[str]
    color_groups: str = "any"
    steal_generals: str = "gan"
    # bga settlement: a win needs points >= threshold; None means classic settlement.
    threshold: int | None = None
    base: int = 1
    below_threshold: str = "fixed"
    lucky_draw: bool = False
    redeal: bool = False
    dealt_sets_locked: bool = False
    match_rounds: int = 1
    # How many seats a round may have (RULES.md §2): more than four take extra sets of cards.
    max_players: int = 4
    description: str = ""
    # Not an init field: a `replace()`d copy gets caches of its own (__post_init__).
    caches: RulesetCaches = field(init=False, compare=False, repr=False)
    _points: dict[tuple[str, str], Points | None] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        caches = RulesetCaches()
        object.__setattr__(self, "caches", caches)
        object.__setattr__(self, "_points", caches.points)  # one attribute on the hot path

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without its caches (memo tables, tens of KB: records.replay_cache stores
        pickled replays); a shipped ruleset as its name, so that it reads back as the same
        object with its warm caches."""
        if RULESETS.get(self.name) is self:
            return (get_ruleset, (self.name,))
        return (_ruleset_from_fields, (self._values(),))

    def _values(self) -> dict[str, Any]:
        """The fields a ruleset is made from, by name (its caches aside)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}

    def points(self, kind: str, rank: str) -> Points | None:
        """(hidden, exposed) points of a meld of `kind` whose defining rank is `rank`.

        None when the ruleset has no such meld (bga pairs of generals, classic colour groups of
        generals under ``color_groups = soldiers``, ...). For command and field the rank is the
        meld's first card's and does not matter.
        """
        key = (kind, rank)
        value = self._points.get(key, _UNKNOWN)
        if value is not _UNKNOWN:  # one look-up: scoring asks for every meld of a win
            return value  # type: ignore[return-value]
        value = self._lookup(kind, rank)
        self._points[key] = value
        return value

    def _lookup(self, kind: str, rank: str) -> Points | None:
        table = self.melds.get(kind)
        if table is None:
            return None
        if kind in ("three_colour", "four_colour") and self.color_groups == "soldiers":
            if rank != "P":
                return None
        if rank in table:
            return table[rank]
        if ANY_RANK not in table and kind in _COLOUR_KINDS and self.color_groups == "any":
            # Soldier groups only, switched to any rank: every rank at the soldiers' value
            # (§8a: bga's 3 and 5).
            return table.get("P")
        return table.get(ANY_RANK)

    def allows(self, kind: str, rank: str) -> bool:
        return self.points(kind, rank) is not None

    def as_mapping(self) -> dict[str, Any]:
        """The plain mapping `from_mapping` reads back (for docs, the API and house rulesets)."""
        data = self._values()
        data["melds"] = {
            kind: {rank: (list(p) if p is not None else None) for rank, p in table.items()}
            for kind, table in self.melds.items()
        }
        data["chi_melds"] = sorted(self.chi_melds, key=MELD_KINDS.index)
        return data

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Ruleset:
        """A house ruleset from a plain mapping: ``extends`` names a shipped ruleset to start
        from, every other key replaces that ruleset's value; ``melds`` is merged kind by kind."""
        data = dict(data)
        base_name = data.pop("extends", None)
        if base_name is not None:
            start = get_ruleset(str(base_name)).as_mapping()
        else:
            start = {}
        melds: dict[str, dict[str, Points | None]] = {
            kind: dict(table) for kind, table in start.get("melds", {}).items()
        }
        raw_melds = data.pop("melds", {})
        if not isinstance(raw_melds, Mapping):
            raise RulesetError("'melds' must map meld kinds to {rank: [hidden, exposed]} tables")
        for kind, table in raw_melds.items():
            if table is not None and not isinstance(table, Mapping):
                raise RulesetError(f"meld {kind}: expected a {{rank: [hidden, exposed]}} table")
            if kind not in MELD_KINDS:
                raise RulesetError(f"unknown meld kind {kind!r} (known: {', '.join(MELD_KINDS)})")
            if table is None:
                melds.pop(kind, None)
                continue
            melds.setdefault(kind, {}).update(table)
        merged = {**start, **data}
        name = merged.get("name")
        if not isinstance(name, str) or not name:
            raise RulesetError("a ruleset needs a non-empty 'name'")
        return _build(merged, melds)


def _points_value(kind: str, rank: str, value: Any) -> Points | None:
    if value is None:
        return None
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return (int(value[0]), int(value[1]))
    raise RulesetError(
        f"meld {kind}/{rank}: points must be [hidden, exposed] integers, not {value!r}"
    )


# The keys of a house ruleset's mapping that are integers (and the threshold, or null).
_INTEGERS = ("base", "match_rounds", "max_players")


def _checked(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with every switch's value checked and as the ruleset keeps it (1 is True), the
    threshold and the other integers checked: `RulesetError` for the first that is not."""
    out = dict(values)
    for key, value in values.items():
        allowed = SWITCH_VALUES.get(key)
        if allowed is not None:
            if value not in allowed:
                raise RulesetError(f"switch {key} must be one of {allowed}, not {value!r}")
            out[key] = allowed[allowed.index(value)]
        elif key in _INTEGERS or (key == "threshold" and value is not None):
            if not isinstance(value, int) or isinstance(value, bool):
                null = " or null" if key == "threshold" else ""
                raise RulesetError(f"{key} must be an integer{null}, not {value!r}")
    return out


def _build(merged: Mapping[str, Any], melds: Mapping[str, Mapping[str, Any]]) -> Ruleset:
    known = {"name", "description", "melds", "chi_melds", "threshold", *_INTEGERS, *SWITCH_VALUES}
    unknown = set(merged) - known
    if unknown:
        raise RulesetError(f"unknown ruleset keys: {', '.join(sorted(unknown))}")
    values = _checked(merged)
    table = {
        kind: {rank: _points_value(kind, rank, v) for rank, v in ranks.items()}
        for kind, ranks in melds.items()
    }
    for kind, ranks in table.items():
        for rank in ranks:
            if rank != ANY_RANK and rank not in "KAERHCP":
                raise RulesetError(f"meld {kind}: unknown rank {rank!r}")
    chi_value = merged.get("chi_melds", ())
    if isinstance(chi_value, (str, bytes)) or not isinstance(
        chi_value, (list, tuple, set, frozenset)
    ):
        raise RulesetError("chi_melds must be a list of meld kinds")
    chi = frozenset(str(k) for k in chi_value)
    if not chi <= set(MELD_KINDS):
        raise RulesetError(f"chi_melds: unknown meld kinds {sorted(chi - set(MELD_KINDS))}")
    if not 2 <= values.get("max_players", 4) <= MAX_PLAYERS:
        raise RulesetError(f"max_players must be from 2 to {MAX_PLAYERS}")
    values.update(name=str(values["name"]), description=str(values.get("description", "")),
                  melds=table, chi_melds=chi)
    return Ruleset(**values)


CLASSIC = Ruleset(
    name="classic",
    description="The Fujian game of the Wikipedia and Gamblipedia articles (seeds 000, 001).",
    melds={
        "lone": {"K": (1, 1)},
        "pair": {ANY_RANK: (0, 0)},
        "command": {ANY_RANK: (1, 1)},
        "field": {ANY_RANK: (1, 1)},
        "triple": {ANY_RANK: (3, 1), "K": (3, 3)},
        "quad": {ANY_RANK: (8, 6)},
        "three_colour": {ANY_RANK: (1, 1)},
        "four_colour": {ANY_RANK: (4, 4)},
    },
    chi_melds=frozenset(MELD_KINDS) - {"lone"},
    color_groups="any",
    steal_generals="gan",
    redeal=True,
    max_players=8,
)

BGA = Ruleset(
    name="bga",
    description="The Taiwanese rules of the Board Game Arena version (seed 002).",
    melds={
        "lone": {"K": (1, 1)},
        "pair": {ANY_RANK: (0, 0), "K": None, "P": None},
        "command": {ANY_RANK: (2, 2)},
        "field": {ANY_RANK: (1, 1)},
        "triple": {ANY_RANK: (3, 1), "K": None},
        "quad": {ANY_RANK: (8, 6), "K": (6, 8)},
        "three_colour": {"P": (3, 3)},
        "four_colour": {"P": (5, 5)},
    },
    chi_melds=frozenset({"pair", "command", "field", "three_colour", "four_colour", "lone"}),
    color_groups="soldiers",
    steal_generals="gan",
    threshold=10,
    base=1,
    below_threshold="fixed",
    lucky_draw=True,
    match_rounds=3,
)

RULESETS: dict[str, Ruleset] = {CLASSIC.name: CLASSIC, BGA.name: BGA}


def _ruleset_from_fields(values: dict[str, Any]) -> Ruleset:
    return Ruleset(**values)


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r}") from None


def ruleset_for(name: str, switches: str | None = None) -> Ruleset:
    """The ruleset a record plays under: its `Ruleset` tag's, in the variant its `Switches`
    tag names (`RulesetError` for an unknown name, `SwitchesError` for a bad tag)."""
    ruleset = get_ruleset(name)
    return variant(ruleset, parse_switches(switches)) if switches else ruleset


def with_switches(ruleset: Ruleset, **switches: Any) -> Ruleset:
    """A copy of `ruleset` with some switches changed (validated like `from_mapping`).

    `threshold`, `base` and `below_threshold` are numbers of the bga settlement: a ruleset
    settled without a threshold (classic) keeps its settlement (RULES.md §8a)."""
    for key in switches:
        if key not in SWITCH_NAMES and key != "name":
            raise RulesetError(f"unknown switch {key!r}")
    switches = _checked(switches)
    if ruleset.threshold is None:
        switches = {k: v for k, v in switches.items() if k not in _SETTLEMENT_ONLY}
    return replace(ruleset, **switches)


def parse_switches(text: str) -> dict[str, Any]:
    """The switches a `Switches` tag value sets, e.g. ``"steal_generals=never threshold=8"``
    -> ``{"steal_generals": "never", "threshold": 8}`` (RULES.md §8a); `SwitchesError` at the
    first item that is not ``name=value`` with a known name and value, or names a switch twice."""
    switches: dict[str, Any] = {}
    for m in re.finditer(r"\S+", text):
        item, at = m.group(), m.start()
        name, eq, value = item.partition("=")
        if not eq:
            raise SwitchesError("switches.item", at, value=item)
        if name not in SWITCH_NAMES:
            raise SwitchesError("switches.unknown", at, value=name, names=list(SWITCH_NAMES))
        if name in switches:
            raise SwitchesError("switches.twice", at, value=name)
        switches[name] = _switch_value(name, value, at + len(name) + 1)
    return switches


def _switch_value(name: str, value: str, at: int) -> Any:
    if name in _NUMBERS:
        if _NUMBER_RE.fullmatch(value) and int(value) <= 100:
            return int(value)
        raise SwitchesError("switches.number", at, value=name, value2=value)
    allowed = SWITCH_VALUES[name]
    words = tuple(_word(v) for v in allowed)
    if value not in words:
        raise SwitchesError("switches.choice", at, value=name, choices=list(words), value2=value)
    return allowed[words.index(value)]


def _word(value: Any) -> str:
    """A switch's value as the tag writes it: on/off for the booleans."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def format_switches(switches: Mapping[str, Any]) -> str:
    """The canonical `Switches` value: names in `SWITCH_NAMES` order, ``name=value`` each."""
    return " ".join(f"{n}={_word(switches[n])}" for n in SWITCH_NAMES if n in switches)


# (ruleset, canonical switches) -> the variant: a record's variant is built once, so that its
# caches stay warm from one record to the next (bounded: a hostile file cannot grow it forever).
_VARIANTS: dict[tuple[int, str], tuple[Ruleset, Ruleset]] = {}
_VARIANTS_LIMIT = 256


def variant(ruleset: Ruleset, switches: Mapping[str, Any]) -> Ruleset:
    """`with_switches(ruleset, **switches)`, the same object for the same switches: the
    ruleset a record with a `Switches` tag is validated under."""
    if not switches:
        return ruleset
    key = (id(ruleset), format_switches(switches))
    known = _VARIANTS.get(key)
    if known is not None and known[0] is ruleset:
        return known[1]
    made = with_switches(ruleset, **switches)
    if len(_VARIANTS) >= _VARIANTS_LIMIT:
        _VARIANTS.clear()
    _VARIANTS[key] = (ruleset, made)
    return made
