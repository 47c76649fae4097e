"""The HTML notes of a whole system tree (tosr by default) against the old alert path, in
the same run (issue 14).

Publishing asks the regulation's alert decision of every call of the tree (16,000 for
tosr). The old path decided each call on its own: it replayed the call's auction from the
first call, read every earlier call again (walk, negative inference) and judged every call
of the auction to keep the last decision. Today's path (``formats.alerting.AlertReader``)
keeps the walk's state and the readings of every prefix along the tree, and judges only
the call asked about.

One process, in this order:
1. *new*: ``read_tree`` and ``notes_html`` of the whole tree (``--depth`` to limit it),
   timed whole, caches cold; the time of the decisions alone is taken on the way;
2. *old*: the old path (re-created here from its three lines) on ``--old-calls`` calls in
   runs of ``--run`` consecutive calls of the tree, the runs spread evenly over it (in
   tree order, as publishing met them, so the old path keeps the locality its caches had);
   each is checked to give the same decision as the new path. The mean per call times the
   number of calls is the old path's estimate for the tree. It runs second, with the
   meaning statistics the first pass cached, which only favours it.
Times are CPU seconds of this process (``time.process_time``): on the shared machine the
wall clock moves with the load, the CPU time much less; the wall times are printed too.
The claim is the ratio old estimate / new decisions (and old estimate / whole HTML).

    python benchmarks/bench_publish.py [--system tosr] [--depth N] [--old-calls 300] [--run 25]
                                       [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any


def old_decision(call: Any) -> Any:
    """The alert decision as publishing took it before the AlertReader: the call's whole
    auction read from the start, every call judged, the last kept."""
    from bidbox.core.auction import Auction
    from bidbox.core.seats import Side
    from bidbox.engine.explain import Explanation, _read_calls
    from bidbox.rules.alerts import decide_alerts

    after = call.auction
    systems = {Side.NS: call.system, Side.EW: call.system}
    calls, _ = _read_calls(Auction(after.dealer, after.vul, after.calls), systems)
    return decide_alerts(Explanation(after, calls, {}), call.regulation)[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--system", default="tosr", help="shipped name or .bbx (default tosr)")
    parser.add_argument("--depth", type=int, default=None,
                        help="only the first N rounds of our calls (default: whole tree)")
    parser.add_argument("--old-calls", type=int, default=300,
                        help="calls timed on the old path (default 300)")
    parser.add_argument("--run", type=int, default=25,
                        help="consecutive calls per run of the old path's sample (default 25)")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = parser.parse_args(argv)

    from bidbox.api import get_regulation, load_system
    from bidbox.formats.html import notes_html
    from bidbox.formats.tree import read_tree

    system = load_system(args.system).compiled
    regulation = get_regulation("sbu")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"system {args.system}, depth {args.depth or 'all'}, load average {load:.1f}")

    wall, cpu = time.perf_counter(), time.process_time()
    tree = read_tree(system, regulation, args.depth)
    calls = list(tree.calls())
    decide_cpu = time.process_time()
    alerted = sum(1 for c in calls if c.alert)
    decisions = time.process_time() - decide_cpu
    page = notes_html(tree)
    html_seconds = time.process_time() - cpu
    print(f"new: {len(calls):,} calls ({alerted:,} alerted); decisions {decisions:.1f} s CPU, "
          f"whole HTML {html_seconds:.1f} s CPU, {time.perf_counter() - wall:.1f} s wall "
          f"({len(page):,} characters)")

    run = max(1, min(args.run, args.old_calls))
    runs = max(1, args.old_calls // run)
    gap = max(run, len(calls) // runs)
    sample = [c for first in range(0, len(calls), gap) for c in calls[first:first + run]]
    sample = sample[:args.old_calls]
    wall, cpu = time.perf_counter(), time.process_time()
    for call in sample:
        old = old_decision(call)
        if old != call.decision:
            print(f"DISAGREE at {call.auction_text}: old {old}, new {call.decision}",
                  file=sys.stderr)
            return 1
    old_per_call = (time.process_time() - cpu) / len(sample)
    old_wall = time.perf_counter() - wall
    old_total = old_per_call * len(calls)
    ratio = old_total / decisions if decisions else float("inf")
    print(f"old: {len(sample)} calls agree; {old_per_call * 1000:.1f} ms CPU per call "
          f"({old_wall:.1f} s wall in all), estimated {old_total:.0f} s CPU for the tree")
    print(f"ratio old / new decisions: {ratio:.1f}x; old decisions / new whole HTML: "
          f"{old_total / html_seconds:.1f}x")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"system": args.system, "depth": args.depth, "load": load,
                       "calls": len(calls), "alerted": alerted,
                       "new_decisions_seconds": decisions, "new_html_seconds": html_seconds,
                       "old_sample": len(sample), "old_seconds_per_call": old_per_call,
                       "old_estimate_seconds": old_total, "ratio": ratio}, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
