"""Judgement's numeric kernels against the per-option forms they replace."""

from __future__ import annotations

import numpy as np

from bidbox.core import Auction, Call
from bidbox.core.calls import ALL_BIDS, PASS, Strain
from bidbox.core.scoring import score_table
from bidbox.engine.features import Array
from bidbox.engine.kernels import (
    COLUMN,
    expected_scores,
    normal_cdf,
    normal_cdf_grid,
    slam_odds,
    trick_distribution,
)


def _probs(n: int, seed: int) -> Array:
    rng = np.random.default_rng(seed)
    return trick_distribution(rng.uniform(3, 12, (n, 5)), rng.uniform(0.5, 2.5, (n, 5)))


def test_the_direct_cdf_is_np_interp_bit_for_bit() -> None:
    z, cdf, _ = normal_cdf_grid()
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.uniform(-9, 9, 50_000), z, [-8.0, 8.0, 8.5, -8.5]])
    assert x.size > 2048  # the direct look-up, not np.interp itself
    assert np.array_equal(normal_cdf(x), np.interp(x, z, cdf))


def test_trick_distribution_sums_to_one() -> None:
    probs = _probs(300, 2)
    assert probs.shape == (300, 5, 14)
    assert np.allclose(probs.sum(axis=-1), 1.0) and (probs >= 0).all()


def test_expected_scores_are_the_per_option_sums() -> None:
    probs = _probs(40, 3)
    auction = Auction.parse("1S 2H")
    theirs = Strain.H
    options = [PASS] + [c for c in ALL_BIDS if auction.is_legal(c)]
    table = score_table().astype(np.float64)
    ev = expected_scores(options, probs, auction.last_bid, 0, False, True, False, True)
    k = np.arange(14)
    for j, call in enumerate(options):
        if call == PASS:  # their 2H: they take 13 minus our tricks
            want = -(probs[:, COLUMN[theirs]] @ table[1, int(theirs), 0, 0][::-1])
        else:
            assert call.strain is not None
            scores = np.where(k <= call.level + 4, table[call.level - 1, int(call.strain), 1, 1],
                              table[call.level - 1, int(call.strain), 0, 1])
            want = probs[:, COLUMN[call.strain]] @ scores
        assert np.allclose(ev[:, j], want, rtol=0, atol=1e-9), call


def test_equal_options_tie_exactly() -> None:
    """4H and 4S (5C and 5D) on the same distribution score the same to the bit, so the
    first stays first; a matrix product over all strains broke such ties for one hand
    (on most of these seeds, and on a dealt board)."""
    options = [Call.parse(c) for c in ("4H", "4S", "5C", "5D")]
    for n, seed in [(1, s) for s in range(20)] + [(64, 99)]:
        probs = _probs(n, seed)
        probs[:, COLUMN[Strain.H]] = probs[:, COLUMN[Strain.S]]
        probs[:, COLUMN[Strain.C]] = probs[:, COLUMN[Strain.D]]
        ev = expected_scores(options, probs, None, 0, False, True, True, False)
        assert np.array_equal(ev[:, 0], ev[:, 1]) and np.array_equal(ev[:, 2], ev[:, 3])


def test_slam_odds() -> None:
    probs = _probs(20, 5)
    options = [PASS, Call.parse("4S"), Call.parse("6H"), Call.parse("7NT")]
    odds = slam_odds(options, probs)
    assert (odds[:, :2] == 1.0).all()
    assert np.array_equal(odds[:, 2], probs[:, 1, 12:].sum(axis=1))
    assert np.array_equal(odds[:, 3], probs[:, 4, 13])
