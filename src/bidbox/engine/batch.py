"""The batch bidder: many deals bid at once, grouped by the auction so far.

Deals that have reached the same auction stand at the same node of both systems,
so each node's predicates run once, vectorised, over every deal in the group; the
group then splits by the call each hand chose. Each step is the one-hand bidder's own
(``engine.decide``, then ``walk.advance``), only the loop is inverted.

Within a group, hands that agree on every measure the step reads cannot be told apart by
it, so the step runs once per distinct combination (``features.DistinctFeatures``) and
its answers are spread back: a 1NT opener's 40,000 hands are a few hundred (HCP, shape)
points to the captain's trick model. Which measures a step reads is learnt as it runs: a
measure outside the key stops the run, joins the key and the step runs again, and the
measures read are kept per auction for the next batch to start from.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, CallKind
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine.decide import PLACEMENT, Decision, choose_at_node, decide
from bidbox.engine.features import (
    Array,
    DistinctFeatures,
    HandFeatures,
    SubFeatures,
    UnkeyedMeasure,
)
from bidbox.engine.walk import TableState, advance, start
from bidbox.evaluate.dealer import DealBatch
from bidbox.lang.system import Node, System


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
        hands = features[seat].take(group.index)
        for decision in _decide_distinct(group.state, hands, systems):
            stack.append(_Group(advance(group.state, decision.call), group.index[decision.mask],
                                group.fallback or decision.source == PLACEMENT))
    return result

_FIRST_KEY = frozenset({"hcp", "lengths"})
"""The measures a step is first tried with: the captain's estimate reads no others."""
_FEW = 16
"""Groups this small are decided hand by hand: grouping would save nothing."""
_SPREAD = 0.75
"""Above this share of distinct hands in a group, grouping costs more than it saves."""
_Place = tuple[Auction, int, int]
_LEARNT: OrderedDict[_Place, frozenset[str]] = OrderedDict()
_LEARNT_KEPT = 65536


def _decide_distinct(state: TableState, hands: SubFeatures, systems: Mapping[Side, System]
                     ) -> list[Decision]:
    """``decide`` for every hand of ``hands``, run once per distinct combination of the
    measures it reads (the masks are the same as one ``decide`` over all the hands)."""
    if hands.n < _FEW:
        return decide(state, hands, systems)
    place = (state.auction, id(systems[Side.NS]), id(systems[Side.EW]))
    keyed = _LEARNT.get(place)
    if keyed is None:
        keyed = _first_key(state)
    while True:
        codes = hands.parent.codes(keyed, hands.index)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        if first.size > _SPREAD * hands.n:
            _remember(place, keyed)
            return decide(state, hands, systems)
        distinct = DistinctFeatures(hands.parent, hands.index[first], keyed)
        try:
            decisions = decide(state, distinct, systems)
        except UnkeyedMeasure as miss:
            keyed = keyed | {miss.name}
            continue
        # Keep what was read, which may be less than the key (a node that reads only hcp).
        _remember(place, frozenset(distinct.read) or keyed)
        spread = inverse.reshape(-1)
        return [replace(d, mask=d.mask[spread]) for d in decisions]


def _first_key(state: TableState) -> frozenset[str]:
    """The key to try first where nothing is learnt yet: HCP and lengths, and every
    measure the calls of the next seat's notes and base at this point read (their
    predicates are what the step evaluates first), so that a first visit rarely runs
    twice. A measure in the key that the step does not read only makes fewer groups."""
    here = state.side(state.next_seat)
    names = set(_FIRST_KEY)
    for node in (here.node, here.base):
        if node is not None:
            names |= _node_measures(node)
    names.discard("context")  # table context, not a measure of the hand
    return frozenset(names)


def _node_measures(node: Node) -> frozenset[str]:
    kept = _NODE_MEASURES.get(id(node))
    if kept is not None and kept[0] is node:
        return kept[1]
    names: set[str] = set()
    for entry in node.ordered():
        names |= entry.choose.measures()
    out = frozenset(names)
    _NODE_MEASURES[id(node)] = (node, out)  # the node held with it: its id stays its own
    if len(_NODE_MEASURES) > _LEARNT_KEPT:
        _NODE_MEASURES.pop(next(iter(_NODE_MEASURES)))
    return out


_NODE_MEASURES: dict[int, tuple[Node, frozenset[str]]] = {}


def _remember(place: _Place, keyed: frozenset[str]) -> None:
    _LEARNT[place] = keyed
    _LEARNT.move_to_end(place)
    if len(_LEARNT) > _LEARNT_KEPT:
        _LEARNT.popitem(last=False)


__all__ = ["BatchAuctions", "bid_batch", "choose_at_node"]
