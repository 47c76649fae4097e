"""The batch dealer: valid, reproducible, and distributed as exact combinatorics say."""

from __future__ import annotations

import math
from itertools import permutations

import numpy as np
import pytest

from bidbox.core import Hand, Seat
from bidbox.evaluate import deal_batch, get_measure

DEALS = deal_batch(100_000, seed=7)
HANDS = np.concatenate([DEALS.hands(s) for s in Seat])  # 400,000 hands


def exact_pattern_probability(pattern: tuple[int, ...]) -> float:
    arrangements = len(set(permutations(pattern)))
    ways = math.prod(math.comb(13, n) for n in pattern)
    return arrangements * ways / math.comb(52, 13)


def exact_hcp_distribution() -> list[float]:
    """P(hcp = h) for a 13-card hand, by counting: 4 cards each worth 4, 3, 2, 1 and 36 spots."""
    # ways[k][h]: number of ways to pick k honour cards worth h points
    ways = [[0] * 41 for _ in range(17)]
    ways[0][0] = 1
    for value in (4, 3, 2, 1):
        for _ in range(4):
            for k in range(16, 0, -1):
                for h in range(40, value - 1, -1):
                    ways[k][h] += ways[k - 1][h - value]
    total = math.comb(52, 13)
    return [sum(ways[k][h] * math.comb(36, 13 - k) for k in range(14)) / total
            for h in range(38)]


def test_every_deal_is_52_distinct_cards_in_four_hands_of_13() -> None:
    masks = DEALS.masks.astype(np.int32)
    union = masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3]
    assert (union == 8191).all()
    lengths = get_measure("lengths").batch(HANDS)
    assert (lengths.sum(axis=1) == 13).all()


def test_same_seed_same_deals_and_other_seed_other_deals() -> None:
    assert (deal_batch(500, seed=3).masks == deal_batch(500, seed=3).masks).all()
    assert not (deal_batch(500, seed=3).masks == deal_batch(500, seed=4).masks).all()


@pytest.mark.parametrize(("pattern", "quoted"), [
    ((4, 4, 3, 2), 0.2155), ((5, 3, 3, 2), 0.1552), ((4, 3, 3, 3), 0.1054),
    ((4, 4, 4, 1), 0.0299),
])
def test_pattern_frequencies(pattern: tuple[int, ...], quoted: float) -> None:
    exact = exact_pattern_probability(pattern)
    assert round(exact, 4) == quoted
    name = "".join(map(str, pattern))
    codes = get_measure("pattern").batch(HANDS)
    code = get_measure("pattern").batch(np.array([Hand.parse(
        ".".join("AKQJT98765432"[:n] for n in pattern)).suits], dtype=np.int16))[0]
    observed = float((codes == code).mean())
    se = math.sqrt(exact * (1 - exact) / len(HANDS))
    assert abs(observed - exact) < 5 * se, (name, observed, exact)


def test_hcp_distribution_matches_exact_counts() -> None:
    expected = np.array(exact_hcp_distribution())
    assert abs(expected.sum() - 1) < 1e-12
    assert round(float(expected[10]), 4) == 0.0941  # the textbook 9.41% for 10 HCP
    hcp = get_measure("hcp").batch(HANDS)
    observed = np.bincount(hcp, minlength=38)[:38]
    n = len(HANDS)
    # Pearson chi-square over bins with enough expected count; tail bins merged.
    keep = expected * n >= 20
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep] * n, expected[~keep].sum() * n)
    chi2 = float(((obs - exp) ** 2 / exp).sum())
    dof = len(obs) - 1
    assert chi2 < dof + 6 * math.sqrt(2 * dof), (chi2, dof)


def test_conversion_to_endplay_keeps_every_hand() -> None:
    for i in range(20):
        deal = DEALS.to_endplay(i)
        for seat, ep_hand in zip(Seat, (deal.north, deal.east, deal.south, deal.west),
                                 strict=True):
            assert Hand.from_endplay(ep_hand) == DEALS.hand(i, seat)
    assert DEALS.pbn(0).startswith("N:")
