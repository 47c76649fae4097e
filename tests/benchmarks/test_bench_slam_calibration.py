"""The slam calibration benchmark (benchmarks/bench_slam_calibration.py): its reliability
table counts what it is given, its hook leaves the step as it found it, and the
decisions it records are the step's own, taken where a slam is in reach."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.seats import Side
from bidbox.engine import as_systems, judgement
from bidbox.engine import decide as decide_module
from bidbox.lang import load_system
from bidbox.sim.deals import board_dealer, board_vulnerability

from .support import load_benchmark


def bench() -> ModuleType:
    return load_benchmark("bench_slam_calibration")


def test_the_reliability_table_counts_each_bin() -> None:
    pred = np.array([0.05, 0.05, 0.45, 0.45, 0.45, 0.95])
    made = np.array([0.0, 1.0, 1.0, 1.0, 0.0, 1.0])
    out = bench().summary(pred, made)
    assert out["count"] == 6
    assert abs(out["brier"] - float(np.mean((pred - made) ** 2))) < 1e-12
    rows = {round(r["bin"][0], 1): r for r in out["bins"] if r["count"]}
    assert rows[0.0]["count"] == 2 and rows[0.0]["observed"] == 0.5
    assert rows[0.4]["count"] == 3 and abs(rows[0.4]["observed"] - 2 / 3) < 1e-12
    assert rows[0.9]["count"] == 1 and rows[0.9]["ci95"][0] < 1.0 == rows[0.9]["ci95"][1]


def test_the_hook_records_slam_decisions_and_leaves_the_step_alone() -> None:
    b = bench()
    deals, numbers = b.slam_zone_deals(300, 5, 27)
    auctions = b.bid_all(deals, numbers, "sbu-level1")
    systems = as_systems(load_system("sbu-level1"))
    hcp = (b.holding_tables()["hcp"][deals.masks].sum(axis=2))
    recorded = 0
    for i, text in enumerate(auctions[:40]):
        n = int(numbers[i])
        auction = Auction.parse(text, board_dealer(n), board_vulnerability(n))
        side = Side.NS if hcp[i, 0] + hcp[i, 2] >= hcp[i, 1] + hcp[i, 3] else Side.EW
        points, differ = b.decision_points(deals.masks[i], auction, systems, side)
        assert differ == 0  # the replayed step makes the batch bidder's calls
        for point in points:
            assert 0.0 <= point["p12"] <= 1.0 and 0 <= point["column"] <= 4
            assert point["kind"] in {"slam", "ask", "try", "below slam", "beyond game",
                                     "after answer"}
        recorded += len(points)
    assert recorded > 0
    assert decide_module.judge is judgement.judge
    assert decide_module.beyond_game is judgement.beyond_game
