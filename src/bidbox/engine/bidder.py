"""The bidder for one hand: the call the system prescribes, its meaning and the reason."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call
from bidbox.core.hand import Hand
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.fallback import (
    FALLBACK_BID_TEXT,
    FALLBACK_PASS_TEXT,
    fallback_bid,
    partner_forced,
)
from bidbox.engine.features import HandFeatures
from bidbox.engine.predicates import compile_predicate
from bidbox.engine.walk import candidates, table_context, walk
from bidbox.lang.system import CallEntry, Forcing, System


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

    def to_json(self) -> dict[str, object]:
        return {"call": str(self.call), "meaning": self.meaning,
                "forcing": None if self.forcing is None else self.forcing.value,
                "alert": self.alert, "fallback": self.fallback, "reason": self.reason,
                "tags": list(self.entry.tags) if self.entry else []}


def as_systems(ns: System, ew: System | None = None) -> dict[Side, System]:
    return {Side.NS: ns, Side.EW: ew or ns}


def choose_call(hand: Hand, auction: Auction, systems: Mapping[Side, System]) -> BidResult:
    """The call for ``hand`` held by the seat whose turn it is in ``auction``."""
    steps, nodes = walk(auction, dict(systems))
    seat = auction.next_seat
    node = nodes[seat.side]
    ctx = table_context(auction, len(auction.calls))
    features = HandFeatures(np.array([hand.suits], dtype=np.int16))
    if node is not None:
        for entry in candidates(node, ctx):
            if auction.is_legal(entry.call) and bool(compile_predicate(entry.choose)(
                    features, ctx)[0]):
                where = " ".join(map(str, entry.auction[:-1])) or "the opening"
                return BidResult(entry.call, entry, entry.text(), entry.forcing,
                                 default_alert(entry), False,
                                 f"{entry.call} after {where}: the first call in priority "
                                 f"order whose meaning fits ({entry.location})")
    partner_steps = [s for s in steps if s.seat is seat.partner]
    partner_entry = partner_steps[-1].entry if partner_steps else None
    why = "the system has no continuation here" if node is None or not node.calls else \
        "no call at this point of the system fits the hand"
    if partner_forced(auction, partner_entry):
        call = fallback_bid(auction, list(hand.lengths),
                            bool(features.value("balanced")[0]))
        if call != PASS:
            return BidResult(call, None, FALLBACK_BID_TEXT, None, False, True, why)
    return BidResult(PASS, None, FALLBACK_PASS_TEXT, None, False, True, why)


def bid_deal(hands: Mapping[Seat, Hand], systems: Mapping[Side, System], dealer: Seat = Seat.N,
             vul: Vulnerability = Vulnerability.NONE, silent: Side | None = None
             ) -> tuple[Auction, list[BidResult]]:
    """Bid a whole deal hand by hand; ``silent`` names a side that always passes."""
    auction = Auction(dealer, vul)
    results: list[BidResult] = []
    while not auction.is_ended:
        seat = auction.next_seat
        if silent is not None and seat.side is silent:
            result = BidResult(PASS, None, "silent side", None, False, False, "uncontested")
        else:
            result = choose_call(hands[seat], auction, systems)
        results.append(result)
        auction = auction.add(result.call)
    return auction, results
