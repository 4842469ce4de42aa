"""records.filters.GameFilter: the archive's filters, shared by the web and the API."""

from __future__ import annotations

import pytest

import fourcolor
from ratings import stats
from records.filters import GameFilter, GameFilters, StatisticsFilter
from records.models import Game, GameAnalysis
from tests.web.conftest import HTML_NAME, SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def ids(params: dict[str, str]) -> list[int]:
    filterset = GameFilter(params, queryset=Game.objects.all())
    return list(filterset.qs.values_list("pk", flat=True))


def test_it_finds_a_players_games_whatever_the_case_and_unicode_form(archive: Archive) -> None:
    expected = {archive.four.pk, archive.bga.pk, *(g.pk for g in archive.rounds)}
    assert set(ids({"player": HTML_NAME.upper()})) == expected
    # "Bình" written with a combining grave accent, in capitals: the same player.
    assert set(ids({"player": "NGUYÊ\u0303N THỊ BI\u0300NH"})) == {
        archive.four.pk, *(g.pk for g in archive.rounds)
    }


def test_it_finds_games_where_player_and_opponent_both_sat(archive: Archive) -> None:
    assert set(ids({"player": "陳大文", "opponent": HTML_NAME})) == {
        archive.four.pk, archive.bga.pk, *(g.pk for g in archive.rounds)
    }
    assert set(ids({"player": "Ann", "opponent": "陳大文"})) == {
        archive.four.pk, archive.bga.pk, archive.missed.pk, *(g.pk for g in archive.rounds)
    }
    assert set(ids({"player": "Nguyễn Thị Bình", "opponent": "陳大文"})) == {
        archive.four.pk, *(g.pk for g in archive.rounds)
    }
    assert set(ids({"player": "Ann", "opponent": "مريم"})) == set()
    assert set(ids({"opponent": "مريم"})) == {archive.long.pk}


def test_it_filters_by_ruleset_players_and_outcome(archive: Archive) -> None:
    assert ids({"ruleset": "bga"}) == [archive.bga.pk]
    assert set(ids({"players": "3"})) == {archive.bga.pk, archive.long.pk}
    assert set(ids({"players": "2"})) == {archive.missed.pk}
    assert len(ids({"outcome": "win"})) == len(archive.all_games())
    assert ids({"outcome": "exhausted"}) == []


def test_it_filters_by_date_range_inclusive(archive: Archive) -> None:
    assert set(ids({"since": "2024-05-01", "until": "2024-05-20"})) == {
        archive.four.pk, archive.bga.pk
    }
    assert set(ids({"until": "2024-04-10"})) == {archive.long.pk, archive.missed.pk}


def test_it_filters_by_match_and_minimum_points(archive: Archive) -> None:
    assert archive.match is not None
    rounds = {g.pk for g in archive.rounds}
    assert set(ids({"match": archive.match.tag})) == rounds  # the whole name
    assert set(ids({"match": "spring"})) == rounds  # as typed: the start of a word, any case
    assert set(ids({"match": "cup spr"})) == rounds
    assert set(ids({"match": "ring"})) == set()
    # A number is a name like any other, never an internal id.
    assert set(ids({"match": str(archive.match.pk)})) == set()
    floor = archive.long.points
    assert floor is not None
    expected = {g.pk for g in archive.all_games() if g.points is not None and g.points >= floor}
    assert set(ids({"min_points": str(floor)})) == expected


def test_it_filters_by_whether_a_game_is_analysed(archive: Archive) -> None:
    GameAnalysis.objects.create(game=archive.four, engine_version=fourcolor.__version__,
                                samples=4, seed=0, result={})
    GameAnalysis.objects.create(game=archive.long, engine_version="0.9.0", samples=8, seed=1,
                                result={}, stale=True)  # any analysis counts, a stale one too
    everything = {g.pk for g in archive.all_games()}

    assert set(ids({"analysed": "true"})) == {archive.four.pk, archive.long.pk}
    assert set(ids({"analysed": "false"})) == everything - {archive.four.pk, archive.long.pk}
    assert set(ids({"analysed": "true", "players": "3"})) == {archive.long.pk}
    assert set(ids({"analysed": ""})) == everything
    refused = GameFilter({"analysed": "maybe"}, queryset=Game.objects.all())
    assert set(refused.errors) == {"analysed"} and refused.qs.count() == len(everything)
    with pytest.raises(ValueError, match="not analysed"):
        GameFilters(analysed=False).for_statistics()


