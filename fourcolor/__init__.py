"""fourcolor: the rules engine for Four Color Cards (四色牌, tứ sắc).

Pure Python, standard library only. Cards and melds are small immutable values, `Round` is the
state object with push/replay semantics, `best_split` scores hands, and the notation module
reads and writes FCN records. See docs/rules.md and docs/notation.md.
"""

from __future__ import annotations

# First: the compiled hot modules go ahead of the sources when they were built from them
# (fourcolor/compiled.py), before any of them is imported.
from .compiled import ACTIVE as COMPILED

from .cards import CARDS, Card, parse_card
from .check import Check, check_record
from .claims import Claim, ClaimRight, Live, claim_right, resolve_claims
from .errors import FcnError, FcnSyntaxError, IllegalMoveError, IllegalRecordError, LimitError
from .deal import pile_size, qualifies_for_redeal
from .game import Game, validate
from .round import Round
from .scoring import Finish, settle
from .match import Match, next_dealer
from .melds import Meld, classify
from .notation import (
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
# marks analyses of another version stale (records.analysis.mark_stale_analyses). What each
# version changed is in git's history of this line.
__version__ = "1.10.0"


__all__ = [
    "COMPILED",
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
