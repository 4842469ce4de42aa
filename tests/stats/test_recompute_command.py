"""manage.py recompute_stats: rebuilds the totals and ratings, with progress and a summary."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from ratings.models import CountedGame, PlayerRating, PlayerTotals, RatingEvent
from ratings.services import pending_ratings
from records.models import Game
from tests.stats.conftest import import_club, totals_snapshot

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("recompute_stats", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_rebuilds_everything_from_the_stored_games(club: dict[str, int]) -> None:
    before = totals_snapshot()
    ratings = sorted(PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma"))
    PlayerTotals.objects.update(rounds=0, wins=99)
    RatingEvent.objects.all().delete()
    out, err = run()
    assert "games counted: 8; rated rounds replayed: 5 (bga 3, classic 2)" in out
    assert "player total rows:" in out and "pair total rows:" in out
    assert "count" in err and "ratings bga" in err  # tqdm's bars
    assert totals_snapshot() == before
    assert sorted(
        PlayerRating.objects.values_list("player_id", "ruleset", "mu", "sigma")
    ) == ratings


def test_it_adds_only_missing_games_with_missing(empty: None) -> None:
    ids = import_club(hook=False)
    assert CountedGame.objects.count() == 0
    out, _ = run("--missing", "--no-progress")
    assert "games counted: 8;" in out
    expected = totals_snapshot()
    out, _ = run("--missing", "--no-progress")
    assert "games counted: 0;" in out
    assert totals_snapshot() == expected
    assert CountedGame.objects.filter(game_id__in=ids.values()).count() == 8


def test_it_rates_again_without_touching_totals_with_ratings_only(club: dict[str, int]) -> None:
    PlayerRating.objects.filter(ruleset="bga").update(mu=0.0)
    PlayerTotals.objects.update(wins=77)
    out, _ = run("--ratings-only", "--ruleset", "bga", "--no-progress")
    assert "rated rounds replayed: 3 (bga 3)" in out
    assert not PlayerRating.objects.filter(mu=0.0).exists()
    assert set(PlayerTotals.objects.values_list("wins", flat=True)) == {77}


def test_it_refuses_ruleset_without_ratings_only(empty: None) -> None:
    with pytest.raises(CommandError, match="--ruleset only applies with --ratings-only"):
        run("--ruleset", "bga")


def test_it_empties_the_derived_tables_of_an_empty_archive(club: dict[str, int]) -> None:
    Game.objects.all().delete()
    out, _ = run("--no-progress")
    assert "games counted: 0; rated rounds replayed: 0 (none)" in out
    assert not PlayerTotals.objects.exists() and not PlayerRating.objects.exists()


def test_it_replays_pending_ratings_with_pending(empty: None, settings: Any) -> None:
    settings.RATINGS_REPLAY_LIMIT = 0
    import_club(("C", "A"))
    out, _ = run("--pending", "--no-progress")
    assert "rated rounds replayed: 2 (classic 2)" in out
    assert pending_ratings() == {}
    assert RatingEvent.objects.count() == 4 + 2
    out, _ = run("--pending", "--no-progress")
    assert "rated rounds replayed: 0 (none)" in out


def test_it_never_defers_ratings_with_missing(empty: None, settings: Any) -> None:
    settings.RATINGS_REPLAY_LIMIT = 0
    import_club(("C",))  # deferred (the limit is 0): pending from C
    import_club(("A",), hook=False)  # stored while the hook did not run
    out, _ = run("--missing", "--no-progress")
    assert "games counted: 1; rated rounds replayed: 2 (classic 2)" in out
    assert pending_ratings() == {}
    assert RatingEvent.objects.count() == 4 + 2
