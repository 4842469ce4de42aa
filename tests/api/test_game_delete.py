"""DELETE /api/v1/games/{id}/: only the uploader or staff; the audit trail, the statistics and
the schema follow."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.models import CountedGame
from records.models import AuditAction, AuditEntry, Game, GameSeat
from tests.api.conftest import SHARED, Archive

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures(SHARED)]


def url(pk: int) -> str:
    return f"/api/v1/games/{pk}/"


# who asks, which game -> status, error code (None: deleted)
CASES = [
    ("anonymous", "mine", 401, "not_authenticated"),
    ("other_user", "mine", 403, "permission_denied"),
    ("user", "mine", 204, None),
    ("staff", "mine", 204, None),
    ("user", "nobodys", 403, "permission_denied"),  # uploaded while not signed in: staff only
    ("staff", "nobodys", 204, None),
    ("other_user", "unknown", 404, "not_found"),
    ("staff", "unknown", 404, "not_found"),
    ("anonymous", "unknown", 401, "not_authenticated"),  # who asks is checked first
]


@pytest.mark.parametrize(("who", "which", "status", "code"), CASES)
def test_it_deletes_for_the_uploader_or_staff_only(
    request: pytest.FixtureRequest, client_for: Any, archive: Archive,
    who: str, which: str, status: int, code: str | None,
) -> None:
    actor = None if who == "anonymous" else request.getfixturevalue(who)
    pk = {"mine": archive.match[1], "nobodys": archive.anonymous, "unknown": 10**8}[which]

    response = client_for(actor).delete(url(pk))

    assert response.status_code == status, response.content
    if code is not None:
        assert response.json()["error"]["code"] == code
        assert Game.objects.filter(pk=pk).exists() is (which != "unknown")
        assert not AuditEntry.objects.exists()
        return
    assert not Game.objects.filter(pk=pk).exists()
    assert not GameSeat.objects.filter(game_id=pk).exists()
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.game_id, entry.by, entry.by_name) == (
        AuditAction.DELETED, pk, actor, actor.username)


def test_it_keeps_the_reason_and_the_original_text(
    client_for: Any, archive: Archive, user: Any
) -> None:
    game = Game.objects.get(pk=archive.bga[0])

    response = client_for(user).delete(url(game.pk), QUERY_STRING="reason=%20played%20twice%20")

    assert response.status_code == 204
    entry = AuditEntry.objects.get(game_id=game.pk)
    assert (entry.reason, entry.original_text, entry.content_hash, entry.uploaded_by) == (
        "played twice", game.original_text, game.content_hash, user)
    assert entry.seats == ["An", "Dũng"]


@pytest.mark.parametrize(("query", "field"), [
    ("reason=" + "x" * 1001, "reason"),
    ("reason=a%00b", "reason"),  # NUL: PostgreSQL text cannot hold it
    ("force=1", "force"),
])
def test_it_refuses_a_bad_query_and_deletes_nothing(
    client_for: Any, archive: Archive, user: Any, query: str, field: str
) -> None:
    response = client_for(user).delete(url(archive.match[0]), QUERY_STRING=query)

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert Game.objects.filter(pk=archive.match[0]).exists()


def test_it_takes_the_game_out_of_the_statistics(
    client_for: Any, archive: Archive, user: Any, api: APIClient
) -> None:
    an = GameSeat.objects.filter(game_id=archive.match[0], name="An").get().player_id
    stats = f"/api/v1/players/{an}/stats/"
    before = api.get(stats).json()
    assert CountedGame.objects.filter(game_id=archive.match[0]).exists()

    assert client_for(user).delete(url(archive.match[0])).status_code == 204

    after = api.get(stats).json()
    assert after["rounds"] == before["rounds"] - 1
    # A date range is computed from the seats on the spot: the kept totals must agree.
    fresh = api.get(stats, {"since": "1900-01-01"}).json()
    del after["filters"], fresh["filters"]
    assert after == fresh


def test_it_answers_404_to_a_second_delete(client_for: Any, archive: Archive, staff: Any) -> None:
    client = client_for(staff)

    assert client.delete(url(archive.undated)).status_code == 204
    second = client.delete(url(archive.undated))

    assert second.status_code == 404
    assert AuditEntry.objects.count() == 1


def test_it_documents_the_delete_operation(api: APIClient) -> None:
    schema = api.get("/api/v1/schema/", {"format": "json"}).json()

    operation = schema["paths"]["/api/v1/games/{id}/"]["delete"]
    assert {"204", "400", "401", "403", "404"} <= set(operation["responses"])
    assert [p["name"] for p in operation["parameters"] if p["in"] == "query"] == ["reason"]
