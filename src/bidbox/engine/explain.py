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
from bidbox.engine.bidder import default_alert, placement_text
from bidbox.engine.features import Array, Features, sample_hands, shaped_hands
from bidbox.engine.inference import (
    CallReading,
    Facts,
    facts_by_seat,
    fitting,
    measures_of,
    read_auction,
)
from bidbox.engine.judgement import judged_meaning
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, profile_space
from bidbox.engine.statement import relaxed_mask, state_knowledge
from bidbox.engine.wording import call_meaning, denial_words
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
    denial_words: tuple[str, ...] = ()  # the telling denials, as what the hand lacks

    @property
    def description(self) -> str | None:
        """The description as the system file writes it (errata readings included)."""
        return self.entry.text() if self.entry is not None else None

    def to_json(self) -> dict[str, object]:
        return {"seat": str(self.seat), "call": str(self.call), "meaning": self.meaning,
                "description": self.description, "denies_text": list(self.denial_words),
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
    statement: str | None = None  # as a player states it (engine.statement)
    hand_types: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {k: [_num(lo), _num(hi)] for k, (lo, hi) in self.ranges.items()}
        out.update(self.flags)
        if self.shape:
            out["shape"] = self.shape
        out["method"] = self.method
        out["consistent"] = self.consistent
        if self.probability is not None:
            out["probability"] = round(self.probability, 6)
        if self.statement is not None:
            out["text"] = self.statement
        if self.hand_types:
            out["hand_types"] = list(self.hand_types)
        return out

    def summary(self) -> str:
        """What a player says the seat holds (the measured ranges when not stated)."""
        # The statement's bounds hold for every hand the meanings admit, sampled or not.
        if self.statement is not None:
            return self.statement
        return self.measured()

    def measured(self) -> str:
        """The measured ranges of every measure the seat's facts read."""
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
    partnerships: dict[Side, str] = field(default_factory=dict)  # what both seats hold

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "auction": str(self.auction), "dealer": str(self.auction.dealer),
            "vul": str(self.auction.vul), "calls": [c.to_json() for c in self.calls],
            "knowledge": {str(s): k.to_json() for s, k in self.knowledge.items()}}
        if self.partnerships:
            data["partnerships"] = {str(s): t for s, t in self.partnerships.items()}
        return data


def explain(auction: Auction, systems: Mapping[Side, System]) -> Explanation:
    readings = read_auction(auction, systems)
    calls = _explain_calls(readings)
    facts = facts_by_seat(readings)
    knowledge = {seat: measure_knowledge(facts[seat]) for seat in Seat}
    shown: dict[Seat, Facts] = {s: [] for s in Seat}
    for reading in readings:
        if reading.entry is not None:
            shown[reading.step.seat].append((reading.entry.shown, reading.step.context))
    stated, partnerships = state_knowledge(facts, shown)
    for seat, words in stated.items():
        known = knowledge[seat]
        known.statement = words.text
        known.hand_types = words.hand_types
        known.consistent = known.consistent and words.consistent
    return Explanation(auction, calls, knowledge, partnerships)


def seat_facts(auction: Auction, systems: Mapping[Side, System]) -> dict[Seat, Facts]:
    """Per seat, the constraints its calls have shown, each with its table context."""
    return facts_by_seat(read_auction(auction, systems))


def _read_calls(auction: Auction, systems: Mapping[Side, System], denials: bool = False
                ) -> tuple[list[CallExplanation], dict[Seat, Facts]]:
    readings = read_auction(auction, systems)
    # The web table reads every call through here, with ``denials``: wording them costs
    # about a second once per process (the profile space's masks), then ~15 ms an auction.
    return _explain_calls(readings, denials=denials), facts_by_seat(readings)


def _explain_calls(readings: list[CallReading], denials: bool = True
                   ) -> list[CallExplanation]:
    """Each call in a player's words; ``denials`` also words what each call denies."""
    calls: list[CallExplanation] = []
    before: dict[Seat, Facts] = {s: [] for s in Seat}
    steps = [r.step for r in readings]
    for reading in readings:
        step, entry = reading.step, reading.entry
        note = None
        # Judgement's shared conventions (Blackwood and its answers, a control bid).
        shared = judged_meaning(steps, step.index) if entry is None else None
        if step.node is None and entry is None:
            note = (f"call {step.index + 1} ({step.call} by {step.seat}) is outside the system: "
                    "its side's notes do not reach this auction")
        elif entry is None:
            note = (f"call {step.index + 1} ({step.call} by {step.seat}) is not defined "
                    "here: read as judgement, "
                    + ("a convention every player shares" if shared is not None
                       else "(the captain's placement), natural"))
        said: tuple[str, ...] = ()
        if entry is not None:
            meaning = call_meaning(entry, step.context)
            if denials:
                said = tuple(denial_words(reading.denied, entry.shown, before[step.seat],
                                          step.context))
        elif step.call.kind.name in ("PASS", "DOUBLE"):
            meaning = placement_text(step.call)
        else:
            # Judgement's Blackwood and its answers are the conventions every player shares,
            # and so is a natural suit bid below 3NT (walk.described).
            meaning = (shared
                       or (f"natural: {step.judged.describe()}"
                           if step.judged is not None else None)
                       or "not in the system: natural")
        calls.append(CallExplanation(step.index, step.seat, step.call, entry, meaning,
                                     entry.forcing if entry else None, default_alert(entry),
                                     entry is None, tuple(e.call for e in reading.denied),
                                     note, reading.shows if entry is not None else None,
                                     step.source, said))
        if reading.shows is not None:
            before[step.seat].append((reading.shows, step.context))
    return calls


