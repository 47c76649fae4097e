"""Build the defence calibration: what the opponents' contract will make, from the
defenders' side of the table, for judgement's penalty double.

A defender who weighs a double knows the opponents' tricks only through the captain's own
estimate: our tricks as declarer in their strain (the trick model on our HCP and our
lengths, partner's read from the auction), their tricks 13 less. Taken as it stands that
is overconfident: on dealt deals the contracts it gave 60-80% to go down went down about
half the time, since the opponents chose to bid them knowing their own cards (a judged
contract, a game, a slam they explored make more than the points say). So this script
measures the estimate against the double-dummy result where the question is asked:

1. deal ``--deals`` boards per seed and bid them with each system of ``--systems`` at all
   four seats (dealer and vulnerability by the 16-board cycle), judgement's penalty
   doubles switched off (the calibration is of the passes they would replace);
2. at every contract of two or more, undoubled, that looks final to a double
   (``judgement._final_looking``), take each defender's call after it: the state of the
   auction then, the defender's estimate of our tricks in their strain, and the features
   of ``judgement.defence_features``;
3. solve the contract double dummy and fit the declarer's tricks by least squares on the
   features of the ``--seed`` deals; the spread is the residual's on the
   ``--holdout-seed`` deals, which also give the held-out check (bias, spread, the Brier
   score of "goes down" against the raw estimate's, and the calibration by bins).

The result is ``engine/data/defence_tricks.json``. Usage (from the repository root)::

    .venv/bin/python tools/build_defence_tricks.py [--deals 2000] [--seed 71]
        [--holdout-seed 72] [--systems sbu-level1,tosr,canary,magic-dlight]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction
from bidbox.engine import as_systems, bid_batch, judgement
from bidbox.engine.features import HandFeatures
from bidbox.engine.kernels import COLUMN
from bidbox.engine.walk import replay
from bidbox.evaluate.dealer import DealBatch, deal_batch
from bidbox.lang import load_system
from bidbox.sim.deals import board_dealer, board_vulnerability
from bidbox.sim.double_dummy import solve_cells

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "bidbox" / "engine" / "data" / "defence_tricks.json"
SYSTEMS = ("sbu-level1", "tosr", "canary", "magic-dlight")
BINS = 10

FloatArray = npt.NDArray[np.float64]


def _no_doubles(state: Any, p: Any, judged: list[Any]) -> list[Any]:
    return judged


def rows_for(system: str, count: int, seed: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The features, the declarer's double-dummy tricks and the level of every defender's
    decision on ``count`` deals of ``seed`` bid by ``system``."""
    systems = as_systems(load_system(system))
    deals = deal_batch(count, seed=seed)
    auctions: list[Auction | None] = [None] * count
    by_cycle: dict[int, list[int]] = {}
    for i in range(count):
        by_cycle.setdefault(i % 16, []).append(i)
    for cycle, members in by_cycle.items():
        batch = DealBatch(deals.masks[members])
        bid = bid_batch(batch, systems, board_dealer(cycle + 1),
                        board_vulnerability(cycle + 1)).auctions()
        for i, auction in zip(members, bid, strict=True):
            auctions[i] = auction
    features: list[FloatArray] = []
    levels: list[int] = []
    cells: list[tuple[str, Any]] = []
    for i, auction in enumerate(auctions):
        assert auction is not None
        contract = auction.contract
        if contract is None or contract.level < judgement.PENALTY_LEVEL or auction.doubled:
            continue
        calls = auction.calls
        last = auction.last_bid_index()
        for k in range(last + 1, len(calls)):
            seat = auction.seat_of(k)
            if seat.side is auction.seat_of(last).side:
                continue
            _, state = replay(auction.prefix(k), systems)
            if not judgement._final_looking(state):
                continue
            hand = HandFeatures(deals.hands(seat)[i:i + 1])
            p = judgement._prospects(state, hand)
            ours = p.probs[:, COLUMN[contract.strain]]
            features.append(judgement.defence_features(state, ours)[0])
            levels.append(contract.level)
            cells.append((deals.pbn(i), (contract.strain, contract.declarer)))
    solved = solve_cells([c[0] for c in cells], [[c[1]] for c in cells])
    tricks = np.array([next(iter(s.values())) for s in solved], dtype=np.float64)
    return (np.array(features, dtype=np.float64).reshape(-1, len(judgement.DEFENCE_FEATURES)),
            tricks, np.array(levels, dtype=np.float64))


