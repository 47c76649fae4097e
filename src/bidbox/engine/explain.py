"""Explain an auction: what each call shows and what each seat is now known to hold.

A call shows its own meaning and, by negative inference, that the hand did not fit
any call the system would have tried first. A seat's knowledge is the conjunction of
all that over its calls, measured exactly on the profile space when the meanings
speak only of lengths, HCP and controls, and on dealt hands otherwise (said so).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.calls import Call
from bidbox.core.seats import Seat, Side
from bidbox.engine.bidder import PLACEMENT_PASS_TEXT, default_alert
from bidbox.engine.features import Array, Features, sample_hands
from bidbox.engine.inference import Facts, facts_by_seat, fitting, measures_of, read_auction
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, profile_space
from bidbox.evaluate import get_measure
from bidbox.lang.constraints import Constraint
from bidbox.lang.system import CallEntry, Forcing, System

SUIT_KEYS = ("S", "H", "D", "C")


@dataclass(frozen=True)
class CallExplanation:
    index: int
    seat: Seat
    call: Call
    entry: CallEntry | None
    meaning: str
    forcing: Forcing | None
    alert: bool
    fallback: bool
    denies: tuple[Call, ...]  # higher-priority calls the hand did not fit
    note: str | None
    effective: Constraint | None = None  # what the call shows with its negative inference
    source: str | None = None  # "system" (the notes), "base", or None (judgement/fallback)

    def to_json(self) -> dict[str, object]:
        return {"seat": str(self.seat), "call": str(self.call), "meaning": self.meaning,
                "forcing": None if self.forcing is None else self.forcing.value,
                "alert": self.alert, "fallback": self.fallback,
                "tags": list(self.entry.tags) if self.entry else [],
                "shows": str(self.entry.shows) if self.entry else None,
                "denies": [str(c) for c in self.denies], "note": self.note,
                "source": self.source or "placement"}


@dataclass
class SeatKnowledge:
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    flags: dict[str, str | list[str]] = field(default_factory=dict)
    method: str = "exact"
    consistent: bool = True
    probability: float | None = None
    shape: str | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {k: [_num(lo), _num(hi)] for k, (lo, hi) in self.ranges.items()}
        out.update(self.flags)
        if self.shape:
            out["shape"] = self.shape
        out["method"] = self.method
        out["consistent"] = self.consistent
        if self.probability is not None:
            out["probability"] = round(self.probability, 6)
        return out

    def summary(self) -> str:
        if not self.consistent:
            return "inconsistent: no hand fits every call"
        parts = []
        if "hcp" in self.ranges:
            lo, hi = self.ranges["hcp"]
            parts.append(f"{_num(lo)}-{_num(hi)} HCP")
        if self.shape:
            parts.append(f"shape {self.shape}")
        else:
            for key in SUIT_KEYS:
                lo, hi = self.ranges[key]
                if (lo, hi) != (0, 13):
                    parts.append(f"{_num(lo)}-{_num(hi)}{key}")
        for key, (lo, hi) in self.ranges.items():
            if key not in ("hcp", *SUIT_KEYS):
                parts.append(f"{key} {_num(lo)}-{_num(hi)}")
        return ", ".join(parts) + ("" if self.method == "exact" else f" ({self.method})")


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


@dataclass
class Explanation:
    auction: Auction
    calls: list[CallExplanation]
    knowledge: dict[Seat, SeatKnowledge]

    def to_json(self) -> dict[str, object]:
        return {"auction": str(self.auction), "dealer": str(self.auction.dealer),
                "vul": str(self.auction.vul),
                "calls": [c.to_json() for c in self.calls],
                "knowledge": {str(s): k.to_json() for s, k in self.knowledge.items()}}


def explain(auction: Auction, systems: Mapping[Side, System]) -> Explanation:
    calls, facts = _read_calls(auction, systems)
    knowledge = {seat: measure_knowledge(facts[seat]) for seat in Seat}
    return Explanation(auction, calls, knowledge)


def seat_facts(auction: Auction, systems: Mapping[Side, System]) -> dict[Seat, Facts]:
    """Per seat, the constraints its calls have shown, each with its table context."""
    return facts_by_seat(read_auction(auction, systems))


def _read_calls(auction: Auction, systems: Mapping[Side, System]
                ) -> tuple[list[CallExplanation], dict[Seat, Facts]]:
    readings = read_auction(auction, systems)
    calls: list[CallExplanation] = []
    for reading in readings:
        step, entry = reading.step, reading.entry
        note = None
        if step.node is None and entry is None:
            note = (f"call {step.index + 1} ({step.call} by {step.seat}) is outside the system: "
                    "its side's notes do not reach this auction")
        elif entry is None:
            note = (f"call {step.index + 1} ({step.call} by {step.seat}) is not defined "
                    "here: read as judgement (the captain's placement), natural")
        if entry is not None:
            meaning = entry.text()
        elif step.call.kind.name == "PASS":
            meaning = PLACEMENT_PASS_TEXT
        else:
            meaning = "not in the system: natural"
        calls.append(CallExplanation(step.index, step.seat, step.call, entry, meaning,
                                     entry.forcing if entry else None, default_alert(entry),
                                     entry is None, tuple(e.call for e in reading.denied),
                                     note, reading.shows if entry is not None else None,
                                     step.source))
    return calls, facts_by_seat(readings)


def measure_knowledge(facts: list[tuple[Constraint, TableContext]]) -> SeatKnowledge:
    """Ranges of HCP, suit lengths and every other constrained measure over fitting hands."""
    used = measures_of(facts)
    exact = used <= EXACT_MEASURES
    space: Features = profile_space() if exact else sample_hands()
    mask = fitting(facts, space, lambda c, ctx: compile_predicate(c)(space, ctx))
    knowledge = SeatKnowledge(method="exact" if exact else f"sampled ({space.n:,} hands)")
    if not mask.any():
        knowledge.consistent = not facts
        if facts:
            return knowledge
        mask = np.ones(space.n, dtype=bool)
    if exact:
        prob = profile_space().probability
        knowledge.probability = float(prob[mask].sum())
    else:
        knowledge.probability = float(mask.mean())

    def span(values: Array) -> tuple[float, float]:
        return float(values.min()), float(values.max())

    knowledge.ranges["hcp"] = span(space.value("hcp")[mask])
    lengths = space.value("lengths")[mask]
    for i, key in enumerate(SUIT_KEYS):
        knowledge.ranges[key] = span(lengths[:, i])
    if all(knowledge.ranges[k][0] == knowledge.ranges[k][1] for k in SUIT_KEYS):
        knowledge.shape = "-".join(str(int(knowledge.ranges[k][0])) for k in SUIT_KEYS)
    for name in sorted(used - {"hcp", "lengths", "context", "pattern", "shape"}):
        measure = get_measure(name)
        values = space.value(name)[mask]
        if measure.per_suit:
            if measure.numeric:
                for i, key in enumerate(SUIT_KEYS):
                    knowledge.ranges[f"{name}_{key}"] = span(values[:, i])
            else:
                verdicts = [_yes_no(values[:, i]) for i in range(4)]
                if any(v != "maybe" for v in verdicts):
                    knowledge.flags[name] = verdicts
        elif measure.numeric:
            knowledge.ranges[name] = span(values)
        elif _yes_no(values) != "maybe":
            knowledge.flags[name] = _yes_no(values)
    return knowledge


def _yes_no(values: Array) -> str:
    if values.all():
        return "yes"
    if not values.any():
        return "no"
    return "maybe"


__all__ = ["CallExplanation", "Explanation", "Facts", "SeatKnowledge", "explain",
           "measure_knowledge", "sample_hands", "seat_facts"]
