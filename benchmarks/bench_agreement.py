"""One-hand and batch bidders against each other on many dealt boards, both sides bidding.

The batch bidder (``bid_batch``) and the one-hand bidder (``bid_deal``) share one auction
step (``engine.decide``) and one walk, so they must produce the same auction for every
deal. The tests check that on a few hundred deals; this script checks it on as many as
asked (10,000 by default), for every dealer and two vulnerabilities, and prints each
disagreement with the deal and both auctions. It also times both paths in the same run,
so the ratio batch / one-hand is measured on the same deals.

    python benchmarks/bench_agreement.py [--system NAME ...] [--deals N] [--seed S]
                                         [--json PATH]

Exit status 1 if any deal disagrees.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from bidbox.core.seats import Seat, Vulnerability
from bidbox.engine import as_systems, bid_batch, bid_deal
from bidbox.evaluate import deal_batch
from bidbox.lang import load_system

_TABLES = [(dealer, vul) for dealer in Seat for vul in (Vulnerability.NONE,
                                                         Vulnerability.BOTH)]


def check(name: str, deals: int, seed: int) -> dict[str, object]:
    """Bid ``deals`` boards (split over the eight dealer/vulnerability tables) both ways."""
    systems = as_systems(load_system(name))
    per_table = max(1, deals // len(_TABLES))
    batch_s = alone_s = 0.0
    wrong: list[dict[str, str]] = []
    total = 0
    for k, (dealer, vul) in enumerate(_TABLES):
        batch = deal_batch(per_table, seed=seed + k)
        start = time.perf_counter()
        auctions = bid_batch(batch, systems, dealer, vul).auctions()
        batch_s += time.perf_counter() - start
        start = time.perf_counter()
        for i in range(len(batch)):
            hands = {s: batch.hand(i, s) for s in Seat}
            alone, _ = bid_deal(hands, systems, dealer, vul)
            if alone != auctions[i]:
                wrong.append({"dealer": str(dealer), "vul": vul.value,
                              "deal": " ".join(str(hands[s]) for s in Seat),
                              "one_hand": str(alone), "batch": str(auctions[i])})
        alone_s += time.perf_counter() - start
        total += len(batch)
    return {"system": name, "deals": total, "disagreements": len(wrong),
            "examples": wrong[:10], "batch_seconds": round(batch_s, 2),
            "one_hand_seconds": round(alone_s, 2),
            "batch_speedup": round(alone_s / max(batch_s, 1e-9), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", action="append", help="shipped system or .bbx path "
                        "(repeatable; default sbu-level1 and tosr)")
    parser.add_argument("--deals", type=int, default=10_000, help="boards per system")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    results = [check(name, args.deals, args.seed)
               for name in (args.system or ["sbu-level1", "tosr"])]
    for r in results:
        print(f"{r['system']}: {r['deals']:,} deals, {r['disagreements']} disagreements; "
              f"batch {r['batch_seconds']} s, one hand at a time {r['one_hand_seconds']} s "
              f"({r['batch_speedup']}x)")
        for ex in r["examples"]:  # type: ignore[attr-defined]
            print(f"  {ex['dealer']} {ex['vul']} {ex['deal']}\n    one hand: {ex['one_hand']}"
                  f"\n    batch:    {ex['batch']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 1 if any(r["disagreements"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
