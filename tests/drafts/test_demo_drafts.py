"""The demo's drafts: seed_demo announces the filled archive and the drafts app adds a demo
user with rounds in progress (drafts.demo)."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client, override_settings

from drafts import services
from drafts.demo import DEMO_PASSWORD, DEMO_USERNAME
from drafts.play import play
from records.models import Game

pytestmark = pytest.mark.django_db


def _seed(*args: str) -> str:
    out = io.StringIO()
    call_command("seed_demo", "--games", "3", "--analyse", "0", *args, stdout=out,
                 stderr=io.StringIO())
    return out.getvalue()


@override_settings(DEBUG=True)
def test_it_gives_the_demo_user_drafts_in_every_stage() -> None:
    out = _seed()
    assert f"Made 4 drafts for the demo user {DEMO_USERNAME!r} (password {DEMO_PASSWORD!r})" in out
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    drafts = list(services.open_drafts(user).order_by("pk"))
    stages = [play(draft).stage for draft in drafts]
    assert stages == ["deal", "play", "play", "ended"]
    assert drafts[1].events[drafts[1].position - 1]["comments"]
    assert any(entry["event"][1] == "m" for entry in drafts[2].events)
    # The ended one is a new round: saving it stores a game, not a duplicate.
    saved = services.save_draft(user, drafts[3].pk)
    assert saved.game_id is not None and not saved.duplicate
    assert Game.objects.count() == 4


@override_settings(DEBUG=True)
def test_it_signs_the_demo_user_in_with_the_documented_password() -> None:
    _seed()
    client = Client()
    response = client.post("/accounts/login/", {"login": DEMO_USERNAME,
                                                "password": DEMO_PASSWORD})
    assert response.status_code == 302
    page = client.get("/record/")
    assert page.status_code == 200
    assert page.content.decode().count("/record/") >= 4  # the list of unfinished drafts


def test_it_leaves_no_known_password_without_debug() -> None:
    out = _seed()
    assert "no password: set one with `manage.py changepassword demo`" in out
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert not user.has_usable_password()
    assert services.open_drafts(user).count() == 4


@override_settings(DEBUG=True)
def test_it_makes_the_drafts_once() -> None:
    _seed()
    out = _seed("--force", "--seed", "2")
    assert "has its drafts already" in out
    user = get_user_model().objects.get(username=DEMO_USERNAME)
    assert services.open_drafts(user).count() == 4
