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
- `checking`: the verdicts of /check/, nothing stored;
- `matches`: reading the archive back (a match's rounds and credits).

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
from records.services.matches import MatchRound, match_credits
from records.services.report import ImportReport, RecordResult, RecordStatus
from records.services.revalidating import RevalidateReport, revalidate_games

__all__ = [
    "SEAT_FACT_FIELDS",
    "ImportOptions",
    "ImportReport",
    "MatchRound",
    "RecordResult",
    "RecordStatus",
    "RevalidateReport",
    "derive_game_fields",
    "derive_seat_fields",
    "import_records",
    "import_texts",
    "ndjson_texts",
    "match_credits",
    "revalidate_games",
    "sha256_text",
    "storage_limits",
]
