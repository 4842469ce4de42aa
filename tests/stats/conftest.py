"""The club archive: eight rounds whose every per-seat fact is written out below, so that the
tests can work each statistic out by hand.

- A  (2026-11-27, classic, 4 players): NOTATION.md's example, seats renamed Ann, Bao, Chi,
  Dung. Chi (seat 3, the dealer) wins 7 points on Ann's draw (Ann deals in); everyone else pays
  7. Chi's win skips Bao (a steal; Bao loses a turn).
- A2 (2026-12-02): the same round with seat 4 played by "ann": the same player as Ann (names
  are matched case-insensitively), so Ann holds two seats and pays 7 twice. The engine now
  refuses such a record; A2 stands for one stored before it did (archives hold them, and the
  statistics still count them), and is imported under `one_player_may_hold_two_seats()`.
- B1-B3 (2026-11-28, bga, 3 players, match "club-1"): Ann, Bao, Chi. B1: Bao's forced finish
  with 7 points, under the threshold of 10: Bao pays 11 to each. B2: Chi wins 12 on Ann's
  discard (lucky bonus 1: 12 - 10 + 1 + 1 = 4 from each). B3: Bao wins 13 on his own draw.
- C  (2026-11-29, classic, 2 players): Dung wins 5 on Ann's discard, after missing a win once.
- D  (2026-11-30, classic, 4 players): Ann, Bao, Chi, Dung; exhausted.
- E  (2026-12-01, classic, 4 players): Bao, Chi (dealer), Dung, Em; Dung declares a redeal.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

import fourcolor
from fourcolor import notation
from fourcolor.facts import seat_facts
from fourcolor.generate import generate_match, generate_record
from ratings.counters import RATIO_COLUMNS, SUM_COUNTERS
from ratings.models import (
    CountedGame,
    DerivedState,
    PairTotals,
    PlayerRating,
    PlayerTotals,
    RatingEvent,
)
from ratings.totals import PAIR_FIELDS
from records.models import Game, Match, Player

# The NOTATION.md example (shared material, copied here so the suite needs no outside file).
EXAMPLE = """\
[Event "Friday club"]
[Date "2026.11.27"]
[Ruleset "classic"]
[Seat1 "Ann"]
[Seat2 "Bao"]
[Seat3 "Chi"]
[Seat4 "SEAT4"]
[Dealer "3"]
[Result "3:7"]

1: rC rP yK yK yE yE yR yR yC gA gR gR gH gH gC gP wK wE wH wC
2: rE wR wK yE wE rC rP yP gE rH wH rA wA wR rE rP yE wR wA gC
3: rK rK rK rA rR rH rC rP yK yA yA yH yH yC gK gA gE gP gP wR wC
4: wE yK wP wH rA wK rR wK wA gK gK wC rE wE gC gA yH rK rR yR

