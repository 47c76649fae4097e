"""The exact profile space: every (shape, HCP, controls) a hand can have, with its count.

Most meanings speak only of suit lengths, HCP and controls. There are 560 shapes,
38 HCP values and 13 control counts; the number of hands at each point follows from
the holdings of each suit, so knowledge ranges, holes and overlaps can be computed
exactly here instead of by sampling. Measures that depend on where the cards are
(losers, stoppers, suit quality) raise NeedsCards, and callers fall back to dealt hands.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from bidbox.engine.features import Array, NeedsCards
from bidbox.evaluate import get_measure
from bidbox.evaluate.holdings import tables

EXACT_MEASURES = frozenset({
    "lengths", "hcp", "controls", "pattern", "shape", "balanced", "semi_balanced",
    "single_suited", "two_suited", "three_suited", "rule_points", "rule_of_18", "rule_of_20",
    "context",
})
_LENGTH_ONLY = ("pattern", "shape", "balanced", "semi_balanced", "single_suited", "two_suited",
                "three_suited")


@cache
def _suit_counts() -> Array:
    """counts[length, hcp, controls]: how many holdings of that length have those values."""
    t = tables()
    counts = np.zeros((14, 11, 4), dtype=np.int64)
    np.add.at(counts, (t["length"].astype(int), t["hcp"].astype(int),
                       t["controls"].astype(int)), 1)
    return counts


def _convolve(a: Array, b: Array) -> Array:
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1), dtype=np.int64)
    for i, j in zip(*np.nonzero(b), strict=True):
        out[i:i + a.shape[0], j:j + a.shape[1]] += a * b[i, j]
    return out


class ProfileSpace:
    """Points (shape, hcp, controls) with their hand counts; behaves as Features."""

    def __init__(self) -> None:
        counts = _suit_counts()
        lengths: list[tuple[int, int, int, int]] = []
        hcps: list[Array] = []
        ctrls: list[Array] = []
        weights: list[Array] = []
        shape_rows: list[Array] = []
        for s in range(14):
            for h in range(14 - s):
                for d in range(14 - s - h):
                    c = 13 - s - h - d
                    grid = counts[s]
                    for n in (h, d, c):
                        grid = _convolve(grid, counts[n])
                    hi, ci = np.nonzero(grid)
                    lengths.append((s, h, d, c))
                    hcps.append(hi)
                    ctrls.append(ci)
                    weights.append(grid[hi, ci])
                    shape_rows.append(np.full(hi.shape[0], len(lengths) - 1))
        shapes = np.array(lengths, dtype=np.int16)
        rows = np.concatenate(shape_rows)
        self.lengths: Array = shapes[rows]
        self.hcp: Array = np.concatenate(hcps).astype(np.int32)
        self.controls: Array = np.concatenate(ctrls).astype(np.int32)
        self.count: Array = np.concatenate(weights).astype(np.float64)
        self.total = float(math.comb(52, 13))
        # A stand-in hand per point with the right lengths (low cards), for length-only measures.
        self._masks = ((1 << self.lengths.astype(np.int32)) - 1).astype(np.int16)
        self._cache: dict[str, Array] = {}

    @property
    def n(self) -> int:
        return int(self.hcp.shape[0])

    @property
    def probability(self) -> Array:
        return self.count / self.total

    def value(self, name: str) -> Array:
        if name == "lengths":
            return self.lengths
        if name == "hcp":
            return self.hcp
        if name == "controls":
            return self.controls
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        if name in _LENGTH_ONLY:
            cached = get_measure(name).batch(self._masks)
        elif name == "rule_points":
            top2 = -np.sort(-self.lengths, axis=1)[:, :2].sum(axis=1)
            cached = self.hcp + top2
        elif name == "rule_of_18":
            cached = self.value("rule_points") >= 18
        elif name == "rule_of_20":
            cached = self.value("rule_points") >= 20
        else:
            raise NeedsCards(name)
        self._cache[name] = cached
        return cached


@cache
def profile_space() -> ProfileSpace:
    return ProfileSpace()
