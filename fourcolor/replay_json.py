"""The JSON form of the replay values (the command line, the API, the replay page): plain dicts
and lists, cards as tokens ("rK"), seat keys as strings ("1").

One rule writes every value (`value_json`): a replay value is a dict of its fields in their
order, a card its token, a meld its cards, a mapping a dict with string keys, a tuple a list.
Two values read otherwise: a state before the last ply has no `finish`, and a missed win gives
its message instead of its ply.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from .cards import Card
from .melds import Meld
from .replay import MissedWin, PlyReview, PlyState

# The written values by id, each kept beside its JSON so that no id is reused while they are
# written: what `states_json` shares between the states of one replay.
Written = dict[int, tuple[Any, Any]]

# Each class's field names, () for a class that is not a replay value (looked up once).
_FIELDS: dict[type, tuple[str, ...]] = {Meld: (), MissedWin: ()}
_SCALARS = (str, int, float, bool, type(None))


def value_json(value: Any, written: Written | None = None) -> Any:
    """`value` (a replay value, or any part of one) as JSON; with `written`, a value written
    before (the same object) is the same JSON again."""
    kind = type(value)
    if kind is Card:
        return value.token
    if kind in _SCALARS:
        return value
    if written is not None:
        kept = written.get(id(value))
        if kept is not None:
            return kept[1]
    data: Any
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(value)) if is_dataclass(value) else ()
    if names:
        data = {name: value_json(getattr(value, name), written) for name in names}
        if kind is PlyState and value.finish is None:
            del data["finish"]  # only at the last ply
    elif kind is Meld:
        data = [card.token for card in value.cards]
    elif kind is MissedWin:
        data = {"seat": value.seat, "card": value.card.token, "points": value.points,
                "message": value.message()}
    elif isinstance(value, Mapping):
        data = {str(key): value_json(item, written) for key, item in value.items()}
    else:
        data = [value_json(item, written) for item in value]
    if written is not None:
        written[id(value)] = (value, data)
    return data


def tokens(cards: Iterable[Card]) -> list[str]:
    return [card.token for card in cards]


# Each replay value's JSON, by the name of the value its callers write: `value_json`.
state_json = round_end_json = claim_json = missed_win_json = value_json


def states_json(states: Iterable[PlyState]) -> Iterator[dict[str, Any]]:
    """`state_json` of each of one replay's states, writing each hand, displayed meld and
    discard once for them all: a round's states show the same ones ply after ply (the API's
    `GET /games/{id}/plies/`). The dicts share those parts with each other, so treat them as
    read-only (the API turns each into JSON text at once)."""
    written: Written = {}
    for state in states:
        yield value_json(state, written)


def review_json(review: Iterable[PlyReview]) -> list[dict[str, Any]]:
    return [value_json(item) for item in review]
