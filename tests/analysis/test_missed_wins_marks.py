"""The reviewer's marks on the missed wins of the conformance sample (missed_wins.fcn, rows as
in missed_wins.jsonl), at the default sample count: a move that settles exactly as the win on
every deal the seat could imagine is rated as the win (good, the win named best, about equal);
a win given up for less is flagged (rows 9 and 32)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import fourcolor
from fourcolor.analysis import DEFAULT_SAMPLES, Decision, analyse
from fourcolor.replay import Replay

SHARED = Path("/work/shared/corpus")
COPY = Path(__file__).resolve().parent.parent / "data" / "corpus"
CORPUS = SHARED if (SHARED / "missed_wins.jsonl").exists() else COPY


def _rated(row_number: int) -> Decision:
    """The decision of the missed win of row `row_number`, rated at the default settings."""
    rows = (CORPUS / "missed_wins.jsonl").read_text().splitlines()
    row = json.loads(rows[row_number])
    with open(CORPUS / "missed_wins.fcn", encoding="utf-8", newline="") as f:
        text = list(fourcolor.iter_records(f))[row["index"]]
    record = fourcolor.parse_record(text.text, text.line)
    game = fourcolor.validate(record)
    [missed] = [
        m
        for m in Replay(record, game).missed_wins()
        if (m.seat, m.card.token, record.events[m.ply].line)
        == (row["seat"], row["card"], row["line"])
    ]
    result = analyse(record, seats=[row["seat"]], plies=[missed.ply + 1], samples=DEFAULT_SAMPLES)
    [decision] = result.decisions
    return decision


# Plain melds of the live card that leave nothing to discard: a forced finish, scored and
# settled as the win (RULES.md §5.6, §7); and row 10, a pass on the drawer's gE that only the
# seat can use (it holds three gE, every gA is discarded), so the drawer discards it and the
# seat wins on it with the same points and the same lucky card.
SETTLED_AS_THE_WIN = [0, 1, 4, 5, 6, 8, 10, 12, 13, 17, 18, 19, 20, 25, 27, 38]


@pytest.mark.parametrize("row_number", SETTLED_AS_THE_WIN)
def test_it_rates_a_move_that_settles_as_the_win_would_as_the_win(row_number: int) -> None:
    d = _rated(row_number)
    values = {o.event: o.ev for o in d.options}
    assert d.best[1] == "w" and d.played[1] != "w"
    assert values[d.played] == values[d.best]
    assert (d.verdict, d.loss, d.about_equal) == ("good", 0.0, True)


@pytest.mark.parametrize("row_number", [9, 32])
def test_it_flags_a_win_given_up_for_less(row_number: int) -> None:
    d = _rated(row_number)
    assert d.best[1] == "w" and d.played[1] == "m"
    assert d.verdict != "good" and d.loss > 0
