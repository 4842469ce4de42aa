"""fourcolor: the rules engine for Four Color Cards (四色牌, tứ sắc).

Pure Python, standard library only. Cards and melds are small immutable values, `Round` is the
state object with push/replay semantics, `best_split` scores hands, and the notation module
reads and writes FCN records. See docs/rules.md and docs/notation.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, Card, parse_card
from .claims import Claim, ClaimRight, Live, claim_right, resolve_claims
from .errors import FcnError, FcnSyntaxError, IllegalMoveError, IllegalRecordError, LimitError
from .deal import pile_size, qualifies_for_redeal
from .facts import SeatFacts, SeatFactsObserver
from .game import Game, validate
from .round import Round
from .scoring import Finish, settle
from .match import Match, next_dealer
from .melds import Meld, classify
from .notation import (
    MAX_RECORD_CHARS,
    Event,
    Record,
    RecordText,
    iter_records,
    parse_record,
    record_from_json,
    record_to_json,
    write_fcn,
)
from .rulesets import RULESETS, Ruleset, RulesetError, get_ruleset
from .split import Split, best_split

# Raised whenever the engine's results change for the same input (a rule, the bots, the
# reviewer): stored games and analyses name the version that made them, and `revalidate`
# marks analyses of another version stale (records.analysis.mark_stale_analyses).
# 1.1.0: the greedy bot's bga rules and the reviewer's screening and naming (issue 13).
# 1.2.0: the reviewer extends near ties at the top of a decision that may be a mistake.
__version__ = "1.2.0"


@dataclass(frozen=True)
class Check:
    """The verdict on one record's text: `game` when valid, `error` when not; `facts`, the
    seats' facts, when asked for (`check_record(..., facts=True)`) and the record is valid."""

    record: Record | None
    game: Game | None
    error: FcnError | None
    facts: list[SeatFacts] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def canonical(self) -> str | None:
        return write_fcn(self.record) if self.record is not None else None


def check_record(
    text: str, first_line: int = 1, *, oversize: bool = False, facts: bool = False
) -> Check:
    """Read and validate one record's text. Never raises for bad input: the error is in the
    result, with its line (counted in the file from `first_line`), column, ply and category.
    With `facts`, the seats' facts are counted in the same pass (what the archive stores)."""
    if oversize:
        err: FcnError = LimitError(
            f"the record is longer than {MAX_RECORD_CHARS} characters", line=first_line, col=1
        )
        return Check(None, None, err)
    try:
        record = parse_record(text, first_line, lenient=True)
    except FcnError as err:
        return Check(None, None, err)
    observer = SeatFactsObserver(record) if facts else None
    try:
        game = validate(record, observer=observer)
    except FcnError as err:
        return Check(record, None, err)
    return Check(record, game, None, observer.facts(game) if observer is not None else None)


__all__ = [
    "CARDS",
    "Card",
    "Check",
    "Claim",
    "ClaimRight",
    "Event",
    "FcnError",
    "FcnSyntaxError",
    "Finish",
    "Game",
    "IllegalMoveError",
    "IllegalRecordError",
    "LimitError",
    "Live",
    "Meld",
    "RULESETS",
    "Record",
    "RecordText",
    "Round",
    "Ruleset",
    "RulesetError",
    "Split",
    "best_split",
    "check_record",
    "claim_right",
    "classify",
    "get_ruleset",
    "iter_records",
    "parse_card",
    "parse_record",
    "pile_size",
    "qualifies_for_redeal",
    "record_from_json",
    "record_to_json",
    "resolve_claims",
    "validate",
    "write_fcn",
    "__version__",
    "Match",
    "next_dealer",
    "settle",
]
