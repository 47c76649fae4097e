"""Strains and calls, each with ``parse`` and a canonical ``__str__``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any

from bidbox.core.hashing import keep_hash
from bidbox.errors import NotationError, shown


class Strain(IntEnum):
    """A denomination in bidding order (clubs lowest, no-trump highest)."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    @classmethod
    def parse(cls, text: str) -> Strain:
        key = text.strip().upper()
        names = {"C": cls.C, "D": cls.D, "H": cls.H, "S": cls.S, "N": cls.NT, "NT": cls.NT,
                 "♣": cls.C, "♦": cls.D, "♥": cls.H, "♠": cls.S}
        if key not in names:
            raise NotationError(f"unknown strain '{shown(text)}': use C, D, H, S or NT")
        return names[key]

    def __str__(self) -> str:
        return self.name

    @property
    def is_suit(self) -> bool:
        return self is not Strain.NT

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)

    @property
    def suit_index(self) -> int:
        """Column of this suit in hand arrays, which follow PBN order S, H, D, C."""
        if self is Strain.NT:
            raise ValueError("no-trump has no suit index")
        return 3 - int(self)

    @classmethod
    def from_suit_index(cls, index: int) -> Strain:
        return cls(3 - index)

    def to_endplay(self) -> Any:
        from endplay.types import Denom

        return Denom(4 if self is Strain.NT else 3 - int(self))


SUITS: tuple[Strain, ...] = (Strain.S, Strain.H, Strain.D, Strain.C)
"""The four suits in PBN order (the column order of hand arrays)."""

GAME_LEVEL: dict[Strain, int] = {Strain.NT: 3, Strain.S: 4, Strain.H: 4, Strain.D: 5,
                                 Strain.C: 5}
"""The lowest level that is game in each strain."""


class CallKind(Enum):
    PASS = "P"
    DOUBLE = "X"
    REDOUBLE = "XX"
    BID = "bid"


_BID_RE = re.compile(r"^([1-7])\s*(NT|N|C|D|H|S|♣|♦|♥|♠)$", re.IGNORECASE)
_WORDS = {
    "P": CallKind.PASS, "PASS": CallKind.PASS, "PA": CallKind.PASS, "-": CallKind.PASS,
    "X": CallKind.DOUBLE, "D": CallKind.DOUBLE, "DBL": CallKind.DOUBLE,
    "DOUBLE": CallKind.DOUBLE,
    "XX": CallKind.REDOUBLE, "R": CallKind.REDOUBLE, "RDBL": CallKind.REDOUBLE,
    "REDOUBLE": CallKind.REDOUBLE,
}


@keep_hash
@dataclass(frozen=True, order=False)
class Call:
    """Pass, double, redouble or a bid of 1C..7NT."""

    kind: CallKind
    level: int = 0
    strain: Strain | None = None

    def __post_init__(self) -> None:
        if self.kind is CallKind.BID:
            if not 1 <= self.level <= 7 or self.strain is None:
                raise NotationError(f"a bid needs a level 1-7 and a strain, not {self.level}"
                                    f"{self.strain}")
        elif self.level or self.strain is not None:
            raise NotationError(f"{self.kind.name.lower()} has no level or strain")

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read '1C', '1n', '1NT', 'P', 'Pass', 'X', 'XX', 'D', 'R', 'Dbl', 'Rdbl' (any case)."""
        raw = text.strip()
        key = raw.upper()
        if key in _WORDS:
            return cls(_WORDS[key])
        m = _BID_RE.match(raw)
        if not m:
            raise NotationError(
                f"cannot read call '{shown(text)}': write a bid as level and strain (1C, 3NT), "
                "or P, X, XX")
        return cls(CallKind.BID, int(m.group(1)), Strain.parse(m.group(2)))

    @classmethod
    def bid(cls, level: int, strain: Strain) -> Call:
        return cls(CallKind.BID, level, strain)

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def rank(self) -> int:
        """Position of a bid in the bidding ladder: 1C=0 ... 7NT=34 (-1 for other calls)."""
        if self.strain is None:
            return -1
        return (self.level - 1) * 5 + int(self.strain)

    @classmethod
    def from_rank(cls, rank: int) -> Call:
        if not 0 <= rank < 35:
            raise NotationError(f"no bid at ladder position {rank}")
        return cls(CallKind.BID, rank // 5 + 1, Strain(rank % 5))

    def __str__(self) -> str:
        if self.kind is CallKind.BID:
            return f"{self.level}{self.strain}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"Call.parse({str(self)!r})"


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)
ALL_BIDS: tuple[Call, ...] = tuple(Call.from_rank(r) for r in range(35))
