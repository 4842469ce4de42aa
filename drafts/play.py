"""A draft as the engine sees it: its record, the round after the played events, what may come
next, the table and the FCN text. Everything here is derived from the Draft's fields on each
call; the engine (`fourcolor`) is the one judge of every deal, tag and event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import fourcolor
from fourcolor.cards import CARDS, deck_copies, parse_card
from fourcolor.claims import CLAIM_KINDS
from fourcolor.errors import FcnError, IllegalMoveError, IllegalRecordError
from fourcolor.game import Game
from fourcolor.round import Round
from fourcolor.scoring import Finish
from fourcolor.notation import Event, Record, parse_record, write_fcn
from fourcolor.notation.event import VERB_NAMES
from fourcolor.replay import Replay, round_end
from fourcolor import replay_json
from fourcolor.rulesets import get_ruleset

from drafts.models import Draft
from records.wording import waiting_words

CARD_TOKENS = [card.token for card in CARDS]  # the 28 kinds, in canonical order
MAX_EVENT_CHARS = 200  # a typed event (`Event.parse` reads it; the longest win is ~100)
# The tags a draft's start form and PATCH set besides the seats, the dealer and the ruleset.
OPTIONAL_TAGS = ("Event", "Site", "Date", "Match", "Round", "Lucky", "Switches")
# The tags the draft's own fields hold: never in `Draft.tags`.
OWN_TAGS = ("Ruleset", "Dealer", "Result")
# The editor's rows of legal events are the verbs' names, but for two: a meld there is always
# a claim on the live card, and both calls share a row.
_ROWS = {"m": "claim", "h": "call"}


def seat_size(draft: Draft, seat: int) -> int:
    """How many cards `seat` is dealt: the dealer 21, the others 20."""
    return 21 if seat == draft.dealer else 20


def record_of(draft: Draft, played: int | None = None, result: str = "*") -> Record:
    """The draft's record with its first `played` events (all the played ones by default)."""
    tags: dict[str, str] = {"Ruleset": draft.ruleset}
    for number, name in enumerate(draft.seats, start=1):
        tags[f"Seat{number}"] = name
    tags["Dealer"] = str(draft.dealer)
    tags.update(draft.tags)
    tags["Result"] = result
    deal = {seat: tuple(parse_card(token) for token in draft.deal.get(str(seat), ()))
            for seat in range(1, len(draft.seats) + 1)}
    count = draft.position if played is None else played
    events = [Event.parse(entry["event"])._replace(comments=tuple(entry.get("comments", ())))
              for entry in draft.events[:count]]
    return Record(tags=tags, deal=deal, events=events, comments=list(draft.comments))


def deal_complete(draft: Draft) -> bool:
    return all(
        len(draft.deal.get(str(seat), ())) == seat_size(draft, seat)
        for seat in range(1, len(draft.seats) + 1)
    )


def check_head(draft: Draft) -> None:
    """The tags and the deal so far, as the engine reads them: FcnError for the first fault.

    The tags go through the engine's own reader (the FCN written from them must read back);
    a deal being entered may be short, never over a seat's size nor past the table's copies;
    a complete deal is checked by the validator itself."""
    record = record_of(draft, 0)
    parse_record(write_fcn(record))  # names, dates, the Lucky card and Switches tags
    try:
        ruleset = get_ruleset(draft.ruleset)
    except ValueError:
        raise IllegalRecordError("tags.ruleset_unknown", value=draft.ruleset) from None
    if len(draft.seats) > ruleset.max_players:
        raise IllegalRecordError(
            "tags.ruleset_players", n=len(draft.seats), ruleset=ruleset.name,
            m=ruleset.max_players,
        )
    beyond = [seat for seat, cards in draft.deal.items()
              if cards and not 1 <= int(seat) <= len(draft.seats)]
    if beyond:
        raise IllegalRecordError("draft.no_seat", n=int(beyond[0]), m=len(draft.seats))
    copies = [0] * len(CARDS)
    for seat, cards in record.deal.items():
        want = seat_size(draft, seat)
        if len(cards) > want:
            raise IllegalRecordError("deal.size", seat=seat, n=len(cards), m=want)
        for card in cards:
            copies[card.index] += 1
            if copies[card.index] > deck_copies(len(draft.seats)):
                raise IllegalRecordError(
                    "copies.dealt", n=copies[card.index], card=card.token
                )
    if deal_complete(draft):
        try:
            fourcolor.validate(record)
        except FcnError as err:
            if err.ply == 0:
                raise


@dataclass
class Play:
    """The draft after its played events."""

    draft: Draft
    record: Record  # the played events; Result as the round gives it ("*" while unfinished)
    round: Round | None  # None while the deal is being entered
    finish: Finish | None  # how the round ended (None while it goes on)
    lucky_missing: bool  # a bga win waits for its lucky card (the Lucky tag)

    @property
    def stage(self) -> str:
        """saved, deal, play, lucky or ended (the round can be saved)."""
        if self.draft.game_id is not None:
            return "saved"
        if self.round is None:
            return "deal"
        if self.lucky_missing:
            return "lucky"
        return "play" if self.finish is None else "ended"

    def legal(self) -> list[Event]:
        if self.round is None or self.draft.game_id is not None:
            return []
        return self.round.legal_events()

    def fcn(self) -> str:
        return write_fcn(self.record)

    def push(self, event: Event) -> None:
        """Play `event` on a copy of the round; IllegalRecordError in the engine's words."""
        ply = len(self.record.events) + 1
        if self.round is None:
            raise IllegalRecordError("draft.deal_incomplete", ply=ply, event=str(event))
        try:
            self.round.copy().push(event)
        except IllegalMoveError as err:
            raise IllegalRecordError(err.code, ply=ply, event=str(event), **err.params) from None


