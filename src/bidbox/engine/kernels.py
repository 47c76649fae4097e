"""Numeric kernels of the captain's judgement, on whole batches of hands.

Judgement (``engine.judgement``) weighs contracts at every auction node it reaches, in
the batch bidder for every group of deals and in the one-hand bidder for one hand: the
same few array computations thousands of times. Here they are written so that their
cost is a handful of numpy calls however many options are weighed, with the values of
the per-option forms they replace: the trick distribution and the slam odds bit for bit,
the expected scores to the last few bits of a double, with their exact ties kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache

import numpy as np

from bidbox.core.calls import Call, Strain
from bidbox.core.scoring import score_table
from bidbox.engine.features import Array

COLUMN = {Strain.S: 0, Strain.H: 1, Strain.D: 2, Strain.C: 3, Strain.NT: 4}
"""Strain -> column of the trick model's output (S, H, D, C, NT)."""

_GRID_LOW, _GRID_HIGH, _GRID_POINTS = -8.0, 8.0, 3201
_PER_UNIT = (_GRID_POINTS - 1) / (_GRID_HIGH - _GRID_LOW)
_DIRECT_BELOW = 2048
"""Below this many points ``np.interp``'s binary search is cheaper than the direct look-up's
dozen array passes (measured: 4 us against 21 us for one hand, 0.9 ms against 0.27 ms
for 300 hands' 19,500 points)."""
_CHUNK = 32768
"""Points per pass of the direct look-up: its temporaries stay in the cache."""


@cache
def normal_cdf_grid() -> tuple[Array, Array, Array]:
    """The standard normal CDF on a fixed grid (-8..8, 3201 points), and each segment's
    slope, as ``np.interp`` computes it."""
    z = np.linspace(_GRID_LOW, _GRID_HIGH, _GRID_POINTS)
    cdf = np.array([0.5 * (1.0 + math.erf(x / math.sqrt(2.0))) for x in z])
    slope = (cdf[1:] - cdf[:-1]) / (z[1:] - z[:-1])
    for a in (z, cdf, slope):
        a.setflags(write=False)
    return z, cdf, slope


def normal_cdf(x: Array) -> Array:
    """``np.interp(x, *normal_cdf_grid()[:2])``, bit for bit: on large inputs the segment
    is found from the uniform spacing (then moved by one where rounding put it on the
    wrong side of a grid point) instead of by binary search."""
    z, cdf, _ = normal_cdf_grid()
    x = np.asarray(x, dtype=np.float64)
    if x.size < _DIRECT_BELOW:
        out: Array = np.interp(x, z, cdf)
        return out
    flat = x.reshape(-1)
    result = np.empty_like(flat)
    for begin in range(0, flat.size, _CHUNK):
        part = flat[begin:begin + _CHUNK]
        result[begin:begin + _CHUNK] = _direct_cdf(part)
    return result.reshape(x.shape)


def _direct_cdf(x: Array) -> Array:
    z, cdf, slope = normal_cdf_grid()
    last = len(z) - 2  # the last segment
    xc = np.minimum(np.maximum(x, _GRID_LOW), _GRID_HIGH)
    j = ((xc - _GRID_LOW) * _PER_UNIT).astype(np.intp)
    np.minimum(j, last, out=j)
    # np.interp's segment: z[j] <= x < z[j + 1]; the uniform guess is off by at most one.
    j -= xc < z.take(j)
    j += (xc >= z.take(j + 1)) & (j < last)
    out: Array = slope.take(j) * (xc - z.take(j)) + cdf.take(j)
    out[x >= _GRID_HIGH] = cdf[-1]  # np.interp's right value at and past the grid's end
    return out


_INNER_EDGES = np.arange(0.5, 13.0, 1.0)
"""The 13 edges between 0..13 tricks: the outer two are 0 and 1 by definition."""


