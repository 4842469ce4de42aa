"""What a duplicate adds to or changes in the stored record of its round.

A record whose round is stored already (the same `content_hash`: fourcolor.notation.identity)
is not stored again, and the stored raw text is never changed; the uploader is told what their
record has that the stored one has not (comments, a `Result` tag, another `Event`...), so that
nothing they sent vanishes without a word.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

import fourcolor
from fourcolor.notation.identity import differences

from records.models import Game


def duplicate_differences(
    duplicates: Iterable[tuple[int, str, int]],
) -> dict[int, list[dict[str, Any]]]:
    """For each duplicate (record index, its canonical text, the stored game's id), its
    differences from the stored game's record, as `RecordResult.differences` keeps them."""
    wanted = list(duplicates)
    if not wanted:
        return {}
    stored = dict(Game.objects.filter(pk__in={game_id for _, _, game_id in wanted})
                  .values_list("pk", "canonical_text"))
    found = {}
    for index, text, game_id in wanted:
        if game_id not in stored:  # deleted meanwhile: nothing to compare with
            continue
        old, new = fourcolor.parse_record(stored[game_id]), fourcolor.parse_record(text)
        found[index] = [asdict(d) for d in differences(old, new)]
    return found
