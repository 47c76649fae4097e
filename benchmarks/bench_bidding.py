"""Bidding speed: the batch path against the one-hand path, in the same run.

Two questions, each answered as a ratio of rates measured side by side:
1. opening bids chosen per second for N random hands: batch (`choose_at_node` over a
   numpy batch at the root) against a loop of `choose_call` on single hands;
2. complete uncontested auctions per second (one side bids, the other passes):
   `bid_batch` against a loop of `bid_deal`.
The batch bidder keeps what it learns between batches (the walk's states, the seats'
estimates, the measures each step reads, and each step's answer per combination of those
measures), so the same deals bid again cost far less than new ones: the batch path is
timed both ways, on the same deals again (best of ``--repeats``) and on fresh deals of
the same size, one new batch after another (their median), the rate a long simulation
sees. The issue target is 100,000 complete uncontested auctions per second on one core
on the batch path, judged on fresh deals. Absolute rates depend on the machine; the
ratios are the claim.

    python benchmarks/bench_bidding.py [--system sbu-level1] [--hands 1000000]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from bidbox.core import Auction, Seat, Side, Vulnerability
from bidbox.engine import as_systems, bid_batch, bid_deal, choose_call
from bidbox.engine.batch import choose_at_node
from bidbox.engine.features import HandFeatures
from bidbox.engine.walk import table_context
from bidbox.evaluate import deal_batch
from bidbox.lang import load_system


def timed(repeats: int, work: Callable[[], object]) -> tuple[float, float]:
    """The first and the best of ``repeats`` timings: the first runs with cold caches (the
    walk's states, the seats' estimates, the measures each step reads are kept between
    batches, as in a long simulation), the best with warm ones."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times[0], min(times)


def best_of(repeats: int, work: Callable[[], object]) -> float:
    return timed(repeats, work)[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="sbu-level1")
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--auctions", type=int, default=200_000)
    parser.add_argument("--ref-hands", type=int, default=5_000)
    parser.add_argument("--ref-auctions", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    system = load_system(args.system)
    systems = as_systems(system)
    empty = Auction(Seat.N, Vulnerability.NONE)
    ctx = table_context(empty, 0)

    deals = deal_batch(args.hands, args.seed)
    masks = deals.hands(Seat.N)

    def batch_openings() -> object:
        return choose_at_node(system.root, HandFeatures(masks), ctx, empty)

    batch_open = best_of(args.repeats, batch_openings)
    ref = deal_batch(args.ref_hands, args.seed + 1)
    ref_hands = [ref.hand(i, Seat.N) for i in range(args.ref_hands)]
    loop_open = best_of(1, lambda: [choose_call(h, empty, systems) for h in ref_hands])

    # agreement on the reference hands
    chosen = choose_at_node(system.root, HandFeatures(ref.hands(Seat.N)), ctx, empty)
    batch_calls = np.full(args.ref_hands, "P", dtype=object)
    for entry, hit in chosen:
        batch_calls[hit] = str(entry.call)
    loop_calls = [str(choose_call(h, empty, systems).call) for h in ref_hands]
    agree = all(a == b for a, b in zip(batch_calls, loop_calls, strict=True))

    auction_deals = deal_batch(args.auctions, args.seed + 2)
    first_auc, batch_auc = timed(args.repeats, lambda: bid_batch(auction_deals, systems,
                                                                 silent=Side.EW))
    fresh_times = []
    for k in range(args.repeats):
        fresh = deal_batch(args.auctions, args.seed + 10 + k)
        began = time.perf_counter()
        bid_batch(fresh, systems, silent=Side.EW)
        fresh_times.append(time.perf_counter() - began)
    fresh_auc = float(np.median(fresh_times))
    ref_deals = deal_batch(args.ref_auctions, args.seed + 3)

    def loop_auctions() -> None:
        for i in range(args.ref_auctions):
            bid_deal({s: ref_deals.hand(i, s) for s in Seat}, systems, silent=Side.EW)

    loop_auc = best_of(1, loop_auctions)
    result = bid_batch(auction_deals, systems, silent=Side.EW)

    rates = {
        "openings_batch_per_s": args.hands / batch_open,
        "openings_loop_per_s": args.ref_hands / loop_open,
        "auctions_batch_per_s": args.auctions / batch_auc,
        "auctions_batch_first_run_per_s": args.auctions / first_auc,
        "auctions_batch_fresh_per_s": args.auctions / fresh_auc,
        "auctions_loop_per_s": args.ref_auctions / loop_auc,
    }
    rates["openings_ratio"] = rates["openings_batch_per_s"] / rates["openings_loop_per_s"]
    rates["auctions_ratio"] = rates["auctions_batch_per_s"] / rates["auctions_loop_per_s"]
    rates["auctions_fresh_ratio"] = (rates["auctions_batch_fresh_per_s"]
                                     / rates["auctions_loop_per_s"])
    print(f"bidbox bidding benchmark: system {system.name}, python {platform.python_version()}")
    print(f"{'':<34}{'batch /s':>14}{'one hand /s':>14}{'ratio':>10}")
    print(f"{'opening bids':<34}{rates['openings_batch_per_s']:>14,.0f}"
          f"{rates['openings_loop_per_s']:>14,.0f}{rates['openings_ratio']:>9,.0f}x")
    print(f"{'complete uncontested auctions':<34}{rates['auctions_batch_per_s']:>14,.0f}"
          f"{rates['auctions_loop_per_s']:>14,.0f}{rates['auctions_ratio']:>9,.0f}x")
    print(f"{'  first run (cold caches)':<34}{rates['auctions_batch_first_run_per_s']:>14,.0f}")
    print(f"{'  fresh deals, warm caches':<34}{rates['auctions_batch_fresh_per_s']:>14,.0f}"
          f"{'':>14}{rates['auctions_fresh_ratio']:>9,.0f}x")
    target = rates["auctions_batch_fresh_per_s"] >= 100_000
    print(f"target 100,000 uncontested auctions/s on the batch path (fresh deals): "
          f"{'PASS' if target else 'BELOW TARGET'}")
    print(f"batch and one-hand openings agree on {args.ref_hands:,} hands: {agree}")
    distinct = len({auction for auction, _, _ in result.groups})  # a group is not one
    print(f"distinct auctions: {distinct:,}; deals with a fallback call: "
          f"{result.fallback_rate():.1%}")
    if args.json:
        args.json.write_text(json.dumps({**rates, "agree": agree, "system": system.name},
                                        indent=2))
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
