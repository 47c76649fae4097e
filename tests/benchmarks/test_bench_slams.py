"""The dealt-deals slam benchmark (benchmarks/bench_slams.py): it keeps exactly the deals
it says it keeps, and its per-deal gain is the difference of the two tables' losses."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import ModuleType

import numpy as np

from bidbox.evaluate.dealer import deal_batch
from bidbox.evaluate.holdings import tables as holding_tables

from .support import load_benchmark


def bench() -> ModuleType:
    return load_benchmark("bench_slams")


def test_the_slam_zone_deals_are_those_with_the_points() -> None:
    deals, numbers = bench().slam_zone_deals(400, 5, 27)
    every = deal_batch(400, seed=5)
    hcp = holding_tables()["hcp"][every.masks].sum(axis=2)
    side = np.maximum(hcp[:, 0] + hcp[:, 2], hcp[:, 1] + hcp[:, 3])
    assert numbers.tolist() == (np.flatnonzero(side >= 27) + 1).tolist()
    assert np.array_equal(deals.masks, every.masks[numbers - 1])
    assert 0 < len(deals) < 400


def test_an_engine_against_itself_changes_nothing(tmp_path: Path) -> None:
    # The reference is this checkout's own src: the same auctions, no solving, gain 0.
    src = Path(__file__).parents[2] / "src"
    args = argparse.Namespace(system="sbu-level1", deals=40, seed=5, min_hcp=27, against=src)
    out = bench().compare(args)
    assert out["changed"] == 0 and out["gain_per_deal"]["total"] == 0
    assert out["kept"] > 0
