"""The error family: every problem with a record is a `FcnError` (a ValueError) that says what
(a stable `code`, its `params` and the rule `category`), where (line, column, ply) and in which
event (its text). The English `message` is rendered from the code and the parameters by one
table (fourcolor/messages.py); pages translate the code, never the English.

    FcnError (ValueError)
    ├── FcnSyntaxError      the text is not well-formed FCN (the reader)
    ├── LimitError          input larger than the reader accepts
    └── IllegalRecordError  well-formed, but not a legal round (`validate`)
        └── IllegalMoveError  one event the round refuses (`Round.push`)
"""

from __future__ import annotations

from typing import Any

from .messages import MESSAGES, render


class FcnError(ValueError):
    """A record that cannot be read or is not a legal round.

    `code` is a key of `MESSAGES` and `params` its parameters (ints, strings and lists of card
    tokens: JSON as they are); the category is the code's unless `category` overrides it.
    ``ply`` is the 1-based number of the event at fault, 0 for the tags or the deal, and the
    number of events + 1 for a record that stops early or whose Result disagrees.
    """

    category: str = "error"

    def __init__(
        self,
        code: str,
        /,
        *,
        category: str | None = None,
        line: int = 0,
        col: int = 0,
        ply: int = 0,
        event: str = "",
        **params: Any,
    ) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
        self.category = category or MESSAGES[code][0]
        self.line = line
        self.col = col
        self.ply = ply
        self.event = event

    @property
    def message(self) -> str:
        """The English message (rendered when asked: the engine refuses events by the
        thousand while it searches, and reads no message)."""
        return render(self.code, self.params)

    def __str__(self) -> str:
        where = f"{self.line}:{self.col}: " if self.line else ""
        tail = f' (ply {self.ply}: "{self.event}")' if self.event else f" (ply {self.ply})"
        return f"{where}error[{self.category}]: {self.message}{tail}"

    def as_dict(self) -> dict[str, object]:
        where = {key: getattr(self, key) for key in ("line", "col", "ply", "category", "code")}
        return where | {"params": dict(self.params), "message": self.message, "event": self.event}


class FcnSyntaxError(FcnError):
    """The text is not well-formed FCN (a bad token, tag, deal line or group)."""


class IllegalRecordError(FcnError):
    """Well-formed text that is not a legal round under its ruleset (RULES.md §9)."""


class IllegalMoveError(IllegalRecordError):
    """An event that breaks a rule in the round's current state: `Round.push` raises it with
    the rule's code, the event's ply and text, and its line and column when it was read
    from a record (0 for an event built by hand). The round is unchanged then."""

    def locate(self, ply: int, line: int, col: int, event: str) -> None:
        """Where the refused event is: set by `Round.push`, which knows the ply and event."""
        self.ply, self.line, self.col, self.event = ply, line, col, event


class LimitError(FcnError):
    """Input larger than the parser accepts (record size, line length, events, tags)."""
