"""The archive's queries over stored games."""

from __future__ import annotations

import datetime

from django.db.models import Exists, OuterRef, QuerySet

from records.models import Game, GameSeat, match_key, player_key


def filter_games(
    games: QuerySet[Game] | None = None,
    *,
    player: str | None = None,
    ruleset: str | None = None,
    players: int | None = None,
    outcome: str | None = None,
    since: datetime.date | None = None,
    until: datetime.date | None = None,
    match: str | None = None,
) -> QuerySet[Game]:
    """The archive's filters, shared by export, web and API. `player` is a name (matched by
    identity key), `match` a Match tag value; `since`/`until` bound the played date,
    inclusive."""
    qs = Game.objects.all() if games is None else games
    if player:
        # Exists, not a join: a player seated twice in one game must not list it twice.
        seated = GameSeat.objects.filter(game=OuterRef("pk"), player__name_key=player_key(player))
        qs = qs.filter(Exists(seated))
    if ruleset:
        qs = qs.filter(ruleset=ruleset)
    if players:
        qs = qs.filter(players=players)
    if outcome:
        qs = qs.filter(outcome=outcome)
    if since:
        qs = qs.filter(date__gte=since)
    if until:
        qs = qs.filter(date__lte=until)
    if match:
        qs = qs.filter(match__key=match_key(match))
    return qs
