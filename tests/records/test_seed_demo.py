"""manage.py seed_demo: a demo archive from self-play, once."""

from __future__ import annotations

import io
import unicodedata

import pytest
from django.core.management import call_command

from records.models import Game, GameSeat, Match, Player

pytestmark = pytest.mark.django_db


def _seed(*args: str) -> str:
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _scripts(name: str) -> set[str]:
    return {unicodedata.name(ch).split()[0] for ch in name if ch.isalpha()}


def test_it_seeds_games_matches_and_players_of_many_scripts() -> None:
    out = _seed("--games", "80")
    assert "Seeded 80 demo games (0 duplicates, 0 refused)." in out
    assert Game.objects.count() == 80
    assert set(Game.objects.values_list("ruleset", flat=True)) == {"classic", "bga"}
    assert set(Game.objects.values_list("players", flat=True)) == {2, 3, 4}
    assert Match.objects.count() >= 5
    assert all(m.games.count() >= 2 for m in Match.objects.all())
    assert not Game.objects.filter(date__isnull=True).exists()
    dates = Game.objects.values_list("date", flat=True)
    assert (max(dates) - min(dates)).days > 30
    scripts = set().union(*(_scripts(p.name) for p in Player.objects.all()))
    assert {"LATIN", "CJK", "CYRILLIC", "ARABIC"} <= scripts
    assert any("Ễ" in p.name or "ễ" in p.name for p in Player.objects.all())
    assert GameSeat.objects.count() == sum(Game.objects.values_list("players", flat=True))


def test_it_does_nothing_when_the_archive_already_has_games() -> None:
    _seed("--games", "5")
    assert "nothing seeded" in _seed("--games", "5")
    assert Game.objects.count() == 5
    assert "0 demo games (5 duplicates" in _seed("--games", "5", "--force")
    assert "Seeded 5 demo games" in _seed("--games", "5", "--force", "--seed", "2")
    assert Game.objects.count() == 10
