"""records.deletion: deleting a game leaves an audit entry holding its original text, removes
its seats (and a match or players left empty), keeps the statistics equal to a rebuild from
scratch, and can be undone by re-importing the text."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from ratings.models import CountedGame, DerivedState, PlayerRating, RatingEvent
from ratings.services import on_games_stored, pending_ratings, rate_pending, recompute_stats
from ratings import stats
from records.deletion import can_delete, delete_game, restore_game
from records.models import AuditAction, AuditEntry, Game, GameSeat, Match, Player
from records.services import import_records, match_credits
from records.signals import game_deleting
from tests.records.conftest import fcn_file, good_text, match_texts
from tests.stats.conftest import PLAY_ORDER, club_texts, import_club, totals_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def uploader() -> Any:
    return get_user_model().objects.create_user("ana")


@pytest.fixture
def staff() -> Any:
    return get_user_model().objects.create_user("mod", is_staff=True)


def store(text: str, uploader: Any = None) -> Game:
    report = import_records(text, uploader)
    assert report.stored == 1, report.as_dict()
    return Game.objects.get(pk=report.results[0].game_id)


# --- the audit entry ---------------------------------------------------------------------------


def test_it_deletes_the_game_and_keeps_its_original_text_in_the_audit_trail(
    uploader: Any, staff: Any
) -> None:
    # Line endings and a comment the canonical text would not keep: the entry keeps them.
    text = good_text(3).replace("\n", "\r\n", 4)
    game = store(text, uploader)
    names = list(game.seats.order_by("seat").values_list("name", flat=True))

    entry = delete_game(game, by=staff, reason="  uploaded twice  ")

    assert not Game.objects.filter(pk=game.pk).exists()
    assert not GameSeat.objects.filter(game_id=game.pk).exists()
    stored = AuditEntry.objects.get()
    assert stored == entry
    assert (stored.action, stored.by, stored.by_name, stored.reason) == (
        AuditAction.DELETED, staff, "mod", "uploaded twice")
    assert (stored.game_id, stored.content_hash, stored.ruleset, stored.seats) == (
        game.pk, game.content_hash, game.ruleset, names)
    assert (stored.uploaded_by, stored.uploader_name, stored.uploaded_at) == (
        uploader, "ana", game.uploaded_at)
    assert stored.original_text == text


def test_it_keeps_the_entry_when_the_users_are_deleted(uploader: Any, staff: Any) -> None:
    delete_game(store(good_text(4), uploader), by=staff)

    uploader.delete()
    staff.delete()

    entry = AuditEntry.objects.get()
    assert (entry.by, entry.uploaded_by) == (None, None)
    assert (entry.by_name, entry.uploader_name) == ("mod", "ana")


def test_it_says_when_the_game_is_already_gone(staff: Any) -> None:
    game = store(good_text(5))
    delete_game(game.pk, by=staff)

    with pytest.raises(Game.DoesNotExist):
        delete_game(game.pk, by=staff)
    assert AuditEntry.objects.count() == 1


def test_it_deletes_nothing_when_a_receiver_fails(staff: Any) -> None:
    game = store(good_text(6))

    def refuse(**kwargs: Any) -> None:
        raise RuntimeError("derived data unavailable")

    game_deleting.connect(refuse, dispatch_uid="test.refuse")
    try:
        with pytest.raises(RuntimeError):
            delete_game(game, by=staff)
    finally:
        game_deleting.disconnect(dispatch_uid="test.refuse")

    assert Game.objects.filter(pk=game.pk).exists()
    assert GameSeat.objects.filter(game_id=game.pk).count() == game.players
    assert not AuditEntry.objects.exists()


# --- who may delete ----------------------------------------------------------------------------

# (who, the game's uploader) -> may delete
PERMISSIONS = [
    ("anonymous", "ana", False),
    ("other", "ana", False),
    ("ana", "ana", True),
    ("staff", "ana", True),
    ("ana", None, False),  # a game nobody signed in uploaded: staff only
    ("staff", None, True),
    ("inactive staff", "ana", False),
]


@pytest.mark.parametrize(("who", "owner", "allowed"), PERMISSIONS)
def test_it_lets_only_the_uploader_or_staff_delete(
    uploader: Any, who: str, owner: str | None, allowed: bool
) -> None:
    from django.contrib.auth.models import AnonymousUser

    users = get_user_model().objects
    actor = {
        "anonymous": lambda: AnonymousUser(),
        "other": lambda: users.create_user("bo"),
        "ana": lambda: uploader,
        "staff": lambda: users.create_user("mod", is_staff=True),
        "inactive staff": lambda: users.create_user("old", is_staff=True, is_active=False),
    }[who]()
    game = store(good_text(7), uploader if owner else None)

    assert can_delete(actor, game) is allowed


# --- what goes with the game -------------------------------------------------------------------


def test_it_deletes_a_match_only_once_its_last_round_is_gone(staff: Any) -> None:
    import_records(fcn_file(match_texts("cup", rounds=3)))
    match = Match.objects.get(tag="cup")
    first, *others = [r.game for r in match_credits(match)]

    delete_game(first, by=staff)

    rounds = match_credits(match)
    assert [r.game.pk for r in rounds] == [g.pk for g in others]
    # The running credits start again from the remaining rounds.
    seats = GameSeat.objects.filter(game__in=others).select_related("player")
    expected: dict[str, int] = {}
    for seat in seats:
        expected[seat.player.name] = expected.get(seat.player.name, 0) + seat.delta
    assert rounds[-1].credits == expected
    for game in others:
        delete_game(game, by=staff)
    assert not Match.objects.filter(pk=match.pk).exists()
    assert AuditEntry.objects.filter(match_tag="cup").count() == 3


def test_it_deletes_only_the_players_left_without_a_seat(staff: Any) -> None:
    shared = store(club_texts()["A"])
    store(club_texts()["C"])  # Ann and Dung again
    before = set(Player.objects.values_list("name", flat=True))

    delete_game(shared, by=staff)

    assert before == {"Ann", "Bao", "Chi", "Dung"}
    assert set(Player.objects.values_list("name", flat=True)) == {"Ann", "Dung"}


# --- undo --------------------------------------------------------------------------------------


def test_it_restores_the_same_game_from_the_entry(uploader: Any, staff: Any) -> None:
    game = store(good_text(8), uploader)
    entry = delete_game(game, by=staff)

    result = restore_game(entry, by=staff)

    restored = Game.objects.get(pk=result.game_id)
    assert result.status == "stored" and restored.pk != game.pk
    assert (restored.content_hash, restored.original_text, restored.uploaded_by) == (
        game.content_hash, game.original_text, uploader)
    trail = AuditEntry.objects.get(action=AuditAction.RESTORED)
    assert (trail.game_id, trail.by, trail.content_hash) == (restored.pk, staff, game.content_hash)
    again = restore_game(entry, by=staff)
    assert (again.status, again.game_id) == ("duplicate", restored.pk)
    assert AuditEntry.objects.filter(action=AuditAction.RESTORED).count() == 1


# --- the statistics ----------------------------------------------------------------------------


def derived_state() -> dict[str, Any]:
    """Every derived table as plain data (ids included: a rebuild keeps player and game ids)."""
    return {
        **totals_snapshot(),
        "counted": sorted(CountedGame.objects.values_list("game_id", "ruleset", "order_key",
                                                          "rated")),
        "ratings": sorted(PlayerRating.objects.values_list(
            "player_id", "ruleset", "mu", "sigma", "ordinal", "rounds")),
        "history": sorted(RatingEvent.objects.values_list(
            "player_id", "game_id", "ruleset", "order_key", "number", "seat", "rank",
            "mu_before", "sigma_before", "mu", "sigma", "ordinal", "delta")),
    }


def player_figures() -> dict[str, Any]:
    return {p.name: stats.player_stats(p, source="totals") for p in Player.objects.all()}


@pytest.mark.parametrize("label", PLAY_ORDER)
def test_it_leaves_the_statistics_as_a_rebuild_without_the_game(staff: Any, label: str) -> None:
    # A (rated, first in play order), A2 (a player holding two seats: unrated), B1-B3 (a
    # match: its `matches` count), C (rated), D (exhausted), E (a redeal), in turn.
    ids = import_club()

    delete_game(ids[label], by=staff)

    incremental, figures = derived_state(), player_figures()
    assert not CountedGame.objects.filter(game_id=ids[label]).exists()
    recompute_stats()
    assert derived_state() == incremental
    assert player_figures() == figures
    assert DerivedState.objects.get().games == len(PLAY_ORDER) - 1


def test_it_computes_the_player_figures_the_seats_give(staff: Any) -> None:
    ids = import_club()

    for label in ("B2", "A", "C"):
        delete_game(ids[label], by=staff)

    for player in Player.objects.all():
        for ruleset in (None, "classic", "bga"):
            kept = stats.player_stats(player, ruleset=ruleset, source="totals")
            fresh = stats.player_stats(player, ruleset=ruleset, source="seats")
            assert kept == fresh, (player.name, ruleset)


def test_it_replays_ratings_an_import_left_pending(settings: Any, staff: Any) -> None:
    # Every replay deferred: the imports in reverse play order leave both rulesets pending.
    settings.RATINGS_REPLAY_LIMIT = 0
    ids = import_club(tuple(reversed(PLAY_ORDER)))
    assert set(pending_ratings()) == {"classic", "bga"}

    delete_game(ids["C"], by=staff)

    assert set(pending_ratings()) == {"bga"}  # classic was replayed with the deletion
    rate_pending()
    incremental = derived_state()
    recompute_stats()
    assert derived_state() == incremental


def test_it_forgets_a_game_the_statistics_never_counted(staff: Any) -> None:
    ids = import_club(("A", "C"), hook=False)  # stored, never counted
    on_games_stored([ids["A"]])

    delete_game(ids["C"], by=staff)

    incremental = derived_state()
    recompute_stats()
    assert derived_state() == incremental


def test_it_stays_right_when_a_deletion_falls_between_an_imports_batches(staff: Any) -> None:
    ids = import_club(PLAY_ORDER[:4])
    later = import_club(PLAY_ORDER[4:], hook=False)
    on_games_stored(list(later.values()), rate=False)  # a batch: counted, ratings left pending

    delete_game(ids["A"], by=staff)
    on_games_stored([], rate=True)  # the import's last call rates what is still pending

    assert pending_ratings() == {}
    incremental = derived_state()
    recompute_stats()
    assert derived_state() == incremental
