"""Names found as people type them (records.search): folding, the word index and its upkeep."""

from __future__ import annotations

import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from hypothesis import example, given
from hypothesis import strategies as st

from records.models import Game, Match, NameWord, Player
from records.search import fold, matching, query_words, words
import fourcolor
from fourcolor.generate import generate_record
from records.deletion import delete_game
from records.services import import_records

CASES = [
    ("Nguyễn Văn An", "nguyen", True),
    ("Nguyễn Văn An", "NGUYỄN", True),
    ("Nguyễn Văn An", "an", True),
    ("Nguyễn Văn An", "van ng", True),
    ("Nguyễn Văn An", "guyen", False),
    ("Đặng Thị Hoa", "dang", True),
    ("Đặng Thị Hoa", "đang", True),
    ("Hoàng Minh", "hoang", True),
    ("Chloé Martin", "chloe", True),
    ("Chloé Martin", "CHLOÉ mar", True),
    ("王小明", "小明", True),
    ("王小明", "明", True),
    ("王小明", "王明", False),
    ("Jonas Weber", "jo", True),
    ("Jonas Weber", "jonas weber", True),
    ("Jonas Weber", "weber jonas", True),
    ("Jonas Weber", "onas", False),
    ("Ann", "n", False),
]


@pytest.mark.parametrize(("name", "typed", "found"), CASES)
def test_it_matches_names_as_people_type_them(name: str, typed: str, found: bool) -> None:
    indexed = words(name)
    assert all(any(w.startswith(q) for w in indexed) for q in query_words(typed)) is found


@given(st.text(max_size=40))
@example("🄐 İstanbul")  # capitals out of a compatibility form, a mark out of casefolding
def test_folded_text_has_no_accents_and_is_stable(text: str) -> None:
    folded = fold(text)
    assert fold(folded) == folded
    assert not any(unicodedata.combining(c) for c in unicodedata.normalize("NFKD", folded))
    assert "đ" not in folded


@given(st.text(max_size=40))
def test_every_word_of_a_name_finds_it_from_any_of_its_starts(name: str) -> None:
    indexed = words(name)
    for word in query_words(name):
        for end in range(1, len(word) + 1):
            assert any(w.startswith(word[:end]) for w in indexed)


@pytest.fixture
def archive_names() -> None:
    """Two stored rounds: one seating Nguyễn Văn An, one in the match "Spring Cup 2026"."""
    first = generate_record("classic", 2, 1, names=("Nguyễn Văn An", "Ann"))
    second = generate_record("classic", 2, 2, names=("Ann", "王小明"),
                             tags={"Match": "Spring Cup 2026"})
    report = import_records(fourcolor.write_fcn(first) + "\n" + fourcolor.write_fcn(second))
    assert report.stored == 2, report


@pytest.mark.django_db
def test_it_indexes_new_players_and_matches_and_finds_them(archive_names: None) -> None:
    nguyen = Player.objects.get(name="Nguyễn Văn An")
    found = Player.objects.filter(pk__in=matching(NameWord.Kind.PLAYER, "nguyen van"))
    assert list(found) == [nguyen]
    wang = Player.objects.filter(pk__in=matching(NameWord.Kind.PLAYER, "小明"))
    assert [p.name for p in wang] == ["王小明"]
    assert Match.objects.filter(pk__in=matching(NameWord.Kind.MATCH, "spring 2026")).count() == 1
    assert matching(NameWord.Kind.PLAYER, "   ") is None


@pytest.mark.django_db
def test_a_long_query_is_answered_and_its_extra_words_are_ignored(archive_names: None) -> None:
    nguyen = Player.objects.get(name="Nguyễn Văn An")
    # A word that starts another word of the query adds nothing.
    assert list(Player.objects.filter(
        pk__in=matching(NameWord.Kind.PLAYER, "n ng ngu van v a an"))) == [nguyen]
    # Far more words than a name has (a fuzzer's query once overflowed SQLite's parser).
    many = " ".join(f"w{i}" for i in range(40))
    assert not Player.objects.filter(pk__in=matching(NameWord.Kind.PLAYER, many)).exists()


@pytest.mark.django_db
def test_it_indexes_usernames_again_when_they_change() -> None:
    user = get_user_model().objects.create_user("Chloé_K", password="x-long-password-1")
    assert list(matching(NameWord.Kind.USER, "chloe").values_list("ref", flat=True)) == [user.pk]
    user.username = "zoe"
    user.save()
    assert not matching(NameWord.Kind.USER, "chloe").exists()
    assert matching(NameWord.Kind.USER, "zo").exists()
    user.delete()
    assert not NameWord.objects.filter(kind=NameWord.Kind.USER).exists()


@pytest.mark.django_db
def test_a_deleted_games_last_players_leave_the_index(archive_names: None) -> None:
    game = Game.objects.get(seats__player__name="Nguyễn Văn An")
    delete_game(game.pk)
    assert not Player.objects.filter(name="Nguyễn Văn An").exists()
    assert not matching(NameWord.Kind.PLAYER, "nguyen").exists()


@pytest.mark.django_db
def test_the_search_reads_the_word_index() -> None:
    """The query plan starts from the (kind, word) index, not a scan of the names."""
    NameWord.objects.bulk_create(
        NameWord(kind=kind, ref=ref, word=f"{word}{ref}")
        for kind in NameWord.Kind.values for ref in range(2000)
        for word in ("nguyen", "tran", "le")
    )
    sql, params = matching(NameWord.Kind.PLAYER, "nguyen1").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        explain = "EXPLAIN" if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN"
        cursor.execute(f"{explain} {sql}", params)
        plan = "\n".join(str(row[-1]) for row in cursor.fetchall())
    assert "name_word_prefix" in plan, plan
    assert "Seq Scan" not in plan and "SCAN records_nameword" not in plan, plan
