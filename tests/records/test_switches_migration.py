"""records.0011: a stored game's house variant (Game.switches) filled from the Switches tag
its record keeps, canonically; a game without one keeps an empty value."""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

import fourcolor
from fourcolor.generate import generate_record
from records.models import Game
from records.services import import_records

pytestmark = pytest.mark.django_db

step = importlib.import_module("records.migrations.0011_game_switches")


def test_it_fills_the_variant_of_games_stored_before_the_column() -> None:
    house = generate_record("bga", 3, 1, switches={"threshold": 8, "steal_generals": "never"})
    plain = generate_record("classic", 5, 2)
    report = import_records(fourcolor.write_fcn(house) + "\n" + fourcolor.write_fcn(plain))
    assert report.stored == 2
    assert sorted(Game.objects.values_list("switches", flat=True)) == [
        "", "steal_generals=never threshold=8"
    ]
    Game.objects.update(switches="")  # what the games stored before the column hold
    step.fill(apps, SimpleNamespace(connection=connection))
    assert sorted(Game.objects.values_list("players", "switches")) == [
        (3, "steal_generals=never threshold=8"), (5, ""),
    ]
