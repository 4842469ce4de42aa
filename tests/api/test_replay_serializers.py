"""The replay serializers write their values by hand (api/serializers/replays.py): each must
write exactly the fields it declares, so that the schema says what the answers hold."""

from __future__ import annotations

from typing import Any

import fourcolor
from api.serializers import replays
from fourcolor.generate import generate_record
from fourcolor.replay import Replay


def _keys(serializer: Any, value: Any) -> set[str]:
    return set(serializer.to_representation(value))


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
    context = {"game": 1, "says": lambda ply: None, "links": lambda ply: {}}
    state = replays.PlyStateDoc(context=context)
    assert _keys(state, last) == _declared(state)
    assert _keys(state, replay.state(0)) == _declared(state) - {"finish"}
    assert last.finish is not None and last.finish.melds
    assert _keys(replays.FinishDoc(), last.finish) == _declared(replays.FinishDoc())
    meld = replays.FinishMeldDoc()
    assert _keys(meld, last.finish.melds[0]) == _declared(meld)
    seat = replays.SeatStateDoc()
    assert _keys(seat, last.seats[0]) == _declared(seat)
    assert claimed.claim is not None
    assert _keys(replays.ClaimDoc(), claimed.claim) == _declared(replays.ClaimDoc())
    live = next(s for s in map(replay.state, range(replay.plies)) if s.live and s.discards)
    assert _keys(replays.LiveDoc(), live.live) == _declared(replays.LiveDoc())
    assert _keys(replays.DiscardDoc(), live.discards[0]) == _declared(replays.DiscardDoc())
    review = _replay(lambda r: r.missed_wins()).review()
    missed = next(r for r in review if r.missed_wins)
    assert _keys(replays.PlyReviewDoc(), missed) == _declared(replays.PlyReviewDoc())
    win = missed.missed_wins[0]
    assert _keys(replays.MissedWinDoc(), win) == _declared(replays.MissedWinDoc())
    assert _keys(replays.PlyMissedWinDoc(), win) == _declared(replays.PlyMissedWinDoc())
    wait = next(ws[0] for r in review for ws in r.waits.values() if ws)
    assert _keys(replays.WaitDoc(), wait) == _declared(replays.WaitDoc())
    display = next(m for s in last.seats for m in s.display)
    assert _keys(replays.MeldDoc(), display) == _declared(replays.MeldDoc())
