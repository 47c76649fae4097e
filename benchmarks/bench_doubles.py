"""Judgement's penalty doubles, head to head: a team that makes them against one that does not.

The par-distance benchmarks (``bench_real_boards.py``, ``bench_slams.py``) bid every seat
with one engine and judge a table by how far from par it ended. They cannot score a
penalty double: doubling an overbid that fails punishes the declarers' error further, so
the table ends further from par although the doubling side gained. A double is judged as a
team match judges it: the same system at both tables, the doubling team North-South at
table 1 and East-West at table 2 (``judgement.PENALTY_SIDES``), the other team without
judged penalty doubles. The team's IMPs per board are ``imps(ns1 - ns2)``, both tables
scored double dummy; only boards whose two contracts differ need solving.

Deals: seeded random boards (``--deals``, ``--seed``; dealer and vulnerability by the
16-board cycle) or, with ``--real``, the boards of ``../shared/data/real-pbn/`` (their
own dealer, vulnerability and trick tables). Each table is bid in its own process, so the
batch bidder's kept answers of one table never serve the other.

    PYTHONPATH=src python benchmarks/bench_doubles.py --system sbu-level1 \\
        [--deals 8000] [--seed 61] [--real] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from bidbox.core.auction import Auction
from bidbox.core.seats import Seat, Side, Vulnerability
from bidbox.engine import as_systems, bid_deal, judgement
from bidbox.evaluate.dealer import deal_batch
from bidbox.lang import load_system
from bidbox.sim.deals import board_dealer, board_vulnerability
from bidbox.sim.double_dummy import full_tables
from bidbox.sim.report import confidence_interval
from bidbox.sim.scoring import imps, ns_score

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_real_boards import (
    DEFAULT_BOARDS,
    default_cache,
    fill_tables,
    load_real_boards,
)
from bench_slams import bid_all


def _boards(args: argparse.Namespace) -> list[tuple[str, Seat, Vulnerability, Any]]:
    """(deal PBN, dealer, vulnerability, trick table or None) per board."""
    if args.real:
        boards, _ = load_real_boards(Path(args.boards))
        boards, _ = fill_tables(boards, None if args.no_dd_cache else default_cache())
        return [(b.deal, b.dealer, b.vul, b.tricks) for b in boards]
    deals = deal_batch(args.deals, seed=args.seed)
    return [(deals.pbn(i), board_dealer(i + 1), board_vulnerability(i + 1), None)
            for i in range(args.deals)]


def bid_table(args: argparse.Namespace, doubling: Side) -> list[str]:
    """Every board's auction with only ``doubling`` making judged penalty doubles."""
    judgement.PENALTY_SIDES = frozenset({doubling})
    if args.real:
        systems = as_systems(load_system(args.system))
        boards, _ = load_real_boards(Path(args.boards))
        return [" ".join(map(str, bid_deal(b.hands(), systems, b.dealer, b.vul)[0].calls))
                for b in boards]
    deals = deal_batch(args.deals, seed=args.seed)
    return bid_all(deals, np.arange(1, args.deals + 1), args.system)


def _child(args: argparse.Namespace, doubling: Side) -> subprocess.Popen[str]:
    cmd = [sys.executable, __file__, "--bid-only", doubling.name, "--system", args.system,
           "--deals", str(args.deals), "--seed", str(args.seed), "--boards", str(args.boards)]
    if args.real:
        cmd.append("--real")
    return subprocess.Popen(cmd, env=dict(os.environ), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def compare(args: argparse.Namespace) -> dict[str, Any]:
    began = time.perf_counter()
    children = [_child(args, Side.NS), _child(args, Side.EW)]
    tables: list[list[str]] = []
    for child in children:
        out, err = child.communicate()
        if child.returncode != 0:
            raise SystemExit(f"bench_doubles: a table failed:\n{err[-2000:]}")
        tables.append(json.loads(out))
    boards = _boards(args)
    contracts = [(Auction.parse(a, d, v).contract, Auction.parse(b, d, v).contract)
                 for a, b, (_, d, v, _) in zip(tables[0], tables[1], boards, strict=True)]
    changed = [i for i, (a, b) in enumerate(contracts) if a != b]
    need = [i for i in changed if boards[i][3] is None]
    solved: dict[int, Any] = {}
    if need:
        tricks, _ = full_tables([boards[i][0] for i in need], [boards[i][1] for i in need],
                                [boards[i][2] for i in need])
        solved = {i: tricks[k] for k, i in enumerate(need)}
    gains = np.zeros(len(boards), dtype=np.int64)
    rows = []
    for i in changed:
        table = boards[i][3] if boards[i][3] is not None else solved[i]
        scores = []
        for contract in contracts[i]:
            took = None if contract is None else int(table[int(contract.strain),
                                                           int(contract.declarer)])
            scores.append(ns_score(contract, took, boards[i][2]))
        gains[i] = imps(scores[0] - scores[1])
        rows.append({"board": i + 1, "table1": tables[0][i], "table2": tables[1][i],
                     "ns1": scores[0], "ns2": scores[1], "imps": int(gains[i])})
    mean, _, low, high = confidence_interval(gains.tolist())
    doubled = sum(1 for a, b in contracts if (a is not None and a.doubled)
                  or (b is not None and b.doubled))
    return {"system": args.system, "boards": len(boards), "changed": len(changed),
            "doubled_contracts": doubled, "imps_per_board": mean, "interval": [low, high],
            "total_imps": int(gains.sum()), "seconds": round(time.perf_counter() - began, 1),
            "deals": "real" if args.real else {"count": args.deals, "seed": args.seed},
            "per_board": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="sbu-level1")
    parser.add_argument("--deals", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=61)
    parser.add_argument("--real", action="store_true", help="the real boards, not dealt ones")
    parser.add_argument("--boards", type=Path, default=DEFAULT_BOARDS)
    parser.add_argument("--no-dd-cache", action="store_true")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--bid-only", choices=["NS", "EW"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bid_only:
        print(json.dumps(bid_table(args, Side[args.bid_only])))
        return 0
    result = compare(args)
    low, high = result["interval"]
    print(f"{result['system']}: {result['boards']} boards, {result['changed']} changed, "
          f"{result['doubled_contracts']} doubled contracts; the doubling team "
          f"{result['imps_per_board']:+.3f} IMPs a board [{low:+.3f}, {high:+.3f}], "
          f"total {result['total_imps']:+d} ({result['seconds']} s)")
    for row in sorted(result["per_board"], key=lambda r: r["imps"])[:5]:
        print(f"  board {row['board']} {row['imps']:+d}: {row['table1']} | {row['table2']}")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