def trick_distribution(mean: Array, sd: Array) -> Array:
    """P(tricks = k), k = 0..13, for normal estimates ``mean``/``sd`` of any shape (...):
    the CDF at the edges between trick counts, differenced."""
    x = (_INNER_EDGES - mean[..., None]) / sd[..., None]
    c = normal_cdf(x)
    out: Array = np.empty((*c.shape[:-1], 14))
    out[..., 0] = c[..., 0]  # c - 0.0 is c
    np.subtract(c[..., 1:], c[..., :-1], out=out[..., 1:13])
    np.subtract(1.0, c[..., 12], out=out[..., 13])
    return out


def expected_scores(options: Sequence[Call], probs: Array, last: Call | None,
                    doubled: int, ours_now: bool, vul: bool, they_vul: bool,
                    contested: bool) -> Array:
    """(n, len(options)) expected score for our side of each option, given ``probs``
    (n, 5, 14), our tricks by strain column: each option's trick distribution times its
    scores (:func:`score_rows`), summed over the tricks in one reduction.

    Every option is summed by the same reduction over its own 14 products, so two options
    with the same distribution and the same scores (4H and 4S on a symmetric hand) score
    exactly the same and the first one stays first, as in the per-option form. A single
    matrix product over all strains would not keep such ties: its sums run over zeros
    in different places for different strains."""
    columns, rows = score_rows(tuple(options), last, doubled, ours_now, vul, they_vul,
                               contested)
    out: Array = (probs[:, columns, :] * rows).sum(axis=2)
    return out


@lru_cache(maxsize=8192)
def score_rows(options: tuple[Call, ...], last: Call | None, doubled: int, ours_now: bool,
               vul: bool, they_vul: bool, contested: bool) -> tuple[Array, Array]:
    """Per option, the strain column its score depends on and its score by tricks
    (len(options), 14). A bid scores its own contract (in a contested auction doubled
    when two or more down); a pass (any other call) the contract standing, ours or
    theirs (they take 13 minus our tricks), or 0 when the hand is passed out. The same
    nodes are weighed at every batch, so each is built once."""
    table = score_table().astype(np.float64)
    columns = np.zeros(len(options), dtype=np.intp)
    rows = np.zeros((len(options), 14))
    k = np.arange(14)
    for j, call in enumerate(options):
        if call.is_bid:
            assert call.strain is not None
            scores = table[call.level - 1, int(call.strain), 0, int(vul)]
            if contested:
                doubled_scores = table[call.level - 1, int(call.strain), 1, int(vul)]
                scores = np.where(k <= call.level + 4, doubled_scores, scores)
            columns[j], rows[j] = COLUMN[call.strain], scores
            continue
        if last is None:
            continue  # a pass-out scores 0
        assert last.strain is not None
        columns[j] = COLUMN[last.strain]
        if ours_now:
            rows[j] = table[last.level - 1, int(last.strain), doubled, int(vul)]
        else:
            rows[j] = -table[last.level - 1, int(last.strain), doubled, int(they_vul)][::-1]
    for a in (columns, rows):
        a.setflags(write=False)
    return columns, rows


def slam_odds(options: Sequence[Call], probs: Array) -> Array:
    """(n, len(options)): each slam's chance of making (twelve or more tricks for a small
    slam, thirteen for a grand), 1 for every other call."""
    out = np.ones((probs.shape[0], len(options)))
    slams = [(j, COLUMN[c.strain], c.level == 6) for j, c in enumerate(options)
             if c.is_bid and c.level >= 6 and c.strain is not None]
    if not slams:
        return out
    where = [j for j, _, _ in slams]
    cols = [col for _, col, _ in slams]
    small = np.array([s for _, _, s in slams], dtype=np.float64)
    # p12 * 1 + p13 is p12 + p13 exactly, p12 * 0 + p13 is p13: the sums the per-option
    # form takes, bit for bit.
    out[:, where] = probs[:, cols, 12] * small + probs[:, cols, 13]
    return out


__all__ = ["COLUMN", "expected_scores", "normal_cdf", "normal_cdf_grid", "score_rows",
           "slam_odds", "trick_distribution"]
