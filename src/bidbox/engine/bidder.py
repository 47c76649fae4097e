"""The bidder for one hand: the call the system prescribes, its meaning and the reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import DOUBLE, PASS, Call
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.decide import PLACEMENT, Decision, decide
from bidbox.engine.features import HandFeatures
from bidbox.engine.walk import SYSTEM, TableState, advance, replay, start
from bidbox.lang.system import CallEntry, Forcing, System

PLACEMENT_TEXT = "not in the notes: the captain's placement"
PLACEMENT_PASS_TEXT = "no agreement here: pass by judgement"
PENALTY_DOUBLE_TEXT = "penalty double by judgement: expects to beat their contract"
"""What a double means that no notes define: judgement doubles only for penalty, and only
where penalty is the double's default reading (engine.judgement._penalty_doubles)."""


def placement_text(call: Call) -> str:
    """The meaning of a call judgement made where the notes define none."""
    if call == PASS:
        return PLACEMENT_PASS_TEXT
    return PENALTY_DOUBLE_TEXT if call == DOUBLE else PLACEMENT_TEXT


def default_alert(entry: CallEntry | None) -> bool:
    """The alert flag as written, or by default: artificial calls are alerted.

    bidbox.rules refines this with a jurisdiction's regulation.
    """
    if entry is None:
        return False
    return entry.alert if entry.alert is not None else entry.is_artificial


@dataclass(frozen=True)
class BidResult:
    call: Call
    entry: CallEntry | None
    meaning: str
    forcing: Forcing | None
    alert: bool
    fallback: bool
    reason: str
    source: str = SYSTEM  # "system" (the notes), "base" or "placement" (judgement)

    def to_json(self) -> dict[str, object]:
        return {"call": str(self.call), "meaning": self.meaning,
                "forcing": None if self.forcing is None else self.forcing.value,
                "alert": self.alert, "fallback": self.fallback, "reason": self.reason,
                "tags": list(self.entry.tags) if self.entry else [], "source": self.source}


def as_systems(ns: System, ew: System | None = None) -> dict[Side, System]:
    return {Side.NS: ns, Side.EW: ew or ns}


def result_of(decision: Decision) -> BidResult:
    """The BidResult a player reads for one decision of the auction step."""
    entry = decision.entry
    if entry is not None and decision.source == PLACEMENT:  # judgement took the default pass
        return BidResult(entry.call, entry, entry.text(), entry.forcing, default_alert(entry),
                         True, decision.reason, PLACEMENT)
    if entry is None:
        return BidResult(decision.call, None, placement_text(decision.call), None, False,
                         True, decision.reason, PLACEMENT)
    return BidResult(entry.call, entry, entry.text(), entry.forcing, default_alert(entry),
                     False, decision.reason, decision.source)


def choose_call(hand: Hand, auction: Auction, systems: Mapping[Side, System]) -> BidResult:
    """The call for ``hand`` held by the seat whose turn it is in ``auction``."""
    _, state = replay(auction, systems)
    return _choose(hand, state, systems)


def _choose(hand: Hand, state: TableState, systems: Mapping[Side, System]) -> BidResult:
    features = HandFeatures(np.array([hand.suits], dtype=np.int16))
    decision = next(d for d in decide(state, features, systems) if d.mask[0])
    return result_of(decision)


def bid_deal(hands: Mapping[Seat, Hand], systems: Mapping[Side, System], dealer: Seat = Seat.N,
             vul: Vulnerability = Vulnerability.NONE, silent: Side | None = None
             ) -> tuple[Auction, list[BidResult]]:
    """Bid a whole deal hand by hand; ``silent`` names a side that always passes."""
    state = start(systems, Auction(dealer, vul))
    results: list[BidResult] = []
    while not state.auction.is_ended:
        seat = state.next_seat
        if silent is not None and seat.side is silent:
            result = BidResult(PASS, None, "silent side", None, False, False, "uncontested")
        else:
            result = _choose(hands[seat], state, systems)
        results.append(result)
        state = advance(state, result.call)
    return state.auction, results
