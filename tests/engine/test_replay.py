"""Replays: the table at any ply, a seat's view, waits and missed-win warnings."""

from __future__ import annotations

import dataclasses

import pytest

from fourcolor.cards import parse_card
from fourcolor.replay import Replay
from fourcolor.replay_json import review_json, state_json, states_json
from tests.engine.helpers import WAITS, all_rights_game, play


@pytest.fixture(scope="module")
def replay() -> Replay:
    game = all_rights_game()
    return Replay(game.record, game)


def test_it_shows_the_deal_at_ply_0(replay: Replay) -> None:
    state = state_json(replay.state(0))
    assert (state["ply"], state["plies"], state["event"]) == (0, 12, None)
    assert (state["phase"], state["turn"], state["live"], state["pile_left"]) == (
        "opening",
        1,
        None,
        31,
    )
    assert state["expected"] == "seat 1 (the dealer) to discard"
    assert state["discards"] == []
    assert [s["hand_count"] for s in state["seats"]] == [21, 20, 20, 20]
    assert [len(s["hand"]) for s in state["seats"]] == [21, 20, 20, 20]
    assert [s["dealer"] for s in state["seats"]] == [True, False, False, False]
    assert all(s["display"] == [] for s in state["seats"])
    assert "finish" not in state


def test_it_shows_a_live_discard_and_whose_turn_it_is(replay: Replay) -> None:
    state = state_json(replay.state(3))  # after 3x yC
    assert state["event"] == "3x yC"
    assert state["live"] == {"card": "yC", "owner": 3, "source": "discard"}
    assert (state["phase"], state["turn"], state["pile_left"]) == ("live", 4, 31)
    assert state["discards"] == [{"seat": 3, "card": "yC"}]  # the ponged rP left the pile
    assert [s["hand_count"] for s in state["seats"]] == [20, 20, 17, 20]
    assert state["seats"][2]["display"] == [
        {"kind": "triple", "cards": ["rP", "rP", "rP"], "points": 1}
    ]
    assert state["seats"][2]["exposed_points"] == 1
    assert "chi" in state["seats"][3]["can_claim"]
    assert state["seats"][0]["can_claim"] == []


def test_it_shows_a_live_draw(replay: Replay) -> None:
    state = state_json(replay.state(6))  # after 1d wE
    assert state["live"] == {"card": "wE", "owner": 1, "source": "draw"}
    assert (state["turn"], state["pile_left"]) == (1, 30)
    assert "gan" in state["seats"][1]["can_claim"]


def test_it_hides_other_hands_from_a_seat(replay: Replay) -> None:
    state = state_json(replay.state(3, seat=1))
    assert state["view"] == 1
    seats = state["seats"]
    assert seats[0]["hand"] is not None and len(seats[0]["hand"]) == 20
    assert [s["hand"] for s in seats[1:]] == [None, None, None]
    assert [s["can_claim"] for s in seats[1:]] == [None, None, None]
    assert [s["hand_count"] for s in seats] == [20, 20, 17, 20]
    assert seats[2]["display"][0]["cards"] == ["rP", "rP", "rP"]  # displays stay public


def test_it_shows_the_finish_and_every_hand_at_the_last_ply(replay: Replay) -> None:
    state = state_json(replay.state(12, seat=2))
    assert (state["phase"], state["turn"], state["live"]) == ("ended", None, None)
    assert all(s["hand"] is not None for s in state["seats"])
    finish = state["finish"]
    assert (finish["outcome"], finish["seat"], finish["on"], finish["points"]) == (
        "win",
        1,
        "discard",
        13,
    )
    assert finish["settlement"] == {"1": 39, "2": -13, "3": -13, "4": -13}
    assert finish["result"] == "1:13"
    exposed = [m for m in finish["melds"] if m["exposed"]]
    assert exposed == [{"kind": "field", "cards": ["wR", "wH", "wC"], "points": 1, "exposed": True}]
    assert sum(m["points"] for m in finish["melds"]) == 13
    assert state["seats"][0]["hand_count"] == 18  # the winning field went to the display


@pytest.mark.parametrize("ply,seat", [(-1, None), (13, None), (3, 0), (3, 5)])
def test_it_refuses_plies_and_seats_that_do_not_exist(
    replay: Replay, ply: int, seat: int | None
) -> None:
    with pytest.raises(ValueError):
        replay.state(ply, seat)


# ---------------------------------------------------------------------- review


def _replay(events: str, reserve: str = "rA") -> Replay:
    finished = any(word[1:] == "w" for word in events.split())
    game = play(WAITS, events, players=4, reserve=reserve, result=None if finished else "*")
    return Replay(game.record, game)


