"""Drafts: the record editor's requests (each field checked as the engine reads it) and its
answers (a draft's state, the legal next events, the saved game)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.request import Request

from api.serializers.common import (
    NO_NUL,
    BlankablePatternText,
    ClosedSerializer,
    PatternText,
    absolute,
)
from api.serializers.replays import FinishDoc, PlyStateDoc
from drafts import play as drafts_play
from drafts.models import Draft
from drafts.play import CARD_TOKENS, MAX_EVENT_CHARS
from fourcolor.notation import MAX_COMMENT_CHARS, MAX_EVENTS, MAX_RECORD_CHARS
from fourcolor.rulesets import MAX_PLAYERS, RULESETS
from records.models import MAX_PLAYER_NAME

# A comment as FCN can hold it: no '}' and no control character but tab and line breaks.
COMMENT_PATTERN = r"^[^}\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$"
# A player's name as the engine takes it (fourcolor.notation.names.name_problem): no control
# character and no bidi embedding, override or isolate.
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]*$"
TAG_CHARS = 1024

# ----------------------------------------------------------------------------- requests


def _pattern_field(pattern: str, max_length: int, *, min_length: int = 0,
                   **kwargs: Any) -> PatternText:
    """Text matching `pattern`, kept as sent ("" allowed unless `min_length`)."""
    field_class = PatternText if min_length else BlankablePatternText
    return field_class(pattern, max_length=max_length, min_length=min_length or None,
                       trim_whitespace=False, **kwargs)


def _text(max_length: int, **kwargs: Any) -> serializers.RegexField:
    # DRF refuses NUL characters in any text: the pattern says so in the schema.
    return _pattern_field(NO_NUL, max_length, **kwargs)


def _seats(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(
        child=_pattern_field(NAME_PATTERN, MAX_PLAYER_NAME, min_length=1),
        min_length=2, max_length=MAX_PLAYERS,
        help_text="the players' names in turn order, seat 1 first", **kwargs,
    )


def _comment(**kwargs: Any) -> serializers.RegexField:
    return _pattern_field(COMMENT_PATTERN, MAX_COMMENT_CHARS, **kwargs)


class DraftTagsSerializer(ClosedSerializer):
    """Optional tags; "" removes one."""

    Event = _text(TAG_CHARS, required=False)
    Site = _text(TAG_CHARS, required=False)
    Date = _pattern_field(r"^([0-9?]{4}\.[0-9?]{2}\.[0-9?]{2})?$", 10, required=False,
                          help_text="YYYY.MM.DD (? for an unknown digit)")
    Match = _text(TAG_CHARS, required=False)
    Round = _text(TAG_CHARS, required=False)
    Switches = _text(
        TAG_CHARS, required=False,
        help_text="a house variant: name=value items, e.g. steal_generals=never threshold=8",
    )
    Lucky = serializers.ChoiceField(
        CARD_TOKENS, required=False, allow_blank=True,
        help_text="bga: the lucky card turned after a win (when there is no Pile tag)",
    )


def _deal_field(seat: int) -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ChoiceField(CARD_TOKENS), max_length=21, required=False,
        help_text=f"seat {seat}'s dealt cards so far (the dealer 21, the others 20)",
    )


DraftDealSerializer = type(
    "DraftDealSerializer", (ClosedSerializer,),
    {"__doc__": "Each seat's dealt cards, complete or not yet.",
     **{str(seat): _deal_field(seat) for seat in range(1, MAX_PLAYERS + 1)}},
)


class DraftFieldsSerializer(ClosedSerializer):
    """A draft from the start form's fields."""

    ruleset = serializers.ChoiceField(sorted(RULESETS))
    seats = _seats()
    dealer = serializers.IntegerField(min_value=1, max_value=MAX_PLAYERS,
                                      help_text="the dealer's seat, one of `seats`")
    tags = DraftTagsSerializer(required=False)
    deal = DraftDealSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["dealer"] > len(attrs["seats"]):
            raise serializers.ValidationError(
                {"dealer": [_("The dealer is one of the %(seats)s seats.")
                            % {"seats": len(attrs["seats"])}]})
        return attrs


class DraftFcnSerializer(ClosedSerializer):
    """A draft from a record's text: its tags and deal, with any events already played."""

    fcn = _text(MAX_RECORD_CHARS, help_text="one FCN record; Result absent or `*`")


class DraftUpdateSerializer(ClosedSerializer):
    """What may change: names and optional tags at any time (the Lucky card of a bga win
    too); the ruleset, the dealer and the deal until the first event is entered."""

    seats = _seats(required=False)
    ruleset = serializers.ChoiceField(sorted(RULESETS), required=False)
    dealer = serializers.IntegerField(min_value=1, max_value=MAX_PLAYERS, required=False)
    tags = DraftTagsSerializer(required=False)
    deal = DraftDealSerializer(required=False)


