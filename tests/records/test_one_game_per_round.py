"""One game per round: a second record of a stored round is a duplicate that says what it adds,
and records.0010 merges the rounds an older archive stored twice."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection
from types import SimpleNamespace

import fourcolor
from drafts.models import Draft
from fourcolor.generate import generate_record
from ratings import services as stats
from ratings.models import CountedGame, PlayerTotals
from records.models import AuditEntry, Game, GameAnalysis, Player
from records.services import RecordStatus, import_records
from records.services.report import describe_differences

pytestmark = pytest.mark.django_db

merging = importlib.import_module("records.migrations.0010_one_game_per_round")


def texts() -> tuple[str, str]:
    """A round without a Result tag, and the same round with its Result and three comments."""
    base = fourcolor.parse_record(fourcolor.write_fcn(generate_record("classic", 4, 11)))
    plain = dict(base.tags)
    result = plain.pop("Result")
    first = dataclasses.replace(base, tags=plain)
    events = list(base.events)
    events[0] = events[0]._replace(comments=("good start", "really"))
    second = dataclasses.replace(base, tags={**plain, "Result": result},
                                 comments=["from the club's sheet"], events=events)
    return fourcolor.write_fcn(first), fourcolor.write_fcn(second)


def test_a_second_record_of_a_round_is_a_duplicate_that_says_what_it_adds() -> None:
    first, second = texts()
    stored = import_records(first)
    assert stored.stored == 1
    again = import_records(second)
    result = again.results[0]
    assert result.status is RecordStatus.DUPLICATE
    assert result.game_id == stored.results[0].game_id
    codes = {d["code"] for d in result.differences}
    assert codes == {"comments_added", "tag_added"}
    assert "adds 3 comments" in describe_differences(result.differences)
    assert "adds 3 comments" in result.message
    game = Game.objects.get()
    assert game.original_text == first  # never changed by the second upload


def test_a_round_is_counted_once_in_the_statistics() -> None:
    first, second = texts()
    import_records(first)
    stats.catch_up()
    once = list(PlayerTotals.objects.order_by("pk").values())
    import_records(second + "\n" + first)
    stats.catch_up()
    assert Game.objects.count() == 1
    assert CountedGame.objects.count() == 1
    assert list(PlayerTotals.objects.order_by("pk").values()) == once


def test_the_duplicate_is_shown_with_its_differences_on_the_upload_page(client) -> None:  # noqa
    first, second = texts()
    import_records(first)
    user = get_user_model().objects.create_user("mai", password="a-long-password-9")
    client.force_login(user)
    response = client.post("/check/", {"text": second}, follow=True)
    assert response.status_code == 200
    assert "adds 3 comments" in response.content.decode()


def _old_hash(game: Game) -> str:
    """What the archive stored before: the sha256 of the canonical text."""
    return hashlib.sha256(game.canonical_text.encode("utf-8")).hexdigest()


def test_the_migration_merges_rounds_stored_twice() -> None:
    first, second = texts()
    import_records(first)
    kept = Game.objects.get()
    Game.objects.filter(pk=kept.pk).update(content_hash=_old_hash(kept))
    import_records(second)  # not a duplicate of the old hash: stored twice, as before
    twin = Game.objects.exclude(pk=kept.pk).get()
    Game.objects.filter(pk=twin.pk).update(content_hash=_old_hash(twin))
    other = import_records(fourcolor.write_fcn(generate_record("bga", 3, 5)))
    assert Game.objects.count() == 3
    stats.catch_up()
    owner = get_user_model().objects.create_user("mai", password="a-long-password-9")
    draft = Draft.objects.create(owner=owner, game=twin, ruleset="classic", seats=["a", "b"],
                                 dealer=1)
    GameAnalysis.objects.create(game=twin, engine_version=fourcolor.__version__, samples=4,
                                seed=0, result={})

    merging.one_game_per_round(apps, SimpleNamespace(connection=connection))

    assert sorted(Game.objects.values_list("pk", flat=True)) == sorted(
        [kept.pk, other.results[0].game_id])
    entry = AuditEntry.objects.get(action="merged")
    assert entry.game_id == twin.pk and entry.original_text == second
    assert entry.reason == f"the same round as game #{kept.pk}"
    draft.refresh_from_db()
    assert draft.game_id == kept.pk
    assert GameAnalysis.objects.get().game_id == kept.pk
    assert not Player.objects.filter(seats__isnull=True).exists()
    # The statistics count every game again, each once, with no command run.
    assert CountedGame.objects.count() == 0
    assert stats.games_due() == 2
    stats.catch_up()
    assert CountedGame.objects.count() == 2
    # A second upload of the merged record is now a duplicate of the kept game.
    assert import_records(second).results[0].game_id == kept.pk


def test_the_migration_changes_nothing_but_hashes_without_twins() -> None:
    import_records(texts()[0])
    stats.catch_up()
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(content_hash=_old_hash(game))

    merging.one_game_per_round(apps, SimpleNamespace(connection=connection))

    assert Game.objects.get().content_hash == game.content_hash
    assert CountedGame.objects.count() == 1
    assert not AuditEntry.objects.exists()
