"""The replay page's data: every ply's table as one seat (or everybody) sees it, with the review.

`replay_payload` replays the stored game once with the engine and writes each
`fourcolor.replay.Replay.state(ply, seat)` (a `PlyState`) in the engine's JSON
(fourcolor/replay_json.py, as the API and the record editor have it), with its `PlyReview`:
the plain dict that both the template (for the ply in the address) and replay.js (for every
other ply, without asking the server again) draw.
Building every ply costs the same whichever ply is asked for, so the first and the last ply of
a long round are equally cheap to serve.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from typing import Any

from fourcolor.replay import PlyReview, Replay, round_end
from fourcolor.replay_json import round_end_json, state_json
from fourcolor.replay_json import tokens as _tokens

from records import replay_cache
from records.models import Game


def _event(replay: Replay, ply: int, claim: dict[str, Any] | None) -> dict[str, Any] | None:
    if ply == 0:
        return None
    event = replay.record.events[ply - 1]
    canonical = event.canonical()
    return {
        "seat": event.seat,
        "verb": event.verb,
        "claim": claim,
        "cards": _tokens(canonical.cards),
        "groups": [_tokens(group) for group in canonical.groups],
        "text": event.text(),
    }


def _ply(replay: Replay, ply: int, seat: int | None, review: PlyReview) -> dict[str, Any]:
    """The engine's JSON of the table at `ply` (replay_json.state_json), the event as the page
    draws it (with its claim) and the waits and missed wins `seat` may see."""
    state = state_json(replay.state(ply, seat))
    claim = state.pop("claim")
    state.pop("finish", None)  # the payload's own, once
    waits = {
        s: [{"card": w.card.token, "points": w.points, "unseen": w.unseen} for w in ws]
        for s, ws in review.waits.items()
        if seat is None or s == seat
    }
    missed = [{"seat": m.seat, "card": m.card.token, "points": m.points}
              for m in review.missed_wins if seat is None or m.seat == seat]
    return state | {"event": _event(replay, ply, claim), "waits": waits, "missed": missed}


def _script_tag(data: dict[str, Any]) -> str:
    """`data` as a `<script type="application/json" id="replay-data">` element, escaped like
    Django's json_script (nothing in it can end the element early)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # str.replace, not str.translate: a few times faster on a few hundred KB.
    for char, escape in _JSON_SCRIPT_ESCAPES:
        text = text.replace(char, escape)
    return f'<script id="replay-data" type="application/json">{text}</script>'


_JSON_SCRIPT_ESCAPES = (("&", "\\u0026"), ("<", "\\u003C"), (">", "\\u003E"))


def _cards(tokens: list[str] | None) -> str | None:
    return None if tokens is None else " ".join(tokens)


# Left out of each ply's state for replay.js: what its data has once (the plies, the view,
# the seats' names and dealer) and what the script does not draw (`expected`).
_ONCE = ("plies", "view", "expected", "name", "dealer")


def _compact(state: dict[str, Any]) -> dict[str, Any]:
    """A state as replay.js reads it: every list of cards written as one string ("rK yA gE")
    and each displayed meld as [kind, cards, points], which halves the page of a long round."""
    return {
        **{key: value for key, value in state.items() if key not in _ONCE},
        "discards": _cards([discard["card"] for discard in state["discards"]]),
        "seats": [
            {
                **{key: value for key, value in seat.items() if key not in _ONCE},
                "hand": _cards(seat["hand"]),
                "display": [[m["kind"], _cards(m["cards"]), m["points"]]
                            for m in seat["display"]],
            }
            for seat in state["seats"]
        ],
    }


def replay_payload(replay: Replay, seat: int | None) -> StoredPayload:
    """Every ply of the round as `seat` sees it (None: all hands open)."""
    review = replay.review()
    states = [_ply(replay, ply, seat, review[ply]) for ply in range(replay.plies + 1)]
    missed = [m | {"ply": s["ply"]} for s in states for m in s["missed"]]
    seats = [
        {"seat": number, "name": name, "dealer": number == replay.record.dealer}
        for number, name in enumerate(replay.record.seats, start=1)
    ]
    outcome = replay.game.finish.outcome
    finish = round_end_json(round_end(replay.game)) if outcome != "unfinished" else None
    if finish is not None:
        # Whose card ended the round (the finishing claim's), for the result's sentence.
        last = replay.claim(replay.plies) if outcome in ("win", "forced") else None
        finish["taken"] = last.taken if last else None
        finish["owner"] = last.owner if last else None
    script = {"plies": replay.plies, "view": seat, "seats": seats,
              "states": [_compact(state) for state in states]}
    return StoredPayload(
        replay.plies, seat, seats, finish, missed, [state["event"] for state in states],
        [pickle.dumps(state, pickle.HIGHEST_PROTOCOL) for state in states], _script_tag(script),
    )


@dataclass
class StoredPayload:
    """The replay page's data of a round in one view, as the replay cache keeps it: the seats
    (seat, name, dealer), the finish, every missed win this view may see (with its ply), each
    ply's event, each ply's state pickled on its own (`state`) and replay.js's data as one
    script element. Reading it back is a few hundred strings, where the states' nested dicts
    cost 15-50 ms to unpickle for a long round (bench/archive_scale.py)."""

    plies: int
    view: int | None
    seats: list[dict[str, Any]]
    finish: dict[str, Any] | None
    missed: list[dict[str, Any]]
    events: list[dict[str, Any] | None]  # one per ply, None for ply 0 (the deal)
    pickled_states: list[bytes]
    script: str

    def state(self, ply: int) -> dict[str, Any]:
        """The state at `ply`, unpickled alone: a page draws one ply (and its analysis a few)."""
        state: dict[str, Any] = pickle.loads(self.pickled_states[ply])  # noqa: S301 (ours)
        return state

    def moves(self) -> list[tuple[int, dict[str, Any] | None]]:
        """(ply, event) of every ply after the deal: the move list."""
        return list(enumerate(self.events))[1:]


# Bumped whenever the payload's shape changes, so that no page reads an older one.
PAYLOAD_VERSION = 4


def cached_payload(game: Game, view: int | None) -> StoredPayload:
    """The payload of a stored game for one view (with its script element), kept beside the
    game's replay in records.replay_cache. `fourcolor.FcnError` when the running engine
    refuses the stored text (see `manage.py revalidate`)."""

    def build() -> StoredPayload:
        return replay_payload(replay_cache.load_replay(game), view)

    return replay_cache.cached(game, f"payload:{PAYLOAD_VERSION}:{view or 0}", build)