def test_it_lists_each_seats_waits_with_points() -> None:
    replay = _replay("1x wC 2d rA 2x rA")
    waits0 = replay.waits(0)
    # Seat 4's gR gH gC and advisor triples leave it one wait.
    assert [(w.card.token, w.points, str(w.meld), w.unseen) for w in waits0[4]] == [
        ("wC", 19, "wR wH wC", 4)
    ]
    # Seat 2 (triples of r/y R H C) has more: wR as a pair, wH going to (rH yH wH), leaving
    # two pairs: 0 + 1 + triples rR rC yR yC 12 = 13; rK alone 1 + 8 with both w cards in
    # three-colour groups; and so on. Best first.
    waits2 = [(w.card.token, w.points, str(w.meld)) for w in waits0[2]]
    assert waits2[0] == ("wC", 19, "wR wH wC")
    assert ("wR", 13, "wR wR") in waits2 and ("rK", 9, "rK") in waits2
    assert [w.points for w in waits0[2]] == sorted((w.points for w in waits0[2]), reverse=True)
    assert [w.unseen for w in replay.waits(1)[4]] == [3]  # one wC is in the discards now
    review = review_json(replay.review())
    assert review[1]["waits"]["4"] == [
        {"card": "wC", "points": 19, "meld": ["wR", "wH", "wC"], "unseen": 3}
    ]


def test_it_warns_of_a_missed_win() -> None:
    replay = _replay("1x wC 2d rA 2x rA")
    assert [(m.ply, m.seat, m.card.token, m.points) for m in replay.missed_wins()] == [
        (1, 2, "wC", 19),
        (1, 4, "wC", 19),
    ]
    messages = [m["message"] for m in review_json(replay.review())[1]["missed_wins"]]
    assert messages == [
        "missed win: seat 2 could have won on wC for 19 points after ply 1",
        "missed win: seat 4 could have won on wC for 19 points after ply 1",
    ]


def test_it_warns_a_drawer_that_discards_its_winning_draw() -> None:
    replay = _replay("1x rP 2d wC 2x wC 3d rA", reserve="wC rA")
    # (Seat 1's padded hand happens to be all pairs and triples: it could win on wC as well.)
    missed = [(m.ply, m.seat) for m in replay.missed_wins() if m.seat in (2, 4)]
    assert missed == [(2, 2), (2, 4), (3, 4)]  # seat 2 owns the discard at ply 3: no warning


def test_it_gives_no_warning_when_a_higher_priority_win_took_the_card() -> None:
    replay = _replay("1x wC 2w wC wR wH")
    assert replay.missed_wins() == []
    assert all(r["missed_wins"] == [] for r in review_json(replay.review()))


def test_it_warns_the_seat_with_priority_when_a_later_seat_wins() -> None:
    replay = _replay("1x wC 4w wC wR wH")
    assert [(m.ply, m.seat, m.card) for m in replay.missed_wins()] == [(1, 2, parse_card("wC"))]


@pytest.mark.parametrize(
    "events", ["1x wC 4h wC wR wH 2w wC wR wH", "1x wC 3c wC wC wC 2w wC wR wH"]
)
def test_it_gives_no_warning_when_calls_precede_the_winning_claim(events: str) -> None:
    assert _replay(events).missed_wins() == []


def test_it_shows_no_waits_once_the_round_ended() -> None:
    replay = _replay("1x wC 2w wC wR wH")
    assert replay.waits(2) == {1: [], 2: [], 3: [], 4: []}


def test_it_keeps_locked_sets_whole_in_waits() -> None:
    from fourcolor.rulesets import get_ruleset, with_switches

    locked = with_switches(get_ruleset("classic"), dealt_sets_locked=True)
    # Dealt triples rA yR yH yC gR gH and rK rE. With the sets locked only two cards win:
    #   rA as a command rK rA rE (1) + hidden triples 18 = 19; rE as a pair (0) + rK 1 + 18 = 19.
    hand = "rA rA rA rK rE yR yR yR yH yH yH yC yC yC gR gR gR gH gH gH"
    game = play({1: "rC", 2: hand}, "1x rC", rules=locked, result="*")
    waits = Replay(game.record, game).waits(1)[2]
    assert [(w.card.token, w.points) for w in waits] == [("rA", 19), ("rE", 19)]


def test_it_counts_a_bga_wait_only_at_the_threshold() -> None:
    from fourcolor.rulesets import Ruleset

    # Six fields and rR rH: winning on rC scores 1 + 6 = 7, under bga's T = 10.
    hand = "rR rH yR yH yC yR yH yC gR gH gC gR gH gC wR wH wC wR wH wC"
    bga = play({1: "rP", 2: hand}, "1x rP", ruleset="bga", result="*")
    assert Replay(bga.record, bga).waits(1)[2] == []
    house = Ruleset.from_mapping({"extends": "bga", "name": "house7", "threshold": 7})
    game = play({1: "rP", 2: hand}, "1x rP", rules=house, result="*")
    waits = Replay(game.record, game).waits(1)[2]
    assert ("rC", 7) in [(w.card.token, w.points) for w in waits]
    assert all(w.points >= 7 for w in waits)


