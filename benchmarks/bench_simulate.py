"""Simulation speed: solving only the contracts reached against a full DD table per deal.

The same boards are played in two modes, batch by batch and alternating (so that a change
in the machine's load during the run slows both sides of each ratio alike), each batch end
to end (bid both tables, double dummy, score) in this process:
1. *needed*: each table's final contract is solved as one DDS board, cells shared between
   the two tables of a deal, all boards of a batch sent to DDS at once (the default);
2. *full tables*: every deal gets its full 20-cell DD table (``calc_all_tables``), the way
   par or a naive scorer would, and the contracts are read from it.
It reports boards per second, the share of time spent in DDS, and the issue's two targets:
bidding at most 10% of DDS time (needed mode; issue 10), and solving only what is needed at
least 10x cheaper per board than full tables. ``--needed-only`` runs the needed mode alone
(no full tables, no runner): the bidding share in a few minutes. A last run goes through
the runner (store, report) for boards per second end to end. Both modes must agree on
every table's tricks, or the run fails. Absolute rates depend on the machine; the ratios
are the claim.

    python benchmarks/bench_simulate.py [--a SYS] [--b SYS] [--deals 200] [--needed-only]
                                      [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path
from typing import Any

from bidbox.sim.deals import deal_boards
from bidbox.sim.match import BoardResult, MatchSpec, SystemRef, play_boards
from bidbox.sim.runner import run_match

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_A = str(ROOT / "tests" / "data" / "mini.bbx")
DEFAULT_B = str(ROOT / "tests" / "sim" / "data" / "weak.bbx")


def interleaved(a: SystemRef, b: SystemRef, deals: int, seed: int, batch: int,
                full: bool = True
                ) -> dict[str, tuple[float, float, float, int, int, list[BoardResult]]]:
    """Both modes on the same batches, alternating batch by batch, so that a machine
    whose load changes during the run slows both sides of the ratio alike.

    Returns per mode: wall seconds, DDS seconds, bidding seconds, cells, tables, results.
    """
    modes = {"needed": MatchSpec(a, b), "full": MatchSpec(a, b, par=True)}
    if not full:
        del modes["full"]
    boards = deal_boards(deals, seed)
    play_boards(modes["needed"], boards.take(range(min(8, deals))))  # compile, warm DDS
    out: dict[str, list[Any]] = {m: [0.0, 0.0, 0.0, 0, 0, []] for m in modes}
    for start in range(0, deals, batch):
        part = boards.take(range(start, min(deals, start + batch)))
        for name, spec in modes.items():
            began = time.perf_counter()
            chunk = play_boards(spec, part)
            totals = out[name]
            totals[0] += time.perf_counter() - began
            totals[1] += chunk.dds_seconds
            totals[2] += chunk.bidding_seconds
            totals[3] += chunk.cells_solved
            totals[4] += chunk.tables_solved
            totals[5].extend(chunk.boards)
    return {m: (v[0], v[1], v[2], v[3], v[4], v[5]) for m, v in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default=DEFAULT_A, help="system A (default tests' mini.bbx)")
    parser.add_argument("--b", default=DEFAULT_B, help="system B (default tests' weak.bbx)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--batch", type=int, default=200,
                        help="boards per batch; the two modes alternate batch by batch")
    parser.add_argument("--needed-only", action="store_true",
                        help="only the needed mode: no full tables, no runner (the bidding "
                             "share of DDS time)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    a, b = SystemRef.resolve(args.a), SystemRef.resolve(args.b)
    measured = interleaved(a, b, args.deals, args.seed, args.batch, not args.needed_only)
    needed_wall, needed_dds, bidding, cells, _, needed_results = measured["needed"]
    if args.needed_only:
        share = bidding / max(needed_dds, 1e-9)
        print(f"bidbox simulation benchmark (needed mode only): {a.load().name} vs "
              f"{b.load().name}, {args.deals} deals, python {platform.python_version()}")
        print(f"wall {needed_wall:.1f} s, DDS {needed_dds:.1f} s, bidding {bidding:.1f} s; "
              f"bidding time / DDS time: {share:.1%} (target at most 10%: "
              f"{'PASS' if share <= 0.10 else 'ABOVE TARGET'})")
        if args.json:
            args.json.write_text(json.dumps({"deals": args.deals, "wall_s": needed_wall,
                                             "dds_s": needed_dds, "bidding_s": bidding,
                                             "bidding_share_of_dds": share}, indent=2))
        return 0
    full_wall, full_dds, _, _, tables, full_results = measured["full"]
    agree = all(
        (t.contract, t.declarer, t.tricks, t.ns_score) == (u.contract, u.declarer, u.tricks,
                                                           u.ns_score)
        for r, s in zip(needed_results, full_results, strict=True)
        for t, u in zip(r.tables, s.tables, strict=True))
    # End to end through the runner too (store, report), needed mode, for boards/s.
    start = time.perf_counter()
    run_match(MatchSpec(a, b), deal_boards(args.deals, args.seed + 1), None, workers=1,
              progress=False, plots=False)
    runner_rate = args.deals / (time.perf_counter() - start)
    n = args.deals
    rates = {
        "deals": n,
        "needed_boards_per_s": n / needed_wall,
        "full_boards_per_s": n / full_wall,
        "runner_boards_per_s": runner_rate,
        "needed_dds_s_per_board": needed_dds / n,
        "full_dds_s_per_board": full_dds / n,
        "needed_dds_share": needed_dds / needed_wall,
        "full_dds_share": full_dds / full_wall,
        "cells_solved": cells,
        "cells_per_board": cells / n,
        "tables_solved": tables,
        "bidding_s": bidding,
        "bidding_share_of_dds": bidding / max(needed_dds, 1e-9),
    }
    rates["dds_ratio_full_over_needed"] = (rates["full_dds_s_per_board"]
                                           / max(rates["needed_dds_s_per_board"], 1e-9))
    rates["end_to_end_ratio"] = rates["needed_boards_per_s"] / rates["full_boards_per_s"]
    rates["cell_cost_ratio"] = (full_dds / max(tables, 1) / 20) / (needed_dds / max(cells, 1))

    print(f"bidbox simulation benchmark: {a.load().name} vs {b.load().name}, {n} deals in "
          f"batches of {args.batch}, python {platform.python_version()}")
    print(f"{'':<28}{'boards/s':>10}{'DDS s/board':>13}{'DDS share':>11}")
    print(f"{'needed cells only':<28}{rates['needed_boards_per_s']:>10.1f}"
          f"{rates['needed_dds_s_per_board']:>13.4f}{rates['needed_dds_share']:>11.0%}")
    print(f"{'full DD table per deal':<28}{rates['full_boards_per_s']:>10.1f}"
          f"{rates['full_dds_s_per_board']:>13.4f}{rates['full_dds_share']:>11.0%}")
    print(f"cells solved: {cells} ({rates['cells_per_board']:.2f} per board; a full table is "
          f"20); tables: {tables}; one cell alone costs "
          f"{1 / rates['cell_cost_ratio']:.1f}x a cell of a full table")
    print(f"end to end through the runner (store, report), needed mode: "
          f"{runner_rate:.1f} boards/s")
    ratio = rates["dds_ratio_full_over_needed"]
    print(f"DDS time per board, full tables / needed: {ratio:.1f}x "
          f"(target 10x: {'PASS' if ratio >= 10 else 'BELOW TARGET'}); "
          f"end to end {rates['end_to_end_ratio']:.1f}x")
    share = rates["bidding_share_of_dds"]
    print(f"bidding time / DDS time (needed): {share:.1%} "
          f"(target at most 10%: {'PASS' if share <= 0.10 else 'ABOVE TARGET'})")
    print(f"both modes agree on every table's contract and tricks: {agree}")
    if args.json:
        args.json.write_text(json.dumps({**rates, "agree": agree}, indent=2))
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())
