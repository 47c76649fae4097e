"""Alert decisions for many auctions that share their beginnings, each call read once.

A format asks for the decision of thousands of calls: every call of the published tree,
every call of every board bid by a system. Deciding each one on its own replays its
auction from the first call and reads every earlier call again (the walk, the negative
inference), so the notes of a relay system, whose auctions run ten or more calls deep,
spend nearly all their time reading the same beginnings again. Here the walk's state and
the table's reading of every prefix are kept, so a call costs one step of the walk, one
reading and the regulation's judgement of that call alone. The readings are the engine's
(``walk.advance``, ``inference.read_step``) and the judgement is
``rules.alerts.decide_reading_alert``: the decisions are those ``bidbox explain`` gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bidbox.core.auction import Auction
from bidbox.core.calls import CallKind
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.bidder import placement_text
from bidbox.engine.inference import CallReading, read_step
from bidbox.engine.walk import TableState, advance, start
from bidbox.lang.system import System
from bidbox.rules.alerts import decide_reading_alert
from bidbox.rules.regulation import AlertDecision, Regulation

_Key = tuple[Seat, Vulnerability, tuple[object, ...]]


@dataclass(frozen=True)
class ReadCall:
    """One call as the table reads it, with the regulation's decision."""

    reading: CallReading
    decision: AlertDecision

    @property
    def meaning(self) -> str:
        """The call's meaning as `bidbox explain` words it."""
        entry = self.reading.entry
        if entry is not None:
            return entry.text()
        if self.reading.step.call.kind in (CallKind.PASS, CallKind.DOUBLE):
            return placement_text(self.reading.step.call)
        return "not in the system: natural"


class AlertReader:
    """Reads auctions for one pair of systems (by side) under one regulation, keeping the
    state and reading of every prefix met, so auctions that share a beginning read it once.
    """

    def __init__(self, systems: Mapping[Side, System], regulation: Regulation) -> None:
        self.systems = dict(systems)
        self.regulation = regulation
        self._states: dict[_Key, TableState] = {}
        self._readings: dict[_Key, tuple[CallReading, ...]] = {}
        self._calls: dict[_Key, ReadCall] = {}

    def _key(self, auction: Auction, length: int) -> _Key:
        return (auction.dealer, auction.vul, auction.calls[:length])

    def _state(self, auction: Auction, length: int) -> tuple[TableState, tuple[CallReading, ...]]:
        """The walk's state after the first ``length`` calls, and their readings."""
        key = self._key(auction, length)
        if key in self._states:
            return self._states[key], self._readings[key]
        # From the longest prefix already read (a loop, not recursion: no depth limit).
        known = length
        while known > 0 and self._key(auction, known) not in self._states:
            known -= 1
        if known == 0 and self._key(auction, 0) not in self._states:
            self._states[self._key(auction, 0)] = start(self.systems, auction)
            self._readings[self._key(auction, 0)] = ()
        state, readings = self._states[self._key(auction, known)], \
            self._readings[self._key(auction, known)]
        for i in range(known, length):
            state = advance(state, auction.calls[i])
            readings = (*readings, read_step(state.steps[-1], state.auction))
            self._states[self._key(auction, i + 1)] = state
            self._readings[self._key(auction, i + 1)] = readings
        return state, readings

    def read_call(self, auction: Auction, index: int) -> ReadCall:
        """Call ``index`` (0-based) of ``auction``, read after the calls before it."""
        key = self._key(auction, index + 1)
        done = self._calls.get(key)
        if done is not None:
            return done
        state, readings = self._state(auction, index + 1)
        decision = decide_reading_alert(state.auction, readings, self.regulation)
        done = ReadCall(readings[index], decision)
        self._calls[key] = done
        return done

    def read(self, auction: Auction) -> list[ReadCall]:
        """Every call of ``auction`` with its reading and decision."""
        return [self.read_call(auction, i) for i in range(len(auction.calls))]

    def decision(self, auction: Auction) -> AlertDecision:
        """The decision for the last call of ``auction``."""
        return self.read_call(auction, len(auction.calls) - 1).decision


__all__ = ["AlertReader", "ReadCall"]
