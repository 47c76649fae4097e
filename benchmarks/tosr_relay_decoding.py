"""TOSR relay decoding on 10,000 deals, and the natural fallback's use per opening.

    python benchmarks/tosr_relay_decoding.py [DEALS] [FALLBACK_DEALS]

Part 1 is the measurement of tests/systems/test_tosr_relays.py at full size: North opens
1C (15+), South makes a positive response, North relays to the end of shape-showing;
prints the deals, those whose shape the TOSR notes define, the share ``explain`` decodes
exactly, and the mismatches (must be 0).  The same for the semi-positive structure
(1C-1D-1H, two steps higher).

Part 2 bids 100,000 random deals uncontested (East-West silent) and reports, per
opening, how often some call of the auction came from the natural fallback.
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.systems.test_tosr_relays import measure, tosr

from bidbox.core import CallKind, Seat, Side, Vulnerability
from bidbox.engine import as_systems, bid_batch
from bidbox.evaluate import deal_batch


def decoding(count: int) -> None:
    for semi in (False, True):
        start = time.perf_counter()
        result = measure(count if not semi else count // 5, seed=9, semi=semi)
        label = "semi-positive (1C-1D-1H)" if semi else "positive (1C-positive)"
        print(f"{label}: deals {result.deals}, shape defined by the notes {result.defined}, "
              f"decoded exactly {result.share:.2%} ({result.exact}), "
              f"mismatches {result.mismatches}  [{time.perf_counter() - start:.1f} s]")
        for auction, n in sorted(result.misses.items(), key=lambda kv: -kv[1])[:5]:
            print(f"    not exact x{n}: {auction}")


def fallback(count: int) -> None:
    start = time.perf_counter()
    result = bid_batch(deal_batch(count, 1), as_systems(tosr()), Seat.N, Vulnerability.NONE,
                       silent=Side.EW)
    total: dict[str, int] = defaultdict(int)
    fell: dict[str, int] = defaultdict(int)
    for auction, index, used in result.groups:
        opening = next((str(c) for c in auction.calls if c.kind is not CallKind.PASS),
                       "passed out")
        total[opening] += len(index)
        if used:
            fell[opening] += len(index)
    print(f"\nfallback over {count:,} deals bid uncontested "
          f"[{time.perf_counter() - start:.1f} s]: overall {result.fallback_rate():.2%}")
    print(f"{'opening':>10} {'deals':>8} {'share':>7} {'fallback':>9}")
    for opening in sorted(total, key=lambda o: -total[o]):
        print(f"{opening:>10} {total[opening]:>8} {total[opening] / count:>7.2%} "
              f"{fell[opening] / total[opening]:>9.2%}")


if __name__ == "__main__":
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    fallback_deals = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    decoding(deals)
    fallback(fallback_deals)