class DraftEventSerializer(ClosedSerializer):
    event = _text(
        MAX_EVENT_CHARS, min_length=2,
        help_text="one event in FCN: seat, verb, cards, a win's split (3x rK, 2m rE rE, "
        "4w rK rA rE (gP gP)), read as the engine reads an event (fourcolor.Event.parse)",
    )
    comment = _comment(required=False, help_text="a comment on this event")
    ply = serializers.IntegerField(
        min_value=1, max_value=MAX_EVENTS, required=False,
        help_text="the number this event will have: a repeated request (a lost answer) is "
        "then answered 200 instead of entering the event twice",
    )


class DraftCommentSerializer(ClosedSerializer):
    comment = _comment(help_text="the event's comment; \"\" removes it")


# ----------------------------------------------------------------------------- answers


class LegalEventDoc(serializers.Serializer[Any]):
    event = serializers.CharField(help_text="as FCN, to send to `events/`")
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="discard, draw, claim, win or redeal")
    right = serializers.CharField(allow_null=True,
                                  help_text="claims: pong, gan or chi; wins: win")
    cards = serializers.ListField(child=serializers.CharField())
    split = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                  help_text="a win's declared split of the rest of the hand")


class DraftEventDoc(serializers.Serializer[Any]):
    ply = serializers.IntegerField()
    event = serializers.CharField()
    comments = serializers.ListField(child=serializers.CharField())
    played = serializers.BooleanField(help_text="false: undone (redo brings it back)")


class DraftTableDoc(PlyStateDoc):
    """The table after the played events (as a replay's ply)."""

    game = None
    links = None
    view = None
    finish = None
    says = None


class DraftSerializer(serializers.Serializer[Any]):
    """A draft as the list shows it."""

    id = serializers.IntegerField()
    url = serializers.CharField(help_text="this draft in the API")
    page = serializers.CharField(help_text="this draft in the record editor (/record/{id}/)")
    ruleset = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField())
    dealer = serializers.IntegerField()
    stage = serializers.ChoiceField(
        ["deal", "play", "lucky", "ended", "saved"],
        help_text="deal: cards being dealt; play; lucky: a bga win waits for its Lucky card; "
        "ended: ready to save; saved: in the archive (read-only)",
    )
    position = serializers.IntegerField(help_text="events played")
    events_total = serializers.IntegerField(help_text="events played and undone")
    game = serializers.CharField(allow_null=True, help_text="the archive's game once saved")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class DraftNextDoc(serializers.Serializer[Any]):
    legal = LegalEventDoc(many=True, help_text="the legal events after this one")
    expected = serializers.CharField(help_text="what the round would wait for")


class DraftDetailDoc(DraftSerializer):
    """A draft with everything derived from it."""

    tags = serializers.DictField(child=serializers.CharField())
    deal = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    free = serializers.DictField(child=serializers.IntegerField(),
                                 help_text="copies of each card not dealt yet")
    events = DraftEventDoc(many=True)
    fcn = serializers.CharField(help_text="the record so far (Result `*` until it ends)")
    legal = LegalEventDoc(many=True, help_text="every event the engine accepts next")
    next = serializers.DictField(
        child=DraftNextDoc(), help_text="for each event of `legal` (its FCN), what may follow "
        "it: a client can offer the next events at once, before the server answers")
    expected = serializers.CharField(allow_null=True, help_text="what the round waits for")
    table = DraftTableDoc(allow_null=True, help_text="null while the deal is entered")
    finish = FinishDoc(allow_null=True, help_text="once the round has ended")
    game_page = serializers.CharField(allow_null=True, help_text="the saved game's replay")


class DraftSavedDoc(serializers.Serializer[Any]):
    status = serializers.ChoiceField(["created", "duplicate", "running"])
    game = serializers.CharField(allow_null=True, help_text="the stored game (or the duplicate)")
    game_page = serializers.CharField(allow_null=True, help_text="its replay page")
    job = serializers.CharField(help_text="the upload's job")
    draft = DraftDetailDoc()


def draft_json(draft: Draft, request: Request, *, detail: bool) -> dict[str, Any]:
    """A draft as the API shows it (the list's fields, or every derived one)."""
    context = {"request": request}
    data = drafts_play.state_json(draft, lookahead=detail)
    data["url"] = absolute(context, "draft-detail", draft.pk)
    data["page"] = absolute(context, "record-draft", draft.pk, page=True)
    game = draft.game_id
    data["game"] = absolute(context, "game-detail", game) if game else None
    data["game_page"] = absolute(context, "game", game, page=True) if game else None
    for name in ("created_at", "updated_at"):
        data[name] = serializers.DateTimeField().to_representation(data[name])
    if not detail:
        return {name: data[name] for name in DraftSerializer().fields}
    return data
