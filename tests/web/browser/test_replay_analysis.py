"""The replay page's analysis in Chromium: the marks in the move list, a click on the
evaluation chart going to that decision's ply (and its options in words appearing), the cursor
and the decisions following the keyboard, and a queued analysis shown once the job is done."""

from __future__ import annotations

from typing import Any

import pytest

from jobs.models import Job
from tests.analysis.fixtures import run_queued
from tests.web.browser.test_replay_page import address, open_replay
from tests.web.conftest import Archive
from tests.web.test_replay_analysis import glyph, hand_made

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("few_analysis_samples")]

READ_ANALYSIS = r"""() => {
  const visible = (el) => el && !el.hidden && el.offsetParent !== null;
  const groups = [...document.querySelectorAll('[data-analysis-ply]')]
    .filter((g) => !g.hidden).map((g) => Number(g.dataset.analysisPly));
  const cursor = document.querySelector('[data-field="chart-cursor"]');
  return {
    ply: Number(document.getElementById('replay').dataset.ply),
    groups,
    // What a sighted reader sees: screen-reader-only words (card names) left out.
    sentences: [...document.querySelectorAll(
      '[data-analysis-ply]:not([hidden]) .decision__sentence')].map((p) => {
        const copy = p.cloneNode(true);
        copy.querySelectorAll('.sr-only').forEach((n) => n.remove());
        return copy.textContent.replace(/\s+/g, ' ').trim();
      }),
    noneShown: visible(document.querySelector('[data-analysis-none]')),
    cursorX: cursor ? Number(cursor.getAttribute('x1')) : null,
  };
}"""


def test_it_marks_moves_and_jumps_to_a_decision_from_the_chart(
    page: Any, seeded: Archive
) -> None:
    known = hand_made(seeded.four)
    open_replay(page, f"/games/{seeded.four.pk}/")
    marks = page.eval_on_selector_all(
        ".move-list a", "links => links.filter(a => a.querySelector('.move__mark'))"
        ".map(a => [Number(a.dataset.ply), a.querySelector('.move__mark').textContent])")
    assert marks == sorted([[known["p1"], "??"], [known["p3"], "?"]])
    before = page.evaluate(READ_ANALYSIS)
    assert before["groups"] == [] and before["noneShown"]

    page.click(f'a.chart__point[data-ply="{known["p1"]}"]')

    after = page.evaluate(READ_ANALYSIS)
    assert after["ply"] == known["p1"] and after["groups"] == [known["p1"]]
    assert address(page).endswith(f"?ply={known['p1']}")
    name = known["names"][known["seat1"] - 1]
    assert after["sentences"] == [
        f"{name}: discarding {glyph(known['played'])} instead of discarding "
        f"{glyph(known['other'])} loses 2.4 points on average."]
    assert not after["noneShown"] and after["cursorX"] > before["cursorX"]
    assert page.locator(f'.move-list a[data-ply="{known["p1"]}"]').get_attribute(
        "aria-current") == "step"

    page.keyboard.press("ArrowRight")
    moved = page.evaluate(READ_ANALYSIS)
    assert moved["ply"] == known["p1"] + 1 and moved["cursorX"] > after["cursorX"]
    assert moved["groups"] == ([known["p2"]] if known["p2"] == known["p1"] + 1 else [])

    # A click anywhere in a decision's band of the chart goes there too.
    band = page.locator(f'a.chart__band[data-ply="{known["p3"]}"] rect')
    box = band.bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + 3)
    assert page.evaluate(READ_ANALYSIS)["groups"] == [known["p3"]]
    assert "letting" in page.evaluate(READ_ANALYSIS)["sentences"][0]


