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
from dataclasses import dataclass, field

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import PASS, Call, CallKind
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
        for chosen in _decide_distinct(group.state, hands, systems):
            stack.append(_Group(advance(group.state, chosen.call), group.index[chosen.mask],
                                group.fallback or chosen.placement))
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


@dataclass
class _Chosen:
    """A call and the hands of a group that make it; ``placement``: judgement chose it."""

    call: Call
    mask: Array
    placement: bool


def _decide_distinct(state: TableState, hands: SubFeatures, systems: Mapping[Side, System]
                     ) -> list[_Chosen]:
    """``decide`` for every hand of ``hands``, run once per distinct combination of the
    measures it reads (the masks are the same as one ``decide`` over all the hands), and
    once per process for a combination already decided at this auction: the answers are
    kept by the measures' values (:class:`_Memo`), so a later batch decides only the
    points it has not met."""
    ns, ew = systems[Side.NS], systems[Side.EW]
    place = (state.auction, id(ns), id(ew))
    memo = _MEMO.get(place)
    if memo is not None:
        if memo.ns is ns and memo.ew is ew:
            _MEMO.move_to_end(place)
        else:  # another system under a reused id
            _forget(place)
            memo = None
    if memo is None and hands.n < _FEW:
        return _plain(state, hands, systems)
    learnt = _LEARNT.get(place)
    keyed = memo.keyed if memo is not None else learnt or _first_key(state)
    while True:
        codes = hands.parent.codes(keyed, hands.index)
        _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        if memo is None and learnt is None and first.size > _SPREAD * hands.n:
            # Too few repeats to group by on a first visit; from the second on, the
            # answers kept for later batches are worth the grouping.
            _remember(place, keyed)
            return _plain(state, hands, systems)
        reps = hands.index[first]
        points = hands.parent.points(keyed, reps)
        digest = _digest(points)
        answer = memo.find(points, digest) if memo is not None else np.full(len(reps), -1)
        todo = np.flatnonzero(answer < 0)
        if todo.size:
            distinct = DistinctFeatures(hands.parent, reps[todo], keyed)
            try:
                decisions = decide(state, distinct, systems)
            except UnkeyedMeasure as miss:
                keyed = keyed | {miss.name}
                if memo is not None:  # its points lack the new measure: start again
                    _forget(place)
                    memo = None
                continue
            read = frozenset(distinct.read) or keyed
            if memo is None and read != keyed:
                # A first visit that read less than its key: group by what was read next
                # time (fewer points), and keep the answers already by those measures, so
                # that the next batch decides only the points this one has not met (a
                # batch reaches each auction once: waiting for a second visit to keep
                # them decided every point of the second batch again).
                _remember(place, read)
                _first_memo(place, read, ns, ew, hands, reps, decisions)
            else:
                if memo is None:
                    memo = _new_memo(place, keyed, ns, ew)
                found = np.empty(todo.size, dtype=np.int32)
                for d in decisions:
                    found[d.mask] = memo.outcome(d.call, d.source == PLACEMENT)
                answer[todo] = found
                room = _room(memo, todo.size)
                memo.add(points[todo[:room]], digest[todo[:room]], found[:room])
                _remember(place, keyed)
                _kept(room)
            if memo is None:
                spread = inverse.reshape(-1)
                return [_Chosen(d.call, d.mask[spread], d.source == PLACEMENT)
                        for d in decisions]
        assert memo is not None
        per_hand = answer[inverse.reshape(-1)]
        out = []
        for k in np.unique(per_hand):
            call, placement = memo.outcomes[int(k)]
            out.append(_Chosen(call, per_hand == k, placement))
        return out


def _first_memo(place: _Place, read: frozenset[str], ns: System, ew: System,
                hands: SubFeatures, reps: Array, decisions: list[Decision]) -> _Memo:
    """A place's kept answers from a first visit whose step read only ``read``, fewer
    measures than the representatives ``reps`` were told apart by: several of them share
    a point of ``read`` and, the step having read nothing else, the same answer, so each
    point is kept once (the answer of its first representative)."""
    memo = _new_memo(place, read, ns, ew)
    found = np.empty(len(reps), dtype=np.int32)
    for d in decisions:
        found[d.mask] = memo.outcome(d.call, d.source == PLACEMENT)
    rows = hands.parent.points(read, reps)
    rows, first = np.unique(rows, axis=0, return_index=True)
    room = _room(memo, len(first))
    rows, first = rows[:room], first[:room]
    memo.add(rows, _digest(rows), found[first])
    _kept(room)
    return memo


