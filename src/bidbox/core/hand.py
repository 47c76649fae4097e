"""A bridge hand as four 13-bit suit masks, the form the fast evaluators use.

Bit ``r`` of a suit mask is the card of rank index ``r``: 0 is the deuce, 12 the ace.
Suits are in PBN order: spades, hearts, diamonds, clubs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bidbox.errors import HandError, shown

RANKS = "23456789TJQKA"
"""Rank characters by rank index (0 = deuce ... 12 = ace)."""
SUIT_LETTERS = "SHDC"
ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8


def holding_to_str(mask: int) -> str:
    """'AKT3' for a suit mask, highest card first; '' for a void."""
    return "".join(RANKS[r] for r in range(12, -1, -1) if mask >> r & 1)


def parse_holding(text: str, where: str = "") -> int:
    """Read one suit ('AKT3', 'ak103', '-' or '' for a void) into a mask."""
    mask = 0
    body = text.strip().upper().replace("10", "T")
    if body in ("-", "—", "VOID"):
        return 0
    for ch in body:
        r = RANKS.find(ch)
        if r < 0:
            raise HandError(f"{where}unknown card '{shown(ch)}' in suit '{shown(text)}': ranks are "
                            "AKQJT98765432")
        if mask >> r & 1:
            raise HandError(f"{where}card '{ch}' appears twice in suit '{shown(text)}'")
        mask |= 1 << r
    return mask


@dataclass(frozen=True)
class Hand:
    """Thirteen cards as four suit masks (spades, hearts, diamonds, clubs)."""

    suits: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        total = sum(bin(m).count("1") for m in self.suits)
        if total != 13:
            raise HandError(f"hand '{self.pbn()}' has {total} cards, not 13")

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read PBN order 'S.H.D.C', e.g. 'AKQ2.J54.T9.8765'; '-' or '' is a void."""
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise HandError(f"cannot read hand '{shown(text)}': write four suits S.H.D.C separated "
                            "by dots, e.g. AKQ2.J54.T9.8765")
        masks = tuple(parse_holding(p, f"hand '{shown(text)}': ") for p in parts)
        total = sum(bin(m).count("1") for m in masks)
        if total != 13:
            raise HandError(f"hand '{shown(text)}' has {total} cards, not 13")
        return cls((masks[0], masks[1], masks[2], masks[3]))

    @classmethod
    def from_endplay(cls, hand: Any) -> Hand:
        return cls.parse(str(hand.to_pbn()))

    def pbn(self) -> str:
        return ".".join(holding_to_str(m) for m in self.suits)

    def __str__(self) -> str:
        return self.pbn()

    def __repr__(self) -> str:
        return f"Hand.parse({self.pbn()!r})"

    def to_endplay(self) -> Any:
        from endplay.types import Hand as EpHand

        return EpHand(self.pbn())

    @property
    def lengths(self) -> tuple[int, int, int, int]:
        a, b, c, d = (bin(m).count("1") for m in self.suits)
        return (a, b, c, d)
