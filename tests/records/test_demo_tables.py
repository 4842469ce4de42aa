"""records.demo_tables: a played round stored at other tables is what the engine says of
each table's own text."""

from __future__ import annotations

import datetime
import random

import fourcolor
from fourcolor.generate import generate_match, generate_record
from records.demo_tables import at_table, rounds_of_matches, tables_for, valid_at_tables
from records.services.validating import validate_record
from records.services.storing import ValidRecord

NAMES = ("An", "Bình", "陳美玲", "Jonas", "Анна")
EVENTS = ("Friday club", "Spring open")
TODAY = datetime.date(2026, 6, 1)


def _verdict(text: str, index: int = 0) -> ValidRecord:
    verdict = validate_record(fourcolor.RecordText(index, 1, text, False), None)
    assert isinstance(verdict, ValidRecord)
    return verdict


def test_it_derives_each_table_as_the_engine_does_from_its_text() -> None:
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        record = generate_record("classic", players, seed, names=list(NAMES[:players]),
                                 tags={"Date": "2026.01.02", "Event": "x"})
        played = _verdict(fourcolor.write_fcn(record))
        table = {"Seat1": "Ольга", "Seat2": "Noor", "Seat3": "佐藤", "Seat4": "Lê"}
        table = {k: v for k, v in table.items() if int(k[-1]) <= players}
        table |= {"Date": "2025.12.24", "Event": "Tết"}
        moved = at_table(played, record, table, 7)
        engine = _verdict(moved.text, 7)
        assert moved == engine
        assert moved.content_hash != played.content_hash


def test_it_moves_a_match_whole_to_each_table() -> None:
    rounds = generate_match("bga", 3, 9, rounds=3, names=list(NAMES[:3]), match_id="m-1",
                            date="2026.01.01", event="x")
    groups = list(rounds_of_matches(rounds))
    assert [len(g) for g in groups] == [3]
    valid = list(valid_at_tables(rounds, 4, 12, random.Random(0), NAMES, EVENTS, TODAY, 30))
    assert [v.index for v in valid] == list(range(12))
    assert len({v.content_hash for v in valid}) == 12
    by_match: dict[str | None, list[ValidRecord]] = {}
    for v in valid:
        by_match.setdefault(v.match_tag, []).append(v)
    assert len(by_match) == 4 and all(len(vs) == 3 for vs in by_match.values())
    for vs in by_match.values():
        assert len({tuple(row["name"] for row in v.seats) for v in vs}) == 1
        assert all(v == _verdict(v.text, v.index) for v in vs)


def test_it_keeps_the_first_table_as_played() -> None:
    record = generate_record("classic", 4, 5, names=list(NAMES[:4]))
    tables = tables_for([record], 3, random.Random(1), NAMES, EVENTS, TODAY, 30)
    assert tables[0] == {} and len(tables) == 3
    assert all(set(t) == {"Seat1", "Seat2", "Seat3", "Seat4", "Date", "Event"} for t in tables[1:])


def test_it_names_every_seat_anew_at_a_table_of_more_than_four() -> None:
    names = tuple(f"Player {n}" for n in range(12))
    for players in (5, 8):
        record = generate_record("classic", players, players, names=list(names[:players]))
        played = _verdict(fourcolor.write_fcn(record))
        for table in tables_for([record], 3, random.Random(players), names, EVENTS, TODAY, 30)[1:]:
            assert set(table) >= {f"Seat{seat}" for seat in range(1, players + 1)}
            moved = at_table(played, record, table, 0)
            seated = [row["name"] for row in moved.seats]
            assert len(set(seated)) == players
            assert moved == _verdict(moved.text)