1. 3x rP 2. 4d rH 4x rH 3. 1m rH gH wH {three horses of three colours} 1x gA
4. 2d wH 2x wH 5. 3d gR 3m rR gR wR 3x rH 6. 4d gK {a drawn general is never
discarded} 4m gK 4x wP 7. 1d rE
3w rK rA rE (rK) (rK) (rC yC wC) (yK) (yA yA) (yH yH) (gK gA gE) (gP gP)
"""

# Per seat: (name, dealer, won, forced, won_on, dealt_in, points, delta, below_threshold,
#            pongs, gans, chis, own_draw_melds, steals, turns_lost, draws, win_turn,
#            redeal_declared, missed_wins, win_melds)
_A = [
    ("Ann", False, False, False, None, True, None, -7, False, 0, 0, 1, 0, 0, 0, 1, None, False,
     0, ()),
    ("Bao", False, False, False, None, False, None, -7, False, 0, 0, 0, 0, 0, 1, 1, None, False,
     0, ()),
    ("Chi", True, True, False, "draw", False, 7, 21, False, 0, 0, 0, 1, 1, 0, 1, 3, False, 0,
     ("three_colour", "command", "lone", "lone", "three_colour", "lone", "pair", "pair",
      "command", "pair")),
    ("Dung", False, False, False, None, False, None, -7, False, 0, 0, 0, 1, 0, 0, 2, None,
     False, 0, ()),
]
FACTS: dict[str, list[tuple[Any, ...]]] = {
    "A": _A,
    "A2": [*_A[:3], ("ann", *_A[3][1:])],
    "B1": [
        ("Ann", True, False, False, None, False, None, 11, False, 1, 0, 1, 6, 0, 0, 17, None,
         False, 0, ()),
        ("Bao", False, False, True, None, False, 7, -22, True, 3, 0, 3, 1, 0, 0, 14, None, False,
         0, ("field", "triple", "triple", "field", "pair", "pair", "triple", "lone", "lone")),
        ("Chi", False, False, False, None, False, None, 11, False, 1, 0, 3, 4, 0, 0, 15, None,
         False, 0, ()),
    ],
    "B2": [
        ("Ann", False, False, False, None, True, None, -4, False, 0, 0, 4, 2, 0, 1, 2, None,
         False, 0, ()),
        ("Bao", True, False, False, None, False, None, -4, False, 1, 0, 1, 2, 1, 2, 3, None,
         False, 0, ()),
        ("Chi", False, True, False, "discard", False, 12, 8, False, 1, 0, 1, 2, 2, 0, 5, 8, False,
         0, ("command", "triple", "command", "three_colour", "command", "lone", "lone", "pair",
             "pair")),
    ],
    "B3": [
        ("Ann", False, False, False, None, False, None, -4, False, 1, 0, 3, 2, 0, 0, 6, None,
         False, 0, ()),
        ("Bao", False, True, False, "self_draw", False, 13, 8, False, 1, 0, 2, 1, 0, 1, 6, 9,
         False, 0, ("command", "triple", "field", "command", "triple", "lone", "lone", "lone",
                    "lone", "lone", "lone")),
        ("Chi", True, False, False, None, False, None, -4, False, 1, 0, 1, 4, 1, 0, 7, None,
         False, 0, ()),
    ],
    "C": [
        ("Ann", True, False, False, None, True, None, -5, False, 1, 0, 3, 0, 0, 0, 4, None,
         False, 0, ()),
        ("Dung", False, True, False, "discard", False, 5, 5, False, 1, 0, 3, 2, 0, 0, 4, 9,
         False, 1, ("three_colour", "three_colour", "pair", "pair", "pair", "triple",
                    "three_colour", "lone", "pair")),
    ],
    "D": [
        ("Ann", True, False, False, None, False, None, 0, False, 0, 0, 3, 2, 0, 1, 8, None,
         False, 0, ()),
        ("Bao", False, False, False, None, False, None, 0, False, 0, 0, 4, 4, 0, 1, 7, None,
         False, 0, ()),
        ("Chi", False, False, False, None, False, None, 0, False, 1, 0, 3, 3, 1, 1, 7, None,
         False, 0, ()),
        ("Dung", False, False, False, None, False, None, 0, False, 1, 0, 2, 3, 1, 0, 9, None,
         False, 0, ()),
    ],
    "E": [
        ("Bao", False, False, False, None, False, None, 0, False, 0, 0, 0, 0, 0, 0, 0, None,
         False, 0, ()),
        ("Chi", True, False, False, None, False, None, 0, False, 0, 0, 0, 0, 0, 0, 0, None,
         False, 0, ()),
        ("Dung", False, False, False, None, False, None, 0, False, 0, 0, 0, 0, 0, 0, 0, None,
         True, 0, ()),
        ("Em", False, False, False, None, False, None, 0, False, 0, 0, 0, 0, 0, 0, 0, None,
         False, 0, ()),
    ],
}
FACT_FIELDS = (
    "name", "is_dealer", "won", "forced", "won_on", "dealt_in", "points", "delta",
    "below_threshold", "pongs", "gans", "chis", "own_draw_melds", "steals", "turns_lost", "draws",
    "win_turn", "redeal_declared", "missed_wins", "win_melds",
)
OUTCOMES = {
    "A": "win", "A2": "win", "B1": "forced", "B2": "win", "B3": "win", "C": "win",
    "D": "exhausted", "E": "redeal",
}
# Play order (by date): A, B1, B2, B3, C, D, E, A2.
PLAY_ORDER = ("A", "B1", "B2", "B3", "C", "D", "E", "A2")


@functools.lru_cache(maxsize=None)
def club_texts() -> dict[str, str]:
    """The archive's records by label (canonical FCN; A and A2 as written above)."""
    texts = {
        "A": EXAMPLE.replace("SEAT4", "Dung"),
        "A2": EXAMPLE.replace("SEAT4", "ann").replace("2026.11.27", "2026.12.02"),
    }
    # "reckless": the greedy bot before its two bga rules (fourcolor.generate.make_bot), which
    # played the rounds the statistics below were worked out by hand from.
    match = generate_match(
        "bga", 3, 13, rounds=3, names=["Ann", "Bao", "Chi"], match_id="club-1",
        date="2026.11.28", bot=["random", "reckless", "random"],
    )
    for number, record in enumerate(match, start=1):
        texts[f"B{number}"] = fourcolor.write_fcn(record)
    texts["C"] = fourcolor.write_fcn(generate_record(
        "classic", 2, 907, dealer=1, names=["Ann", "Dung"], bot="random",
        tags={"Date": "2026.11.29"},
    ))
    texts["D"] = fourcolor.write_fcn(generate_record(
        "classic", 4, 2, dealer=1, names=["Ann", "Bao", "Chi", "Dung"], bot="random",
        tags={"Date": "2026.11.30"},
    ))
    texts["E"] = fourcolor.write_fcn(generate_record(
        "classic", 4, 222, dealer=2, names=["Bao", "Chi", "Dung", "Em"], bot="random",
        tags={"Date": "2026.12.01"},
    ))
    return texts


