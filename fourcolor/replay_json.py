"""The command line's JSON form of the replay values (`python -m fourcolor replay`, `review
--json`): plain dicts and lists, cards as tokens ("rK"), seat keys as strings ("1").

The API and the replay page write their answers with these same functions; the API's
serializers (api/serializers/replays.py) declare the fields in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .cards import Card
from .replay import (
    ClaimMade,
    Discard,
    FinishMeld,
    LiveCard,
    MeldShown,
    MissedWin,
    PlyReview,
    PlyState,
    RoundEnd,
    SeatState,
    Wait,
)


# How a writer writes a part that states share (a hand, a displayed meld, a discard):
# `once(write, value)`. Alone, a state writes each afresh; `states_json` writes each once.
Once = Callable[[Callable[[Any], Any], Any], Any]


def _afresh(write: Callable[[Any], Any], value: Any) -> Any:
    return write(value)


def tokens(cards: Iterable[Card]) -> list[str]:
    return [card.token for card in cards]


def meld_json(meld: MeldShown) -> dict[str, Any]:
    return {"kind": meld.kind, "cards": [c.token for c in meld.cards], "points": meld.points}


def finish_meld_json(meld: FinishMeld) -> dict[str, Any]:
    return meld_json(meld) | {"exposed": meld.exposed}


def claim_json(claim: ClaimMade | None) -> dict[str, Any] | None:
    if claim is None:
        return None
    return {"kind": claim.kind, "seat": claim.seat, "owner": claim.owner, "taken": claim.taken,
            "skipped": list(claim.skipped)}


def live_json(live: LiveCard) -> dict[str, Any]:
    return {"card": live.card.token, "owner": live.owner, "source": live.source}


def discard_json(discard: Discard) -> dict[str, Any]:
    return {"seat": discard.seat, "card": discard.card.token}


def seat_json(seat: SeatState, once: Once = _afresh) -> dict[str, Any]:
    hand = seat.hand
    return {
        "seat": seat.seat,
        "name": seat.name,
        "dealer": seat.dealer,
        "hand": once(tokens, hand) if hand is not None else None,
        "hand_count": seat.hand_count,
        "display": [once(meld_json, meld) for meld in seat.display],
        "exposed_points": seat.exposed_points,
        "can_claim": list(seat.can_claim) if seat.can_claim is not None else None,
    }


def round_end_json(end: RoundEnd) -> dict[str, Any]:
    return {
        "outcome": end.outcome,
        "seat": end.seat,
        "on": end.on,
        "points": end.points,
        "exposed_points": end.exposed_points,
        "hidden_points": end.hidden_points,
        "lucky_card": end.lucky_card.token if end.lucky_card else None,
        "lucky_bonus": end.lucky_bonus,
        "settlement": {str(s): d for s, d in end.settlement.items()},
        "result": end.result,
        "melds": [finish_meld_json(m) for m in end.melds],
        "declared_split": end.declared_split,
        "best_hidden_points": end.best_hidden_points,
    }


def state_json(state: PlyState, once: Once = _afresh) -> dict[str, Any]:
    """The table at a ply; `finish` only at the last ply."""
    live = state.live
    data: dict[str, Any] = {
        "ply": state.ply,
        "plies": state.plies,
        "event": state.event,
        "claim": claim_json(state.claim),
        "comments": list(state.comments),
        "phase": state.phase,
        "expected": state.expected,
        "turn": state.turn,
        "live": live_json(live) if live is not None else None,
        "pile_left": state.pile_left,
        "discards": [once(discard_json, discard) for discard in state.discards],
        "seats": [seat_json(seat, once) for seat in state.seats],
        "view": state.view,
    }
    if state.finish is not None:
        data["finish"] = round_end_json(state.finish)
    return data


def states_json(states: Iterable[PlyState]) -> Iterator[dict[str, Any]]:
    """`state_json` of each of one replay's states, writing each hand, displayed meld and
    discard once for them all: a round's states show the same ones ply after ply (the API's
    `GET /games/{id}/plies/`). The dicts share those parts with each
    other, so treat them as read-only (the API turns each into JSON text at once)."""
    # By the values' ids, each kept beside its JSON so that no id can be reused while the
    # states are written (the replay makes each hand, meld and discard once: replay._Made).
    written: dict[int, tuple[Any, Any]] = {}

    def once(write: Callable[[Any], Any], value: Any) -> Any:
        kept = written.get(id(value))
        if kept is None:
            kept = written[id(value)] = (value, write(value))
        return kept[1]

    for state in states:
        yield state_json(state, once)


def wait_json(wait: Wait) -> dict[str, Any]:
    return {"card": wait.card.token, "points": wait.points,
            "meld": [c.token for c in wait.meld.cards], "unseen": wait.unseen}


def missed_win_json(missed: MissedWin) -> dict[str, Any]:
    return {"seat": missed.seat, "card": missed.card.token, "points": missed.points,
            "message": missed.message()}


def review_item_json(item: PlyReview) -> dict[str, Any]:
    """One ply of the review: the waits by seat ("1".."4"), the missed wins, the event and its
    comments."""
    return {
        "ply": item.ply,
        "event": item.event,
        "comments": list(item.comments),
        "waits": {str(s): list(map(wait_json, ws)) for s, ws in item.waits.items()},
        "missed_wins": list(map(missed_win_json, item.missed_wins)),
    }


def review_json(review: Iterable[PlyReview]) -> list[dict[str, Any]]:
    return [review_item_json(item) for item in review]


__all__ = [
    "claim_json",
    "discard_json",
    "finish_meld_json",
    "live_json",
    "meld_json",
    "missed_win_json",
    "review_item_json",
    "review_json",
    "round_end_json",
    "seat_json",
    "state_json",
    "states_json",
    "tokens",
    "wait_json",
]
