"""A validated round: `validate(record)` replays a whole record under its ruleset and returns a
`Game` with everything derived from it, or raises an `FcnError` at the first fault.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .deal import check_deal
from .errors import IllegalMoveError, IllegalRecordError
from .notation import Event, Record
from .round import ClaimRecord, Round
from .rulesets import Ruleset, RulesetError, SwitchesError, ruleset_for
from .scoring import Finish


@dataclass
class Game:
    """A validated round: the record, its ruleset and everything derived by replaying it."""

    record: Record
    ruleset: Ruleset
    finish: Finish
    round: Round
    claims: list[ClaimRecord]

    @property
    def event_count(self) -> int:
        return len(self.record.events)


def _where(record: Record, ply: int, event: Event | None) -> dict[str, Any]:
    if event is None:
        line = record.first_line
        last = record.events[-1] if record.events else None
        if last is not None:
            line = last.line
        return {"line": line, "col": 1, "ply": ply, "event": ""}
    return {"line": event.line, "col": event.col, "ply": ply, "event": event.text()}


def _record_ruleset(record: Record) -> Ruleset:
    try:
        return ruleset_for(record.ruleset_name, record.tag("Switches"))
    except SwitchesError as err:  # a record built by hand: the reader checks the tag
        line, col = record.position("Switches")
        raise IllegalRecordError(err.code, line=line, col=col, **err.params) from None
    except RulesetError:
        line, col = record.position("Ruleset")
        raise IllegalRecordError(
            "tags.ruleset_unknown", line=line, col=col, value=record.ruleset_name
        ) from None


# Called with the round before each event is pushed: what the one pass of `validate` lets a
# caller learn besides the verdict (`fourcolor.facts.SeatFactsObserver`: the seats' facts).
PlyObserver = Callable[[Round, Event], None]


def validate(
    record: Record, ruleset: Ruleset | None = None, *, observer: PlyObserver | None = None
) -> Game:
    """Replay a record under its ruleset; the `Game` on success, else an `FcnError` at the
    first fault in event order (tags and deal first, ply 0). Without `ruleset`, the record's
    own: its `Ruleset` tag in the variant of its `Switches` tag; a `ruleset` given is used as
    it is. `observer` sees the round before each event (it must not change it)."""
    if ruleset is None:
        ruleset = _record_ruleset(record)
    if record.players > ruleset.max_players:
        line, col = record.position(f"Seat{ruleset.max_players + 1}")
        raise IllegalRecordError(
            "tags.ruleset_players", line=line, col=col,
            n=record.players, ruleset=ruleset.name, m=ruleset.max_players,
        )
    state = Round.from_record(record, ruleset)
    check_deal(record, state.pile)
    for event in record.events:  # IllegalMoveError at the ply and event at fault
        if observer is not None:
            observer(state, event)
        state.push(event)
    if record.syntax_error is not None:
        raise record.syntax_error
    end = len(record.events) + 1
    try:
        finish = state.end_of_record()
    except IllegalMoveError as err:  # the lucky card, settled when the record ends
        raise IllegalRecordError(err.code, **_where(record, end, None), **err.params) from None
    stated = record.tag("Result")
    if finish.outcome == "unfinished":
        if stated != "*":
            raise IllegalRecordError("record.truncated", **_where(record, end, None))
    elif stated is not None and stated != finish.result_tag:
        raise IllegalRecordError(
            "record.result", value=stated, value2=finish.result_tag, **_where(record, end, None)
        )
    return Game(record, ruleset, finish, state, state.claims_log)