def play(draft: Draft) -> Play:
    """Replay the draft's played events (each was legal when it was entered)."""
    record = record_of(draft)
    if not deal_complete(draft):
        return Play(draft, record, None, None, False)
    rnd = Round.from_record(record)
    for event in record.events:
        rnd.push(event)
    lucky_missing = False
    try:
        finish: Finish | None = rnd.end_of_record()
    except IllegalMoveError:
        finish, lucky_missing = rnd.finish, True
    if finish is not None and finish.outcome == "unfinished":
        finish = None
    if finish is not None and not lucky_missing:
        record.tags["Result"] = finish.result_tag
    return Play(draft, record, rnd, finish, lucky_missing)


def legal_json(state: Play) -> list[dict[str, Any]]:
    """The legal next events, each with its seat, its kind and, for a claim, its right."""
    rnd = state.round
    if rnd is None:
        return []
    legal = state.legal()
    # A listed meld's cards are its meld's, in canonical order.
    rights = {(seat, meld.cards): CLAIM_KINDS[claim]
              for seat in {e.seat for e in legal if e.verb == "m"}
              for meld, claim in rnd.meld_claims(seat)}
    out = []
    for event in legal:
        kind = _ROWS.get(event.verb) or VERB_NAMES[event.verb]
        right = "win" if event.verb == "w" else None
        if event.verb == "m":
            right = rights.get((event.seat, event.cards))
        out.append({
            "event": str(event),
            "seat": event.seat,
            "kind": kind,
            "right": right,
            "cards": [card.token for card in event.canonical().cards],
            "split": [[card.token for card in group] for group in event.canonical().groups],
        })
    return out


def next_json(state: Play) -> dict[str, dict[str, Any]]:
    """For each legal next event, what would follow it: its legal events and what the round
    would wait for. The editor applies a tapped event at once with these (the server, which
    gets the event next, still judges it), so a tap needs no round trip to offer the next."""
    rnd = state.round
    if rnd is None or state.draft.game_id is not None:
        return {}
    out = {}
    for event in state.legal():
        after = rnd.copy()
        after.push(event)
        then = Play(state.draft, state.record, after, None, False)
        out[str(event)] = {"legal": legal_json(then),
                           "expected": expected_words(after, state.draft.seats)}
    return out


def expected_words(rnd: Round, seats: Sequence[str]) -> str:
    """What the round waits for, in the active language, naming the players."""
    code, seat = rnd.waiting()
    return waiting_words(code, seat, seats)


def table_json(state: Play) -> dict[str, Any] | None:
    """The table after the played events, as the replay shows it (fourcolor.replay)."""
    rnd = state.round
    if rnd is None:
        return None
    finish = state.finish or Finish("unfinished", settlement={})
    record = state.record
    if state.lucky_missing:
        # The table does not depend on the lucky card, which the replay's last round asks for
        # (its close()): any card stands in, or the Pile tag's own when there is one.
        record = replace(record, tags=dict(record.tags))
        if "Pile" in record.tags:
            record.tags.pop("Lucky", None)
        else:
            record.tags["Lucky"] = CARDS[0].token
    game = Game(record, rnd.ruleset, finish, rnd, list(rnd.claims_log))
    table = replay_json.state_json(Replay(record, game).state(len(record.events)))
    table.pop("finish", None)
    table.pop("view", None)
    return table


def finish_data(state: Play) -> dict[str, Any] | None:
    """The result and settlement once the round has ended (before the lucky card of a bga
    win is known: its points and the payments without the lucky bonus)."""
    if state.finish is None or state.round is None:
        return None
    game = Game(state.record, state.round.ruleset, state.finish, state.round,
                list(state.round.claims_log))
    return replay_json.round_end_json(round_end(game))


def free_copies(draft: Draft) -> dict[str, int]:
    """Copies of each kind not yet dealt (for the deal's card palette)."""
    dealt = Counter(token for cards in draft.deal.values() for token in cards)
    return {card.token: deck_copies(len(draft.seats)) - dealt[card.token] for card in CARDS}


def state_json(draft: Draft, *, lookahead: bool = False) -> dict[str, Any]:
    """Everything about a draft but its addresses, as the API and the editor page show it;
    with `lookahead`, also `next` (next_json: what may follow each legal event)."""
    state = play(draft)
    data = {
        "id": draft.pk,
        "ruleset": draft.ruleset,
        "seats": list(draft.seats),
        "dealer": draft.dealer,
        "stage": state.stage,
        "position": draft.position,
        "events_total": len(draft.events),
        "created_at": draft.created_at,
        "updated_at": draft.updated_at,
        "tags": dict(draft.tags),
        "deal": {seat: list(cards) for seat, cards in sorted(draft.deal.items())},
        "free": free_copies(draft),
        "events": [
            {"ply": number, "event": entry["event"], "comments": list(entry.get("comments", [])),
             "played": number <= draft.position}
            for number, entry in enumerate(draft.events, start=1)
        ],
        "fcn": state.fcn(),
        "legal": legal_json(state),
        "expected": (expected_words(state.round, draft.seats)
                     if state.round is not None else None),
        "table": table_json(state),
        "finish": finish_data(state),
    }
    if lookahead:
        data["next"] = next_json(state)
    return data