def _down(mean: FloatArray, sd: float, levels: FloatArray) -> FloatArray:
    """P(fewer than level + 6 tricks) under a normal error."""
    z = (levels + 5.5 - mean) / sd
    return np.array([0.5 * (1.0 + math.erf(v / math.sqrt(2.0))) for v in z])


def build(args: argparse.Namespace) -> dict[str, Any]:
    judgement._penalty_doubles = _no_doubles  # type: ignore[assignment]
    parts: dict[int, list[tuple[FloatArray, FloatArray, FloatArray]]] = {}
    for seed in (args.seed, args.holdout_seed):
        for system in args.systems:
            print(f"bidding {args.deals} deals of seed {seed} with {system}", file=sys.stderr)
            parts.setdefault(seed, []).append(rows_for(system, args.deals, seed))
    train_x = np.concatenate([p[0] for p in parts[args.seed]])
    train_y = np.concatenate([p[1] for p in parts[args.seed]])
    coef, *_ = np.linalg.lstsq(train_x, train_y, rcond=None)
    held_x = np.concatenate([p[0] for p in parts[args.holdout_seed]])
    held_y = np.concatenate([p[1] for p in parts[args.holdout_seed]])
    held_levels = np.concatenate([p[2] for p in parts[args.holdout_seed]])
    resid = held_y - held_x @ coef
    sd = float(resid.std())
    raw = held_x[:, 1]
    went_down = (held_y < held_levels + 6).astype(np.float64)
    raw_sd = float((held_y - raw).std())
    p_fit = _down(held_x @ coef, sd, held_levels)
    p_raw = _down(raw, raw_sd, held_levels)
    bins = []
    for b in range(BINS):
        m = (p_fit >= b / BINS) & (p_fit < (b + 1) / BINS)
        if m.any():
            bins.append({"predicted": f"{b / BINS:.1f}-{(b + 1) / BINS:.1f}",
                         "decisions": int(m.sum()),
                         "went_down": round(float(went_down[m].mean()), 3)})
    return {
        "schema": judgement.DEFENCE_SCHEMA,
        "description": "The opponents' double-dummy tricks in the contract standing, from the "
                       "defender's own estimate (13 less our expected tricks as declarer in "
                       "their strain) and what the auction says of their contract: a linear "
                       "fit on dealt deals, with the spread of its held-out error.",
        "features": list(judgement.DEFENCE_FEATURES),
        "coefficients": [round(float(c), 4) for c in coef],
        "sd": round(sd, 4),
        "build": {"script": "tools/build_defence_tricks.py", "systems": list(args.systems),
                  "deals": args.deals, "seed": args.seed, "holdout_seed": args.holdout_seed,
                  "train_decisions": len(train_y), "date": dt.date.today().isoformat()},
        "holdout_check": {
            "decisions": len(held_y),
            "bias": round(float(resid.mean()), 3),
            "sd": round(sd, 3),
            "raw_estimate": {"bias": round(float((held_y - raw).mean()), 3),
                             "sd": round(raw_sd, 3)},
            "brier_went_down": {"raw": round(float(((p_raw - went_down) ** 2).mean()), 4),
                                "fitted": round(float(((p_fit - went_down) ** 2).mean()), 4)},
            "calibration": bins,
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=71)
    parser.add_argument("--holdout-seed", type=int, default=72)
    parser.add_argument("--systems", type=lambda s: tuple(s.split(",")), default=SYSTEMS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    data = build(args)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(data["holdout_check"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
