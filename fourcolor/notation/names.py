"""Characters a record may not hold, and player names: what makes a name unusable
(`name_problem`) and when two names are one player (`player_key`)."""

from __future__ import annotations

import re
import unicodedata

# Control characters: C0 but tab, line feed and carriage return; DEL; C1. None prints, and some
# end a line for other programs (VT, FF, NEL) or are refused by databases (NUL), so a record
# holding one would not read the same everywhere: it is refused where the character is.
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Bidi embeddings, overrides and isolates (not the marks LRM, RLM, ALM): in a name they reorder
# whatever is shown after it on a page, so a name could pose as another (docs/notation.md).
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Letters that draw nothing (Hangul fillers), the usual disguise of a blank name.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def control_name(char: str) -> str:
    """How an error names a control character: by code point, never by the character."""
    return f"U+{ord(char):04X}" + (" (NUL)" if char == "\x00" else "")


def _visible(char: str) -> bool:
    """Whether a character draws something: not a space, control, format character (zero
    widths, bidi marks, BOM), unassigned or private code point, lone combining mark or filler."""
    return unicodedata.category(char)[0] not in "ZCM" and char not in _BLANK_LETTERS


def name_problem(name: str) -> tuple[str, str] | None:
    """What is wrong with a player name, or None: a name needs a visible character and holds
    no control character and no bidi embedding, override or isolate. The problem is an error
    code (fourcolor/messages.py) and the code points at fault. Names are quoted with such
    characters escaped, so that a message never hides or reorders itself."""
    if name.isascii() and name.isprintable() and not name.isspace():
        return None  # the usual case
    if not name.strip():
        return "tags.name_empty", ""
    for char in name:
        if unicodedata.category(char) == "Cc":
            return "tags.name_control", control_name(char)
        if char in _BIDI_CONTROLS:
            if not any(map(_visible, name)):
                break
            return "tags.name_bidi", f"U+{ord(char):04X}"
    if not any(map(_visible, name)):
        codes = " ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(name))
        return "tags.name_invisible", codes
    return None


def player_key(name: str) -> str:
    """The case-insensitive identity of a player name: NFC, casefolded, blanks collapsed.

    "Bình", "BÌNH" and "bi\u0300nh" (decomposed) are one player; casefold handles ß/ss and
    Greek final sigma, which lower() does not. The archive files players under this key, and
    a record may not seat one player twice."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return " ".join(folded.split())
