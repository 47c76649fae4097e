"""The batch bidder: many deals bid at once, grouped by the auction so far.

Deals that have reached the same auction stand at the same node of both systems,
so each node's predicates run once, vectorised, over every deal in the group; the
group then splits by the call each hand chose. The calls and fallbacks are the same
as the one-hand bidder's (tested), only the loop is inverted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call, CallKind
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.fallback import fallback_bid, partner_forced
from bidbox.engine.features import Array, Features, HandFeatures, SubFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.walk import candidates, step_ours, step_theirs, table_context
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.system import CallEntry, Node, System


@dataclass
class _Group:
    auction: Auction
    index: Array
    nodes: dict[Side, Node | None]
    last_entry: dict[Seat, CallEntry | None]
    fallback: bool
    opened: bool


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
    start = _Group(Auction(dealer, vul), np.arange(len(deals)),
                   {side: systems[side].root for side in Side},
                   dict.fromkeys(Seat), False, False)
    stack = [start]
    while stack:
        group = stack.pop()
        if group.auction.is_ended:
            result.groups.append((group.auction, group.index, group.fallback))
            continue
        for call, index, entry, used_fallback in _choose(group, features, silent):
            stack.append(_advance(group, call, index, entry, used_fallback))
    return result


def _choose(group: _Group, features: dict[Seat, HandFeatures], silent: Side | None
            ) -> list[tuple[Call, Array, CallEntry | None, bool]]:
    auction = group.auction
    seat = auction.next_seat
    if silent is not None and seat.side is silent:
        return [(PASS, group.index, None, False)]
    node = group.nodes[seat.side]
    ctx = table_context(auction, len(auction.calls))
    hands: SubFeatures = features[seat].take(group.index)
    out: list[tuple[Call, Array, CallEntry | None, bool]] = []
    remaining = np.ones(len(group.index), dtype=bool)
    if node is not None:
        for entry, hit in choose_at_node(node, hands, ctx, auction):
            out.append((entry.call, group.index[hit], entry, False))
            remaining &= ~hit
    if remaining.any():
        rest = group.index[remaining]
        if partner_forced(auction, group.last_entry[seat.partner]):
            lengths = features[seat].value("lengths")[rest]
            balanced = features[seat].value("balanced")[rest].astype(bool)
            keys = np.where(balanced, 4, np.argmax(lengths * 16 - np.arange(4), axis=1))
            for key in np.unique(keys):
                sample = rest[keys == key][0]
                call = fallback_bid(auction, list(features[seat].value("lengths")[sample]),
                                    bool(key == 4))
                out.append((call, rest[keys == key], None, True))
        else:
            out.append((PASS, rest, None, True))
    return out


def choose_at_node(node: Node, hands: Features, ctx: TableContext, auction: Auction
                   ) -> list[tuple[CallEntry, Array]]:
    """For each call at ``node``, the hands (a bool mask) that choose it: priority order,
    first fitting meaning wins. Hands in no mask have no call here (the fallback's)."""
    remaining = np.ones(hands.n, dtype=bool)
    out: list[tuple[CallEntry, Array]] = []
    for entry in candidates(node, ctx):
        if not remaining.any():
            break
        if not auction.is_legal(entry.call):
            continue
        hit = remaining & compile_predicate(entry.choose)(hands, ctx)
        if hit.any():
            out.append((entry, hit))
            remaining &= ~hit
    return out


def _advance(group: _Group, call: Call, index: Array, entry: CallEntry | None,
             used_fallback: bool) -> _Group:
    auction = group.auction
    seat = auction.next_seat
    ctx = table_context(auction, len(auction.calls))
    nodes = dict(group.nodes)
    opened = group.opened or call.kind is not CallKind.PASS
    if opened:
        side = seat.side
        other = Side.EW if side is Side.NS else Side.NS
        nodes[side], _ = step_ours(nodes[side], call, ctx)
        nodes[other] = step_theirs(nodes[other], call)
    last = dict(group.last_entry)
    last[seat] = entry
    return _Group(auction.add(call), index, nodes, last, group.fallback or used_fallback, opened)
