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
from bidbox.engine.predicates import TableContext, compile_predicate, compose
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
        self._levels: tuple[Array, list[tuple[int, int]]] | None = None
        self._values: tuple[Array, Array] = (np.zeros(0), np.zeros((0, 4)))  # hcp, lengths

    def get(self, c: Constraint, ctx: TableContext) -> Array:
        key = (c, ctx if _reads_context(c) else None)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if isinstance(c, And | Or | Not):
            out = compose(c, lambda item: self.get(item, ctx),
                          lambda packed: self.valid & ~packed)  # the padding stays clear
        else:
            out = np.packbits(compile_predicate(c)(self.space, ctx))
        if self.size + out.nbytes <= self.LIMIT:
            self.memo[key] = out
            self.size += out.nbytes
        return out


    def bounds(self, packed: Array) -> MeaningStats:
        """HCP and length ranges of the hands in ``packed``, read without unpacking the
        space's worth of booleans: a few hands are found from the bytes that hold them
        and their values read; many, by a binary search per measure on the packed masks
        of the hands holding at least each value (every fitting hand holds v or more:
        no bit of ``packed`` outside row v; none holds more than v: none inside row
        v + 1)."""
        exact = isinstance(self.space, ProfileSpace)
        cols = np.flatnonzero(packed)
        if not cols.shape[0]:
            return MeaningStats(False, (0, 0), ((0, 0),) * 4, exact)
        rows, spans = self.levels()
        if cols.shape[0] * 8 <= self.GATHER:
            # Few hands: unpack only their bytes and read their values.
            bits = np.unpackbits(packed[cols]).view(bool)
            hands = (cols[:, None] * 8 + np.arange(8)).reshape(-1)[bits]
            hcp = self._values[0][hands]
            lengths = self._values[1][hands]
            return MeaningStats(True, (int(hcp.min()), int(hcp.max())),
                                tuple((int(lengths[:, i].min()), int(lengths[:, i].max()))
                                      for i in range(4)), exact)
        ranges = []
        for first, end in spans:
            def holds(v: int, every: bool, first: int = first) -> bool:
                row = rows[first + v]
                # every hand holds v or more / no hand holds v or more
                return not (packed & ~row).any() if every else not (packed & row).any()
            lo, top = 0, end - first - 1  # the largest v every hand holds
            while lo < top:
                mid = (lo + top + 1) // 2
                lo, top = (mid, top) if holds(mid, True) else (lo, mid - 1)
            hi, top = lo, end - first - 1  # the least v with no hand above it
            while hi < top:
                mid = (hi + top) // 2
                hi, top = (hi, mid) if holds(mid + 1, False) else (mid + 1, top)
            ranges.append((lo, hi))
        return MeaningStats(True, ranges[0], tuple(ranges[1:]), exact)

    GATHER = 1 << 15  # hands at most read one by one (more: a binary search)

    def levels(self) -> tuple[Array, list[tuple[int, int]]]:
        """Rows of packed masks, measure after measure (HCP, then S, H, D, C lengths):
        row v of a measure holds the hands with v or more (up to one past the most any
        hand holds); and each measure's (first row, end row)."""
        if self._levels is None:
            self._values = (self.space.value("hcp"), self.space.value("lengths"))
            columns = [self._values[0].astype(np.int64)] + [
                self._values[1][:, i].astype(np.int64) for i in range(4)]
            blocks: list[Array] = []
            spans: list[tuple[int, int]] = []
            at = 0
            for x in columns:
                top = int(x.max()) + 2
                blocks.extend(np.packbits(x >= v) for v in range(top))
                spans.append((at, at + top))
                at += top
            self._levels = (np.stack(blocks), spans)
        return self._levels

    def count(self, packed: Array) -> int:
        return int(np.bitwise_count(packed).sum())


_MASKS: dict[int, _PackedMasks] = {}


def _masks_of(space: Features) -> _PackedMasks:
    masks = _MASKS.get(id(space))
    if masks is None or masks.space is not space:
        masks = _MASKS[id(space)] = _PackedMasks(space)
    return masks


def fits(space: Features, c: Constraint, ctx: TableContext) -> Array:
    """Which hands (or profiles) of ``space`` fit ``c``: the compiled predicate's answer,
    assembled from parts already evaluated for other meanings."""
    return np.unpackbits(_masks_of(space).get(c, ctx), count=space.n).astype(bool)


@cache
def stats(c: Constraint, ctx: TableContext = DEFAULT_CONTEXT) -> MeaningStats:
    masks = _masks_of(_space(c))
    return masks.bounds(masks.get(c, ctx))


def _measure(space: Features, mask: Array) -> MeaningStats:
    """The ranges of the hands in ``mask`` (booleans over ``space``)."""
    return _masks_of(space).bounds(np.packbits(mask))


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
    masks = _masks_of(sample_hands())
    packed = masks.get(c, ctx)
    if masks.count(packed) >= MIN_SAMPLED:
        return masks.bounds(packed)
    loose = stats(relax(c), ctx)
    return replace(loose, exact=False) if loose.possible else masks.bounds(packed)


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
    packed = _masks_of(pool).get(c, ctx)
    if not packed.any():
        return stats(c, ctx).hcp[0] >= 16
    return not (packed & ~_strong(pool)).any() and stats(c, ctx).possible


_STRONG: dict[int, tuple[Features, Array]] = {}


def _strong(pool: Features) -> Array:
    """The packed mask of the strong hands of ``pool``."""
    hit = _STRONG.get(id(pool))
    if hit is None or hit[0] is not pool:
        hit = _STRONG[id(pool)] = (pool, np.packbits(
            (pool.value("hcp") >= 16) | (pool.value("playing_tricks") >= 8)))
    return hit[1]


@cache
def share_where(c: Constraint, condition: Constraint, ctx: TableContext = DEFAULT_CONTEXT
                ) -> float:
    """The share of hands fitting ``c`` that also fit ``condition`` (on dealt hands)."""
    masks = _masks_of(sample_hands())
    packed = masks.get(c, ctx)
    n = masks.count(packed)
    if not n:
        return 0.0
    return masks.count(packed & masks.get(condition, ctx)) / n
