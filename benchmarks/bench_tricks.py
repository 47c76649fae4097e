"""Benchmark the trick model's batch estimate against references timed in the same run.

``bidbox.engine.tricks.estimate_tricks`` sits in the simulation's hot path: the
captain's placement calls it on every hand of a batch. Two ratios are printed:

* against the ``hcp`` batch measure on the same hands (one table look-up per suit, the
  cheapest thing the batch path does per hand): how many hcp-measures one estimate of
  all five strains costs;
* against a loop of one-hand calls to ``estimate_tricks`` (what a caller without a
  batch would do): how much the vectorised path saves.

Ratios, not rates, are the claim: both sides run on the same machine under the same
load. Every timing is the best of ``--repeats``. The script first checks that the batch
and the loop agree.

Run: ``python benchmarks/bench_tricks.py [--hands N] [--loop-hands N] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

import numpy as np

from bidbox.engine.tricks import estimate_tricks
from bidbox.evaluate import deal_batch
from bidbox.evaluate.measures import get_measure


def best_time(fn: Callable[[], object], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--loop-hands", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="also write the numbers to this file")
    args = parser.parse_args()

    masks = deal_batch(args.hands, seed=args.seed).masks
    ns = masks[:, [0, 2]]  # (n, 2 hands, 4 suits)
    hcp_measure = get_measure("hcp").batch
    lengths_measure = get_measure("lengths").batch
    hcp = (hcp_measure(ns[:, 0]) + hcp_measure(ns[:, 1])).astype(np.float64) + 0.5
    lengths = (lengths_measure(ns[:, 0]) + lengths_measure(ns[:, 1])).astype(np.float64)

    k = args.loop_hands
    batch = estimate_tricks(hcp[:k], lengths[:k])
    loop = np.array([estimate_tricks(hcp[i:i + 1], lengths[i:i + 1])[0] for i in range(k)])
    if not np.allclose(batch, loop, rtol=0, atol=1e-12):
        raise SystemExit("batch and one-hand estimates disagree")

    est_s = best_time(lambda: estimate_tricks(hcp, lengths), args.repeats)
    hcp_s = best_time(lambda: hcp_measure(ns[:, 0]), args.repeats)
    loop_s = best_time(lambda: [estimate_tricks(hcp[i:i + 1], lengths[i:i + 1])
                                for i in range(k)], args.repeats)
    est_rate = args.hands / est_s
    result = {
        "hands": args.hands, "estimates_per_second": round(est_rate),
        "hcp_measures_per_estimate": round(est_s / hcp_s, 1),
        "batch_over_loop": round(est_rate / (k / loop_s), 1),
    }
    print(f"estimate_tricks: {est_rate:,.0f} partnerships/s (5 strains each)")
    print(f"  costs {result['hcp_measures_per_estimate']}x one hcp batch measure "
          f"on the same hands")
    print(f"  {result['batch_over_loop']}x a loop of one-hand calls ({k} hands)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
