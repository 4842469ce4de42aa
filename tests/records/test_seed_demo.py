"""manage.py seed_demo: a demo archive from self-play, once."""

from __future__ import annotations

import io
import unicodedata

import pytest
from django.core.management import call_command

from records.models import Game, GameAnalysis, GameSeat, Match, Player, SeatAnalysis

pytestmark = pytest.mark.django_db


def _seed(*args: str) -> str:
    if "--analyse" not in args:
        args = (*args, "--analyse", "0")  # analyses are slow: only the test below asks
    out = io.StringIO()
    call_command("seed_demo", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def _scripts(name: str) -> set[str]:
    return {unicodedata.name(ch).split()[0] for ch in name if ch.isalpha()}


def test_it_seeds_games_matches_and_players_of_many_scripts() -> None:
    out = _seed("--games", "80")
    assert "Seeded 80 demo games (0 duplicates, 0 refused)." in out
    assert Game.objects.count() == 80
    assert set(Game.objects.values_list("ruleset", flat=True)) == {"classic", "bga"}
    assert {2, 3, 4, 6} <= set(Game.objects.values_list("players", flat=True))
    assert Match.objects.count() >= 5
    assert all(m.games.count() >= 2 for m in Match.objects.all())
    assert not Game.objects.filter(date__isnull=True).exists()
    dates = Game.objects.values_list("date", flat=True)
    assert (max(dates) - min(dates)).days > 30
    scripts = set().union(*(_scripts(p.name) for p in Player.objects.all()))
    assert {"LATIN", "CJK", "CYRILLIC", "ARABIC"} <= scripts
    assert any("Ễ" in p.name or "ễ" in p.name for p in Player.objects.all())
    assert GameSeat.objects.count() == sum(Game.objects.values_list("players", flat=True))


def test_it_shows_house_variants_and_tables_of_five_to_eight() -> None:
    """The default demo has house-variant rounds of both rulesets and classic tables of five
    to eight, stored with their variant (Game.switches) and shown on the archive and replay
    pages in words."""
    from django.test import Client
    from django.urls import reverse

    _seed()
    games = Game.objects
    assert {r for r in games.exclude(switches="").values_list("ruleset", flat=True)} == {
        "classic", "bga"}
    assert set(games.filter(players__gt=4).values_list("players", flat=True)) == {5, 6, 7, 8}
    assert set(games.filter(players__gt=4).values_list("ruleset", flat=True)) == {"classic"}
    eight = games.filter(players=8).exclude(switches="").first()
    assert eight is not None and eight.switches == "steal_generals=never"
    assert "Switches" in eight.canonical_text
    client = Client()
    page = client.get(reverse("game", args=[eight.pk])).content.decode()
    assert "classic, generals never stolen, 8 players" in page
    archive = client.get(reverse("archive") + "?ordering=-players").content.decode()
    assert f'href="{reverse("game", args=[eight.pk])}"' in archive


def test_it_does_nothing_when_the_archive_already_has_games() -> None:
    _seed("--games", "5")
    assert "nothing seeded" in _seed("--games", "5")
    assert Game.objects.count() == 5
    assert "0 demo games (5 duplicates" in _seed("--games", "5", "--force")
    assert "Seeded 5 demo games" in _seed("--games", "5", "--force", "--seed", "2")
    assert Game.objects.count() == 10


def test_it_analyses_a_few_games_spread_over_the_archive() -> None:
    out = _seed("--games", "12", "--analyse", "3", "--analysis-samples", "2")

    assert "Analysed 3 demo games (2 samples per option)" in out
    analysed = list(GameAnalysis.objects.order_by("game_id"))
    assert len(analysed) == 3
    assert all(a.samples == 2 and a.seed == 0 and a.decisions > 0 for a in analysed)
    ids = sorted(Game.objects.values_list("pk", flat=True))
    # Spread: one from each third of the archive, not the first three.
    assert [(a.game_id - ids[0]) // 4 for a in analysed] == [0, 1, 2]
    for analysis in analysed:
        seats = SeatAnalysis.objects.filter(analysis=analysis).count()
        assert seats == analysis.game.players


def test_it_refuses_a_negative_count_of_analyses() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--analyse"):
        _seed("--games", "2", "--analyse", "-1")


def test_it_shows_every_feature_of_the_product() -> None:
    """Comments, missed wins, claims of every kind, forced finishes, matches with
    running credits and analyses, all in the default demo."""
    from records.services import match_credits

    _seed("--analyse", "1", "--analysis-samples", "2")
    seats = GameSeat.objects
    shown = {
        "comments": Game.objects.filter(canonical_text__contains="{").count(),
        "missed wins": seats.filter(missed_wins__gt=0).count(),
        "pongs": seats.filter(pongs__gt=0).count(),
        "gans": seats.filter(gans__gt=0).count(),
        "chis": seats.filter(chis__gt=0).count(),
        "melds on one's own draw": seats.filter(own_draw_melds__gt=0).count(),
        "claims that skip seats": seats.filter(steals__gt=0).count(),
        "forced finishes": seats.filter(forced=True).count(),
        "analyses": GameAnalysis.objects.count(),
    }
    assert all(shown.values()), shown
    credits = [match_credits(m) for m in Match.objects.all()]
    # Running credits: after some round of a match they differ from that round's own result.
    assert any(r.credits != r.deltas for rounds in credits for r in rounds[1:])


def test_it_shows_every_claim_kind_from_every_source() -> None:
    """Every kind of claim the rules allow, from every source it can take a card
    from, is in the default demo (a chi on one's own draw too), read back from the stored
    records by the engine."""
    import fourcolor
    from fourcolor.claims import taken_from

    _seed()
    seen = set()
    for text in Game.objects.values_list("canonical_text", flat=True):
        for claim in fourcolor.validate(fourcolor.parse_record(text)).claims:
            seen.add((claim.right.label, taken_from(claim.live, claim.seat)))
    assert seen == {
        ("chi", "discard"),  # the next seat's meld on a discard
        ("own draw", "self_draw"),  # a meld (a chi, as players say) on one's own draw
        ("pong", "discard"), ("pong", "draw"),
        ("gan", "discard"), ("gan", "draw"),
        ("win", "discard"), ("win", "draw"), ("win", "self_draw"),
    }


def test_it_seeds_in_pieces_over_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    from records.management.commands import seed_demo

    monkeypatch.setattr(seed_demo, "PIECE_ROUNDS", 30)
    out = _seed("--games", "75", "--jobs", "2")
    assert "Seeded 75 demo games (0 duplicates, 0 refused)." in out
    assert Game.objects.count() == 75
    # Each piece names its own matches: none mixes the rounds of two pieces.
    assert Match.objects.count() >= 3
    assert all(len({g.players for g in m.games.all()}) == 1 for m in Match.objects.all())


def test_it_plays_other_rounds_in_parallel_than_the_serial_demo() -> None:
    _seed("--games", "20")
    out = _seed("--games", "20", "--jobs", "2", "--force")
    assert "Seeded 20 demo games (0 duplicates, 0 refused)." in out
    assert Game.objects.count() == 40