def _plain(state: TableState, hands: SubFeatures, systems: Mapping[Side, System]
           ) -> list[_Chosen]:
    return [_Chosen(d.call, d.mask, d.source == PLACEMENT)
            for d in decide(state, hands, systems)]


class _Memo:
    """The calls decided at one auction (for one pair of systems), by the values of the
    measures in ``keyed``: a point's row (``HandFeatures.points``), sorted by a 64-bit
    digest for the look-up, the row itself compared too, so a clash of digests only
    costs a decision made again.

    Exact on the batch bidder's own terms: a decision made on a representative whose
    step read only ``keyed`` is the decision of every hand with the same values
    (:class:`features.DistinctFeatures`); it is kept instead of made again."""

    def __init__(self, keyed: frozenset[str], ns: System, ew: System) -> None:
        self.keyed = keyed
        self.ns, self.ew = ns, ew  # held: their ids in the place stay theirs
        self.digests = np.empty(0, dtype=np.uint64)
        self.rows: Array | None = None
        self.answers = np.empty(0, dtype=np.int32)
        self.outcomes: list[tuple[Call, bool]] = []
        self._index: dict[tuple[Call, bool], int] = {}

    @property
    def size(self) -> int:
        return int(self.digests.size)

    def outcome(self, call: Call, placement: bool) -> int:
        key = (call, placement)
        k = self._index.get(key)
        if k is None:
            k = self._index[key] = len(self.outcomes)
            self.outcomes.append(key)
        return k

    def find(self, rows: Array, digests: Array) -> Array:
        """Per row, the kept outcome's index, or -1."""
        if self.rows is None or self.size == 0:
            return np.full(len(rows), -1, dtype=np.int32)
        pos = np.minimum(np.searchsorted(self.digests, digests), self.size - 1)
        same = (self.digests[pos] == digests) & (self.rows[pos] == rows).all(axis=1)
        out: Array = np.where(same, self.answers[pos], -1).astype(np.int32)
        return out

    def add(self, rows: Array, digests: Array, answers: Array) -> None:
        all_digests = np.concatenate([self.digests, digests])
        order = np.argsort(all_digests, kind="stable")
        self.digests = all_digests[order]
        self.rows = rows[order] if self.rows is None else np.concatenate([self.rows,
                                                                          rows])[order]
        self.answers = np.concatenate([self.answers, answers])[order]


def _digest(rows: Array) -> Array:
    """A 64-bit FNV-style digest of each row (numpy's uint64 arithmetic wraps)."""
    out = np.full(rows.shape[0], 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    for k in range(rows.shape[1]):
        out ^= rows[:, k].astype(np.uint64)
        out *= prime
    return out


_MEMO: OrderedDict[_Place, _Memo] = OrderedDict()
_MEMO_POINTS = 400_000
"""Points kept over all auctions (about 60 bytes each at a dozen columns: some 25 MB at
most, the walk's bound); the auctions used longest ago go first."""
_memo_points = 0


def _new_memo(place: _Place, keyed: frozenset[str], ns: System, ew: System) -> _Memo:
    _forget(place)
    memo = _MEMO[place] = _Memo(keyed, ns, ew)
    return memo


def _forget(place: _Place) -> None:
    global _memo_points
    old = _MEMO.pop(place, None)
    if old is not None:
        _memo_points -= old.size


_MEMO_PLACE = _MEMO_POINTS // 8
"""Points one auction may keep. The opening seats' keys read a dozen measures, so nearly
every hand is a point of its own there (142,000 of 200,000 at the root): unbounded, they
took the whole bound at every batch of 200,000, each batch's evicting the answers of every
other auction before the next batch reached it, and nothing kept was ever read again."""


def _room(memo: _Memo, wanted: int) -> int:
    """How many of ``wanted`` new points ``memo`` may still keep (the first ones)."""
    return max(0, min(wanted, _MEMO_PLACE - memo.size))


def _kept(added: int) -> None:
    """Count the points added and drop the auctions used longest ago over the bound."""
    global _memo_points
    _memo_points += added
    while _memo_points > _MEMO_POINTS and len(_MEMO) > 1:
        _, old = _MEMO.popitem(last=False)
        _memo_points -= old.size


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
        _NODE_MEASURES.popitem(last=False)
    return out


_NODE_MEASURES: OrderedDict[int, tuple[Node, frozenset[str]]] = OrderedDict()


def _remember(place: _Place, keyed: frozenset[str]) -> None:
    _LEARNT[place] = keyed
    _LEARNT.move_to_end(place)
    if len(_LEARNT) > _LEARNT_KEPT:
        _LEARNT.popitem(last=False)


__all__ = ["BatchAuctions", "bid_batch", "choose_at_node"]
