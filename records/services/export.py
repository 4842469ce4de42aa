"""A stored game as the JSON/NDJSON exports and the API show it."""

from __future__ import annotations

from typing import Any

import fourcolor
from fourcolor.errors import FcnError

from records.models import Game


def game_export(game: Game) -> dict[str, Any]:
    """One game as the JSON/NDJSON exports and the API show it."""
    try:
        record: dict[str, Any] | None = fourcolor.record_to_json(
            fourcolor.parse_record(game.canonical_text)
        )
    except FcnError:
        record = None  # a canonical text the current engine cannot read: see `revalidate`
    return {
        "id": game.pk,
        "tags": game.tags,
        "ruleset": game.ruleset,
        "players": game.players,
        "date": game.date.isoformat() if game.date else None,
        "result": game.summary(),
        "event_count": game.event_count,
        "content_hash": game.content_hash,
        "engine_version": game.engine_version,
        "uploaded_at": game.uploaded_at.isoformat(),
        "original": game.original_text,
        "json": record,
    }
