"""What a call's meaning says, measured: HCP and suit-length ranges, strength, hand types.

Regulations speak of natural calls (three or more cards in the suit), unexpectedly weak
bids, strong hands (16+ HCP or 8+ playing tricks) and hand types. This module measures
those facts from the compiled constraint, exactly on the profile space when it can and
on dealt hands otherwise, so every jurisdiction's rules read the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from bidbox.core.hand import Hand
from bidbox.engine.explain import sample_hands
from bidbox.engine.features import Array, Features, HandFeatures
from bidbox.engine.predicates import TableContext, compile_predicate
from bidbox.engine.profiles import EXACT_MEASURES, ProfileSpace, profile_space
from bidbox.lang.constraints import (
    ANY,
    NOTHING,
    And,
    Constraint,
    Not,
    Or,
    conjoin,
    disjoin,
    negate,
)
from bidbox.verify.lint import witness_hand

DEFAULT_CONTEXT = TableContext(seat=1, vul=False, they_vul=False, passed=False)


@dataclass(frozen=True)
class MeaningStats:
    """Ranges over the hands that fit a constraint in one table context."""

    possible: bool
    hcp: tuple[int, int]
    lengths: tuple[tuple[int, int], ...]  # S, H, D, C
    exact: bool

    def min_length(self, suit_index: int) -> int:
        return self.lengths[suit_index][0]


def _space(c: Constraint) -> Features:
    return profile_space() if c.measures() <= EXACT_MEASURES else sample_hands()


@cache
def stats(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> MeaningStats:
    space = _space(c)
    return _measure(space, compile_predicate(c)(space, ctx))


def _measure(space: Features, mask: Array) -> MeaningStats:
    exact = isinstance(space, ProfileSpace)
    if not mask.any():
        return MeaningStats(False, (0, 0), ((0, 0),) * 4, exact)
    hcp = space.value("hcp")[mask]
    lengths = space.value("lengths")[mask]
    return MeaningStats(True, (int(hcp.min()), int(hcp.max())),
                        tuple((int(lengths[:, i].min()), int(lengths[:, i].max()))
                              for i in range(4)), exact)


MIN_SAMPLED = 200  # fewer fitting dealt hands than this are too few to read shape from


def relax(c: Constraint, positive: bool = True) -> Constraint:
    """``c`` with every measure the profile space cannot answer (honour locations, suit
    quality, losers) replaced so that the result holds for a superset of the hands: true
    where it occurs positively, false under a negation. Lower bounds read from it stay
    true of ``c``."""
    if c.measures() <= EXACT_MEASURES:
        return c
    if isinstance(c, And):
        return conjoin([relax(i, positive) for i in c.items])
    if isinstance(c, Or):
        return disjoin([relax(i, positive) for i in c.items])
    if isinstance(c, Not):
        return negate(relax(c.item, not positive))
    return ANY if positive else NOTHING


@cache
def shape_stats(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> MeaningStats:
    """Ranges for reading what a meaning shows about shape and strength: exact when the
    meaning allows, from dealt hands when enough of them fit; otherwise (a rare meaning
    such as a five-level opening, which a few hundred thousand hands barely meet) exact
    over the meaning relaxed to the profile space, whose minima are true lower bounds."""
    if c.measures() <= EXACT_MEASURES:
        return stats(c, ctx)
    pool = sample_hands()
    mask = compile_predicate(c)(pool, ctx)
    if int(mask.sum()) >= MIN_SAMPLED:
        return _measure(pool, mask)
    loose = stats(relax(c), ctx)
    return replace(loose, exact=False) if loose.possible else _measure(pool, mask)


def hand_types(c: Constraint) -> list[Constraint]:
    """The hand types of a meaning: the items of a top-level 'or', else the meaning itself."""
    return list(c.items) if isinstance(c, Or) else [c]


def find_hand(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> Hand | None:
    """A concrete hand that fits ``c`` (the likeliest profile, or a dealt hand), or None."""
    space = _space(c)
    mask = compile_predicate(c)(space, ctx)
    if not mask.any():
        if isinstance(space, ProfileSpace):
            return None
        return None
    return _hand_at(space, mask)


def _hand_at(space: Features, mask: Array) -> Hand | None:
    if isinstance(space, ProfileSpace):
        i = int(np.argmax(np.where(mask, space.count, -1.0)))
        return witness_hand(space.lengths[i], int(space.hcp[i]), int(space.controls[i]))
    assert isinstance(space, HandFeatures)
    row = space.masks[int(np.flatnonzero(mask)[0])]
    return Hand((int(row[0]), int(row[1]), int(row[2]), int(row[3])))


@cache
def is_strong(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> bool:
    """Every fitting hand is strong: 16+ HCP or 8+ playing tricks (SBU 6.2 §1)."""
    pool = sample_hands()
    mask = compile_predicate(c)(pool, ctx)
    if not mask.any():
        return stats(c, ctx).hcp[0] >= 16
    strong = (pool.value("hcp") >= 16) | (pool.value("playing_tricks") >= 8)
    return bool(strong[mask].all()) and stats(c, ctx).possible


@cache
def share_where(c: Constraint, condition: Constraint, ctx: TableContext = DEFAULT_CONTEXT
                ) -> float:
    """The share of hands fitting ``c`` that also fit ``condition`` (on dealt hands)."""
    pool = sample_hands()
    mask = compile_predicate(c)(pool, ctx)
    if not mask.any():
        return 0.0
    return float(compile_predicate(condition)(pool, ctx)[mask].mean())
