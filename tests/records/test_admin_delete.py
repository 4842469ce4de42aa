"""The admin deletes games through records.deletion (audit entry, statistics), keeps seats,
matches and players from being deleted on their own, shows the audit trail read-only and
restores a deleted game from it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ratings.models import CountedGame
from records.models import AuditAction, AuditEntry, Game, GameSeat, Match, Player
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts, match_texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin(client: Client) -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-tests")
    client.force_login(user)
    return client


def stored(texts: list[str]) -> list[int]:
    report = import_records(fcn_file(texts))
    return [r.game_id for r in report.results if r.status == "stored"]


def test_it_deletes_one_game_with_an_audit_entry(admin: Client) -> None:
    (pk,) = stored(good_texts(1, start=40))
    page = f"/admin/records/game/{pk}/delete/"
    confirm = admin.get(page)
    assert confirm.status_code == 200 and not confirm.context["perms_lacking"]

    response = admin.post(page, {"post": "yes"})

    assert response.status_code == 302
    assert not Game.objects.filter(pk=pk).exists()
    assert not CountedGame.objects.filter(game_id=pk).exists()
    entry = AuditEntry.objects.get()
    assert (entry.game_id, entry.by_name, entry.reason) == (pk, "root", "deleted in the admin")


def test_it_deletes_selected_games_one_by_one(admin: Client) -> None:
    ids = stored(good_texts(3, start=50))

    response = admin.post("/admin/records/game/", {
        "action": "delete_selected", "_selected_action": ids[:2], "post": "yes"})

    assert response.status_code == 302
    assert list(Game.objects.values_list("pk", flat=True)) == [ids[2]]
    assert sorted(AuditEntry.objects.values_list("game_id", flat=True)) == ids[:2]


@pytest.mark.parametrize("model", [GameSeat, Match, Player, AuditEntry])
def test_it_offers_no_deletion_of_what_comes_with_a_game(admin: Client, model: Any) -> None:
    ids = stored(match_texts("admin-cup", rounds=2))
    Game.objects.get(pk=ids[0])  # something to point at in every table
    if model is AuditEntry:
        admin.post(f"/admin/records/game/{ids[0]}/delete/", {"post": "yes"})
    obj = model.objects.first()
    opts = model._meta

    assert admin.get(f"/admin/records/{opts.model_name}/{obj.pk}/delete/").status_code == 403
    assert admin.get(f"/admin/records/{opts.model_name}/add/").status_code == 403
    assert model.objects.filter(pk=obj.pk).exists()


def test_it_shows_the_audit_trail_read_only(admin: Client) -> None:
    (pk,) = stored(good_texts(1, start=60))
    admin.post(f"/admin/records/game/{pk}/delete/", {"post": "yes"})
    entry = AuditEntry.objects.get()

    listing = admin.get("/admin/records/auditentry/")
    detail = admin.get(f"/admin/records/auditentry/{entry.pk}/change/")
    changed = admin.post(f"/admin/records/auditentry/{entry.pk}/change/", {"reason": "edited"})

    assert listing.status_code == 200 and listing.context["cl"].result_count == 1
    assert detail.status_code == 200 and not detail.context["adminform"].form.fields
    assert changed.status_code == 403
    assert AuditEntry.objects.get().reason == "deleted in the admin"


def test_it_restores_a_deleted_game(admin: Client) -> None:
    (pk,) = stored(good_texts(1, start=70))
    original = Game.objects.get(pk=pk)
    admin.post(f"/admin/records/game/{pk}/delete/", {"post": "yes"})
    entry = AuditEntry.objects.get()

    response = admin.post("/admin/records/auditentry/", {
        "action": "restore", "_selected_action": [entry.pk]}, follow=True)

    restored = Game.objects.get()
    assert restored.content_hash == original.content_hash
    assert restored.original_text == original.original_text
    assert CountedGame.objects.filter(game_id=restored.pk).exists()
    messages = [str(m) for m in response.context["messages"]]
    assert messages[-1] == f"game #{pk} restored as game #{restored.pk}"
    assert AuditEntry.objects.filter(action=AuditAction.RESTORED, game_id=restored.pk).exists()
