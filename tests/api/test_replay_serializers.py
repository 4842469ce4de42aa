"""The replay serializers (api/serializers/replays.py) declare the fields that the engine's
JSON writers (fourcolor/replay_json.py) write: each writer must write exactly the fields its
serializer declares, so that the schema says what the answers hold."""

from __future__ import annotations

from typing import Any

import fourcolor
from api.serializers import replays
from fourcolor import replay_json
from fourcolor.generate import generate_record
from fourcolor.replay import Replay

# What the API adds to the engine's state of a ply (api.plies.ply_answers).
ARCHIVE_FIELDS = {"game", "says", "links"}


def _keys(write: Any, value: Any) -> set[str]:
    return set(write(value))


def _declared(serializer: Any) -> set[str]:
    return set(serializer.get_fields())


def _replay(wanted: Any) -> Replay:
    for n in range(200):
        record = generate_record("classic", 3 + n % 2, n, bot="random")
        replay = Replay(fourcolor.parse_record(fourcolor.write_fcn(record)))
        if wanted(replay):
            return replay
    raise AssertionError("no generated round of the kind wanted")


def test_it_writes_exactly_the_declared_fields_of_every_replay_value() -> None:
    replay = _replay(lambda r: r.game.finish.outcome == "win")
    last = replay.state(replay.plies)
    claimed = next(replay.state(p) for p in range(replay.plies + 1) if replay.claim(p))
    state = replays.PlyStateDoc()
    assert _keys(replay_json.state_json, last) | ARCHIVE_FIELDS == _declared(state)
    assert _keys(replay_json.state_json, replay.state(0)) | ARCHIVE_FIELDS == (
        _declared(state) - {"finish"})
    assert last.finish is not None and last.finish.melds
    assert _keys(replay_json.round_end_json, last.finish) == _declared(replays.FinishDoc())
    meld = replays.FinishMeldDoc()
    assert _keys(replay_json.value_json, last.finish.melds[0]) == _declared(meld)
    seat = replays.SeatStateDoc()
    assert _keys(replay_json.value_json, last.seats[0]) == _declared(seat)
    assert claimed.claim is not None
    assert _keys(replay_json.claim_json, claimed.claim) == _declared(replays.ClaimDoc())
    live = next(s for s in map(replay.state, range(replay.plies)) if s.live and s.discards)
    assert _keys(replay_json.value_json, live.live) == _declared(replays.LiveDoc())
    assert _keys(replay_json.value_json, live.discards[0]) == _declared(replays.DiscardDoc())
    review = _replay(lambda r: r.missed_wins()).review()
    missed = next(r for r in review if r.missed_wins)
    assert _keys(replay_json.value_json, missed) == _declared(replays.PlyReviewDoc())
    win = missed.missed_wins[0]
    assert _keys(replay_json.missed_win_json, win) == _declared(replays.MissedWinDoc())
    assert _keys(replay_json.missed_win_json, win) | {"ply"} == (
        _declared(replays.PlyMissedWinDoc()))
    wait = next(ws[0] for r in review for ws in r.waits.values() if ws)
    assert _keys(replay_json.value_json, wait) == _declared(replays.WaitDoc())
    display = next(m for s in last.seats for m in s.display)
    assert _keys(replay_json.value_json, display) == _declared(replays.MeldDoc())
