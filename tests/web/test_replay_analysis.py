"""The replay page's analysis: marks in the move list (?! ? ??), the evaluation chart (each
decision a link to its ply), the options in words at the decision's ply, the accuracy per seat
in the end panel, the request form and the job's progress, in the reader's language.

Most tests store an analysis written by hand (decisions on real plies of the game, with known
verdicts and values) so that every expected word is known; one runs the real reviewer."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

import fourcolor
from fourcolor.analysis import Analysis
from fourcolor.cards import parse_card
from fourcolor.replay_json import state_json
from jobs.models import Job
from records.analysis import store_analysis
from records.models import Game, GameAnalysis
from tests.analysis.fixtures import run_queued
from tests.web.conftest import SHARED, Archive, replay_of
from tests.web.dom import Node, parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("few_analysis_samples", SHARED)]


def visible(node: Node) -> str:
    """The words a sighted reader sees (screen-reader-only text left out)."""
    parts: list[str] = []

    def walk(n: Node) -> None:
        if "sr-only" in n.classes:
            return
        for child in n.children:
            if isinstance(child, str):
                parts.append(child)
            else:
                walk(child)

    walk(node)
    return " ".join("".join(parts).split())


def glyph(token: str) -> str:
    return parse_card(token).glyph


def hand_made(game: Game) -> dict[str, Any]:
    """Three decisions on the 4-seat game: a blunder (a discard), a good discard, and a mistake
    (letting the live card go when a meld was better). Returns what the tests check."""
    replay = replay_of(game)
    events = replay.record.events
    discards = [(ply, e) for ply, e in enumerate(events, start=1) if e.verb == "x"]
    (p1, e1), (p2, e2) = discards[0], discards[1]
    hand = [t for t in state_json(replay.state(p1 - 1))["seats"][e1.seat - 1]["hand"]
            if t != e1.cards[0].token]
    other = hand[0]
    # A ply whose previous state has a live card, with an event by someone: a pass there.
    p3 = next(p for p in range(p2 + 1, len(events) + 1)
              if state_json(replay.state(p - 1))["live"] is not None)
    live = state_json(replay.state(p3 - 1))["live"]["card"]
    s3 = next(s for s in range(1, 5) if s not in {e1.seat, e2.seat, events[p3 - 1].seat})
    decisions = [
        {"ply": p1, "seat": e1.seat, "played": e1.text(), "best": f"{e1.seat}x {other}",
         "options": [{"event": f"{e1.seat}x {other}", "ev": 1.5},
                     {"event": e1.text(), "ev": -0.9}],
         "loss": 2.4, "verdict": "blunder"},
        {"ply": p2, "seat": e2.seat, "played": e2.text(), "best": e2.text(),
         "options": [{"event": e2.text(), "ev": 0.5}, {"event": f"{e2.seat}x {other}",
                                                      "ev": 0.25}],
         "loss": 0.0, "verdict": "good"},
        {"ply": p3, "seat": s3, "played": "pass", "best": f"{s3}m {live} {live} {live}",
         "options": [{"event": f"{s3}m {live} {live} {live}", "ev": 2.0},
                     {"event": "pass", "ev": -1.1}],
         "loss": 3.1, "verdict": "mistake"},
    ]
    seats = {}
    for seat in range(1, 5):
        mine = [d for d in decisions if d["seat"] == seat]
        seats[str(seat)] = {
            "decisions": len(mine),
            "accuracy": sum(d["verdict"] == "good" for d in mine) / len(mine) if mine else 0.0,
            "mean_loss": sum(d["loss"] for d in mine) / len(mine) if mine else 0.0,
        }
    analysis = Analysis.from_dict({"index": 0, "seats": seats, "decisions": decisions,
                                   "samples": 64, "seed": 0, "engine": fourcolor.__version__})
    store_analysis(game.pk, analysis)
    names = replay.record.seats
    return {"p1": p1, "p2": p2, "p3": p3, "seat1": e1.seat, "seat2": e2.seat, "seat3": s3,
            "played": e1.cards[0].token, "other": other, "live": live, "names": names}


def page(client: Client, game: Game, lang: str = "en", **params: object) -> Node:
    response = client.get(reverse("game", args=[game.pk]), params,
                          headers={"accept-language": lang})
    assert response.status_code == 200
    return parse(response.content)


def marks(doc: Node) -> dict[int, str]:
    out = {}
    for link in doc.find("ol", "move-list").find_all("a"):
        found = link.find_all("span", "move__mark")
        if found:
            out[int(link.attrs["data-ply"])] = found[0].words()
    return out


def test_it_marks_the_moves_of_every_seat_with_all_hands_open(
    client: Client, archive: Archive
) -> None:
    known = hand_made(archive.four)

    doc = page(client, archive.four)

    assert marks(doc) == {known["p1"]: "??", known["p3"]: "?"}
    blunder = doc.find("ol", "move-list").find("a", data_ply=str(known["p1"]))
    assert "move__mark--blunder" in blunder.find("span", "move__mark").classes


def test_a_seat_view_marks_only_that_seats_decisions(client: Client, archive: Archive) -> None:
    known = hand_made(archive.four)

    doc = page(client, archive.four, seat=known["seat3"])

    assert marks(doc) == {known["p3"]: "?"}
    chart = doc.find("figure", "chart--evaluation")
    assert [a.attrs["data-ply"] for a in chart.find_all("a", "chart__point")] == [
        str(known["p3"])]


def test_the_chart_links_every_decision_to_its_ply(client: Client, archive: Archive) -> None:
    known = hand_made(archive.four)

    doc = page(client, archive.four, seat=1, ply=3)
    doc_all = page(client, archive.four)

    chart = doc_all.find("figure", "chart--evaluation")
    points = chart.find_all("a", "chart__point")
    assert sorted(int(a.attrs["data-ply"]) for a in points) == sorted(
        [known["p1"], known["p2"], known["p3"]])
    for link in points:
        assert link.attrs["href"].endswith(f"ply={link.attrs['data-ply']}")
    # Bands make the whole width clickable, one per decision ply, in order.
    bands = [int(a.attrs["data-ply"]) for a in chart.find_all("a", "chart__band")]
    assert bands == sorted({known["p1"], known["p2"], known["p3"]})
    svg = chart.find("svg")
    assert svg.attrs["role"] == "group" and chart.find("title").words()
    # The seat view keeps its seat in the links.
    for link in doc.find_all("a", "chart__point"):
        assert "seat=1" in link.attrs["href"]


def test_it_says_at_the_decisions_ply_what_the_choice_cost(
    client: Client, archive: Archive
) -> None:
    known = hand_made(archive.four)
    name = known["names"][known["seat1"] - 1]

    doc = page(client, archive.four, ply=known["p1"])

    group = doc.find("div", "decision-group", data_analysis_ply=str(known["p1"]))
    assert "hidden" not in group.attrs
    assert visible(group.find("p", "decision__sentence")) == (
        f"{name}: discarding {glyph(known['played'])} instead of discarding "
        f"{glyph(known['other'])} loses 2.4 points on average.")
    rows = [[visible(td) for td in tr.find_all("td")]
            for tr in group.find("table").find("tbody").find_all("tr")]
    assert rows == [[f"discarding {glyph(known['other'])} best", "+1.5", "0.0"],
                    [f"discarding {glyph(known['played'])} played", "−0.9", "2.4"]]
    assert visible(group.find("h3")).startswith("?? Blunder")
    # The other decisions are in the page, hidden until the replay reaches their ply.
    for ply in (known["p2"], known["p3"]):
        assert "hidden" in doc.find("div", data_analysis_ply=str(ply)).attrs
    assert "hidden" in doc.find("p", data_analysis_none=True).attrs


def test_it_words_a_pass_and_a_good_choice(client: Client, archive: Archive) -> None:
    known = hand_made(archive.four)
    names = known["names"]
    live = glyph(known["live"])

    at_pass = page(client, archive.four, ply=known["p3"])
    at_good = page(client, archive.four, ply=known["p2"])
    elsewhere = page(client, archive.four, ply=0)

    sentence = visible(at_pass.find("div", data_analysis_ply=str(known["p3"])).find(
        "p", "decision__sentence"))
    assert sentence == (f"{names[known['seat3'] - 1]}: letting {live} go instead of melding "
                        f"{live}{live}{live} loses 3.1 points on average.")
    good = visible(at_good.find("div", data_analysis_ply=str(known["p2"])).find(
        "p", "decision__sentence"))
    assert good.endswith("was as good as the best option.")
    assert "hidden" not in elsewhere.find("p", data_analysis_none=True).attrs


def test_the_end_panel_gives_each_seats_accuracy(client: Client, archive: Archive) -> None:
    known = hand_made(archive.four)

    doc = page(client, archive.four, ply=41)

    rows = {int(tr.attrs["data-seat"]): [visible(td) for td in tr.find_all("td")]
            for tr in doc.find("section", "end").find("table", "accuracy").find_all("tr")
            if "data-seat" in tr.attrs}
    assert rows[known["seat1"]][:3] == ["1", "0.0%", "2.40 pt"]
    assert rows[known["seat1"]][3:] == ["0", "0", "1"]
    assert rows[known["seat2"]][:3] == ["1", "100.0%", "0.00 pt"]
    assert rows[known["seat3"]][3:] == ["0", "1", "0"]


@pytest.mark.parametrize(("lang", "words"), [
    ("zh-hant", ["分析", "平均損失"]),
    ("vi", ["Phân tích", "trung bình"]),
])
def test_it_speaks_the_readers_language(
    client: Client, archive: Archive, lang: str, words: list[str]
) -> None:
    known = hand_made(archive.four)

    doc = page(client, archive.four, lang=lang, ply=known["p1"])

    section = visible(doc.find("section", "analysis"))
    for word in words:
        assert word in section
    assert "instead of" not in section and "Blunder" not in section


def test_an_unanalysed_game_offers_the_request_to_signed_in_readers(
    client: Client, archive: Archive, user: Any
) -> None:
    anonymous = page(client, archive.four)
    client.force_login(user)
    signed_in = page(client, archive.four, seat=2, ply=5)

    assert "has not been analysed" in visible(anonymous.find("section", "analysis"))
    assert not anonymous.find("section", "analysis").find_all("form")
    assert anonymous.find("section", "analysis").find("a").attrs["href"].startswith(
        "/accounts/login/")
    form = signed_in.find("form", "analysis__request")
    assert form.attrs["action"] == reverse("game-analyse", args=[archive.four.pk])
    fields = {i.attrs["name"]: i.attrs.get("value") for i in form.find_all("input")}
    assert fields["seat"] == "2" and fields["ply"] == "5"


def test_asking_queues_a_job_and_the_page_follows_it(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)

    response = client.post(reverse("game-analyse", args=[archive.missed.pk]),
                           {"seat": "1", "ply": "7"})

    assert response.status_code == 303
    assert response["Location"] == (reverse("game", args=[archive.missed.pk])
                                    + "?seat=1&ply=7#analysis")
    job = Job.objects.get()
    assert (job.kind, job.status, job.options["game"]) == ("analysis", "queued",
                                                          archive.missed.pk)
    doc = page(client, archive.missed, seat=1, ply=7)
    section = doc.find("section", "analysis")
    assert section.attrs["data-analysis-status"] == "queued"
    assert "The analysis is queued." in visible(section)
    assert not section.find_all("form")  # nothing more to ask while it is queued
    assert "queued" in visible(doc.find("ul", "messages"))

    Job.objects.update(status="running", total=30, resume_at=12)
    running = page(client, archive.missed).find("section", "analysis")
    assert "12 of 30 decisions rated" in visible(running)
    assert running.find("progress").attrs["value"] == "40"


def test_asking_needs_a_signed_in_user(client: Client, archive: Archive) -> None:
    response = client.post(reverse("game-analyse", args=[archive.missed.pk]))

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Job.objects.exists()


def test_over_the_hourly_limit_it_says_when_to_try_again(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)
    with override_settings(ANALYSIS_REQUESTS_PER_HOUR=1):
        client.post(reverse("game-analyse", args=[archive.missed.pk]))
        response = client.post(reverse("game-analyse", args=[archive.four.pk]), follow=True)

    assert "try again in 60 minutes" in visible(parse(response.content).find("ul", "messages"))
    assert Job.objects.count() == 1


def test_a_stale_analysis_is_shown_with_a_notice_and_can_be_redone(
    client: Client, archive: Archive, user: Any
) -> None:
    hand_made(archive.four)
    GameAnalysis.objects.update(stale=True, engine_version="0.9.0")
    client.force_login(user)

    section = page(client, archive.four).find("section", "analysis")

    assert "another version of the engine" in visible(section)
    assert "Engine 0.9.0" in visible(section)
    assert "Analyse again" in visible(section.find("form"))


def test_a_failed_job_says_why(client: Client, archive: Archive, user: Any,
                               held_jobs: list[Job]) -> None:
    client.force_login(user)
    client.post(reverse("game-analyse", args=[archive.missed.pk]))
    Job.objects.update(status="failed", error="database unavailable")

    section = page(client, archive.missed).find("section", "analysis")

    assert "The last analysis of this game failed. database unavailable" in visible(section)
    assert section.find("form", "analysis__request")


def test_the_real_reviewer_marks_what_it_rated(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)
    client.post(reverse("game-analyse", args=[archive.missed.pk]))
    run_queued()
    stored = GameAnalysis.objects.get(game=archive.missed)
    decisions = stored.result["decisions"]

    for seat in (1, 2):
        doc = page(client, archive.missed, seat=seat)
        mine = [d for d in decisions if d["seat"] == seat]
        expected: dict[int, str] = {}
        worst: dict[int, int] = {}
        order = ["good", "inaccuracy", "mistake", "blunder"]
        for d in mine:
            if order.index(d["verdict"]) > worst.get(d["ply"], 0):
                worst[d["ply"]] = order.index(d["verdict"])
                expected[d["ply"]] = {"inaccuracy": "?!", "mistake": "?",
                                      "blunder": "??"}[d["verdict"]]
        assert marks(doc) == expected
        points = doc.find("figure", "chart--evaluation").find_all("a", "chart__point")
        assert len(points) == len(mine)
        assert len(doc.find_all("article", "decision")) == len(mine)


def test_the_player_page_gives_the_decision_accuracy(client: Client, archive: Archive) -> None:
    known = hand_made(archive.four)
    name = known["names"][known["seat1"] - 1]
    player = archive.player(name)

    doc = parse(client.get(reverse("player", args=[player.pk])).content)
    # مريم plays only in other rounds: none analysed.
    other = parse(client.get(reverse("player", args=[archive.player("مريم").pk])).content)

    figures = doc.find("dl", data_field="analysis-stats")
    assert figures.find("dd", data_stat="decision_accuracy").words() == "0.0%"
    assert figures.find("dd", data_stat="mean_loss_per_decision").words() == "2.40 pt"
    assert figures.find("dd", data_stat="analysed_rounds").words() == "1"
    assert figures.find("dd", data_stat="verdicts").words() == "0 · 0 · 1"
    assert not other.find_all("dl", data_field="analysis-stats")
    assert "has been analysed yet" in other.find("section").words()


def test_the_job_page_names_an_analysis_and_links_its_game(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)
    client.post(reverse("game-analyse", args=[archive.missed.pk]))
    job = Job.objects.get()
    Job.objects.update(status="running", total=20, resume_at=5)

    doc = parse(client.get(reverse("job", args=[job.pk])).content)

    assert doc.find("h1").words() == f"Analysis job {job.pk}"
    link = doc.find("a", href=reverse("game", args=[archive.missed.pk]) + "#analysis")
    assert link.words() == f"Game #{archive.missed.pk}"
    assert "5 / 20 decisions rated" in doc.find("p", "job__progress").words()


def test_a_long_list_of_options_shows_the_best_and_the_played_one_first(
    client: Client, archive: Archive
) -> None:
    known = hand_made(archive.four)
    analysis = GameAnalysis.objects.get()
    decisions = analysis.result["decisions"]
    seat = known["seat1"]
    hand = state_json(replay_of(archive.four).state(known["p1"] - 1))["seats"][seat - 1]["hand"]
    cards = sorted(set(hand))
    options = [{"event": f"{seat}x {card}", "ev": 5.0 - i} for i, card in enumerate(cards)]
    played = options[-1]["event"]
    decisions[0] = decisions[0] | {"options": options, "played": played,
                                   "best": options[0]["event"], "loss": len(cards) - 1.0}
    GameAnalysis.objects.update(result=analysis.result | {"decisions": decisions})

    group = page(client, archive.four, ply=known["p1"]).find(
        "div", data_analysis_ply=str(known["p1"]))

    first, *more = group.find_all("table", "decision__options")
    shown = [visible(tr.find("td")) for tr in first.find("tbody").find_all("tr")]
    assert len(shown) == 6 and shown[-1].endswith("played") and shown[0].endswith("best")
    assert len(more) == 1 and len(more[0].find("tbody").find_all("tr")) == len(cards) - 6
    assert visible(group.find("details").find("summary")) == f"{len(cards) - 6} more options"
