"""A game's replay as the API serves it: the table at each ply (built from one replay and kept
in records.replay_cache a state an entry), with the links to the plies beside; the review."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import translation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from fourcolor import replay_json
from fourcolor.replay import Replay
from records.models import Game
from records.replay_cache import cached_pieces, load_replay
from records.wording import event_words

# Part of the key of a game's ply states kept in the replay cache (`ply_states`): a change to
# what one holds is a new number.
PLY_STATES_VERSION = 3


def ply_answers(
    request: Request, game: Game, seat: int | None, plies: Sequence[int]
) -> list[dict[str, Any]]:
    """The API's answer for each of `plies` (api.serializers.replays.PlyStateDoc): the kept
    state (`ply_states`) with the game's id first and the links to the plies beside last."""
    query = "?" + urlencode({"seat": seat}) if seat is not None else ""

    def link(n: int) -> str | None:
        if not 0 <= n <= game.event_count:
            return None
        return request.build_absolute_uri(reverse("api:game-ply", args=(game.pk, n))) + query

    states = ply_states(game, seat, plies)
    return [{"game": game.pk, **json.loads(state), "links": {"next": link(n + 1),
                                                             "previous": link(n - 1)}}
            for n, state in zip(plies, states, strict=True)]


def ply_states(game: Game, seat: int | None, plies: Sequence[int]) -> list[str]:
    """Ply states `plies` of `game` in one seat's view (None: every hand shown), each as
    `ply_answers` gives it less `game` and `links`, in the request's language (`says`): every
    state of the game is built from one replay the first time any is asked for, then kept
    beside the replay in records.replay_cache a state an entry, so that a ply's request reads
    and decodes its own state alone. Each is kept as its JSON text (unpickling a state's dicts
    cost more than the rest of the view)."""

    def build() -> list[str]:
        replay = load_replay(game)
        # Written together: the parts the states share are written once (states_json).
        states = replay_json.states_json(replay.state(n, seat)
                                         for n in range(game.event_count + 1))
        return [json.dumps(state | {"says": _says(replay, state["ply"])}, ensure_ascii=False,
                           cls=JSONRenderer.encoder_class) for state in states]

    part = f"api-plies:{PLY_STATES_VERSION}:{seat or 0}:{translation.get_language()}"
    return cached_pieces(game, part, plies, build)


def _says(replay: Replay, ply: int) -> str | None:
    """The event at `ply` in words, as the replay page says it (records.wording)."""
    if ply == 0:
        return None
    event = replay.record.events[ply - 1]
    names = dict(enumerate(replay.record.seats, start=1))
    words = replay_json.claim_json(replay.claim(ply))
    return event_words(event.verb, event.seat, words, names)


def review_json(game: Game) -> dict[str, Any]:
    """The engine's review of `game` (api.serializers.replays.ReviewDoc)."""
    plies = load_replay(game).review()
    return {"game": game.pk, "plies": replay_json.review_json(plies),
            "missed_wins": [replay_json.missed_win_json(m) | {"ply": m.ply}
                            for p in plies for m in p.missed_wins]}
