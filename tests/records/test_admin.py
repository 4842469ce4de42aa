"""The admin: every model listed, searchable and filterable; a game's texts read-only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from records.models import Game, GameSeat, Match, Player
from records.services import import_records
from tests.records.conftest import fcn_file, good_texts, match_texts

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_logged_in(client: Client) -> Client:
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-tests")
    client.force_login(user)
    return client


def _archive() -> None:
    import_records(fcn_file(good_texts(4, start=300)))
    import_records(fcn_file(match_texts("admin-match", rounds=2, names=["Bình", "Олег", "Noor"],
                                        event="Tết cup")))


def test_it_lists_every_model(admin_client_logged_in: Client) -> None:
    _archive()
    for model in (Game, GameSeat, Match, Player):
        opts = model._meta
        response = admin_client_logged_in.get(f"/admin/{opts.app_label}/{opts.model_name}/")
        assert response.status_code == 200, opts.model_name


def test_it_searches_games_by_player_and_event(admin_client_logged_in: Client) -> None:
    _archive()
    response = admin_client_logged_in.get("/admin/records/game/", {"q": "олег"})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == list(
        Game.objects.filter(match__tag="admin-match")
    )
    response = admin_client_logged_in.get("/admin/records/game/", {"q": "Tết"})
    assert response.context["cl"].result_count == 2


def test_it_filters_games_by_ruleset_outcome_and_players(admin_client_logged_in: Client) -> None:
    _archive()
    response = admin_client_logged_in.get(
        "/admin/records/game/", {"ruleset": "classic", "players": "3"}
    )
    assert response.status_code == 200
    expected = Game.objects.filter(ruleset="classic", players=3).count()
    assert response.context["cl"].result_count == expected > 0
    outcome = Game.objects.first().outcome  # type: ignore[union-attr]
    response = admin_client_logged_in.get("/admin/records/game/", {"outcome": outcome})
    assert response.context["cl"].result_count == Game.objects.filter(outcome=outcome).count()


def test_it_shows_the_original_text_read_only(admin_client_logged_in: Client) -> None:
    _archive()
    game = Game.objects.filter(match__isnull=False).first()
    assert game is not None
    response = admin_client_logged_in.get(f"/admin/records/game/{game.pk}/change/")
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "original_text" not in form.fields
    assert "points" not in form.fields and "content_hash" not in form.fields
    assert "Bình" in response.content.decode()


def test_seats_audit_entries_and_tokens_open_read_only(admin_client_logged_in: Client) -> None:
    from records.deletion import delete_game
    from records.tokens import create_token

    _archive()
    seat = GameSeat.objects.first()
    assert seat is not None
    entry = delete_game(Game.objects.exclude(pk=seat.game_id).first())
    token, _key = create_token(get_user_model().objects.get(username="root"), "laptop")
    for path, shown in ((f"records/gameseat/{seat.pk}", seat.name),
                        (f"records/auditentry/{entry.pk}", entry.by_name or entry.content_hash),
                        (f"records/apitoken/{token.pk}", "laptop")):
        response = admin_client_logged_in.get(f"/admin/{path}/change/")
        assert response.status_code == 200, path
        page = response.content.decode()
        assert shown in page, path
        assert 'name="_save"' not in page and "<textarea" not in page, path
