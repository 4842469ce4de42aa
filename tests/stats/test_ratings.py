"""ratings.services: Plackett–Luce ratings over rounds in play order and the
rollback when an older game arrives after newer ones."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from openskill.models import PlackettLuce

import fourcolor
from fourcolor.generate import generate_record

from ratings.models import CountedGame, PlayerRating, RatingEvent
from ratings.services import (
    dense_ranks,
    on_games_stored,
    pending_ratings,
    play_order_key,
    rate_pending,
    recompute_stats,
)
from records.models import Game
from tests.stats.conftest import PLAY_ORDER, import_club, player, store

pytestmark = pytest.mark.django_db


def classic_by_hand() -> dict[str, tuple[float, float]]:
    """Classic's rated rounds in play order: A (Chi first, the others tie) and C (Dung beats
    Ann). A2 is not rated (Ann holds two seats), D is exhausted, E redealt."""
    model = PlackettLuce()
    ann, bao, chi, dung = (model.rating() for _ in range(4))
    [[ann], [bao], [chi], [dung]] = model.rate([[ann], [bao], [chi], [dung]], ranks=[2, 2, 1, 2])
    [[ann], [dung]] = model.rate([[ann], [dung]], ranks=[2, 1])
    return {name: (r.mu, r.sigma) for name, r in
            (("Ann", ann), ("Bao", bao), ("Chi", chi), ("Dung", dung))}


def stored(ruleset: str) -> dict[str, tuple[float, float]]:
    return {
        r.player.name: (r.mu, r.sigma)
        for r in PlayerRating.objects.filter(ruleset=ruleset).select_related("player")
    }


def assert_close(a: dict[str, tuple[float, float]], b: dict[str, tuple[float, float]]) -> None:
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name] == pytest.approx(b[name], abs=1e-9), name


def test_it_rates_rounds_in_play_order_with_plackett_luce(club: dict[str, int]) -> None:
    assert_close(stored("classic"), classic_by_hand())
    rating = PlayerRating.objects.get(player=player("Dung"), ruleset="classic")
    assert rating.rounds == 2
    assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma, abs=1e-12)


def test_it_rates_only_rounds_with_a_winner_and_distinct_players(club: dict[str, int]) -> None:
    rated = {label: CountedGame.objects.get(game_id=pk).rated for label, pk in club.items()}
    assert rated == {"A": True, "A2": False, "B1": True, "B2": True, "B3": True, "C": True,
                     "D": False, "E": False}
    assert not RatingEvent.objects.filter(game_id__in=[club["A2"], club["D"], club["E"]]).exists()


def test_it_ranks_by_the_settlement(club: dict[str, int]) -> None:
    ranks = dict(
        RatingEvent.objects.filter(game_id=club["B1"]).values_list("player__name", "rank")
    )
    assert ranks == {"Ann": 1, "Chi": 1, "Bao": 2}  # Bao's forced finish paid the others
    assert dense_ranks([-7, -7, 21, -7]) == [2, 2, 1, 2]
    assert dense_ranks([11, -22, 11]) == [1, 2, 1]


def test_it_rerates_from_an_older_game_that_arrives_after_newer_ones(empty: None) -> None:
    later = tuple(label for label in PLAY_ORDER if label != "A")
    import_club(later)
    assert stored("classic")["Ann"] != classic_by_hand()["Ann"]
    ids = import_club(("A",), hook=False)
    report = on_games_stored([ids["A"]])
    # A comes first in classic's play order: A and C (the rated rounds from there) replay.
    assert report.rulesets == {"classic": 2}
    assert_close(stored("classic"), classic_by_hand())
    numbers = dict(RatingEvent.objects.filter(game_id=ids["A"]).values_list("player__name",
                                                                           "number"))
    assert numbers == {"Ann": 1, "Bao": 1, "Chi": 1, "Dung": 1}


def test_it_rates_only_the_new_round_when_it_is_the_latest(empty: None) -> None:
    import_club(tuple(label for label in PLAY_ORDER if label != "C"))
    ids = import_club(("C",), hook=False)
    assert on_games_stored([ids["C"]]).rulesets == {"classic": 1}
    assert_close(stored("classic"), classic_by_hand())


def test_it_counts_a_game_once_however_often_it_is_reported(club: dict[str, int]) -> None:
    before = list(PlayerRating.objects.order_by("pk").values_list("mu", "sigma", "rounds"))
    report = on_games_stored([club["A"], club["C"], club["A"], 999_999])
    assert report.games == 0 and report.rated == 0
    assert on_games_stored([]).games == 0
    assert list(PlayerRating.objects.order_by("pk").values_list("mu", "sigma", "rounds")) == before


def test_it_recomputes_the_same_ratings_from_scratch(club: dict[str, int]) -> None:
    events = sorted(RatingEvent.objects.values_list("player_id", "game_id", "mu", "sigma", "rank"))
    report = recompute_stats()
    assert report.games == 8 and report.rulesets == {"bga": 3, "classic": 2}
    assert sorted(
        RatingEvent.objects.values_list("player_id", "game_id", "mu", "sigma", "rank")
    ) == events
    assert_close(stored("classic"), classic_by_hand())


def test_it_orders_play_by_date_match_round_then_content() -> None:
    upload = datetime.datetime(2026, 12, 5, 23, 30, tzinfo=datetime.timezone.utc)
    dated = play_order_key(datetime.date(2026, 11, 28), upload, "ab" * 32, 2, "f" * 64)
    assert dated == f"2026-11-28|{'ab' * 32}|0000000002|{'f' * 64}"
    # No Date tag: the upload's UTC day.
    undated = play_order_key(None, upload, None, None, "0" * 64)
    assert undated == f"2026-12-05||0000000000|{'0' * 64}"
    round_1 = play_order_key(datetime.date(2026, 11, 28), upload, "ab" * 32, 1, "f" * 64)
    round_10 = play_order_key(datetime.date(2026, 11, 28), upload, "ab" * 32, 10, "0" * 64)
    assert round_1 < dated < round_10 < undated


def test_it_stores_each_games_play_order_key(club: dict[str, int]) -> None:
    keys = dict(CountedGame.objects.values_list("game_id", "order_key"))
    ordered = sorted(club, key=lambda label: keys[club[label]])
    assert tuple(ordered) == PLAY_ORDER
    b2 = Game.objects.get(pk=club["B2"])
    assert keys[b2.pk] == f"2026-11-28|{b2.match.key}|0000000002|{b2.content_hash}"


def test_it_leaves_a_long_replay_to_the_scheduled_pass(empty: None, settings: Any) -> None:
    settings.RATINGS_REPLAY_LIMIT = 1
    import_club(tuple(label for label in PLAY_ORDER if label != "A"))
    before = stored("classic")
    ids = import_club(("A",), hook=False)
    report = on_games_stored([ids["A"]])
    # A would replay A and C (2 > 1): classic waits, and so does a newer classic round.
    assert report.rated == 0 and list(report.deferred) == ["classic"]
    assert report.deferred["classic"].startswith("2026-11-27|")
    assert pending_ratings() == report.deferred
    rematch = fourcolor.write_fcn(generate_record(
        # Another round (C's own deal and events again would be C: one game per round).
        "classic", 2, 909, dealer=1, names=["Ann", "Dung"], bot="random",
        tags={"Date": "2026.12.10"},
    ))
    later = on_games_stored([store(rematch)])
    assert later.deferred == report.deferred and later.rated == 0
    assert stored("classic") == before
    assert not RatingEvent.objects.filter(game_id=ids["A"]).exists()
    passed = rate_pending()
    assert passed.rulesets == {"classic": 3} and pending_ratings() == {}
    # By hand: A, C, then the rematch (Dung beats Ann again).
    model = PlackettLuce()
    expected = classic_by_hand()
    ann, dung = (model.rating(mu=mu, sigma=sigma) for mu, sigma in (expected["Ann"],
                                                                     expected["Dung"]))
    [[ann], [dung]] = model.rate([[ann], [dung]], ranks=[2, 1])
    expected.update({"Ann": (ann.mu, ann.sigma), "Dung": (dung.mu, dung.sigma)})
    assert_close(stored("classic"), expected)


def test_it_replays_at_once_within_the_limit(empty: None, settings: Any) -> None:
    settings.RATINGS_REPLAY_LIMIT = 2
    import_club(tuple(label for label in PLAY_ORDER if label != "A"))
    report = on_games_stored([import_club(("A",), hook=False)["A"]])
    assert report.rulesets == {"classic": 2} and report.deferred == {}
    assert_close(stored("classic"), classic_by_hand())


def _won(ruleset: str, players: int, switches: dict[str, Any], names: list[str]) -> str:
    """A round the bots won (a rated one), under the house variant `switches`."""
    for seed in range(50):
        record = generate_record(ruleset, players, seed, names=names, switches=switches,
                                 tags={"Date": "2026.12.01"})
        if record.tags["Result"] not in ("-", "R", "*"):
            return fourcolor.write_fcn(record)
    raise AssertionError("no won round in 50 seeds")


def test_it_pools_house_variants_and_tables_of_five_to_eight_with_their_ruleset() -> None:
    """docs/stats.md: a variant's round is rated in its base ruleset at its table size, and
    grouped apart by `players` in the statistics."""
    from ratings.global_stats import global_stats

    six = ["Ann", "Bình", "Chi", "Dung", "Em", "Phúc"]
    house = store(_won("classic", 6, {"steal_generals": "never"}, six))
    bga = store(_won("bga", 4, {"steal_generals": "never", "threshold": 8}, six[:4]))
    assert on_games_stored([house, bga]).rated == 2

    assert Game.objects.get(pk=house).switches == "steal_generals=never"
    assert set(RatingEvent.objects.filter(game_id=house).values_list("player__name", flat=True)
               ) == set(six)
    assert set(RatingEvent.objects.filter(game_id=house).values_list("ruleset", flat=True)
               ) == {"classic"}
    assert set(RatingEvent.objects.filter(game_id=bga).values_list("ruleset", flat=True)
               ) == {"bga"}
    assert PlayerRating.objects.get(player=player("Phúc"), ruleset="classic").rounds == 1
    groups = global_stats(players=6)["groups"]
    assert [(g["ruleset"], g["players"], g["rounds"]) for g in groups] == [("classic", 6, 1)]
