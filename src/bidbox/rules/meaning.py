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
from bidbox.engine.witness import witness_hand
from bidbox.lang.constraints import (
    And,
    Constraint,
    Not,
    Or,
)
from bidbox.lang.constraints import (
    relax as relax_terms,
)

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
def _reads_context(c: Constraint) -> bool:
    return "context" in c.measures()


class _PackedMasks:
    """Every sub-constraint evaluated once per space, kept packed (one bit a hand).

    The rules ask about thousands of meanings, each a call's constraint joined to the
    negation of the calls tried before it; modules repeat the same parts at many nodes.
    So 'and', 'or' and 'not' combine the packed masks of their parts, and only the atoms
    run their compiled predicate, once each (once for every table context only when
    they read it)."""

    LIMIT = 1 << 28  # bytes of packed masks kept per space (256 MB on the dealt pool)

    def __init__(self, space: Features) -> None:
        self.space = space
        self.valid = np.packbits(np.ones(space.n, dtype=bool))
        self.memo: dict[tuple[Constraint, TableContext | None], Array] = {}
        self.size = 0

    def get(self, c: Constraint, ctx: TableContext) -> Array:
        key = (c, ctx if _reads_context(c) else None)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if isinstance(c, And):
            out = self.get(c.items[0], ctx)
            for item in c.items[1:]:
                if not out.any():
                    break
                out = out & self.get(item, ctx)
        elif isinstance(c, Or):
            out = self.get(c.items[0], ctx)
            for item in c.items[1:]:
                out = out | self.get(item, ctx)
        elif isinstance(c, Not):
            out = self.valid & ~self.get(c.item, ctx)
        else:
            out = np.packbits(compile_predicate(c)(self.space, ctx))
        if self.size + out.nbytes <= self.LIMIT:
            self.memo[key] = out
            self.size += out.nbytes
        return out


_MASKS: dict[int, _PackedMasks] = {}


def fits(space: Features, c: Constraint, ctx: TableContext) -> Array:
    """Which hands (or profiles) of ``space`` fit ``c``: the compiled predicate's answer,
    assembled from parts already evaluated for other meanings."""
    masks = _MASKS.get(id(space))
    if masks is None or masks.space is not space:
        masks = _MASKS[id(space)] = _PackedMasks(space)
    return np.unpackbits(masks.get(c, ctx), count=space.n).astype(bool)


@cache
def stats(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> MeaningStats:
    space = _space(c)
    return _measure(space, fits(space, c, ctx))


def _measure(space: Features, mask: Array) -> MeaningStats:
    exact = isinstance(space, ProfileSpace)
    if not mask.any():
        return MeaningStats(False, (0, 0), ((0, 0),) * 4, exact)
    if isinstance(space, HandFeatures):
        # Dealt hands fall into a few thousand (shape, HCP) profiles: range over those.
        profiles, hand_profile = _profiles_of(space)
        present = np.zeros(profiles.shape[0], dtype=bool)
        present[hand_profile[mask]] = True
        hcp, lengths = profiles[present, 4], profiles[present, :4]
    else:
        hcp, lengths = space.value("hcp")[mask], space.value("lengths")[mask]
    return MeaningStats(True, (int(hcp.min()), int(hcp.max())),
                        tuple((int(lengths[:, i].min()), int(lengths[:, i].max()))
                              for i in range(4)), exact)


_PROFILES: dict[int, tuple[HandFeatures, Array, Array]] = {}


def _profiles_of(space: HandFeatures) -> tuple[Array, Array]:
    """The distinct (S, H, D, C lengths, HCP) rows of a batch of hands, and each hand's row."""
    known = _PROFILES.get(id(space))
    if known is not None and known[0] is space:
        return known[1], known[2]
    lengths = space.value("lengths").astype(np.int64)
    code = (((lengths[:, 0] * 14 + lengths[:, 1]) * 14 + lengths[:, 2]) * 14
            + lengths[:, 3]) * 64 + space.value("hcp").astype(np.int64)
    codes, inverse = np.unique(code, return_inverse=True)
    shape, hcp = codes // 64, codes % 64
    profiles = np.stack([shape // 2744, shape // 196 % 14, shape // 14 % 14, shape % 14, hcp],
                        axis=1)
    _PROFILES[id(space)] = (space, profiles, inverse.reshape(-1))
    return profiles, inverse.reshape(-1)


MIN_SAMPLED = 200  # fewer fitting dealt hands than this are too few to read shape from


def relax(c: Constraint) -> Constraint:
    """``c`` with every measure the profile space cannot answer (honour locations, suit
    quality, losers) relaxed away (lang.constraints.relax), so that the result holds for a
    superset of the hands: lower bounds read from it stay true of ``c``."""
    return relax_terms(c, _is_exact)


def _is_exact(c: Constraint) -> bool:
    return c.measures() <= EXACT_MEASURES


@cache
def shape_stats(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> MeaningStats:
    """Ranges for reading what a meaning shows about shape and strength: exact when the
    meaning allows, from dealt hands when enough of them fit; otherwise (a rare meaning
    such as a five-level opening, which a few hundred thousand hands barely meet) exact
    over the meaning relaxed to the profile space, whose minima are true lower bounds."""
    if c.measures() <= EXACT_MEASURES:
        return stats(c, ctx)
    pool = sample_hands()
    mask = fits(pool, c, ctx)
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
    mask = fits(space, c, ctx)
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
    mask = fits(pool, c, ctx)
    if not mask.any():
        return stats(c, ctx).hcp[0] >= 16
    strong = (pool.value("hcp") >= 16) | (pool.value("playing_tricks") >= 8)
    return bool(strong[mask].all()) and stats(c, ctx).possible


@cache
def share_where(c: Constraint, condition: Constraint, ctx: TableContext = DEFAULT_CONTEXT
                ) -> float:
    """The share of hands fitting ``c`` that also fit ``condition`` (on dealt hands)."""
    pool = sample_hands()
    mask = fits(pool, c, ctx)
    if not mask.any():
        return 0.0
    return float(fits(pool, condition, ctx)[mask].mean())
