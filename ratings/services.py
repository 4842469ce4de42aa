"""Keeping the derived tables (play order, totals, ratings) in step with the stored games:
`on_games_stored` counts and rates games as they are stored, `catch_up` (the statistics job)
whatever is left, `recompute_stats` rebuilds everything. How ratings are computed, replayed in
play order when an older game arrives, and deferred past RATINGS_REPLAY_LIMIT: docs/stats.md,
"Rating"."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Min
from django.utils import timezone
from openskill.models import PlackettLuce

from ratings import totals
from ratings.models import CountedGame, DerivedState, PlayerRating, RatingEvent
from records.models import Game, GameSeat

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): documented in docs/stats.md.
MODEL = PlackettLuce()
BATCH = 5000  # games per totals batch in on_games_stored (one aggregation, one upsert each)
CHUNK = 2000  # games per chunk when rating or listing the archive
RATED_OUTCOMES = ("win", "forced")

Progress = Callable[[str, int], None]  # (phase, games done since the last call)


def _no_progress(phase: str, done: int) -> None:
    return None


@dataclass
class StatsReport:
    games: int = 0  # games newly counted
    rated: int = 0  # rated rounds (re)played
    player_rows: int = 0
    pair_rows: int = 0
    rulesets: dict[str, int] = field(default_factory=dict)  # rated rounds replayed per ruleset
    deferred: dict[str, str] = field(default_factory=dict)  # ruleset -> key left for a pass


# ----------------------------------------------------------------------------- play order


def play_order_key(
    date: datetime.date | None,
    uploaded_at: datetime.datetime,
    match_key: str | None,
    round_number: int | None,
    content_hash: str,
) -> str:
    """Where a round stands in play order, as a string that sorts in that order.

    By the `Date` tag (the upload's UTC day when the record has no full date), then the match
    (rounds of one match together: by its tag's hash, rounds without a match first), then the
    `Round` tag, then the canonical content hash: a tie-break that does not depend on the
    order the games were imported in (an id would), so any import order gives one order."""
    day = date if date is not None else uploaded_at.astimezone(datetime.timezone.utc).date()
    return f"{day.isoformat()}|{match_key or ''}|{round_number or 0:010d}|{content_hash}"


def _entries(game_ids: Sequence[int]) -> list[dict[str, Any]]:
    """The `CountedGame` rows of these games, as dicts (`copy_rows`: no model instance each)."""
    rows = (
        Game.objects.filter(pk__in=game_ids)
        .values("pk", "ruleset", "date", "uploaded_at", "round_number", "content_hash",
                "match__key", "outcome")
        .annotate(
            seats_n=Count("seats"),
            people=Count("seats__player", distinct=True),
            low=Min("seats__delta"),
            high=Max("seats__delta"),
        )
    )
    return [
        {
            "game_id": row["pk"],
            "ruleset": row["ruleset"],
            "order_key": play_order_key(
                row["date"], row["uploaded_at"], row["match__key"], row["round_number"],
                row["content_hash"],
            ),
            "rated": (
                row["outcome"] in RATED_OUTCOMES
                and row["people"] == row["seats_n"]
                and row["low"] != row["high"]
            ),
        }
        for row in rows
    ]


# ----------------------------------------------------------------------------- entry points


def lock_derived() -> DerivedState:
    """Serialise writers of the derived tables (a row lock on PostgreSQL; SQLite's writers are
    serialised by the IMMEDIATE transactions the settings ask for)."""
    state, _ = DerivedState.objects.select_for_update().get_or_create(pk=1)
    return state


def save_state(state: DerivedState, *, games: int, pending: dict[str, str]) -> None:
    """The derived state after a writer's change: games counted, ratings left pending."""
    state.games = games
    state.pending = pending
    state.updated_at = timezone.now()
    state.save(update_fields=["games", "pending", "updated_at"])


def _rate(report: StatsReport, ruleset: str, key: str | None, progress: Progress) -> None:
    """Replay `ruleset`'s ratings from `key` (`rate_from`), counted in `report`."""
    replayed = rate_from(ruleset, key, progress)
    report.rulesets[ruleset] = report.rulesets.get(ruleset, 0) + replayed
    report.rated += replayed


def on_games_stored(
    game_ids: Iterable[int],
    *,
    progress: Progress = _no_progress,
    defer: bool = True,
    rate: bool = True,
) -> StatsReport:
    """Count and rate games just stored. Games already counted, or no longer stored, are
    skipped, so calling it twice (or for a whole file) is harmless.

    Rating: the rulesets of the new games, and those whose ratings are pending, are replayed
    from their earliest new (or pending) round. With `defer` (imports), a replay longer than
    RATINGS_REPLAY_LIMIT rounds is left pending for `rate_pending`. With `rate` False (an
    import's batches before its last) the ratings are only marked pending from the batch's
    earliest round: the import's last call replays each ruleset once, not once per batch (a
    replay covers every rated round after its start, so per batch it would cost the square of
    the import's length)."""
    wanted = sorted({int(pk) for pk in game_ids})
    report = StatsReport()
    if not wanted and not rate:
        return report
    with transaction.atomic():
        state = lock_derived()
        start = _count(wanted, report, progress)
        pending = dict(state.pending)
        if not rate:
            for ruleset, key in start.items():
                pending[ruleset] = min(key, pending.get(ruleset, key))
        else:
            for ruleset in sorted(set(start) | set(pending)):
                key = min(start.get(ruleset, "\uffff"), pending.pop(ruleset, "\uffff"))
                if defer and _rated_after(ruleset, key) > settings.RATINGS_REPLAY_LIMIT:
                    # Too long to wait for: the scheduled pass replays it.
                    pending[ruleset] = key
                    report.deferred[ruleset] = key
                    continue
                _rate(report, ruleset, key, progress)
        if report.games or pending != state.pending:
            save_state(state, games=state.games + report.games, pending=pending)
    return report


def count_stored(game_ids: list[int], final: bool = True, **signal: object) -> None:
    """records.signals.games_stored_batch: the games are due (whatever the count does), then
    counted; an import's batches before its last only mark the ratings pending (`rate`)."""
    updating_changed()
    on_games_stored(game_ids, rate=final)


def _count(wanted: list[int], report: StatsReport, progress: Progress) -> dict[str, str]:
    """Count the games not yet counted; returns each ruleset's earliest new rated round."""
    start: dict[str, str] = {}
    for chunk in _chunks(wanted, BATCH):
        fresh = list(
            Game.objects.filter(pk__in=chunk, counted__isnull=True)
            .values_list("pk", flat=True)
        )
        if not fresh:
            continue
        totals.add_games(fresh)
        entries = _entries(fresh)
        CountedGame.objects.copy_rows(entries)
        for entry in entries:
            ruleset, key = entry["ruleset"], entry["order_key"]
            if entry["rated"] and key < start.get(ruleset, "\uffff"):
                start[ruleset] = key
        report.games += len(fresh)
        progress("count", len(fresh))
    return start


def _rated_after(ruleset: str, key: str) -> int:
    return CountedGame.objects.filter(ruleset=ruleset, rated=True, order_key__gte=key).count()


def pending_ratings() -> dict[str, str]:
    """Rulesets whose ratings wait for `recompute_stats --pending`, with the play order key
    from which they will be replayed (empty when every rating is current)."""
    state = DerivedState.objects.filter(pk=1).values_list("pending", flat=True).first()
    return dict(state or {})


def rate_pending(*, progress: Progress = _no_progress,
                 report: StatsReport | None = None) -> StatsReport:
    """Replay the ratings that imports left for a scheduled pass (counted in `report`, if
    given)."""
    report = report if report is not None else StatsReport()
    with transaction.atomic():
        state = lock_derived()
        for ruleset, key in sorted(state.pending.items()):
            _rate(report, ruleset, key, progress)
        save_state(state, games=state.games, pending={})
    return report


def on_missing_games(*, progress: Progress = _no_progress) -> StatsReport:
    """Count and rate every stored game the derived tables do not know yet (games stored while
    the hook was not called)."""
    missing = Game.objects.filter(counted__isnull=True).order_by("pk").values_list("pk", flat=True)
    return on_games_stored(list(missing), progress=progress, defer=False)


def catch_up(*, progress: Progress = _no_progress) -> StatsReport:
    """Bring every derived table up to date: count the games not counted yet (a game stored
    and not counted is due by being so: storing it is all it takes, in the same transaction),
    then replay every rating that waits, however long. What the statistics job runs, behind
    the uploads' answers."""
    return rate_pending(progress=progress, report=on_missing_games(progress=progress))


def games_due() -> int:
    """Stored games the totals and ratings do not count yet."""
    return Game.objects.filter(counted__isnull=True).count()


# Looking costs an anti-join of every stored game with the counted ones when all are counted
# (about 300 ms at a million rounds): the answer is kept half a minute, and forgotten at once
# whenever the statistics change (`updating_changed`).
UPDATING_CACHE_SECONDS = 30
UPDATING_KEY = "ratings:updating"


def stats_due() -> bool:
    """Whether the statistics lag behind the stored games: games not counted yet, or ratings
    waiting for a replay (the periodic check queues a statistics job then)."""
    return bool(pending_ratings()) or Game.objects.filter(counted__isnull=True).exists()


def ratings_updating() -> bool:
    """`stats_due`, as pages and the API show it ("ratings updating"); cached: every
    statistics page asks."""
    return bool(cache.get_or_set(UPDATING_KEY, stats_due, UPDATING_CACHE_SECONDS))


def updating_changed(**signal: object) -> None:
    """Games were announced, counted or uncounted: the next `ratings_updating` looks again
    (once the change is committed: a look before would see the old state). Called on every
    save of the DerivedState row (ratings.apps) and when games are stored."""
    transaction.on_commit(lambda: cache.delete(UPDATING_KEY))


def recompute_stats(*, progress: Progress = _no_progress) -> StatsReport:
    """Rebuild every derived table from the stored games: play order, totals, ratings."""
    report = StatsReport()
    with transaction.atomic():
        state = lock_derived()
        for model in (RatingEvent, PlayerRating, CountedGame):
            model.objects.all().delete()
        for chunk in _keyset(Game.objects.all(), "pk"):
            CountedGame.objects.copy_rows(_entries([pk for (pk,) in chunk]))
            report.games += len(chunk)
            progress("count", len(chunk))
        report.player_rows, report.pair_rows = totals.rebuild_totals()
        progress("totals", 0)
        for ruleset in _rulesets():
            _rate(report, ruleset, None, progress)
        save_state(state, games=report.games, pending={})
    return report


def recompute_ratings(
    ruleset: str | None = None, *, progress: Progress = _no_progress
) -> StatsReport:
    """Rate every counted round again from the start (one ruleset, or all)."""
    report = StatsReport()
    with transaction.atomic():
        state = lock_derived()
        for name in [ruleset] if ruleset else _rulesets():
            _rate(report, name, None, progress)
            state.pending.pop(name, None)
        save_state(state, games=state.games, pending=state.pending)
    return report


def _rulesets() -> list[str]:
    names = set(CountedGame.objects.values_list("ruleset", flat=True).distinct())
    names |= set(PlayerRating.objects.values_list("ruleset", flat=True).distinct())
    return sorted(names)


def rated_count(ruleset: str) -> int:
    return CountedGame.objects.filter(ruleset=ruleset, rated=True).count()


# ----------------------------------------------------------------------------- rating


def dense_ranks(deltas: Sequence[int]) -> list[int]:
    """1 for the seats paid the most, 2 for the next amount, ...: ties share a rank."""
    order = sorted(set(deltas), reverse=True)
    return [order.index(d) + 1 for d in deltas]


def rate_from(ruleset: str, start_key: str | None, progress: Progress = _no_progress) -> int:
    """Roll the ratings of `ruleset` back to just before `start_key` (None: to the start) and
    rate every counted round from there on in play order; returns the rounds rated."""
    state: dict[int, tuple[float, float, int]] = {}  # player -> (mu, sigma, rated rounds)
    events = RatingEvent.objects.filter(ruleset=ruleset)
    games = CountedGame.objects.filter(ruleset=ruleset, rated=True)
    if start_key is None:
        events.delete()
        current = PlayerRating.objects.filter(ruleset=ruleset)
        stale = set(current.values_list("player_id", flat=True))
        current.delete()
    else:
        later = events.filter(order_key__gte=start_key)
        rows = later.order_by("order_key").values_list(
            "player_id", "mu_before", "sigma_before", "number"
        )
        for player_id, mu, sigma, number in rows:
            state.setdefault(player_id, (mu, sigma, number - 1))
        if state:
            later.delete()
        stale = set(state)
        games = games.filter(order_key__gte=start_key)
    new_events: list[dict[str, Any]] = []
    rated = 0
    for chunk in _keyset(games, "order_key", "game_id"):
        seats = _seats_of([game_id for _, game_id in chunk])
        _load_state(state, ruleset, {p for rows in seats.values() for _, p, _ in rows})
        for order_key, game_id in chunk:
            new_events.extend(_rate_round(state, ruleset, game_id, order_key, seats[game_id]))
        RatingEvent.objects.copy_rows(new_events)
        new_events.clear()
        rated += len(chunk)
        progress(f"ratings {ruleset}", len(chunk))
    _save_ratings(ruleset, state, stale)
    return rated


def _keyset(rows: Any, key: str, *fields: str) -> Iterator[list[tuple[Any, ...]]]:
    """(`key`, *`fields`) of `rows` in the order of `key` (unique: the order keys end with the
    game's content hash), CHUNK rows at a time (keyset pagination)."""
    rows = rows.order_by(key).values_list(key, *fields)
    chunk = list(rows[:CHUNK])
    while chunk:
        yield chunk
        chunk = list(rows.filter(**{f"{key}__gt": chunk[-1][0]})[:CHUNK])


def _seats_of(game_ids: list[int]) -> dict[int, list[tuple[int, int, int]]]:
    seats: dict[int, list[tuple[int, int, int]]] = {pk: [] for pk in game_ids}
    rows = (
        GameSeat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "player_id", "delta")
    )
    for game_id, seat, player_id, delta in rows:
        seats[game_id].append((seat, player_id, delta))
    return seats


def _load_state(state: dict[int, tuple[float, float, int]], ruleset: str, wanted: set[int]) -> None:
    """Players met for the first time in this pass start from their stored rating (or none)."""
    missing = wanted - set(state)
    if not missing:
        return
    stored = PlayerRating.objects.filter(ruleset=ruleset, player_id__in=missing)
    for player_id, mu, sigma, rounds in stored.values_list("player_id", "mu", "sigma", "rounds"):
        state[player_id] = (mu, sigma, rounds)


def _rate_round(
    state: dict[int, tuple[float, float, int]],
    ruleset: str,
    game_id: int,
    order_key: str,
    seats: list[tuple[int, int, int]],
) -> list[dict[str, Any]]:
    """The round's `RatingEvent` rows (dicts for `copy_rows`), `state` updated."""
    before = []
    for _, player_id, _ in seats:
        mu, sigma, rounds = state.get(player_id, (MODEL.mu, MODEL.sigma, 0))
        before.append((mu, sigma, rounds))
    ranks = dense_ranks([delta for _, _, delta in seats])
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    events = []
    for (seat, player_id, _), (mu0, sigma0, rounds), [new], rank in zip(
        seats, before, after, ranks, strict=True
    ):
        ordinal = new.ordinal()
        state[player_id] = (new.mu, new.sigma, rounds + 1)
        events.append({
            "player_id": player_id, "game_id": game_id, "ruleset": ruleset,
            "order_key": order_key, "number": rounds + 1, "seat": seat, "rank": rank,
            "mu_before": mu0, "sigma_before": sigma0, "mu": new.mu, "sigma": new.sigma,
            "ordinal": ordinal, "delta": ordinal - (mu0 - 3 * sigma0),
        })
    return events


def _save_ratings(
    ruleset: str, state: dict[int, tuple[float, float, int]], stale: set[int]
) -> None:
    now = timezone.now()
    rows = [
        PlayerRating(
            player_id=player_id, ruleset=ruleset, mu=mu, sigma=sigma,
            ordinal=MODEL.rating(mu=mu, sigma=sigma).ordinal(), rounds=rounds, updated_at=now,
        )
        for player_id, (mu, sigma, rounds) in state.items()
        if rounds > 0
    ]
    PlayerRating.objects.bulk_create(
        rows,
        batch_size=CHUNK,
        update_conflicts=True,
        unique_fields=["player", "ruleset"],
        update_fields=["mu", "sigma", "ordinal", "rounds", "updated_at"],
    )
    gone = [p for p in stale if state.get(p, (0, 0, 0))[2] == 0]
    if gone:
        PlayerRating.objects.filter(ruleset=ruleset, player_id__in=gone).delete()


def _chunks(items: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]

