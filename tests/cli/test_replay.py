"""`fourcolor replay FILE [--index I] --ply N [--seat S]`: the table at a ply as JSON; with
--seat, one seat's view (other seats' hands and claims hidden until the round ends)."""

from __future__ import annotations

import json

from tests.notation.fcn import DEAL_A, fcn

from .cli import Runner, Writer

RECORD = fcn("1x yE {opening} 2d rC 2x rC 1d wH 1x wH 2d yE 2w yE yK yA", result="2:9")
HAND_2 = sorted(DEAL_A[2].split())


def state(run: Runner, *args: str) -> dict:  # type: ignore[type-arg]
    result = run("replay", *args)
    assert result.status == 0, result.err
    return json.loads(result.out)  # type: ignore[no-any-return]


def test_it_shows_the_table_at_a_ply(run: Runner, write: Writer) -> None:
    data = state(run, write("r.fcn", RECORD), "--ply", "1")
    assert (data["ply"], data["plies"], data["event"], data["comments"]) == (
        1,
        7,
        "1x yE",
        ["opening"],
    )
    assert data["phase"] == "live" and data["turn"] == 2 and data["pile_left"] == 71
    assert data["live"] == {"card": "yE", "owner": 1, "source": "discard"}
    assert data["discards"] == [{"seat": 1, "card": "yE"}]
    seat1, seat2 = data["seats"]
    assert (seat1["hand_count"], seat2["hand_count"]) == (20, 20)
    assert sorted(seat2["hand"]) == HAND_2 and "win" in seat2["can_claim"]
    assert data["view"] is None


def test_it_shows_the_deal_at_ply_0(run: Runner, write: Writer) -> None:
    data = state(run, write("r.fcn", RECORD), "--ply", "0")
    assert (data["event"], data["phase"], data["live"]) == (None, "opening", None)
    assert data["seats"][0]["dealer"] is True and data["seats"][0]["hand_count"] == 21


def test_it_hides_other_hands_from_one_seats_view(run: Runner, write: Writer) -> None:
    data = state(run, write("r.fcn", RECORD), "--ply", "2", "--seat", "1")
    seat1, seat2 = data["seats"]
    assert data["view"] == 1
    assert seat1["hand"] is not None and seat1["can_claim"] is not None
    assert seat2["hand"] is None and seat2["can_claim"] is None
    assert seat2["hand_count"] == 20 and seat2["name"] == "Bo"


def test_it_shows_every_hand_once_the_round_has_ended(run: Runner, write: Writer) -> None:
    data = state(run, write("r.fcn", RECORD), "--ply", "7", "--seat", "1")
    assert data["phase"] == "ended" and data["seats"][1]["hand"] is not None
    assert data["finish"]["outcome"] == "win" and data["finish"]["points"] == 9


def test_it_picks_a_record_of_the_file_by_index(run: Runner, write: Writer) -> None:
    path = write("two.fcn", RECORD + "\n" + fcn("1x wA", result="*"))
    data = state(run, path, "--index", "1", "--ply", "1")
    assert (data["event"], data["plies"]) == ("1x wA", 1)


def test_it_refuses_a_ply_or_seat_out_of_range(run: Runner, write: Writer) -> None:
    path = write("r.fcn", RECORD)
    bad_ply = run("replay", path, "--ply", "8")
    assert (bad_ply.status, bad_ply.out) == (2, "")
    assert bad_ply.err == "fourcolor: error: ply must be between 0 and 7, not 8\n"
    bad_seat = run("replay", path, "--ply", "1", "--seat", "3")
    assert bad_seat.err == "fourcolor: error: seat must be between 1 and 2, not 3\n"
    negative = run("replay", path, "--ply", "-1")
    assert negative.status == 2 and negative.err.startswith("fourcolor: error: ply must be")


def test_it_refuses_to_replay_an_illegal_record(run: Runner, write: Writer) -> None:
    result = run("replay", write("bad.fcn", fcn("1x yK")), "--ply", "0")
    assert result.status == 2
    assert result.err == (
        "fourcolor: error: the record is not a legal round: 10:1: error[not-in-hand]: "
        'seat 1 does not hold yK (ply 1: "1x yK")\n'
    )