TARGETED_BELOW = 2_000  # fewer pool hands than this fit: draw hands of the shapes it allows
TARGETED_HANDS = 100_000


def measure_knowledge(facts: list[tuple[Constraint, TableContext]]) -> SeatKnowledge:
    """Ranges of HCP, suit lengths and every other constrained measure over fitting hands.

    Exact on the profile space when the facts read only what it knows; otherwise over the
    dealt pool, and where the pool holds too few fitting hands (a rare opening), also over
    hands drawn from the shapes the meanings' exact part allows. A seat is inconsistent
    only when not even the relaxed meanings (engine.statement) admit a hand.
    """
    used = measures_of(facts)
    exact = used <= EXACT_MEASURES
    space: Features = profile_space() if exact else sample_hands()
    mask = fitting(facts, space, lambda c, ctx: compile_predicate(c)(space, ctx))
    knowledge = SeatKnowledge(method="exact" if exact else f"sampled ({space.n:,} hands)")
    pool_share = float(mask.mean())
    if not exact and int(mask.sum()) < TARGETED_BELOW:
        space, mask, knowledge.method = _with_targeted_sample(facts, space, mask)
    if not mask.any():
        if facts and (exact or not relaxed_mask(facts).any()):
            knowledge.consistent = False
            return knowledge
        if facts:  # some hand fits the meanings, none that was dealt: bounds only
            knowledge.method = "bounds from the meanings (no dealt hand fits)"
            space = profile_space()
            mask = relaxed_mask(facts)
            exact, used = True, used & EXACT_MEASURES
        else:
            mask = np.ones(space.n, dtype=bool)
    if exact:
        prob = profile_space().probability
        knowledge.probability = float(prob[mask].sum())
    else:
        knowledge.probability = pool_share  # the drawn hands are not a fair deal

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


def _with_targeted_sample(facts: Facts, pool: Features, pool_mask: Array
                          ) -> tuple[Features, Array, str]:
    """The pool joined by hands of the shapes the relaxed facts allow, drawn in proportion
    to how many hands of each shape fit them."""
    relaxed = relaxed_mask(facts)
    if not relaxed.any():
        return pool, pool_mask, f"sampled ({pool.n:,} hands)"
    space = profile_space()
    lengths = space.value("lengths")[relaxed].astype(np.int64)
    codes = ((lengths[:, 0] * 14 + lengths[:, 1]) * 14 + lengths[:, 2]) * 14 + lengths[:, 3]
    unique, inverse = np.unique(codes, return_inverse=True)
    weights = np.bincount(inverse, weights=space.count[relaxed])
    shapes = np.stack([unique // 2744, unique // 196 % 14, unique // 14 % 14, unique % 14],
                      axis=1)
    drawn = shaped_hands(shapes, weights, TARGETED_HANDS)
    hits = fitting(facts, drawn, lambda c, ctx: compile_predicate(c)(drawn, ctx))
    return (_Joined(pool, drawn), np.concatenate([pool_mask, hits]),
            f"sampled ({pool.n:,} hands and {TARGETED_HANDS:,} of the shapes its meanings "
            "allow)")


class _Joined:
    """Two sets of hands read as one (the pool keeps its cached measures)."""

    def __init__(self, first: Features, second: Features) -> None:
        self.first, self.second = first, second

    @property
    def n(self) -> int:
        return self.first.n + self.second.n

    def value(self, name: str) -> Array:
        return np.concatenate([self.first.value(name), self.second.value(name)])


def _yes_no(values: Array) -> str:
    if values.all():
        return "yes"
    if not values.any():
        return "no"
    return "maybe"


__all__ = ["CallExplanation", "Explanation", "Facts", "SeatKnowledge", "explain",
           "measure_knowledge", "sample_hands", "seat_facts"]
