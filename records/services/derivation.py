"""What the archive derives from a valid record: the `Game` columns and the `GameSeat` rows
(the import and revalidation share it, so a stored game is exactly what the current engine
says about its text), and what the engine accepts but the archive cannot store."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import re
from typing import Any

import fourcolor
from fourcolor.notation.identity import identity_text
from fourcolor.errors import FcnError, LimitError
from fourcolor.facts import SeatFacts, finish_taken_from, seat_facts

from records.models import MAX_PLAYER_NAME
from records.variants import canonical_switches

_MAX_DB_INT = 2**31 - 1


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_fcn_date(value: str | None) -> datetime.date | None:
    """The `Date` tag ('YYYY.MM.DD') as a date; None when absent, partial ('2026.??.??') or not
    a real day."""
    if not value or not re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", value):
        return None
    year, month, day = (int(part) for part in value.split("."))
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


def parse_round_number(value: str | None) -> int | None:
    """The `Round` tag as a positive number; None when absent or not a plain number."""
    if value is None or not value.strip().isdecimal() or not value.strip().isascii():
        return None
    number = int(value.strip())
    return number if 0 < number <= _MAX_DB_INT else None


def derive_game_fields(check: fourcolor.Check) -> dict[str, Any]:
    """The `Game` columns the engine derives from a valid record."""
    game, record = check.game, check.record
    if game is None or record is None:
        raise ValueError("a refused record has no derived fields")
    canonical = fourcolor.write_fcn(record)
    return {
        "ruleset": record.ruleset_name,
        "switches": canonical_switches(record.tag("Switches")),
        "players": record.players,
        "dealer": record.dealer,
        "outcome": game.finish.outcome,
        "finisher": game.finish.seat,
        # Whose card ended the round (self_draw, draw, discard), not only where it came from.
        "on": finish_taken_from(game),
        "points": game.finish.points,
        "exposed_points": game.finish.exposed_points,
        "hidden_points": game.finish.hidden_points,
        "lucky_card": game.finish.lucky_card.token if game.finish.lucky_card is not None else None,
        "lucky_bonus": game.finish.lucky_bonus,
        # JSON object keys are strings: store them so, and a reloaded game compares equal.
        "settlement": {str(seat): delta for seat, delta in sorted(game.finish.settlement.items())},
        "event_count": game.event_count,
        "result_tag": game.finish.result_tag,
        "tags": dict(record.tags),
        "event": record.tag("Event") or "",
        "site": record.tag("Site") or "",
        "date": parse_fcn_date(record.tag("Date")),
        "round_number": parse_round_number(record.tag("Round")),
        "canonical_text": canonical,
        # The round's identity (fourcolor.notation.identity): one game per round played,
        # whatever comments, Result or descriptive tags a record adds.
        "content_hash": sha256_text(identity_text(record)),
        "engine_version": fourcolor.__version__,
    }


# Every per-seat fact the engine gives; each is a GameSeat column of the same name.
SEAT_FACT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(SeatFacts))


def derive_seat_fields(check: fourcolor.Check) -> list[dict[str, Any]]:
    """One dict per seat: every `fourcolor.facts.SeatFacts` field, ready for `GameSeat`. The
    facts come from the pass that validated the record (`check_record(..., facts=True)`); a
    check made without them replays the round once more."""
    if check.game is None:
        raise ValueError("a refused record has no seat facts")
    rows = []
    for facts in check.facts if check.facts is not None else seat_facts(check.game):
        # Shallow (dataclasses.asdict deep-copies, at a cost per import): the values are plain.
        # A SeatFacts' attributes are its fields, in order: a copy of them is the row.
        row = dict(vars(facts))
        row["win_melds"] = list(facts.win_melds)  # JSON has lists, not tuples
        rows.append(row)
    return rows


# Compared by revalidate; engine_version changes by design, the rest must not.
COMPARED_GAME_FIELDS: tuple[str, ...] = (
    "ruleset", "players", "dealer", "outcome", "finisher", "on", "points", "exposed_points",
    "hidden_points", "lucky_card", "lucky_bonus", "settlement", "event_count", "result_tag",
    "tags", "event", "site", "date", "round_number", "canonical_text", "content_hash",
)


def storage_limits(check: fourcolor.Check) -> FcnError | None:
    """What the engine accepts but the archive cannot store: over-long player names."""
    record = check.record
    if record is None:
        return None
    for number, name in enumerate(record.seats, start=1):
        if len(name) > MAX_PLAYER_NAME:
            line, col = record.position(f"Seat{number}")
            return LimitError(
                "limit.player_name",
                n=number,
                m=MAX_PLAYER_NAME,
                value=len(name),
                line=line,
                col=col,
            )
    return None
