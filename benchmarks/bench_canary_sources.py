"""Canary: who makes each call, per opening: the notes, the natural base, or the placement.

    python benchmarks/bench_canary_sources.py [--deals 1000] [--seed 7]
        [--against sbu-level1] [--canary PATH] [--json PATH]

Dealt boards follow the 16-board dealer/vulnerability cycle. Canary sits North-South,
the other system (default sbu-level1) East-West, and every board is bid hand by hand
(``bid_deal``), which tags each call with its source: ``system`` (canary.bbx's notes),
``base`` (natural.bbx, walked beside the notes where they are silent) or ``placement``
(judgement: forcing discipline and the captain's placement).

A board is filed under the first bid of the auction: Canary's opening ("1D", ...) when
North-South opened, "defence" when East-West did, "passed out" when nobody bid. Under
each, every call Canary's side made (passes included) is counted by source, and the
share of each source is reported with a 95% Wilson interval. The issue's closing note
asks how often the base and the placement are used per opening; this is that figure.
The calls of one auction are not independent, so the interval is a guide, narrower
than a board-level interval would be.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from bench_canary_relays import wilson  # the same 95% interval, one copy

from bidbox.core import CallKind, Seat, Side
from bidbox.engine import bid_deal
from bidbox.evaluate import deal_batch
from bidbox.lang import load_system
from bidbox.sim.deals import board_dealer, board_vulnerability

SOURCES = ("system", "base", "placement")


@dataclass
class Tally:
    """Calls of Canary's side under one opening, by source."""

    boards: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    bids: Counter[str] = field(default_factory=Counter)  # the calls that are not passes


def measure(deals: int, seed: int, against: str, canary_file: str = "canary"
            ) -> dict[str, Tally]:
    """Bid ``deals`` boards and tally Canary's calls per opening and source."""
    canary, other = load_system(canary_file), load_system(against)
    systems = {Side.NS: canary, Side.EW: other}
    batch = deal_batch(deals, seed=seed)
    tallies: dict[str, Tally] = defaultdict(Tally)
    for index in range(deals):
        number = index + 1
        hands = {seat: batch.hand(index, seat) for seat in Seat}
        auction, results = bid_deal(hands, systems, board_dealer(number),
                                    board_vulnerability(number))
        seats = [auction.dealer]
        for _ in results[1:]:
            seats.append(seats[-1].lho)
        opening = "passed out"
        for seat, call in zip(seats, auction.calls, strict=True):
            if call.kind is not CallKind.PASS:
                opening = str(call) if seat.side is Side.NS else "defence"
                break
        tally = tallies[opening]
        tally.boards += 1
        for seat, result in zip(seats, results, strict=True):
            if seat.side is Side.NS:
                tally.calls[result.source] += 1
                if result.call.kind is not CallKind.PASS:
                    tally.bids[result.source] += 1
    return dict(tallies)


def report(tallies: dict[str, Tally], what: str) -> list[str]:
    """One table: ``what`` is "calls" (passes included) or "bids" (passes left out)."""
    order = sorted(tallies, key=lambda k: -tallies[k].boards)
    lines = [f"{'opening':<11} {'boards':>6} {what:>6}  "
             + "  ".join(f"{s + ' % [95%]':>22}" for s in SOURCES)]
    every: Counter[str] = Counter()
    for key in order:
        tally = tallies[key]
        counts: Counter[str] = tally.calls if what == "calls" else tally.bids
        every.update(counts)
        total = sum(counts.values())
        cells = []
        for source in SOURCES:
            lo, hi = wilson(counts[source], total)
            share = counts[source] / total if total else 0.0
            cells.append(f"{100 * share:6.1f} [{100 * lo:5.1f}-{100 * hi:5.1f}]".rjust(22))
        lines.append(f"{key:<11} {tally.boards:>6} {total:>6}  " + "  ".join(cells))
    total = sum(every.values())
    boards = sum(t.boards for t in tallies.values())
    cells = [f"{100 * every[s] / max(total, 1):6.1f}".rjust(22) for s in SOURCES]
    lines.append(f"{'all':<11} {boards:>6} {total:>6}  " + "  ".join(cells))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", default="sbu-level1")
    parser.add_argument("--canary", default="canary",
                        help="another canary.bbx to measure (an older version, say)")
    parser.add_argument("--json", help="also write the tallies here")
    args = parser.parse_args(argv)
    started = time.process_time()
    tallies = measure(args.deals, args.seed, args.against, args.canary)
    print(f"{args.canary} (NS) against {args.against} (EW), {args.deals} boards, seed {args.seed}: "
          f"Canary's calls by source, per opening")
    print("\n".join(report(tallies, "calls")))
    print("the same without passes (a placement pass is often just the end of the auction):")
    print("\n".join(report(tallies, "bids")))
    print(f"CPU {time.process_time() - started:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({k: {"boards": t.boards, "calls": dict(t.calls), "bids": dict(t.bids)}
                       for k, t in tallies.items()}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
