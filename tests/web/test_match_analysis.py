"""A match's rounds as the reviewer rated them, on the match's page: how many are analysed,
each player's decisions over them, and one request for the rounds not analysed yet (a batch
of analyses, each round counted against the reader's hourly requests)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from jobs.analysis import Parameters, request_analysis
from jobs.models import Job
from records.models import Game, GameAnalysis
from tests.analysis.fixtures import run_queued
from tests.web.conftest import SHARED, Archive
from tests.web.dom import Node, parse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("few_analysis_samples", SHARED)]


def page(client: Client, archive: Archive) -> Node:
    assert archive.match is not None
    response = client.get(reverse("match", args=[archive.match.pk]))
    assert response.status_code == 200
    return parse(response.content)


def section(client: Client, archive: Archive) -> Node:
    return page(client, archive).find("section", "match-analysis")


def ask(client: Client, archive: Archive) -> Any:
    assert archive.match is not None
    return client.post(reverse("match-analyse", args=[archive.match.pk]))


def analyse(game: Game, user: Any) -> None:
    """The game analysed as a reader's request would have it (default parameters)."""
    request_analysis(game, user, Parameters.of())
    run_queued()


def expected_rows(games: list[Game]) -> dict[str, dict[str, Any]]:
    """Per player name, from the stored analyses' own JSON: rounds, decisions, good, losses
    and verdict counts."""
    rows: dict[str, dict[str, Any]] = {}
    for game in games:
        result = GameAnalysis.objects.get(game=game).result
        names = {s.seat: s.name for s in game.seats.all()}
        for seat, name in names.items():
            mine = [d for d in result["decisions"] if d["seat"] == seat]
            row = rows.setdefault(name, {"rounds": 0, "decisions": 0, "good": 0, "loss": 0.0,
                                         "inaccuracy": 0, "mistake": 0, "blunder": 0})
            row["rounds"] += 1
            row["decisions"] += len(mine)
            row["loss"] += sum(d["loss"] for d in mine)
            for d in mine:
                row[d["verdict"]] = row.get(d["verdict"], 0) + 1
    return rows


def test_it_counts_the_analysed_rounds_and_each_players_decisions(
    client: Client, archive: Archive, user: Any
) -> None:
    analyse(archive.rounds[0], user)
    analyse(archive.rounds[2], user)

    found = section(client, archive)

    assert found.find("p", data_field="analysed").words() == "2 of 3 rounds analysed."
    expected = expected_rows([archive.rounds[0], archive.rounds[2]])
    table = found.find("table", data_field="accuracy")
    rows = table.find("tbody").find_all("tr")
    assert [r.find("th").words() for r in rows] == list(expected)  # the credits' order
    for row in rows:
        want = expected[row.find("th").words()]
        cells = [td.words() for td in row.find_all("td")]
        accuracy = f"{100 * want['good'] / want['decisions']:.1f}%"
        mean = f"{want['loss'] / want['decisions']:.2f} pt"
        assert cells == [str(want["rounds"]), str(want["decisions"]), accuracy, mean,
                         str(want["inaccuracy"]), str(want["mistake"]), str(want["blunder"])]
        link = row.find("a").attrs["href"]
        assert link == reverse("player", args=[archive.player(row.find("th").words()).pk])


def test_an_unanalysed_match_offers_the_request_to_signed_in_readers(
    client: Client, archive: Archive, user: Any
) -> None:
    anonymous = section(client, archive)
    client.force_login(user)
    signed_in = section(client, archive)

    assert anonymous.find("p", data_field="analysed").words() == "0 of 3 rounds analysed."
    assert not anonymous.find_all("table") and not anonymous.find_all("form")
    assert anonymous.find("a").attrs["href"].startswith("/accounts/login/")
    assert archive.match is not None
    form = signed_in.find("form")
    assert form.attrs["action"] == reverse("match-analyse", args=[archive.match.pk])
    assert form.find("button").words() == "Analyse 3 rounds"
    assert not signed_in.find_all("p", data_field="again")


def test_rounds_analysed_otherwise_are_offered_again_and_said_so(
    client: Client, archive: Archive, user: Any
) -> None:
    analyse(archive.rounds[0], user)
    analyse(archive.rounds[1], user)
    GameAnalysis.objects.filter(game=archive.rounds[1]).update(samples=7)  # other settings
    client.force_login(user)

    found = section(client, archive)

    assert found.find("p", data_field="analysed").words() == "2 of 3 rounds analysed."
    assert found.find("form").find("button").words() == "Analyse 2 rounds"
    assert found.find("p", data_field="again").words() == (
        "1 of them was analysed with other settings or by another version of the engine: "
        "it is analysed again.")


