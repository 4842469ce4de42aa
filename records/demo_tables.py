"""Demo archives at scale (`seed_demo --jobs N --tables K`): each round the bots play is
stored at K tables.

Playing a round costs the bots about as much as validating and storing it; a million-round
archive on two cores would take hours. The same play at other tables (other names, date,
event, match) is another record the archive stores apart (its own canonical text and content
hash), and its derived data is the played round's with those tags changed: names and dates
take no part in the rules, so the engine's verdict, the finish, the settlement and each seat's
facts are the same. The round is validated once (`validate_record`), and each table's row
derived from that verdict (tests/records/test_demo_tables.py compares them with the engine's
own verdict on each table's text).
"""

from __future__ import annotations

import dataclasses
import datetime
import random
from collections.abc import Iterable, Iterator

import fourcolor
from fourcolor.notation.identity import identity_text
from records.services.derivation import parse_fcn_date, sha256_text
from records.services.validating import validate_record
from records.services.storing import ValidRecord

def rounds_of_matches(records: Iterable[fourcolor.Record]) -> Iterator[list[fourcolor.Record]]:
    """Consecutive records grouped by their Match tag (a single round alone): a match is
    moved to another table whole, so its credits still run from round to round."""
    group: list[fourcolor.Record] = []
    for record in records:
        if group and (record.tag("Match") is None or record.tag("Match") != group[0].tag("Match")):
            yield group
            group = []
        group.append(record)
    if group:
        yield group


def at_table(valid: ValidRecord, record: fourcolor.Record, table: dict[str, str],
             index: int) -> ValidRecord:
    """`valid` (the engine's verdict on `record`) for the same round with `table`'s tags."""
    tags = {**record.tags, **table}
    moved = fourcolor.Record(tags, record.deal, record.events, record.comments)
    canonical = fourcolor.write_fcn(moved)
    fields = {
        **valid.fields,
        "tags": dict(tags),
        "event": tags.get("Event") or "",
        "site": tags.get("Site") or "",
        "date": parse_fcn_date(tags.get("Date")),
        "canonical_text": canonical,
        "content_hash": sha256_text(identity_text(moved)),
    }
    seats = [{**row, "name": tags[f"Seat{row['seat']}"]} for row in valid.seats]
    return ValidRecord(index, 1, canonical, fields, seats, tags.get("Match"))


def tables_for(group: list[fourcolor.Record], count: int, rng: random.Random,
               names: tuple[str, ...], events: tuple[str, ...], today: datetime.date,
               days_back: int) -> list[dict[str, str]]:
    """`count` tables for a match (or round): the first its own, the others new names for
    every seat (up to eight), date, event and (for a match) match id."""
    first = group[0]
    seat_tags = [f"Seat{seat}" for seat in range(1, first.players + 1)]
    tables = [{}]
    for number in range(1, count):
        table = dict(zip(seat_tags, rng.sample(names, first.players), strict=True))
        day = today - datetime.timedelta(days=rng.randrange(days_back))
        table["Date"] = day.strftime("%Y.%m.%d")
        table["Event"] = rng.choice(events)
        if first.tag("Match") is not None:
            table["Match"] = f"{first.tag('Match')}-t{number}"
        tables.append(table)
    return tables


def valid_at_tables(
    records: Iterable[fourcolor.Record], count: int, rounds: int, rng: random.Random,
    names: tuple[str, ...], events: tuple[str, ...], today: datetime.date, days_back: int,
) -> Iterator[ValidRecord]:
    """`rounds` valid records: each played round of `records` at `count` tables."""
    made = 0
    for group in rounds_of_matches(records):
        verdicts = []
        for record in group:
            text = fourcolor.write_fcn(record)
            verdict = validate_record(fourcolor.RecordText(made, 1, text, False), None)
            if not isinstance(verdict, ValidRecord):
                raise ValueError(f"a demo round was refused: {verdict.message}")
            verdicts.append((record, verdict))
        for table in tables_for(group, count, rng, names, events, today, days_back):
            for record, verdict in verdicts:
                if made == rounds:
                    return
                yield (at_table(verdict, record, table, made) if table
                       else dataclasses.replace(verdict, index=made))
                made += 1
