"""Decision accuracy and mean loss per decision: per player over analysed rounds (the player
statistics, the API) and as leaderboard metrics, with the statistics' filters (docs/stats.md).

The analyses here are written by hand (every decision's seat, verdict and loss known), so the
expected figures are worked out in the test; the reviewer itself is tested in tests/engine."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

import fourcolor
from fourcolor.analysis import Analysis
from ratings import stats
from ratings.leaderboards import leaderboard
from records.analysis import store_analysis
from records.models import Player
from tests.api.conftest import round_text, store

pytestmark = pytest.mark.django_db


def hand_made(decisions: list[tuple[int, str, float]], seats: int) -> Analysis:
    """An analysis whose decisions are (seat, verdict, loss), one ply apart."""
    rows = []
    for ply, (seat, verdict, loss) in enumerate(decisions, start=1):
        rows.append({
            "ply": ply, "seat": seat, "played": f"{seat}x rK", "best": f"{seat}x rA",
            "options": [{"event": f"{seat}x rA", "ev": 1.0},
                        {"event": f"{seat}x rK", "ev": 1.0 - loss}],
            "loss": loss, "verdict": verdict,
        })
    summary = {}
    for seat in range(1, seats + 1):
        mine = [d for d in rows if d["seat"] == seat]
        n = len(mine)
        summary[str(seat)] = {
            "decisions": n,
            "accuracy": sum(d["verdict"] == "good" for d in mine) / n if n else 0.0,
            "mean_loss": sum(d["loss"] for d in mine) / n if n else 0.0,
        }
    return Analysis.from_dict({
        "index": 0, "seats": summary, "decisions": rows, "samples": 8, "seed": 0,
        "engine": fourcolor.__version__,
    })


@pytest.fixture
def analysed(db: None) -> dict[str, Any]:
    """Three classic 2-seat rounds An v Bình (two dated 2026-01-05, one 2026-03-01) and one
    bga round An v Chi, each analysed; one more An v Bình round not analysed."""
    names = ("An", "Bình")
    early = store([round_text(s, "classic", 2, names, "2026.01.05") for s in (60, 61)])
    late = store([round_text(62, "classic", 2, names, "2026.03.01")])
    bga = store([round_text(63, "bga", 2, ("An", "Chi"), "2026.01.05")])
    store([round_text(64, "classic", 2, names, "2026.01.05")])
    # An: 3 good of 4 (loss 2.0) / 1 of 2 (loss 5.0) / 2 of 2 (0.0) / bga 0 of 2 (6.0)
    # Bình: 1 of 2 (1.0) / 2 of 2 (0.0) / 1 of 2 (3.0);   Chi: 2 of 2 (0.0)
    store_analysis(early[0], hand_made([
        (1, "good", 0.0), (2, "good", 0.0), (1, "good", 0.2), (1, "inaccuracy", 1.0),
        (2, "mistake", 1.0), (1, "good", 0.8)], 2))
    store_analysis(early[1], hand_made([
        (1, "blunder", 5.0), (1, "good", 0.0), (2, "good", 0.0), (2, "good", 0.0)], 2))
    store_analysis(late[0], hand_made([
        (1, "good", 0.0), (2, "good", 0.0), (1, "good", 0.0), (2, "blunder", 3.0)], 2))
    store_analysis(bga[0], hand_made([
        (1, "mistake", 2.5), (2, "good", 0.0), (1, "blunder", 3.5), (2, "good", 0.0)], 2))
    return {name: Player.objects.get(name=name) for name in ("An", "Bình", "Chi")}


def test_a_players_figures_are_over_the_analysed_rounds(analysed: dict[str, Any]) -> None:
    figures = stats.player_stats(analysed["An"])["analysis"]

    assert figures == {
        "rounds": 4, "decisions": 10, "decision_accuracy": pytest.approx(6 / 10),
        "mean_loss_per_decision": pytest.approx(13.0 / 10),
        "inaccuracies": 1, "mistakes": 1, "blunders": 2,
    }
    # Rounds never analysed count nowhere here, but still in the other statistics.
    assert stats.player_stats(analysed["An"])["rounds"] == 5


def test_the_filters_apply_to_analysed_rounds(analysed: dict[str, Any]) -> None:
    classic = stats.player_stats(analysed["An"], ruleset="classic")["analysis"]
    march = stats.player_stats(analysed["An"], since="2026-02-01")["analysis"]

    assert (classic["rounds"], classic["decisions"], classic["decision_accuracy"]) == (
        3, 8, pytest.approx(6 / 8))
    assert (march["rounds"], march["decisions"], march["mean_loss_per_decision"]) == (
        1, 2, 0.0)


def test_a_player_never_analysed_has_no_ratio(db: None) -> None:
    (pk,) = store([round_text(65, "classic", 2, ("Eve", "Finn"))])

    figures = stats.player_stats(Player.objects.get(name="Eve"))["analysis"]

    assert figures["rounds"] == figures["decisions"] == 0
    assert figures["decision_accuracy"] is None and figures["mean_loss_per_decision"] is None


def test_the_accuracy_leaderboard_ranks_highest_first(analysed: dict[str, Any]) -> None:
    board = leaderboard("decision_accuracy", min_rounds=1)

    rows = [(r["player"]["name"], r["value"], r["rounds"], r["rank"]) for r in board["rows"]]
    assert rows == [
        ("Chi", 1.0, 1, 1),
        ("Bình", pytest.approx(4 / 6), 3, 2),
        ("An", pytest.approx(6 / 10), 4, 3),
    ]


def test_the_mean_loss_leaderboard_ranks_lowest_first(analysed: dict[str, Any]) -> None:
    board = leaderboard("mean_loss_per_decision", min_rounds=2)

    rows = [(r["player"]["name"], r["value"]) for r in board["rows"]]
    # Chi has one analysed round: below min_rounds.
    assert rows == [("Bình", pytest.approx(4.0 / 6)), ("An", pytest.approx(13.0 / 10))]


def test_the_leaderboard_takes_the_filters(analysed: dict[str, Any]) -> None:
    board = leaderboard("decision_accuracy", min_rounds=1, ruleset="bga")

    assert [(r["player"]["name"], r["value"]) for r in board["rows"]] == [
        ("Chi", 1.0), ("An", 0.0)]


def test_the_api_gives_them_too(analysed: dict[str, Any]) -> None:
    api = APIClient()

    player = api.get(f"/api/v1/players/{analysed['An'].pk}/stats/").json()
    board = api.get("/api/v1/stats/leaderboard/",
                    {"metric": "mean_loss_per_decision", "min_rounds": 1}).json()

    assert player["analysis"]["decisions"] == 10
    assert player["analysis"]["decision_accuracy"] == pytest.approx(0.6)
    assert [r["player"]["name"] for r in board["rows"]] == ["Chi", "Bình", "An"]
    assert board["metric"] == "mean_loss_per_decision"