def test_it_shows_the_end_of_an_exhausted_round_at_its_last_ply() -> None:
    from fourcolor.generate import generate_record

    record = next(
        r
        for r in (generate_record("classic", 4, seed, bot="random") for seed in range(400))
        if r.tags["Result"] == "-"
    )
    replay = Replay(record)
    state = state_json(replay.state(replay.plies))
    assert state["finish"]["outcome"] == "exhausted"
    assert state["turn"] is None


@pytest.mark.parametrize("colour", "rygw")
def test_it_never_waits_on_a_card_whose_every_copy_the_seat_holds(colour: str) -> None:
    # Seat 2 holds all four copies of R in one colour (a white quad once made the review fail:
    # a fifth copy ran past the rank tables). It waits on the other cards, never on that one.
    others = [c for c in "rygw" if c != colour]
    triples = [f"{c}{r}" for c, ranks in ((others[0], "RHC"), (others[1], "RH")) for r in ranks]
    hand = " ".join([f"{colour}R"] * 4 + [t for t in triples for _ in range(3)] + [f"{others[1]}C"])
    game = play({1: "rP", 2: hand}, "1x rP", result="*")
    replay = Replay(game.record, game)
    waits = [w.card.token for w in replay.waits(1)[2]]
    assert waits and f"{colour}R" not in waits
    assert all(r["waits"]["2"] == [] or r["waits"]["2"][0]["card"] != f"{colour}R"
               for r in review_json(replay.review()))


def test_it_returns_frozen_values_with_cards(replay: Replay) -> None:
    state = replay.state(3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.ply = 4  # type: ignore[misc]
    assert state.seats[2].display[0].cards == (parse_card("rP"),) * 3
    assert state.live is not None and state.live.card is parse_card("yC")
    assert state.finish is None and replay.state(12).finish is not None


@pytest.mark.parametrize("value", ["state", "seat", "live", "review"])
def test_it_builds_its_values_as_the_dataclasses_they_are(replay: Replay, value: str) -> None:
    # PlyState, SeatState, LiveCard and PlyReview: built by keyword, compared and hashed by
    # value, refusing assignment, and `replace`d as a frozen dataclass is.
    state = replay.state(3)
    found = {"state": state, "seat": state.seats[0], "live": state.live,
             "review": replay.review()[3]}[value]
    assert found is not None
    cls = type(found)
    by_keyword = cls(**{f.name: getattr(found, f.name) for f in dataclasses.fields(cls)})
    assert by_keyword == found and by_keyword is not found
    if value != "review":  # a review's waits are a dict: not hashable, as before
        assert hash(by_keyword) == hash(found)
    first = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(found, first, None)
    assert getattr(dataclasses.replace(found, **{first: 99}), first) == 99
    with pytest.raises(TypeError):
        cls()


def test_it_gives_equal_states_from_a_fresh_or_a_used_replay() -> None:
    # The replay keeps its hands, displayed melds, discards and missed wins as values made
    # once: a state read after every other ply equals the one read first.
    game = all_rights_game()
    fresh = Replay(game.record, game)
    first = [fresh.state(ply) for ply in range(fresh.plies + 1)]
    review = fresh.review()
    again = Replay(game.record, game)
    for ply in reversed(range(again.plies + 1)):
        assert again.state(ply, seat=2) == fresh.state(ply, seat=2)
    assert [again.state(ply) for ply in range(again.plies + 1)] == first
    assert again.review() == review and fresh.review() == review
    missed = fresh.missed_wins()
    missed.clear()  # a caller's list, not the replay's
    assert fresh.missed_wins() == again.missed_wins()


@pytest.mark.parametrize("seat", [None, 1, 3])
def test_it_writes_a_replays_states_together_as_it_writes_each(seat: int | None) -> None:
    game = all_rights_game()
    replay = Replay(game.record, game)
    states = [replay.state(ply, seat) for ply in range(replay.plies + 1)]
    together = list(states_json(states))
    assert together == [state_json(state) for state in states]
    # Written once for all the states: a hand unchanged from one ply to the next is the same
    # list (the API turns each state into JSON text at once).
    shown = (seat or 1) - 1
    shared = [(a["seats"][shown]["hand"], b["seats"][shown]["hand"])
              for a, b in zip(together, together[1:], strict=False)
              if a["seats"][shown]["hand"] == b["seats"][shown]["hand"]]
    assert shared and all(a is b for a, b in shared)