def engine_facts(text: str) -> list[tuple[Any, ...]]:
    with one_player_may_hold_two_seats():  # A2
        check = fourcolor.check_record(text)
    assert check.ok and check.game is not None, check.error
    return [
        tuple(getattr(f, name) for name in FACT_FIELDS) for f in seat_facts(check.game)
    ]


@contextlib.contextmanager
def one_player_may_hold_two_seats() -> Iterator[None]:
    """The engine as it was before it refused one player in two seats (A2's "Ann" and "ann"):
    every name counts as a player of its own in that one check."""
    with mock.patch.object(notation.tags, "player_key", str):
        yield


def clear_archive() -> None:
    """Empty every table the tests fill (hypothesis examples share one test database)."""
    for model in (RatingEvent, PlayerRating, PairTotals, PlayerTotals, CountedGame,
                  DerivedState, Game, Match, Player):
        model.objects.all().delete()


def store(text: str) -> int:
    """Store one record the way the import does, but without the statistics hook (whether or
    not the import service calls it): for tests that call `on_games_stored` themselves."""
    from records.services import import_texts

    (result,) = import_texts([text], announce=False).results
    assert result.status == "stored" and result.game_id is not None, result.message
    return result.game_id


def import_club(labels: tuple[str, ...] = PLAY_ORDER, *, hook: bool = True) -> dict[str, int]:
    """Import the records one file per record in the given order and call the stats hook
    after each (as the import service does: a second call is a no-op); with `hook=False`
    the games are stored and left uncounted. Returns the game id of each label."""
    from ratings.services import on_games_stored
    from records.services import import_records

    ids = {}
    for label in labels:
        if not hook:
            with one_player_may_hold_two_seats():
                ids[label] = store(club_texts()[label])
            continue
        with one_player_may_hold_two_seats():
            report = import_records(club_texts()[label])
        assert report.stored == 1, report.as_dict()
        ids[label] = report.results[0].game_id
        on_games_stored([ids[label]])
    return ids


def player(name: str) -> Player:
    from records.models import player_key

    return Player.objects.get(name_key=player_key(name))


@pytest.fixture(scope="module")
def club_archive(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[dict[str, int]]:
    """The club archive, imported once per test module (each test runs in a transaction that
    is rolled back, so what a test changes does not reach the next)."""
    with django_db_blocker.unblock():
        clear_archive()
        ids = import_club()
    yield ids
    with django_db_blocker.unblock():
        clear_archive()


@pytest.fixture
def club(db: None, club_archive: dict[str, int]) -> dict[str, int]:
    return club_archive


@pytest.fixture
def empty(db: None) -> None:
    """An empty archive for this test (whatever the module imported for others)."""
    clear_archive()


def totals_snapshot() -> dict[str, Any]:
    """Every stored total as plain data (for comparing an incremental state with a rebuild)."""
    fields = ["player_id", "ruleset", "players", *SUM_COUNTERS, "matches", "best_win_points",
              *RATIO_COLUMNS]
    players = sorted(
        tuple(row) for row in PlayerTotals.objects.values_list(*fields)
    )
    pairs = sorted(
        tuple(row) for row in PairTotals.objects.values_list(
            "player_id", "opponent_id", "ruleset", "players", *PAIR_FIELDS
        )
    )
    return {"players": players, "pairs": pairs}

