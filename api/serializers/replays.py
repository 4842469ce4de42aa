"""The engine's replay values (`fourcolor.replay`): a ply's table, the review, the finish.

One serializer per value. The declared fields are the OpenAPI schema; `to_representation`
writes the value by hand, field for field, because a replay's plies are thousands of small
values and DRF's generic field walk would make `GET /games/{id}/plies/` several times slower
(bench/api_reads.py). tests/api/test_replay_serializers.py checks that every serializer writes
exactly its declared fields. The class names are the schema's component names (kept from when
these only described the engine's dicts: a client generated from the schema keeps its types).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework import serializers

from fourcolor.cards import Card
from fourcolor.replay import (
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
from records.models import Outcome, WinSource


def _tokens(cards: Iterable[Card]) -> list[str]:
    return [card.token for card in cards]


# The writers, as plain functions: a serializer instance per nested value would cost more
# than the value itself (DRF's Field.__init__), and a round has thousands of them.

def _meld(meld: MeldShown) -> dict[str, Any]:
    return {"kind": meld.kind, "cards": _tokens(meld.cards), "points": meld.points}


def _finish_meld(meld: FinishMeld) -> dict[str, Any]:
    return {"kind": meld.kind, "cards": _tokens(meld.cards), "points": meld.points,
            "exposed": meld.exposed}


def _finish(end: RoundEnd) -> dict[str, Any]:
    return {
        "outcome": end.outcome,
        "seat": end.seat,
        "on": end.on,
        "points": end.points,
        "exposed_points": end.exposed_points,
        "hidden_points": end.hidden_points,
        "lucky_card": end.lucky_card.token if end.lucky_card else None,
        "lucky_bonus": end.lucky_bonus,
        "settlement": {str(seat): d for seat, d in end.settlement.items()},
        "result": end.result,
        "melds": [_finish_meld(m) for m in end.melds],
        "declared_split": end.declared_split,
        "best_hidden_points": end.best_hidden_points,
    }


def _live(live: LiveCard) -> dict[str, Any]:
    return {"card": live.card.token, "owner": live.owner, "source": live.source}


def _discard(discard: Discard) -> dict[str, Any]:
    return {"seat": discard.seat, "card": discard.card.token}


def _seat(seat: SeatState) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "name": seat.name,
        "dealer": seat.dealer,
        "hand": _tokens(seat.hand) if seat.hand is not None else None,
        "hand_count": seat.hand_count,
        "display": [_meld(m) for m in seat.display],
        "exposed_points": seat.exposed_points,
        "can_claim": list(seat.can_claim) if seat.can_claim is not None else None,
    }


def _claim(claim: ClaimMade) -> dict[str, Any]:
    return {"kind": claim.kind, "seat": claim.seat, "owner": claim.owner,
            "taken": claim.taken, "skipped": list(claim.skipped)}


def _wait(wait: Wait) -> dict[str, Any]:
    return {"card": wait.card.token, "points": wait.points, "meld": _tokens(wait.meld.cards),
            "unseen": wait.unseen}


def _missed(missed: MissedWin) -> dict[str, Any]:
    return {"seat": missed.seat, "card": missed.card.token, "points": missed.points,
            "message": missed.message()}


class MeldDoc(serializers.Serializer[Any]):
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()

    def to_representation(self, meld: MeldShown) -> dict[str, Any]:
        return _meld(meld)



class FinishMeldDoc(MeldDoc):
    exposed = serializers.BooleanField()

    def to_representation(self, meld: FinishMeld) -> dict[str, Any]:  # type: ignore[override]
        return _finish_meld(meld)



class FinishDoc(serializers.Serializer[Any]):
    """The end of a round (fourcolor.replay.RoundEnd)."""

    outcome = serializers.ChoiceField(choices=Outcome.choices)
    seat = serializers.IntegerField(allow_null=True)
    on = serializers.ChoiceField(choices=WinSource.choices, allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    exposed_points = serializers.IntegerField(allow_null=True)
    hidden_points = serializers.IntegerField(allow_null=True)
    lucky_card = serializers.CharField(allow_null=True)
    lucky_bonus = serializers.IntegerField()
    settlement = serializers.DictField(child=serializers.IntegerField())
    result = serializers.CharField()
    melds = FinishMeldDoc(many=True)
    declared_split = serializers.BooleanField()
    best_hidden_points = serializers.IntegerField(allow_null=True)

    def to_representation(self, end: RoundEnd) -> dict[str, Any]:
        return _finish(end)



class LiveDoc(serializers.Serializer[Any]):
    card = serializers.CharField()
    owner = serializers.IntegerField()
    # A plain string: an enum here would be a third name for WinSource's values.
    source = serializers.CharField(help_text="draw or discard: where the live card came from")

    def to_representation(self, live: LiveCard) -> dict[str, Any]:
        return _live(live)



class DiscardDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()

    def to_representation(self, discard: Discard) -> dict[str, Any]:
        return _discard(discard)



class SeatStateDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    dealer = serializers.BooleanField()
    hand = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="null when hidden from the seat whose view was asked for",
    )
    hand_count = serializers.IntegerField()
    display = MeldDoc(many=True)
    exposed_points = serializers.IntegerField()
    can_claim = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="what this seat may claim on the live card (null when hidden)",
    )

    def to_representation(self, seat: SeatState) -> dict[str, Any]:
        return _seat(seat)



class ClaimDoc(serializers.Serializer[Any]):
    """A claim that took effect (fourcolor.replay.Replay.claim)."""

    # Plain strings, as `won_on`: spectacular would give choice sets named "kind" and "taken"
    # colliding enum names.
    kind = serializers.CharField(
        help_text="win, pong, gan or chi (a meld on one's own draw is a chi, as players say it)"
    )
    seat = serializers.IntegerField(help_text="the claimant")
    owner = serializers.IntegerField(help_text="the seat that discarded or drew the card")
    taken = serializers.CharField(
        help_text="whose card: self_draw (the claimant's own draw), draw (another seat's draw) "
        "or discard"
    )
    skipped = serializers.ListField(
        child=serializers.IntegerField(), help_text="seats whose turn the claim took"
    )

    def to_representation(self, claim: ClaimMade) -> dict[str, Any]:
        return _claim(claim)



class PlyLinksDoc(serializers.Serializer[Any]):
    next = serializers.URLField(allow_null=True, help_text="the next ply (same view); null at "
                                "the last")
    previous = serializers.URLField(allow_null=True, help_text="the ply before; null at 0")


class PlyStateDoc(serializers.Serializer[Any]):
    """The table at one ply (fourcolor.replay.Replay.state)."""

    game = serializers.IntegerField()
    ply = serializers.IntegerField()
    plies = serializers.IntegerField()
    event = serializers.CharField(allow_null=True, help_text="the event that led here")
    claim = ClaimDoc(
        allow_null=True, help_text="the claim the event made (melds and wins), else null"
    )
    says = serializers.CharField(
        allow_null=True,
        help_text="the event in words, as the replay page says it: \"Jonas pongs Noor’s "
        "discard\" (in the request's language; null at ply 0)",
    )
    comments = serializers.ListField(child=serializers.CharField())
    phase = serializers.CharField()
    expected = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True)
    live = LiveDoc(allow_null=True)
    pile_left = serializers.IntegerField()
    discards = DiscardDoc(many=True)
    seats = SeatStateDoc(many=True)
    view = serializers.IntegerField(allow_null=True, help_text="the seat whose view this is")
    finish = FinishDoc(allow_null=True, required=False, help_text="at the last ply only")
    links = PlyLinksDoc()

    def to_representation(self, state: PlyState) -> dict[str, Any]:
        """The engine's fields; `game`, `says` and `links` (the archive's, not the engine's)
        come from the context the view gives."""
        live = state.live
        context = self.context
        data: dict[str, Any] = {
            "game": context["game"],
            "ply": state.ply,
            "plies": state.plies,
            "event": state.event,
            "claim": _claim(state.claim) if state.claim is not None else None,
            "comments": list(state.comments),
            "phase": state.phase,
            "expected": state.expected,
            "turn": state.turn,
            "live": _live(live) if live is not None else None,
            "pile_left": state.pile_left,
            "discards": [_discard(d) for d in state.discards],
            "seats": [_seat(s) for s in state.seats],
            "view": state.view,
        }
        if state.finish is not None:
            data["finish"] = _finish(state.finish)
        data["says"] = context["says"](state.ply)
        data["links"] = context["links"](state.ply)
        return data



class PlyStatesDoc(serializers.Serializer[Any]):
    """A range of ply states (`/games/{id}/plies/`)."""

    game = serializers.IntegerField()
    plies = serializers.IntegerField(help_text="the game's number of plies")
    to = serializers.IntegerField(help_text="the last ply listed")
    states = PlyStateDoc(many=True, help_text="one per ply, from `from` to `to`")

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"] = serializers.IntegerField(help_text="the first ply listed")
        return fields


class WaitDoc(serializers.Serializer[Any]):
    card = serializers.CharField()
    points = serializers.IntegerField()
    meld = serializers.ListField(child=serializers.CharField())
    unseen = serializers.IntegerField(help_text="copies the seat cannot see")

    def to_representation(self, wait: Wait) -> dict[str, Any]:
        return _wait(wait)



class MissedWinDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()
    points = serializers.IntegerField()
    message = serializers.CharField()

    def to_representation(self, missed: MissedWin) -> dict[str, Any]:
        return _missed(missed)



class PlyReviewDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    event = serializers.CharField(allow_null=True)
    comments = serializers.ListField(child=serializers.CharField())
    waits = serializers.DictField(
        child=WaitDoc(many=True), help_text="seat number -> the cards it waits on, best first"
    )
    missed_wins = MissedWinDoc(many=True)

    def to_representation(self, item: PlyReview) -> dict[str, Any]:
        return {
            "ply": item.ply,
            "event": item.event,
            "comments": list(item.comments),
            "waits": {str(s): [_wait(w) for w in ws] for s, ws in item.waits.items()},
            "missed_wins": [_missed(m) for m in item.missed_wins],
        }



class PlyMissedWinDoc(MissedWinDoc):
    ply = serializers.IntegerField(help_text="the ply after which the card was live")

    def to_representation(self, missed: MissedWin) -> dict[str, Any]:
        return _missed(missed) | {"ply": missed.ply}



class ReviewDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    plies = PlyReviewDoc(many=True)
    missed_wins = PlyMissedWinDoc(many=True, help_text="every missed win of the round")
