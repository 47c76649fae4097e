"""The shipped score table is endplay's scoring, cell by cell."""

from __future__ import annotations

import numpy as np

from bidbox.core.scoring import endplay_score_table, score_table


def test_shipped_score_table_equals_endplay() -> None:
    shipped = score_table()
    assert shipped.shape == (7, 5, 3, 2, 14)
    assert np.array_equal(shipped, endplay_score_table())


def test_score_table_spot_values() -> None:
    # 4S making ten tricks, not vulnerable; 3NT doubled two down, vulnerable (from the laws).
    assert score_table()[3, 3, 0, 0, 10] == 420
    assert score_table()[2, 4, 1, 1, 7] == -500
