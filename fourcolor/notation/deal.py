"""The deal lines of a record: ``S: card card ...``, one per seat, in any order."""

from __future__ import annotations

import re

from ..cards import Card, card_or_none, cards_or_none
from ..errors import FcnSyntaxError
from .model import DEAL_RE, Record


def parse_deal(lines: list[str], i: int, record: Record, first_line: int) -> int:
    positions = record.positions
    deal = record.deal
    start = i
    while i < len(lines):
        line = lines[i]
        m = DEAL_RE.match(line)
        if not m:
            if not line.strip():
                i += 1
                continue
            break
        number = first_line + i
        if not deal:
            positions["deal"] = (number, 1)
        seat = int(m.group(1))
        if seat in deal:
            raise FcnSyntaxError(
                "deal.repeated",
                n=seat,
                line=number,
                col=m.start(1) + 1,
            )
        key = f"deal {seat}"
        cards = cards_or_none(line[m.end() :])
        # None: a word names no card; the slow reader raises at the first one.
        deal[seat] = cards if cards is not None else _deal_cards(line, m.end(), number)
        positions[key] = (number, m.start(1) + 1)
        i += 1
    if not deal:
        # No deal line: errors about the deal point at the record's last line (or where the
        # deal was due, when that comes first).
        last = next((k for k in range(len(lines) - 1, -1, -1) if lines[k].strip()), 0)
        positions.setdefault("deal", (first_line + min(start, last), 1))
    return i


def _deal_cards(line: str, start: int, number: int) -> tuple[Card, ...]:
    """The cards of a deal line from column `start` on, or the error for its first bad word."""
    cards: list[Card] = []
    for m in re.finditer(r"\S+", line[start:]):
        card = card_or_none(m.group())
        if card is None:
            col = start + m.start() + 1
            raise FcnSyntaxError("deal.card", line=number, col=col, value=m.group())
        cards.append(card)
    return tuple(cards)
