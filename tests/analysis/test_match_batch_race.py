"""Readers asking for a match's rounds at the same time (PostgreSQL): one batch, not one each.

The match row is the lock (jobs.batches.request_batch): without it, each request could find
the rounds not queued yet and queue them again, analysed twice and counted twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from jobs.analysis import Parameters
from jobs.batches import request_batch
from jobs.models import Job
from records.models import Match
from records.services import import_records
from tests.race import race
from tests.records.conftest import fcn_file, match_texts

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the race needs PostgreSQL"),
]


def _race(user: Any, match: Match, readers: int) -> list[Job | None]:
    games = list(match.games.values_list("pk", flat=True))
    answers, errors = race(*[
        lambda: request_batch(user, Parameters.of(samples=4), games, match=match.pk)
    ] * readers)
    assert not errors, errors
    return answers


def test_it_queues_one_batch_when_readers_ask_for_a_match_at_once() -> None:
    user = User.objects.create_user("reader", password="a-long-test-password-1")
    for n in range(8):
        import_records(fcn_file(match_texts(f"race-{n}", rounds=3, seed=20 + n)))
        match = Match.objects.get(tag=f"race-{n}")

        answers = _race(user, match, readers=4)

        assert len([a for a in answers if a is not None]) == 1, n
        batches = Job.objects.filter(kind=Job.Kind.ANALYSES, options__match=match.pk)
        assert batches.count() == 1
        assert sorted(batches.get().options["games"]) == sorted(
            match.games.values_list("pk", flat=True))
