"""The engine's replay values (`fourcolor.replay`): a ply's table, the review, the finish.

One serializer per value. The declared fields are the OpenAPI schema; `write` writes the value
with the engine's JSON form (fourcolor/replay_json.py, which the command line uses too), field
for field, because a replay's plies are thousands of small values and DRF's generic field walk
would make `GET /games/{id}/plies/` several times slower.
tests/api/test_replay_serializers.py checks that every serializer writes exactly its declared
fields. The class names are the schema's component names, stable so that a client generated
from the schema keeps its types.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from rest_framework import serializers

from fourcolor import replay as values
from fourcolor import replay_json
from records.models import Outcome, WinSource


class ValueDoc(serializers.Serializer[Any]):
    # `write`: the engine's writer of the value (fourcolor/replay_json.py), a plain function:
    # a serializer instance per nested value would cost more than the value itself (DRF's
    # Field.__init__), and a round has thousands of them. A comment, not a docstring: the
    # schema takes a component's description from its serializer's docstring.
    write: Callable[[Any], dict[str, Any]]

    def to_representation(self, value: Any) -> dict[str, Any]:
        return type(self).write(value)


class MeldDoc(ValueDoc):
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()

    write = staticmethod(replay_json.meld_json)


class FinishMeldDoc(MeldDoc):
    exposed = serializers.BooleanField()

    write = staticmethod(replay_json.finish_meld_json)


class FinishDoc(ValueDoc):
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

    write = staticmethod(replay_json.round_end_json)


class LiveDoc(ValueDoc):
    card = serializers.CharField()
    owner = serializers.IntegerField()
    # A plain string: an enum here would be a third name for WinSource's values.
    source = serializers.CharField(help_text="draw or discard: where the live card came from")

    write = staticmethod(replay_json.live_json)


class DiscardDoc(ValueDoc):
    seat = serializers.IntegerField()
    card = serializers.CharField()

    write = staticmethod(replay_json.discard_json)


class SeatStateDoc(ValueDoc):
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

    write = staticmethod(replay_json.seat_json)


class ClaimDoc(ValueDoc):
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

    write = staticmethod(replay_json.claim_json)


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

    def to_representation(self, state: values.PlyState) -> dict[str, Any]:
        """The engine's fields; `game`, `says` and `links` (the archive's, not the engine's)
        come from the context the view gives."""
        context, ply = self.context, state.ply
        (written,) = engine_ply_states([state], context["says"])
        return ply_state_answer(context["game"], written, context["links"](ply))


def engine_ply_states(states: Iterable[values.PlyState],
                      says: Callable[[int], str | None]) -> Iterator[dict[str, Any]]:
    """Each of one replay's states as PlyStateDoc writes it less the archive's `game` and
    `links` (the part api.plies keeps in the replay cache), `says(ply)` beside: written
    together (replay_json.states_json: the parts the states share are written once)."""
    for state in replay_json.states_json(states):
        state["says"] = says(state["ply"])
        yield state


def ply_state_answer(game: int, state: dict[str, Any],
                     links: dict[str, str | None]) -> dict[str, Any]:
    """PlyStateDoc's answer from `engine_ply_states`' part: the game's id first, the links to
    the plies beside last."""
    return {"game": game, **state, "links": links}


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


class WaitDoc(ValueDoc):
    card = serializers.CharField()
    points = serializers.IntegerField()
    meld = serializers.ListField(child=serializers.CharField())
    unseen = serializers.IntegerField(help_text="copies the seat cannot see")

    write = staticmethod(replay_json.wait_json)


class MissedWinDoc(ValueDoc):
    seat = serializers.IntegerField()
    card = serializers.CharField()
    points = serializers.IntegerField()
    message = serializers.CharField()

    write = staticmethod(replay_json.missed_win_json)


class PlyReviewDoc(ValueDoc):
    ply = serializers.IntegerField()
    event = serializers.CharField(allow_null=True)
    comments = serializers.ListField(child=serializers.CharField())
    waits = serializers.DictField(
        child=WaitDoc(many=True), help_text="seat number -> the cards it waits on, best first"
    )
    missed_wins = MissedWinDoc(many=True)

    write = staticmethod(replay_json.review_item_json)


class PlyMissedWinDoc(MissedWinDoc):
    ply = serializers.IntegerField(help_text="the ply after which the card was live")

    write = staticmethod(lambda missed: replay_json.missed_win_json(missed) | {"ply": missed.ply})


class ReviewDoc(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    plies = PlyReviewDoc(many=True)
    missed_wins = PlyMissedWinDoc(many=True, help_text="every missed win of the round")
