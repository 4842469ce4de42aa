"""Claims in words: pong, gan, chi and win with whose card, and the seats a
claim skipped, the same in the move list, the ply header and the API's ply state.

The expected sentences are written here from the engine's claim log (who claimed under which
right, whose card, whose draw or discard), independently of records.wording."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

import fourcolor
from fourcolor.claims import ClaimRight, skipped_seats
from fourcolor.game import validate
from fourcolor.generate import generate_record
from records.models import Game
from records.services import import_records
from tests.web.dom import Node, parse

pytestmark = pytest.mark.django_db

NAMES = ("Jonas", "Noor", "Ελένη", "Ann")
# Seed 7 has every kind of claim: pong and gan of discards and of draws, with and without
# skipped seats, chis of discards and of the chi-er's own draw, a win on the winner's own draw.
SEED = 7
VERBS = {ClaimRight.PONG: "pongs", ClaimRight.GAN: "gans", ClaimRight.CHI: "chis",
         ClaimRight.OWN_DRAW: "chis", ClaimRight.WIN: "wins on"}


def expected_sentences() -> dict[int, tuple[str, str]]:
    """Per claim ply: (the sentence without cards, the skipped part or "")."""
    game = validate(generate_record("classic", 4, SEED, names=NAMES))
    out = {}
    for claim in game.claims:
        live = claim.live
        owner = NAMES[live.owner - 1]
        if live.owner == claim.seat:
            whose = "their own draw"
        else:
            whose = f"{owner}’s {live.source}"
        says = f"{NAMES[claim.seat - 1]} {VERBS[claim.right]} {whose}"
        if claim.right == ClaimRight.WIN:
            says += " with"
        skipped = skipped_seats(live.owner, live.source, claim.seat, 4)
        out[claim.ply] = (says, ", ".join(NAMES[s - 1] for s in skipped))
    return out


@pytest.fixture
def game() -> Game:
    text = fourcolor.write_fcn(generate_record("classic", 4, SEED, names=NAMES))
    report = import_records(text)
    assert report.stored == 1
    return Game.objects.get(pk=report.results[0].game_id)


def event_at(client: Client, game: Game, ply: int) -> Node:
    html = client.get(reverse("game", args=[game.pk]), {"ply": ply}).content.decode()
    return parse(html).find(data_field="event").find("div", "event")


def test_it_has_every_kind_of_claim_in_the_sample() -> None:
    sentences = [says for says, _ in expected_sentences().values()]
    for words in ("pongs Noor’s discard", "’s draw", "gans", "chis their own draw",
                  "chis", "wins on their own draw"):
        assert any(words in s for s in sentences), words
    assert any(skipped for _, skipped in expected_sentences().values())


def test_it_says_each_claim_in_the_ply_header(client: Client, game: Game) -> None:
    for ply, (says, skipped) in expected_sentences().items():
        line = event_at(client, game, ply)
        assert line.find("span", "event__says").words() == says, ply
        if skipped:
            assert line.find("span", "event__skipped").words() == f"(skipping {skipped})"
        else:
            assert "event__skipped" not in str(line.attrs) and not line.find_all(
                "span", "event__skipped")


def test_it_says_the_same_in_the_move_list(client: Client, game: Game) -> None:
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    moves = {
        int(a.attrs["data-ply"]): a
        for a in parse(html).find("ol", "move-list").find_all("a", data_ply=True)
    }
    for ply, (says, _skipped) in expected_sentences().items():
        assert moves[ply].find("span", "event__says").words() == says, ply
    first_discard = moves[1].find("span", "event__says").words()
    assert first_discard == f"{NAMES[0]} discards"  # not a claim: the plain verb


def test_it_says_the_same_in_the_api_ply_state(game: Game) -> None:
    api = APIClient()
    for ply, (says, skipped) in expected_sentences().items():
        body = api.get(f"/api/v1/games/{game.pk}/plies/{ply}/").json()
        assert body["says"] == (f"{says} ({'skipping ' + skipped})" if skipped else says)
        assert body["claim"]["kind"] in ("pong", "gan", "chi", "win")
    body = api.get(f"/api/v1/games/{game.pk}/plies/1/").json()
    assert (body["claim"], body["says"]) == (None, f"{NAMES[0]} discards")