def test_a_queued_analysis_appears_once_the_worker_is_done(
    make_page: Any, seeded: Archive, held_jobs: list[Job]
) -> None:
    from jobs.analysis import Parameters, request_analysis

    # The page keeps following through a busy server: its first question is answered 503
    # (as SQLite's one writer can answer while the worker stores the analysis).
    make_page.allow("503 (Service Unavailable)")
    page = make_page()
    busy: list[str] = []

    def first_busy(route: Any) -> None:
        if busy:
            route.continue_()
        else:
            busy.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "1"}, body="")

    page.route("**/api/v1/games/*/analysis/", first_busy)
    # The page's own clock, moved on by the test: its questions come 2 s apart, and 5 s after
    # a busy answer, without the test waiting for them.
    page.clock.install()
    request_analysis(seeded.missed, None, Parameters.of())
    open_replay(page, f"/games/{seeded.missed.pk}/?seat=1")
    assert page.locator("section.analysis").get_attribute("data-analysis-status") == "queued"
    page.clock.fast_forward(2_000)  # the page's first question, answered 503
    for _ in range(100):
        if busy:
            break
        page.wait_for_timeout(100)
    assert busy, "the page asked the API"

    run_queued()  # the worker

    page.clock.fast_forward(5_000)  # asked again after the busy answer
    page.wait_for_selector("section.analysis[data-analysis-status=done]", timeout=15_000)
    page.wait_for_selector("#replay[data-script=ready]", state="attached")
    assert page.locator("figure.chart--evaluation a.chart__point").count() > 0
    assert address(page).endswith("?seat=1")


@pytest.mark.parametrize("locale,running", [
    ("en-GB", "The analysis is running."),
    ("vi", "Đang phân tích."),
    ("zh-TW", "分析進行中。"),
])
def test_a_queued_analysis_says_running_once_a_worker_took_it(
    make_page: Any, seeded: Archive, held_jobs: list[Job], locale: str, running: str
) -> None:
    from jobs.analysis import Parameters, request_analysis

    page = make_page(locale=locale)
    page.clock.install()
    request_analysis(seeded.missed, None, Parameters.of())
    open_replay(page, f"/games/{seeded.missed.pk}/")
    status = page.locator('[data-field="analysis-status"]')
    assert status.text_content() != running

    Job.objects.filter(status=Job.Status.QUEUED).update(status=Job.Status.RUNNING)
    page.clock.fast_forward(2_000)  # the page's next question

    page.wait_for_function(
        "t => document.querySelector('[data-field=analysis-status]').textContent === t",
        arg=running, timeout=15_000)


CHART = r"""() => {
  const chart = document.querySelector('figure.chart--evaluation');
  const lines = [...chart.querySelectorAll('polyline.chart__series')];
  const shapes = {};
  chart.querySelectorAll('a.chart__point').forEach((a) => {
    const d = a.querySelector('path').getAttribute('d');
    shapes[a.getAttribute('class')] = d.replace(/[-\d.,\s]+/g, '');
  });
  return {
    dashes: lines.map((l) => getComputedStyle(l).strokeDasharray),
    labels: [...chart.querySelectorAll('text.chart__label')].map((t) => t.textContent),
    shapes: [...new Set(Object.values(shapes))].length,
    marks: [...chart.querySelectorAll('text.chart__mark')].map((t) => t.textContent).sort(),
    legend: [...chart.querySelectorAll('[data-field=marks-legend] li')].map(
      (li) => li.textContent.replace(/\s+/g, ' ').trim()),
    legendShown: chart.querySelector('[data-field=marks-legend]').offsetParent !== null,
  };
}"""


@pytest.mark.parametrize("locale,legend", [
    ("en-GB", ["?! Inaccuracy", "? Mistake", "?? Blunder"]),
    ("vi-VN", None), ("zh-TW", None),
])
def test_the_chart_tells_seats_and_marks_apart_without_colour(
    make_page: Any, seeded: Archive, locale: str, legend: list[str] | None
) -> None:
    known = hand_made(seeded.four)
    page = make_page(locale=locale)
    page.context.new_cdp_session(page).send(
        "Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
    open_replay(page, f"/games/{seeded.four.pk}/")
    chart = page.evaluate(CHART)
    assert len(chart["dashes"]) == len(set(chart["dashes"])) >= 2  # one dash per seat
    assert sorted(chart["labels"]) == sorted(
        known["names"][s - 1] for s in {int(x) for x in page.eval_on_selector_all(
            "text.chart__label", "ts => ts.map(t => t.dataset.seat)")})
    assert len(chart["labels"]) == len(chart["dashes"])  # each line named at its end
    assert chart["marks"] == ["?", "??"]  # the verdicts in text, not only in the points' colour
    assert chart["legendShown"] and [m.split()[0] for m in chart["legend"]] == ["?!", "?", "??"]
    if legend:
        assert chart["legend"] == legend
    else:
        assert all(m.split(" ", 1)[1] not in ("Inaccuracy", "Mistake", "Blunder")
                   for m in chart["legend"])