def test_it_orders_newest_played_first_by_default_and_by_any_public_field(
    archive: Archive,
) -> None:
    games = archive.all_games()
    dates = [Game.objects.get(pk=pk).date for pk in ids({})]
    assert dates == sorted(dates, reverse=True)
    by_plies = ids({"ordering": "-plies"})
    counts = [Game.objects.get(pk=pk).event_count for pk in by_plies]
    assert counts == sorted(counts, reverse=True) and len(by_plies) == len(games)
    assert ids({"ordering": "plies"})[0] == min(games, key=lambda g: (g.event_count, g.pk)).pk


def test_it_reports_invalid_values_and_applies_the_valid_ones(archive: Archive) -> None:
    filterset = GameFilter(
        {"players": "9", "match": "x" * 1025, "min_points": "-3", "since": "2024-13-01",
         "ordering": "colour", "ruleset": "bga"},
        queryset=Game.objects.all(),
    )
    assert set(filterset.errors) == {"players", "match", "min_points", "since", "ordering"}
    assert list(filterset.qs.values_list("pk", flat=True)) == [archive.bga.pk]


def test_it_refuses_a_nul_character_instead_of_passing_it_to_the_database(
    archive: Archive,
) -> None:
    filterset = GameFilter({"player": "Ann\x00"}, queryset=Game.objects.all())
    assert "player" in filterset.errors
    assert filterset.qs.count() == len(archive.all_games())


def test_it_finds_a_player_by_part_of_the_name(archive: Archive) -> None:
    """Names are found as people type them: the start of any word, without accents."""
    whole = set(ids({"player": "Nguyễn Thị Bình"}))
    assert whole
    assert set(ids({"player": "bình"})) == whole
    assert set(ids({"player": "  THỊ   bình "})) == whole  # blanks collapsed, any case
    assert set(ids({"player": "Nguy"})) == whole
    assert set(ids({"player": "nguyen"})) == whole  # typed without diacritics
    assert set(ids({"player": "NGUYEN thi binh"})) == whole
    assert set(ids({"player": "binh ng"})) == whole  # the words in any order
    assert set(ids({"player": "guyen"})) == set()  # not the start of a word
    assert set(ids({"player": "binh ann"})) == set()  # every word must match
    # Words written without spaces (Chinese) are found from any character on.
    chen = set(ids({"player": "陳大文"}))
    assert chen and set(ids({"player": "大文"})) == chen
    both = set(ids({"player": "Ann"})) | chen
    assert both >= set(ids({"player": "Ann", "opponent": "大"}))


def test_it_parses_one_value_from_query_parameters_and_from_keywords(archive: Archive) -> None:
    parsed = GameFilter({"ruleset": "bga", "players": "3", "since": "2024-05-01"}).value
    assert parsed == GameFilters.of(ruleset="bga", players="3", since="2024-05-01")
    assert parsed == StatisticsFilter({"ruleset": "bga", "players": "3",
                                       "since": "2024-05-01"}).value
    assert set(parsed.apply(Game.objects.all()).values_list("pk", flat=True)) == {
        archive.bga.pk
    }


def test_it_reads_export_options_as_a_whole_name_and_a_match_tag(archive: Archive) -> None:
    assert archive.match is not None
    chosen = GameFilters.from_options({"player": "ann", "match": archive.match.tag})
    assert chosen == GameFilters(player_name="ann", match_tag=archive.match.tag)
    assert set(chosen.apply(Game.objects.all()).values_list("pk", flat=True)) == {
        g.pk for g in archive.rounds
    }
    # A part of the name is not the whole name.
    assert not GameFilters.from_options({"player": "An"}).apply(Game.objects.all()).exists()


def test_it_refuses_to_give_statistics_filters_they_cannot_answer() -> None:
    with pytest.raises(ValueError, match="not player, outcome"):
        GameFilters(player="Ann", outcome="win", ruleset="bga").for_statistics()
    with pytest.raises(ValueError, match="unknown ruleset 'chess'"):
        GameFilters.of(ruleset="chess")


def test_the_statistics_take_the_value_or_keywords_alike(archive: Archive) -> None:
    ann = archive.player("Ann")
    by_value = stats.player_stats(ann, filters=GameFilters.of(ruleset="bga"))
    assert by_value == stats.player_stats(ann, ruleset="bga")
    assert by_value["rounds"] == 1
    with pytest.raises(ValueError, match="not both"):
        stats.player_stats(ann, filters=GameFilters(), ruleset="bga")