def test_asking_queues_one_batch_of_the_rounds_not_analysed_yet(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    analyse(archive.rounds[1], user)
    client.force_login(user)

    response = ask(client, archive)

    batch = Job.objects.get(kind=Job.Kind.ANALYSES)
    assert response.status_code == 303
    assert response["Location"] == reverse("job", args=[batch.pk])
    assert batch.created_by == user
    assert archive.match is not None
    assert batch.options["games"] == sorted([archive.rounds[0].pk, archive.rounds[2].pk])
    assert batch.options["match"] == archive.match.pk
    job_page = parse(client.get(response["Location"]).content)
    assert "The analyses of 2 rounds are queued" in job_page.find("ul", "messages").words()
    back = job_page.find("section", "job").find("a")
    assert back.attrs["href"] == reverse("match", args=[archive.match.pk]) + "#analysis"

    waiting = section(client, archive)  # the batch has not run yet
    assert waiting.find("p", data_field="analysed").words() == (
        "1 of 3 rounds analysed. 2 are being analysed.")
    assert not waiting.find_all("form")
    run_queued()  # the batch queues its two analyses
    assert section(client, archive).find("p", data_field="analysed").words() == (
        "1 of 3 rounds analysed. 2 are being analysed.")
    assert not section(client, archive).find_all("form")
    run_queued()  # and they run

    done = section(client, archive)
    assert done.find("p", data_field="analysed").words() == "3 of 3 rounds analysed."
    assert not done.find_all("form")
    batch.refresh_from_db()
    assert (batch.status, batch.report["analysed"]) == ("done", 2)


def test_rounds_analysed_or_queued_already_are_not_asked_for(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    analyse(archive.rounds[0], user)
    request_analysis(archive.rounds[1], user, Parameters.of())  # queued, not run
    client.force_login(user)

    ask(client, archive)
    assert Job.objects.get(kind=Job.Kind.ANALYSES).options["games"] == [archive.rounds[2].pk]

    again = ask(client, archive)  # everything is analysed or queued now
    assert again.status_code == 303 and again["Location"].endswith("#analysis")
    assert Job.objects.filter(kind=Job.Kind.ANALYSES).count() == 1
    messages = parse(client.get(again["Location"]).content).find("ul", "messages")
    assert "Every round of this match is analysed or being analysed already." in (
        messages.words())


def test_each_round_counts_against_the_hourly_requests(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)
    with override_settings(ANALYSIS_REQUESTS_PER_HOUR=4):
        ask(client, archive)  # 3 rounds: 3 of the 4
        client.post(reverse("game-analyse", args=[archive.four.pk]))  # the 4th
        refused = client.post(reverse("game-analyse", args=[archive.bga.pk]), follow=True)

    assert "try again in 60 minutes" in parse(refused.content).find("ul", "messages").words()
    assert Job.objects.filter(kind=Job.Kind.ANALYSES).count() == 1
    assert not Job.objects.filter(options__game=archive.bga.pk).exists()


def test_a_match_over_the_hourly_requests_is_refused_whole(
    client: Client, archive: Archive, user: Any, held_jobs: list[Job]
) -> None:
    client.force_login(user)
    with override_settings(ANALYSIS_REQUESTS_PER_HOUR=2):
        response = ask(client, archive)
        later = client.post(reverse("game-analyse", args=[archive.four.pk]))

    assert response.status_code == 303 and response["Location"].endswith("#analysis")
    words = parse(client.get(response["Location"]).content).find("ul", "messages").words()
    assert "These are 3 analyses, more than the 2 an hour you may ask for" in words
    assert not Job.objects.filter(kind=Job.Kind.ANALYSES).exists()
    assert later.status_code == 303 and Job.objects.filter(kind=Job.Kind.ANALYSIS).count() == 1


def test_asking_needs_a_signed_in_user(client: Client, archive: Archive) -> None:
    response = ask(client, archive)

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Job.objects.exists()


def test_it_answers_404_for_a_match_that_does_not_exist(client: Client, user: Any) -> None:
    client.force_login(user)

    assert client.post(reverse("match-analyse", args=[999_999])).status_code == 404
    assert not Job.objects.exists()
