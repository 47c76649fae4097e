"""Seats, sides and vulnerability."""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Any

from bidbox.errors import NotationError, did_you_mean, shown


class Seat(IntEnum):
    """A compass seat; the integer order is the calling order (N, E, S, W), as in endplay."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read 'N', 'north', 'e', ... (case-insensitive)."""
        key = text.strip().upper()
        names = {"N": cls.N, "NORTH": cls.N, "E": cls.E, "EAST": cls.E,
                 "S": cls.S, "SOUTH": cls.S, "W": cls.W, "WEST": cls.W}
        if key not in names:
            raise NotationError(f"unknown seat '{shown(text)}': use N, E, S or W"
                                f"{did_you_mean(key, names)}")
        return names[key]

    def __str__(self) -> str:
        return self.name

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next seat to call."""
        return Seat((self + 1) % 4)

    @property
    def rho(self) -> Seat:
        """Right-hand opponent: the previous seat to call."""
        return Seat((self + 3) % 4)

    @property
    def side(self) -> Side:
        return Side.NS if self in (Seat.N, Seat.S) else Side.EW

    def after(self, steps: int) -> Seat:
        """The seat that calls ``steps`` turns after this one."""
        return _SEATS[(self + steps) % 4]  # a tuple lookup: Seat(n) is slow in hot loops

    def to_endplay(self) -> Any:
        from endplay.types import Player

        return Player(int(self))


_SEATS: tuple[Seat, ...] = tuple(Seat)


class Side(Enum):
    NS = "NS"
    EW = "EW"

    def __str__(self) -> str:
        return self.value

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)


class Vulnerability(Enum):
    """Which sides are vulnerable on a board."""

    NONE = "none"
    NS = "ns"
    EW = "ew"
    BOTH = "both"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """Read the CLI words (none, ns, ew, both), PBN's (None, Love, -, NS, EW, All, Both)
        and other programs' (N-S, Neither)."""
        key = text.strip().lower().replace("-", "").replace("/", "")
        names = {"none": cls.NONE, "love": cls.NONE, "neither": cls.NONE, "": cls.NONE,
                 "o": cls.NONE,
                 "ns": cls.NS, "n": cls.NS, "ew": cls.EW, "e": cls.EW,
                 "both": cls.BOTH, "all": cls.BOTH, "b": cls.BOTH}
        if key not in names:
            raise NotationError(f"unknown vulnerability '{shown(text)}': use none, ns, ew or both"
                                f"{did_you_mean(key, names)}")
        return names[key]

    def __str__(self) -> str:
        return self.value

    def is_vulnerable(self, seat: Seat) -> bool:
        """Whether ``seat``'s side is vulnerable."""
        if self is Vulnerability.BOTH:
            return True
        if self is Vulnerability.NONE:
            return False
        return (seat.side is Side.NS) == (self is Vulnerability.NS)
