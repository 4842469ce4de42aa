"""The engine's replay values (`fourcolor.replay`): a ply's table, the review, the finish.

One serializer per value, declaring its fields for the OpenAPI schema. The answers are
written by the engine's JSON form of the values (fourcolor/replay_json.py, which the command
line uses too), not by these serializers: a replay's plies are thousands of small values and
DRF's generic field walk would make `GET /games/{id}/plies/` several times slower.
tests/api/test_replay_serializers.py checks that each writer writes exactly the fields its
serializer declares. The class names are the schema's component names, stable so that a
client generated from the schema keeps its types.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from records.models import Outcome, WinSource


class MeldDoc(serializers.Serializer[Any]):
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()


class FinishMeldDoc(MeldDoc):
    exposed = serializers.BooleanField()


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


class LiveDoc(serializers.Serializer[Any]):
    card = serializers.CharField()
    owner = serializers.IntegerField()
    # A plain string: an enum here would be a third name for WinSource's values.
    source = serializers.CharField(help_text="draw or discard: where the live card came from")


class DiscardDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()


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


class MissedWinDoc(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    card = serializers.CharField()
    points = serializers.IntegerField()
    message = serializers.CharField()


class PlyReviewDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    event = serializers.CharField(allow_null=True)
    comments = serializers.ListField(child=serializers.CharField())
    waits = serializers.DictField(
        child=WaitDoc(many=True), help_text="seat number -> the cards it waits on, best first"
    )
    missed_wins = MissedWinDoc(many=True)


class PlyMissedWinDoc(MissedWinDoc):
    ply = serializers.IntegerField(help_text="the ply after which the card was live")


class ReviewDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    plies = PlyReviewDoc(many=True)
    missed_wins = PlyMissedWinDoc(many=True, help_text="every missed win of the round")
