"""The tags an uploader picks for records without their own (a house variant's `Switches`)
travel with the job: a background upload cut into parts adds the picked line to each such
record of every part, and leaves a record that names its own variant as it is."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

import fourcolor
from fourcolor.generate import generate_record
from jobs.models import Job, JobPart
from jobs.queue import submit_upload
from records.models import Game

from .conftest import run_worker

pytestmark = pytest.mark.django_db
PICKED = "dealt_sets_locked=on"
OWN = "steal_generals=never"


def _texts(count: int) -> list[str]:
    """Rounds played under PICKED with their Switches tag taken out, the last under OWN with
    its tag kept."""
    texts = []
    for seed in range(count):
        record = generate_record("classic", 4, 700 + seed, names=("Ann", "Bo", "Cy", "Dee"),
                                 switches={"dealt_sets_locked": True})
        texts.append(re.sub(r'\[Switches "[^"]*"\]\n', "", fourcolor.write_fcn(record)))
    own = generate_record("classic", 4, 699, names=("Ann", "Bo", "Cy", "Dee"),
                          switches={"steal_generals": "never"})
    return [*texts, fourcolor.write_fcn(own)]


def test_every_part_adds_the_picked_switches_to_records_without_their_own(
    user: AbstractUser, settings: Any
) -> None:
    settings.JOB_PART_MIN_SIZE = 3
    settings.JOB_PARTS = 3
    texts = _texts(8)
    data = "\n".join(texts).encode("utf-8")
    job = submit_upload(data, user, "club.fcn", size=len(data), given={"Switches": PICKED}).job
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, job.error
    assert JobPart.objects.filter(job=job).count() == 3  # run as parts
    assert (job.stored, job.refused) == (9, 0)
    games = list(Game.objects.order_by("pk"))
    assert [g.switches for g in games] == [PICKED] * 8 + [OWN]
    for game, text in zip(games, texts, strict=True):
        expected = text if game.switches == OWN else f'[Switches "{PICKED}"]\n{text}'
        assert game.original_text == expected
