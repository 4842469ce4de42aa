"""Sync by change: `GET /api/v1/games/?updated_since=` (games stored or changed since a time,
each with its `updated_at`) and `GET /api/v1/games/deleted/?since=` (the ids deleted since)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from records.deletion import delete_game
from records.models import Game
from tests.api.conftest import Archive

pytestmark = pytest.mark.django_db

LIST, DELETED = "/api/v1/games/", "/api/v1/games/deleted/"


def iso(when: datetime.datetime) -> str:
    return when.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def ids(body: dict[str, Any]) -> list[int]:
    return sorted(game["id"] for game in body["results"])


def test_it_lists_the_games_changed_since_a_time(archive: Archive, api: Any) -> None:
    changed = archive.match[0]
    mark = timezone.now()
    Game.objects.filter(pk=changed).update(updated_at=mark + datetime.timedelta(seconds=1))
    Game.objects.exclude(pk=changed).update(updated_at=mark - datetime.timedelta(seconds=1))

    body = api.get(LIST, {"updated_since": iso(mark)}).json()

    assert ids(body) == [changed]
    assert body["results"][0]["updated_at"] == iso(mark + datetime.timedelta(seconds=1))
    assert ids(api.get(LIST, {"updated_since": ""}).json()) == sorted(archive.all)


def test_it_stamps_a_game_when_stored_and_when_revalidated(archive: Archive) -> None:
    from records.services.revalidating import revalidate_games

    game = Game.objects.get(pk=archive.match[0])
    assert game.updated_at == game.uploaded_at
    before = game.updated_at

    revalidate_games(Game.objects.filter(pk=game.pk))

    assert Game.objects.get(pk=game.pk).updated_at > before


def test_deleting_an_account_changes_the_games_it_uploaded(
    archive: Archive, api: Any, other_user: Any
) -> None:
    """Their `uploaded_by` becomes null: a client syncing by change must see it."""
    mark = timezone.now()
    Game.objects.update(updated_at=mark - datetime.timedelta(seconds=1))
    uploaded = sorted(Game.objects.filter(uploaded_by=other_user).values_list("pk", flat=True))
    assert uploaded

    other_user.delete()

    body = api.get(LIST, {"updated_since": iso(mark)}).json()
    assert ids(body) == uploaded
    assert {game["uploaded_by"] for game in body["results"]} == {None}


@pytest.mark.parametrize(("value", "expected"), [
    ("2026-01-01T00:00:00+07:00", datetime.datetime(2025, 12, 31, 17, tzinfo=datetime.UTC)),
    ("2026-01-01T00:00:00", datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)),  # UTC
    ("2026-01-01", datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)),
])
def test_it_reads_iso_times_in_utc(archive: Archive, api: Any, value: str,
                                   expected: datetime.datetime) -> None:
    Game.objects.filter(pk=archive.match[0]).update(updated_at=expected)
    Game.objects.exclude(pk=archive.match[0]).update(
        updated_at=expected - datetime.timedelta(microseconds=1))

    assert ids(api.get(LIST, {"updated_since": value}).json()) == [archive.match[0]]


BAD_TIMES = ["yesterday", "2026-13-01T00:00:00Z", "0000-01-01T00:00:00Z",
             "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+05:00", "2026-01-01T25:00Z"]


@pytest.mark.parametrize("value", BAD_TIMES)
@pytest.mark.parametrize(("path", "name"), [(LIST, "updated_since"), (DELETED, "since")])
def test_it_refuses_a_bad_time_with_a_400(api: Any, path: str, name: str, value: str) -> None:
    response = api.get(path, {name: value})

    assert response.status_code == 400
    assert name in response.json()["error"]["fields"]


def test_it_lists_deleted_games_oldest_first(archive: Archive, api: Any, user: Any) -> None:
    first, second, kept = archive.match[0], archive.bga[0], archive.undated
    delete_game(first, user, reason="uploaded twice")
    mark = timezone.now()
    delete_game(second, user, reason="a test round")

    everything = api.get(DELETED).json()
    since = api.get(DELETED, {"since": iso(mark)}).json()

    assert [entry["id"] for entry in everything["results"]] == [first, second]
    assert [entry["id"] for entry in since["results"]] == [second]
    assert set(everything["results"][0]) == {"id", "deleted_at"}  # not who, not why
    assert kept not in {entry["id"] for entry in everything["results"]}
    ids_asked = api.get(LIST, {"ids": f"{first},{kept}"}).json()
    assert ids_asked["missing"] == [first]


def test_it_pages_deleted_games_by_cursor(archive: Archive, api: Any) -> None:
    for pk in archive.all:
        delete_game(pk)

    page = api.get(DELETED, {"cursor": "", "page_size": "2"}).json()
    seen = []
    while True:
        assert len(page["results"]) <= 2
        seen += [entry["id"] for entry in page["results"]]
        if not page["next"]:
            break
        page = api.get(page["next"]).json()

    assert seen == archive.all


def test_it_refuses_unknown_parameters_on_the_deleted_feed(api: Any) -> None:
    response = api.get(DELETED, {"updated_since": "2026-01-01T00:00:00Z"})

    assert response.status_code == 400
    assert "updated_since" in response.json()["error"]["fields"]
