"""The archive's services: everything that writes games goes through here, so that a game is
stored the same way whichever door it came in by (docs/architecture.md lists the modules).
The names below are the services' public face; import them from here.
"""

from records.services.derivation import (
    SEAT_FACT_FIELDS,
    derive_game_fields,
    derive_seat_fields,
    sha256_text,
)
from records.services.importing import ImportOptions, import_records, import_texts, ndjson_texts
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
]
