"""The batch bidder: many deals bid at once, grouped by the auction so far.

Deals that have reached the same auction stand at the same node of both systems,
so each node's predicates run once, vectorised, over every deal in the group; the
group then splits by the call each hand chose. Each step is the one-hand bidder's own
(``engine.decide``, then ``walk.advance``), only the loop is inverted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, CallKind
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.decide import PLACEMENT, choose_at_node, decide
from bidbox.engine.features import Array, HandFeatures
from bidbox.engine.walk import TableState, advance, start
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.system import System


@dataclass
class _Group:
    state: TableState
    index: Array
    fallback: bool


@dataclass
class BatchAuctions:
    """The auctions of a batch of deals: each distinct auction with the deals that reached it."""

    count: int
    groups: list[tuple[Auction, Array, bool]] = field(default_factory=list)

    def auction_index(self) -> Array:
        """For each deal, the position of its auction in ``groups``."""
        out = np.empty(self.count, dtype=np.int32)
        for k, (_, index, _) in enumerate(self.groups):
            out[index] = k
        return out

    def auctions(self) -> list[Auction]:
        by_deal = self.auction_index()
        return [self.groups[k][0] for k in by_deal]

    def fallback_rate(self) -> float:
        used = sum(len(index) for _, index, fb in self.groups if fb)
        return used / self.count if self.count else 0.0

    def opening_frequencies(self) -> dict[str, float]:
        counts: dict[str, int] = {}
        for auction, index, _ in self.groups:
            opening = next((str(c) for c in auction.calls if c.kind is not CallKind.PASS),
                           "passed out")
            counts[opening] = counts.get(opening, 0) + len(index)
        return {k: v / self.count for k, v in sorted(counts.items(),
                                                      key=lambda kv: -kv[1])}


def bid_batch(deals: DealBatch, systems: Mapping[Side, System], dealer: Seat = Seat.N,
              vul: Vulnerability = Vulnerability.NONE, silent: Side | None = None
              ) -> BatchAuctions:
    """Bid every deal of ``deals``; ``silent`` names a side that always passes."""
    features = {seat: HandFeatures(deals.hands(seat)) for seat in Seat}
    result = BatchAuctions(len(deals))
    stack = [_Group(start(systems, Auction(dealer, vul)), np.arange(len(deals)), False)]
    while stack:
        group = stack.pop()
        if group.state.auction.is_ended:
            result.groups.append((group.state.auction, group.index, group.fallback))
            continue
        seat = group.state.next_seat
        if silent is not None and seat.side is silent:
            stack.append(_Group(advance(group.state, PASS), group.index, group.fallback))
            continue
        for decision in decide(group.state, features[seat].take(group.index), systems):
            stack.append(_Group(advance(group.state, decision.call), group.index[decision.mask],
                                group.fallback or decision.source == PLACEMENT))
    return result

__all__ = ["BatchAuctions", "bid_batch", "choose_at_node"]
