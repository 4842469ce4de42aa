"""Deleting a game from its page: a control only its uploader and staff see, a confirmation
page and a CSRF-checked form; 403 for anyone else, sign-in first for visitors."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.urls import reverse

from records.models import AuditEntry, Game
from records.services import import_records
from tests.web.conftest import FOUR, record_text
from tests.web.dom import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(user: User) -> Game:
    with TestCase.captureOnCommitCallbacks(execute=True):
        report = import_records(record_text("classic", 4, 1, FOUR, "greedy", "2024.05.01"), user)
    return Game.objects.get(pk=report.results[0].game_id)


def client_of(who: str, user: User) -> Client:
    client = Client()
    accounts = {
        "uploader": lambda: user,
        "staff": lambda: User.objects.create_user("mod", is_staff=True),
        "other": lambda: User.objects.create_user("bo"),
    }
    if who != "anonymous":
        client.force_login(accounts[who]())
    return client


@pytest.mark.parametrize(("who", "shown"), [
    ("uploader", True), ("staff", True), ("other", False), ("anonymous", False),
])
def test_it_shows_the_delete_control_to_the_uploader_and_staff_only(
    user: User, game: Game, who: str, shown: bool
) -> None:
    doc = parse(client_of(who, user).get(reverse("game", args=[game.pk])).content)

    controls = doc.find_all("a", href=reverse("game-delete", args=[game.pk]))
    assert len(controls) == (1 if shown else 0)
    if shown:
        assert controls[0].words() == "Delete this game"


@pytest.mark.parametrize("who", ["uploader", "staff"])
def test_it_asks_for_confirmation_in_a_post_form(user: User, game: Game, who: str) -> None:
    response = client_of(who, user).get(reverse("game-delete", args=[game.pk]))

    assert response.status_code == 200
    form = parse(response.content).find("main").find("form")
    assert form.attrs["method"] == "post"
    assert form.find_all("input", name="csrfmiddlewaretoken")
    assert form.find("textarea", name="reason")
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("who", ["uploader", "staff"])
def test_it_deletes_and_returns_to_the_archive_with_a_message(
    user: User, game: Game, who: str
) -> None:
    client = client_of(who, user)

    response = client.post(reverse("game-delete", args=[game.pk]), {"reason": "a test round"},
                           follow=True)

    assert response.redirect_chain == [(reverse("archive"), 302)]
    message = parse(response.content).find("li", "message--success").words()
    assert message == f"Game #{game.pk} was deleted."
    assert not Game.objects.filter(pk=game.pk).exists()
    entry = AuditEntry.objects.get(game_id=game.pk)
    assert (entry.reason, entry.uploaded_by, entry.original_text) == (
        "a test round", user, game.original_text)
    assert client.get(reverse("game", args=[game.pk])).status_code == 404


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_forbids_anyone_else(user: User, game: Game, method: str) -> None:
    response = getattr(client_of("other", user), method)(reverse("game-delete", args=[game.pk]))

    assert response.status_code == 403
    assert "Only the user who uploaded this game" in parse(response.content).find("main").words()
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_sends_a_visitor_to_sign_in(user: User, game: Game, method: str) -> None:
    page = reverse("game-delete", args=[game.pk])

    response = getattr(Client(), method)(page)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={page}"
    assert Game.objects.filter(pk=game.pk).exists()


def test_it_needs_the_csrf_token(user: User, game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(reverse("game-delete", args=[game.pk]))

    assert response.status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    assert not AuditEntry.objects.exists()


def test_it_explains_an_overlong_reason_and_deletes_nothing(user: User, game: Game) -> None:
    response = client_of("uploader", user).post(
        reverse("game-delete", args=[game.pk]), {"reason": "x" * 1001})

    assert response.status_code == 200
    assert parse(response.content).find("p", "field__error").words().startswith(
        "Ensure this value has at most 1000 characters")
    assert Game.objects.filter(pk=game.pk).exists()


@pytest.mark.parametrize("method", ["get", "post"])
def test_it_answers_404_for_an_unknown_game(user: User, method: str, db: Any) -> None:
    response = getattr(client_of("staff", user), method)(reverse("game-delete", args=[10**8]))

    assert response.status_code == 404


def test_it_offers_deleting_a_game_the_engine_can_no_longer_replay(user: User, game: Game) -> None:
    # A stale game is what staff most need to remove: its fallback page has the control too.
    Game.objects.filter(pk=game.pk).update(canonical_text='[Ruleset "nope"]\n')
    page = reverse("game", args=[game.pk])
    delete = reverse("game-delete", args=[game.pk])

    staff_doc = parse(client_of("staff", user).get(page).content)
    other_doc = parse(client_of("other", user).get(page).content)

    assert "cannot replay it" in staff_doc.find("main").words()
    assert staff_doc.find("a", href=delete).words() == "Delete this game"
    assert not other_doc.find_all("a", href=delete)
