"""The auction under the Laws: legality, whose turn, the final contract."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bidbox.core.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call, CallKind, Strain
from bidbox.core.hashing import keep_hash
from bidbox.core.seats import Seat, Vulnerability
from bidbox.errors import IllegalCallError, NotationError, shown


@dataclass(frozen=True)
class Contract:
    """A final contract: level, strain, doubled state (0, 1, 2) and declarer."""

    level: int
    strain: Strain
    doubled: int
    declarer: Seat

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{'X' * self.doubled}"

    def to_endplay(self) -> Any:
        from endplay.types import Contract as EpContract
        from endplay.types import Penalty

        penalty = (Penalty.passed, Penalty.doubled, Penalty.redoubled)[self.doubled]
        return EpContract(level=self.level, denom=self.strain.to_endplay(),
                          declarer=self.declarer.to_endplay(), penalty=penalty)


_SPLIT = re.compile(r"[\s,;]+|(?<=[A-Za-z♣♦♥♠])-(?=\S)")


def split_calls(text: str) -> list[str]:
    """Split '1C P 1H X', '1C,P,1H' or '1C-P-1H' into call tokens."""
    return [tok for tok in _SPLIT.split(text.strip()) if tok]


@keep_hash
@dataclass(frozen=True)
class Auction:
    """An immutable auction: dealer, vulnerability and the calls so far.

    Build one with :meth:`parse` or by :meth:`add`-ing calls; every call is checked
    against the Laws (sufficiency, who may double or redouble, the end of the auction).
    """

    dealer: Seat = Seat.N
    vul: Vulnerability = Vulnerability.NONE
    calls: tuple[Call, ...] = field(default=())

    def __post_init__(self) -> None:
        # Re-check the whole sequence so a hand-built Auction is never illegal.
        probe = Auction(self.dealer, self.vul, ()) if self.calls else None
        if probe is not None:
            for call in self.calls:
                probe = probe.add(call)

    @classmethod
    def parse(cls, text: str, dealer: Seat = Seat.N,
              vul: Vulnerability = Vulnerability.NONE) -> Auction:
        """Read calls separated by spaces, commas or dashes; 'AP' passes the auction out."""
        auction = cls(dealer, vul)
        for position, token in enumerate(split_calls(text), start=1):
            if token.upper() == "AP":
                while not auction.is_ended:
                    auction = auction.add(PASS)
                continue
            try:
                call = Call.parse(token)
            except NotationError as err:
                raise NotationError(f"call {position} of '{shown(text)}': {err}") from None
            auction = auction.add(call)
        return auction

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)

    def __len__(self) -> int:
        return len(self.calls)

    # --- whose turn -------------------------------------------------------
    def seat_of(self, index: int) -> Seat:
        """The seat that made (or will make) call number ``index`` (0-based)."""
        return self.dealer.after(index)

    @property
    def next_seat(self) -> Seat:
        return self.seat_of(len(self.calls))

    # --- state ------------------------------------------------------------
    def last_bid_index(self) -> int:
        # Kept on the instance (outside the fields, so equality, hashing and repr are
        # untouched): the walk and lint ask it of the same auction many times.
        cached: int | None = self.__dict__.get("_last_bid")
        if cached is None:
            cached = -1
            for i in range(len(self.calls) - 1, -1, -1):
                if self.calls[i].kind is CallKind.BID:
                    cached = i
                    break
            self.__dict__["_last_bid"] = cached
        return cached

    @property
    def last_bid(self) -> Call | None:
        i = self.last_bid_index()
        return self.calls[i] if i >= 0 else None

    @property
    def doubled(self) -> int:
        """0, 1 or 2: the double state of the last bid."""
        state = 0
        for call in self.calls[self.last_bid_index() + 1:]:
            if call.kind is CallKind.DOUBLE:
                state = 1
            elif call.kind is CallKind.REDOUBLE:
                state = 2
        return state

    @property
    def is_ended(self) -> bool:
        cached: bool | None = self.__dict__.get("_ended")
        if cached is None:
            calls = self.calls
            n = len(calls)
            if n < 4:
                cached = False
            elif self.last_bid_index() < 0:
                cached = n == 4  # four passes (a call other than pass needs a bid before it)
            else:
                cached = (calls[-1].kind is CallKind.PASS and calls[-2].kind is CallKind.PASS
                          and calls[-3].kind is CallKind.PASS)
            self.__dict__["_ended"] = cached
        return cached

    @property
    def is_passed_out(self) -> bool:
        return self.is_ended and self.last_bid_index() < 0

    def _illegal_reason(self, call: Call) -> str | None:
        if self.is_ended:
            return "the auction has ended"
        if call.kind is CallKind.PASS:
            return None
        last_i = self.last_bid_index()
        if call.kind is CallKind.BID:
            last = self.calls[last_i] if last_i >= 0 else None
            if last is not None and call.rank <= last.rank:
                return f"insufficient: it must be higher than {last}"
            return None
        if last_i < 0:
            return f"there is no bid to {'double' if call.kind is CallKind.DOUBLE else 'redouble'}"
        bidder_is_opponent = self.seat_of(last_i).side is not self.next_seat.side
        state = self.doubled
        if call.kind is CallKind.DOUBLE:
            if not bidder_is_opponent:
                return f"{self.calls[last_i]} was bid by your own side"
            if state:
                return f"{self.calls[last_i]} is already {'re' if state == 2 else ''}doubled"
            return None
        # Redouble: only our bid, doubled by an opponent, not yet redoubled.
        if bidder_is_opponent:
            return f"{self.calls[last_i]} was bid by the opponents"
        if state != 1:
            return (f"{self.calls[last_i]} is not doubled" if state == 0
                    else f"{self.calls[last_i]} is already redoubled")
        return None

    def is_legal(self, call: Call) -> bool:
        return self._illegal_reason(call) is None

    def add(self, call: Call | str) -> Auction:
        """A new auction with ``call`` made by the seat to call; raises if the Laws forbid it."""
        if isinstance(call, str):
            call = Call.parse(call)
        reason = self._illegal_reason(call)
        if reason is not None:
            raise IllegalCallError(str(self), len(self.calls) + 1, str(call), reason)
        new = object.__new__(Auction)
        object.__setattr__(new, "dealer", self.dealer)
        object.__setattr__(new, "vul", self.vul)
        object.__setattr__(new, "calls", (*self.calls, call))
        new.__dict__["_last_bid"] = len(self.calls) if call.kind is CallKind.BID \
            else self.last_bid_index()
        return new

    def prefix(self, count: int) -> Auction:
        """The auction after its first ``count`` calls. The start of a legal auction is
        legal, so it is not checked again (the walk's readings ask for one per call)."""
        if count >= len(self.calls):
            return self
        new = object.__new__(Auction)
        object.__setattr__(new, "dealer", self.dealer)
        object.__setattr__(new, "vul", self.vul)
        object.__setattr__(new, "calls", self.calls[:max(count, 0)])
        return new

    def extend(self, calls: Iterable[Call | str]) -> Auction:
        auction = self
        for call in calls:
            auction = auction.add(call)
        return auction

    def legal_calls(self) -> list[Call]:
        """Every legal next call: pass, double, redouble, then bids in ladder order."""
        if self.is_ended:
            return []
        out = [c for c in (PASS, DOUBLE, REDOUBLE) if self.is_legal(c)]
        last = self.last_bid
        start = last.rank + 1 if last is not None else 0
        out.extend(ALL_BIDS[start:])
        return out

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction has ended with a bid, else None."""
        last_i = self.last_bid_index()
        if not self.is_ended or last_i < 0:
            return None
        last = self.calls[last_i]
        assert last.strain is not None
        side = self.seat_of(last_i).side
        declarer = next(self.seat_of(i) for i, c in enumerate(self.calls)
                        if c.is_bid and c.strain is last.strain and self.seat_of(i).side is side)
        return Contract(last.level, last.strain, self.doubled, declarer)

    @property
    def declarer(self) -> Seat | None:
        contract = self.contract
        return contract.declarer if contract else None

    def has_called(self, seat: Seat) -> bool:
        return any(self.seat_of(i) is seat for i in range(len(self.calls)))

    def passed_hands(self) -> set[Seat]:
        """Seats that passed at their first turn before anyone opened: 'passed hands'."""
        out: set[Seat] = set()
        for i, call in enumerate(self.calls):
            if call.is_bid:
                break
            out.add(self.seat_of(i))
        return out

    def seats_that_passed(self) -> set[Seat]:
        """Seats that have made at least one pass."""
        return {self.seat_of(i) for i, c in enumerate(self.calls) if c.kind is CallKind.PASS}

    def is_vulnerable(self, seat: Seat) -> bool:
        return self.vul.is_vulnerable(seat)

    def calls_by(self, seat: Seat) -> Sequence[Call]:
        return [c for i, c in enumerate(self.calls) if self.seat_of(i) is seat]


__all__ = ["DOUBLE", "PASS", "REDOUBLE", "Auction", "Contract", "split_calls"]
