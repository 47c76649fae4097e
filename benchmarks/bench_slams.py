"""Slam decisions on dealt deals: this engine against a reference engine, double dummy.

The real boards (``bench_real_boards.py``) hold about twenty slams, too few to judge a
change to the slam decisions. This benchmark deals seeded random boards, keeps those on
which one partnership holds at least ``--min-hcp`` combined HCP (where slam decisions are
taken), and bids each with one system at all four seats twice: with the engine on
``PYTHONPATH`` (this checkout) and with a reference engine (``--against``: another
checkout's ``src``, bid in a subprocess so the two never share a module). Dealer and
vulnerability follow the 16-board cycle.

Deals whose two auctions end in different contracts are solved double dummy (DDS through
``sim.double_dummy.full_tables``, with par). As in ``bench_real_boards.py`` a table is
judged by its distance from par, since the same engine sits on both sides: each table's
loss is ``-|imps(ns - par)|`` and a deal's gain is this engine's loss minus the
reference's. The mean gain is reported per kept deal (unchanged deals gain 0) with a 95%
interval (``sim.report.confidence_interval``), with the slams bid by each engine and how
many of them make.

    PYTHONPATH=src python benchmarks/bench_slams.py --system sbu-level1 \\
        --against /path/to/other/checkout/src [--deals 6000] [--seed 23] [--json PATH]
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
import numpy.typing as npt

from bidbox.core.auction import Auction
from bidbox.engine import as_systems, bid_batch
from bidbox.evaluate.dealer import DealBatch, deal_batch
from bidbox.evaluate.holdings import tables as holding_tables
from bidbox.lang import load_system
from bidbox.sim.deals import board_dealer, board_vulnerability
from bidbox.sim.double_dummy import full_tables
from bidbox.sim.report import confidence_interval
from bidbox.sim.scoring import imps, ns_score

MIN_HCP = 27
"""Combined HCP of one partnership from which a deal is kept: below it slam is rare."""


def slam_zone_deals(count: int, seed: int, min_hcp: int) -> tuple[DealBatch, npt.NDArray[np.int64]]:
    """The dealt boards on which a partnership holds ``min_hcp``+, and their board numbers."""
    batch = deal_batch(count, seed=seed)
    hcp = holding_tables()["hcp"][batch.masks].sum(axis=2)  # (n, 4 seats)
    keep = np.flatnonzero(np.maximum(hcp[:, 0] + hcp[:, 2], hcp[:, 1] + hcp[:, 3]) >= min_hcp)
    return DealBatch(batch.masks[keep]), keep + 1


def bid_all(deals: DealBatch, numbers: npt.NDArray[np.int64], system: str) -> list[str]:
    """Each deal's auction as text, bid by this process's engine."""
    systems = as_systems(load_system(system))
    out: list[str] = [""] * len(deals)
    groups: dict[int, list[int]] = {}
    for i, number in enumerate(numbers.tolist()):
        groups.setdefault((number - 1) % 16, []).append(i)
    for cycle, rows in groups.items():
        sub = DealBatch(deals.masks[rows])
        auctions = bid_batch(sub, systems, board_dealer(cycle + 1),
                             board_vulnerability(cycle + 1)).auctions()
        for k, auction in zip(rows, auctions, strict=True):
            out[k] = " ".join(map(str, auction.calls))
    return out


def _reference(args: argparse.Namespace) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(args.against))
    cmd = [sys.executable, __file__, "--bid-only", "--system", args.system, "--deals",
           str(args.deals), "--seed", str(args.seed), "--min-hcp", str(args.min_hcp)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench_slams: the reference engine at {args.against} failed:\n"
                         f"{done.stderr[-2000:]}")
    auctions: list[str] = json.loads(done.stdout)
    return auctions


def compare(args: argparse.Namespace) -> dict[str, Any]:
    deals, numbers = slam_zone_deals(args.deals, args.seed, args.min_hcp)
    began = time.perf_counter()
    mine = bid_all(deals, numbers, args.system)
    mine_seconds = time.perf_counter() - began
    theirs = _reference(args)
    dealers = [board_dealer(int(n)) for n in numbers]
    vuls = [board_vulnerability(int(n)) for n in numbers]
    contracts = [(Auction.parse(a, d, v).contract, Auction.parse(b, d, v).contract)
                 for a, b, d, v in zip(mine, theirs, dealers, vuls, strict=True)]
    changed = [i for i, (a, b) in enumerate(contracts) if a != b]
    gains = np.zeros(len(deals), dtype=np.int64)
    rows: list[dict[str, Any]] = []
    slams = {"this": [0, 0], "reference": [0, 0]}  # bid, made (on the changed deals)
    if changed:
        tables, pars = full_tables([deals.pbn(i) for i in changed],
                                   [dealers[i] for i in changed], [vuls[i] for i in changed])
        assert pars is not None
        for k, i in enumerate(changed):
            loss = []
            for who, contract in zip(("this", "reference"), contracts[i], strict=True):
                took = None if contract is None else int(
                    tables[k, int(contract.strain), int(contract.declarer)])
                score = ns_score(contract, took, vuls[i])
                loss.append(-abs(imps(score - pars[k].ns_score)))
                if contract is not None and contract.level >= 6:
                    slams[who][0] += 1
                    slams[who][1] += int(took is not None and took >= contract.level + 6)
            gains[i] = loss[0] - loss[1]
            rows.append({"board": int(numbers[i]), "deal": deals.pbn(i), "this": mine[i],
                         "reference": theirs[i], "par": pars[k].contracts,
                         "gain": int(gains[i])})
    mean, sd, low, high = confidence_interval(gains.tolist())
    return {"system": args.system, "seed": args.seed, "dealt": args.deals,
            "kept": len(deals), "min_hcp": args.min_hcp, "changed": len(changed),
            "gain_per_deal": {"mean": mean, "sd": sd, "ci95": [low, high],
                              "total": int(gains.sum())},
            "slams_on_changed": {k: {"bid": v[0], "made": v[1]} for k, v in slams.items()},
            "bidding_seconds_this": round(mine_seconds, 1), "boards": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--system", default="sbu-level1")
    parser.add_argument("--deals", type=int, default=6000, help="boards dealt (default 6000)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--min-hcp", type=int, default=MIN_HCP)
    parser.add_argument("--against", type=Path, help="the reference engine's src folder")
    parser.add_argument("--json", type=Path, help="also write the figures and changed boards")
    parser.add_argument("--bid-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.bid_only:
        deals, numbers = slam_zone_deals(args.deals, args.seed, args.min_hcp)
        print(json.dumps(bid_all(deals, numbers, args.system)))
        return 0
    if args.against is None or not (args.against / "bidbox").is_dir():
        parser.error("--against: the src folder of a reference checkout (holding bidbox/)")
    out = compare(args)
    g = out["gain_per_deal"]
    print(f"{out['system']}: {out['kept']} of {out['dealt']} dealt boards with "
          f"{out['min_hcp']}+ HCP in one partnership (seed {out['seed']}); "
          f"{out['changed']} end in another contract")
    print(f"gain against the reference, IMPs per kept deal: {g['mean']:+.3f} "
          f"[{g['ci95'][0]:+.3f}, {g['ci95'][1]:+.3f}] (total {g['total']:+d})")
    for who, s in out["slams_on_changed"].items():
        print(f"  slams on the changed deals, {who}: {s['bid']} bid, {s['made']} make")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
