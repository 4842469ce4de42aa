"""Every status badge (a record's verdict, a job's status) has a background of its own that
its white text reads on: at least 4.5:1 (WCAG AA), a job page's "done" included (white on the
page's cream would not be)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobs.models import Job
from records.services.report import RecordStatus

CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "site.css"
STATUSES = sorted({s.value for s in RecordStatus} | set(Job.Status.values))


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def background(css: str, status: str) -> str:
    rule = re.search(rf"\.status--{status}\s*{{([^}}]*)}}", css)
    assert rule is not None, f".status--{status} has no rule"
    value = re.search(r"background:\s*([^;]+);", rule.group(1))
    assert value is not None, f".status--{status} has no background"
    colour = value.group(1).strip()
    if colour.startswith("var("):
        name = colour[4:-1]
        found = re.search(rf"{name}:\s*(#[0-9a-fA-F]{{6}})", css)
        assert found is not None, name
        colour = found.group(1)
    return colour


@pytest.mark.parametrize("status", STATUSES)
def test_it_gives_each_status_a_background_white_text_reads_on(status: str) -> None:
    css = CSS.read_text("utf-8")
    assert re.search(r"\.status\s*{[^}]*color:\s*#fff;", css)

    contrast = 1.05 / (luminance(background(css, status)) + 0.05)

    assert contrast >= 4.5, (status, round(contrast, 2))
