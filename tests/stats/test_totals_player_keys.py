"""The totals' player keys (ratings.models.DERIVED_KEY): no foreign-key constraint in the
database (an import's commit no longer checks every pair row), but a player's totals still go
with the player, as his own rows and as another player's opponent."""

from __future__ import annotations

import pytest
from django.db import connection

from ratings.models import PairTotals, PlayerTotals
from records.models import Player
from records.services import import_records
from tests.stats.conftest import club_texts

pytestmark = pytest.mark.django_db


def test_it_deletes_a_players_totals_with_the_player() -> None:
    import_records(club_texts()["A"], None)  # Ann, Bao, Chi and Dung, counted by the hook
    ann = Player.objects.get(name="Ann")
    lone = Player.objects.create(name="Lone", name_key="lone")  # no seat: deletable
    PlayerTotals.objects.create(player=lone, ruleset="", players=0, rounds=1)
    PairTotals.objects.create(player=lone, opponent=ann, ruleset="", players=0, rounds=1)
    PairTotals.objects.create(player=ann, opponent=lone, ruleset="", players=0, rounds=1)
    kept = (PlayerTotals.objects.exclude(player=lone).count(),
            PairTotals.objects.exclude(player=lone).exclude(opponent=lone).count())
    assert kept[0] > 0 and kept[1] > 0

    lone.delete()

    assert not PlayerTotals.objects.filter(player_id=lone.pk).exists()
    assert not PairTotals.objects.filter(player_id=lone.pk).exists()
    assert not PairTotals.objects.filter(opponent_id=lone.pk).exists()
    assert (PlayerTotals.objects.count(), PairTotals.objects.count()) == kept


def test_it_keeps_no_foreign_key_constraint_on_the_totals() -> None:
    with connection.cursor() as cursor:
        for model in (PlayerTotals, PairTotals):
            constraints = connection.introspection.get_constraints(
                cursor, model._meta.db_table
            )
            keys = {name: c["foreign_key"] for name, c in constraints.items() if c["foreign_key"]}
            assert keys == {}, model.__name__
