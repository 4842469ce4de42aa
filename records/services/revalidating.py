"""Revalidation: the engine run again over every stored game's original text; games whose
verdict or derived data changed are marked stale, or rewritten (`update`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

import fourcolor

from records.analysis import mark_stale_analyses
from records.models import Game, GameSeat, match_key, player_key
from records.services.derivation import (
    COMPARED_GAME_FIELDS,
    derive_game_fields,
    derive_seat_fields,
    storage_limits,
)
from records.services.storing import KnownIds, match_ids, player_ids, send_on_commit
from records.signals import game_rewritten


def game_differences(game: Game, check: fourcolor.Check) -> list[str]:
    """How the stored game differs from what the engine now says about its original text:
    empty when nothing changed. Compares the verdict, every derived column, the match, and
    every seat row (player identity and every per-seat fact)."""
    if check.error is not None:
        return [f"now refused: {check.error}"]
    limit = storage_limits(check)
    if limit is not None:
        return [f"now refused: {limit}"]
    diffs: list[str] = []
    fields = derive_game_fields(check)
    for name in COMPARED_GAME_FIELDS:
        stored, derived = getattr(game, name), fields[name]
        if stored != derived:
            diffs.append(f"{name}: stored {_short(stored)}, engine gives {_short(derived)}")
    assert check.record is not None
    tag = check.record.tag("Match")
    stored_tag = game.match.tag if game.match is not None else None
    if stored_tag != tag:  # a match is its tag, exactly as written
        diffs.append(f"match: stored {_short(stored_tag)}, tag says {_short(tag)}")
    seats = {seat.seat: seat for seat in game.seats.all()}
    rows = derive_seat_fields(check)
    if sorted(seats) != [row["seat"] for row in rows]:
        diffs.append(f"seats: stored {sorted(seats)}, engine gives {[r['seat'] for r in rows]}")
    for row in rows:
        seat = seats.get(row["seat"])
        if seat is None:
            continue
        if seat.player.name_key != player_key(row["name"]):
            diffs.append(f"seat {row['seat']} player: stored {_short(seat.player.name)}, "
                         f"record says {_short(row['name'])}")
        # The seat's copy of the game's date (GameSeat.date) is derived data too.
        for name, derived in {**row, "date": fields["date"]}.items():
            stored = getattr(seat, name)
            if stored != derived:
                diffs.append(f"seat {row['seat']} {name}: stored {_short(stored)}, "
                             f"engine gives {_short(derived)}")
    return diffs


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class RevalidateReport:
    checked: int = 0
    unchanged: int = 0
    changed: int = 0  # still valid, derived data differs
    refused: int = 0  # the engine now refuses the original text
    updated: int = 0  # changed games rewritten (with update=True)
    details: list[tuple[int, str]] = field(default_factory=list)  # first games: (id, reason)
    details_omitted: int = 0
    max_details: int = 100
    stale_analyses: int = 0  # analyses made by another engine version (all of the archive's)

    def note(self, game_id: int, reason: str) -> None:
        if len(self.details) < self.max_details:
            self.details.append((game_id, reason))
        else:
            self.details_omitted += 1


def revalidate_games(
    games: QuerySet[Game],
    *,
    update: bool = False,
    chunk_size: int = 500,
    max_details: int = 100,
    on_game: Callable[[Game, list[str]], None] | None = None,
) -> RevalidateReport:
    """Re-run the engine over each game's original text; mark games whose verdict or derived
    data changed (stale, with the reason), clear the mark of those that agree again and record
    the engine version that checked them. With `update`, games still valid get their derived
    data rewritten instead of being marked."""
    report = RevalidateReport(max_details=max_details)
    report.stale_analyses = mark_stale_analyses()
    seats = Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
    agreed: list[int] = []
    queryset = games.select_related("match").prefetch_related(seats).order_by("pk")
    for game in queryset.iterator(chunk_size=chunk_size):
        report.checked += 1
        check = fourcolor.check_record(game.original_text, facts=True)
        diffs = game_differences(game, check)
        if on_game is not None:
            on_game(game, diffs)
        if not diffs:
            report.unchanged += 1
            agreed.append(game.pk)
            if len(agreed) >= chunk_size:
                _mark_agreed(agreed)
        elif not check.ok or storage_limits(check) is not None:
            report.refused += 1
            _mark_stale(game, diffs, report)
        elif update:
            reason = _rewrite(game, check)
            if reason is None:
                report.updated += 1
                report.note(game.pk, "updated: " + "; ".join(diffs))
            else:
                report.changed += 1
                _mark_stale(game, diffs + [reason], report)
        else:
            report.changed += 1
            _mark_stale(game, diffs, report)
    _mark_agreed(agreed)
    return report


def _mark_agreed(ids: list[int]) -> None:
    if ids:
        Game.objects.filter(pk__in=ids).update(
            stale=False, stale_reason="", engine_version=fourcolor.__version__,
            validated_at=timezone.now(), updated_at=timezone.now(),
        )
        ids.clear()


def _mark_stale(game: Game, diffs: list[str], report: RevalidateReport) -> None:
    reason = f"engine {fourcolor.__version__}: " + "; ".join(diffs)
    # The engine version is left as it was: `revalidate --stale` looks at the game again.
    Game.objects.filter(pk=game.pk).update(stale=True, stale_reason=reason[:4000],
                                           updated_at=timezone.now())
    report.note(game.pk, reason)


def _rewrite(game: Game, check: fourcolor.Check) -> str | None:
    """Replace a game's derived data and seats with the engine's current ones; None when done,
    else why not (its new canonical content is already stored as another game)."""
    fields = derive_game_fields(check)
    seat_rows = derive_seat_fields(check)
    assert check.record is not None
    tag = check.record.tag("Match")
    ids = KnownIds()
    former = sorted({seat.player_id for seat in game.seats.all()})
    try:
        with transaction.atomic():
            match_id = match_ids([tag], ids, {})[match_key(tag)] if tag is not None else None
            Game.objects.filter(pk=game.pk).update(
                **fields, match_id=match_id, stale=False, stale_reason="",
                validated_at=timezone.now(), updated_at=timezone.now(),
            )
            players = player_ids((row["name"] for row in seat_rows), ids, {})
            # In place (rows that other tables may point at keep their ids).
            seats = [row["seat"] for row in seat_rows]
            GameSeat.objects.filter(game_id=game.pk).exclude(seat__in=seats).delete()
            for row in seat_rows:
                values = {k: v for k, v in row.items() if k != "seat"}
                values["player_id"] = players[player_key(row["name"])]
                values["date"] = fields["date"]
                GameSeat.objects.update_or_create(
                    game_id=game.pk, seat=row["seat"], defaults=values
                )
    except IntegrityError:
        other = (
            Game.objects.filter(content_hash=fields["content_hash"]).exclude(pk=game.pk)
            .values_list("pk", flat=True).first()
        )
        if other is None:
            raise
        return f"not updated: its canonical content is now that of game {other}"
    send_on_commit(game_rewritten, game.pk, former_player_ids=former)
    return None
