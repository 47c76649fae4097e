"""What each call tells the table: its meaning with the negative inference of the calls
the bidder would have tried first.

One reading serves the explainer (what a player is told), the captain's placement (what
partner is known to hold) and the regulation checks, so they cannot disagree.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.seats import Seat, Side
from bidbox.engine.features import Array, Features
from bidbox.engine.predicates import TableContext
from bidbox.engine.profiles import EXACT_MEASURES
from bidbox.engine.walk import (
    BASE,
    SYSTEM,
    TableState,
    WalkStep,
    candidates,
    replay,
    tried_before,
)
from bidbox.lang.constraints import Constraint, conjoin, disjoin, negate
from bidbox.lang.system import CallEntry, System


@dataclass(frozen=True)
class CallReading:
    """One call as the table reads it."""

    step: WalkStep
    denied: tuple[CallEntry, ...]  # calls tried before it that the hand did not fit
    shows: Constraint | None  # its meaning and the negative inference together

    @property
    def entry(self) -> CallEntry | None:
        return self.step.entry


def denied_calls(step: WalkStep, auction: Auction) -> list[CallEntry]:
    """The calls the bidder tried before ``step.call``: its notes' calls first, then (for a
    call the notes do not define) the base's calls that the notes do not define."""
    before = auction.prefix(step.index)
    denied: list[CallEntry] = []
    chosen = step.entry if step.source == SYSTEM else None
    if step.node is not None:
        denied = tried_before(step.node, chosen, step.context, before)
    if step.source != SYSTEM and step.base_node is not None:
        defined = ({e.call for e in candidates(step.node, step.context)}
                   if step.node is not None else set())
        base_chosen = step.entry if step.source == BASE else None
        denied += [e for e in tried_before(step.base_node, base_chosen, step.context, before)
                   if e.call not in defined]
    # The notes' default pass is judgement's to make: passing it by denies nothing.
    return [e for e in denied if not e.is_default_pass]


def read_step(step: WalkStep, auction: Auction) -> CallReading:
    denied = denied_calls(step, auction)
    negative = negate(disjoin([e.choose for e in denied])) if denied else None
    parts = [c for c in (step.entry.shown if step.entry else None, step.judged, negative)
             if c is not None]
    return CallReading(step, tuple(denied), conjoin(parts) if parts else None)


def read_auction(auction: Auction, systems: Mapping[Side, System]) -> list[CallReading]:
    """Every call of ``auction`` as the table reads it."""
    steps, _ = replay(auction, systems)
    return [read_step(step, auction) for step in steps]


_ReadKey = tuple[object, ...]
_READINGS: OrderedDict[_ReadKey, CallReading] = OrderedDict()
_READINGS_KEPT = 65536


def _read_key(step: WalkStep, auction: Auction) -> _ReadKey:
    # What a reading depends on: the entry, where each tree stood, the table context and
    # the calls before it (their legality), and the seat: a reading carries its step,
    # whose seat files the facts, and the same auction is called by another seat under
    # another dealer. Ids are safe: a kept reading holds its step, and so the entry and
    # nodes, alive.
    return (id(step.entry), id(step.node), id(step.base_node), step.source, step.context,
            step.seat, step.call, step.judged, auction.calls[:step.index])


def read_state(state: TableState) -> list[CallReading]:
    """Every call of the walk's ``state`` as the table reads it. A reading is kept by what
    it depends on, so the batch bidder's groups, which share their earlier steps, and
    later batches that reach the same auctions read each call once."""
    return read_steps(state.steps, state.auction)


def read_steps(steps: Sequence[WalkStep], auction: Auction) -> list[CallReading]:
    """:func:`read_state` of some of the steps of an auction (one seat's calls, say)."""
    out = []
    for step in steps:
        # A step object is made once, by the walk's advance from one state, and shared by
        # every state after it: its reading is found by its identity first, without the
        # key (whose calls before it are a new tuple to hash at every state).
        mine = _BY_STEP.get(id(step))
        if mine is not None and mine[0] is step:
            out.append(mine[1])
            continue
        key = _read_key(step, auction)
        reading = _READINGS.get(key)
        if reading is None or not _same_place(reading.step, step):
            reading = read_step(step, auction)
            _READINGS[key] = reading
            if len(_READINGS) > _READINGS_KEPT:
                _READINGS.popitem(last=False)
        _BY_STEP[id(step)] = (step, reading)  # the step held with it: its id stays its own
        if len(_BY_STEP) > _READINGS_KEPT:
            _BY_STEP.popitem(last=False)
        out.append(reading)
    return out


_BY_STEP: OrderedDict[int, tuple[WalkStep, CallReading]] = OrderedDict()


def _same_place(a: WalkStep, b: WalkStep) -> bool:
    return a.entry is b.entry and a.node is b.node and a.base_node is b.base_node


Facts = list[tuple[Constraint, TableContext]]


def measures_of(facts: Facts) -> set[str]:
    """Every measure the facts read."""
    used: set[str] = set()
    for c, _ in facts:
        used |= c.measures()
    return used


def is_exact(facts: Facts) -> bool:
    """Whether the facts read only what the exact profile space knows (lengths, HCP,
    controls, shape classes): then knowledge and estimates are exact there."""
    return measures_of(facts) <= EXACT_MEASURES


def fitting(facts: Facts, space: Features,
            evaluate: Callable[[Constraint, TableContext], Array]) -> Array:
    """The points of ``space`` that fit every fact (``evaluate`` gives one fact's mask)."""
    mask = np.ones(space.n, dtype=bool)
    for c, ctx in facts:
        mask &= evaluate(c, ctx)
    return mask


def facts_by_seat(readings: list[CallReading]) -> dict[Seat, Facts]:
    """Per seat, the constraints its calls have shown, each with its table context."""
    facts: dict[Seat, Facts] = {s: [] for s in Seat}
    for reading in readings:
        if reading.shows is not None:
            facts[reading.step.seat].append((reading.shows, reading.step.context))
    return facts
