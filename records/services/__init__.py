"""The archive's services: everything that writes games goes through here (the commands, the
API, the web upload and the jobs are thin layers over it), so that a game is stored the same
way whichever door it came in by. One module per job:

- `reading`: an upload's bytes or text as lines and records (strict UTF-8, line caps);
- `derivation`: the columns and seat rows derived from a valid record;
- `validating`: the engine's verdict on one record;
- `report`: what became of each record (`RecordResult`) and of the upload (`ImportReport`);
- `storing`: valid records stored in batches, duplicates, retries after a lost connection;
- `importing`: `import_records` / `import_texts`, the import that ties these together;
- `revalidating`: the engine run again over stored games;
- `export`, `matches`: reading the archive back.

The names below are the services' public face; import them from here.
"""

from records.services.derivation import (
    SEAT_FACT_FIELDS,
    derive_game_fields,
    derive_seat_fields,
    sha256_text,
    storage_limits,
)
from records.services.importing import (
    ImportOptions,
    import_records,
    import_texts,
    ndjson_texts,
)
from records.services.matches import MatchRound, match_credits, match_games
from records.services.reading import count_records
from records.services.report import ImportReport, RecordResult, RecordStatus
from records.services.revalidating import RevalidateReport, game_differences, revalidate_games

__all__ = [
    "SEAT_FACT_FIELDS",
    "ImportOptions",
    "ImportReport",
    "MatchRound",
    "RecordResult",
    "RecordStatus",
    "RevalidateReport",
    "count_records",
    "derive_game_fields",
    "derive_seat_fields",
    "game_differences",
    "import_records",
    "import_texts",
    "ndjson_texts",
    "match_credits",
    "match_games",
    "revalidate_games",
    "sha256_text",
    "storage_limits",
]
