"""Build the ace correction that the captain applies to the trick model after Blackwood.

The trick model (``engine/data/trick_model.json``) reads combined HCP and lengths. At
slam level that is not enough: a partnership missing two aces loses both, however many
points it holds, and one holding all four takes more tricks than its points say. Once
partner has answered Blackwood the captain knows the aces, so the estimate is corrected:
on the same solved deals the trick model was built from, the model's error (tricks
minus estimate) is measured per number of aces the partnership holds, on the deals where
slam is in question (estimate 10 or more: a suit fit of eight or more, or no-trump with
26+ HCP), and its mean and spread are shipped as ``engine/data/ace_tricks.json``.

The fit uses the trick model's own training deals and is scored on its held-out fifth:
the chance of twelve tricks predicted with and without the correction against what the
deals made (Brier score), so the file says how much the correction is worth.

Usage (from the repository root; reuses the trick model's checkpoint of solved tables,
``out/trick_model_tables.npz``, or solves the deals again when it is missing)::

    .venv/bin/python tools/build_ace_tricks.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_trick_model import DEFAULT_CACHE, HOLDOUT, partnerships, solve

from bidbox.engine.tricks import estimate_tricks
from bidbox.evaluate.holdings import tables as holding_tables

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "src" / "bidbox" / "engine" / "data" / "ace_tricks.json"
SLAM_ZONE = 10.0
"""Deals whose estimate reaches this many tricks: those on which a slam is asked about."""
MIN_ROWS = 30
"""Fewer rows than this in an ace group borrow the neighbouring group's figures."""

FloatArray = npt.NDArray[np.float64]


def _p_at_least(mean: FloatArray, sd: FloatArray | float, tricks: int) -> FloatArray:
    z = (tricks - 0.5 - mean) / sd
    erf = np.vectorize(math.erf)
    out: FloatArray = 1.0 - 0.5 * (1.0 + erf(z / math.sqrt(2.0)))
    return out


@dataclass(frozen=True)
class SlamRows:
    """The solved deals as the slam corrections read them: one row per deal and
    partnership (N-S, then E-W), split into the trick model's training deals and its
    held-out fifth."""

    solved: Any  # build_trick_model's solved tables (masks, tables)
    aces: npt.NDArray[np.int64]  # the partnership's aces
    fit: npt.NDArray[np.int64]  # the longest combined suit's column
    kinds: dict[str, tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]]
    """Per kind (suit, nt): the tricks taken, the model's estimate, and whether the row is
    one a slam is asked about in that kind (a fit of eight or more; 26+ HCP)."""
    cut: int  # the first held-out deal
    train: npt.NDArray[np.bool_]
    held: npt.NDArray[np.bool_]


def slam_rows(deals: int, seed: int, threads: int, cache: Path | None) -> SlamRows:
    """The trick model's solved deals (its checkpoint, or solved again) as :class:`SlamRows`."""
    solved = solve(deals, seed, threads, cache)
    p = partnerships(solved)
    aces_hand = holding_tables()["aces"][solved.masks].sum(axis=2)  # (n, 4 seats)
    aces = np.stack([aces_hand[:, 0] + aces_hand[:, 2], aces_hand[:, 1] + aces_hand[:, 3]],
                    axis=1).reshape(-1)
    estimate = estimate_tricks(p.hcp, p.lengths)
    rows = np.arange(len(p.hcp))
    fit = p.lengths.argmax(axis=1)
    kinds = {
        # The longest combined suit, where it is a fit: the strain a captain asks about.
        "suit": (p.tricks[rows, fit].astype(np.float64), estimate[rows, fit],
                 p.lengths.max(axis=1) >= 8),
        "nt": (p.tricks[:, 4].astype(np.float64), estimate[:, 4], p.hcp >= 26),
    }
    cut = round(len(solved.tables) * (1 - HOLDOUT))
    return SlamRows(solved, aces, fit, kinds, cut, p.deal < cut, p.deal >= cut)


def parse_options(description: str, default_out: Path,
                  argv: list[str] | None) -> argparse.Namespace:
    """The command line both slam-correction tools take."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, default=default_out)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    return parser.parse_args(argv)


def build(deals: int, seed: int, threads: int, cache: Path | None) -> dict[str, Any]:
    data = slam_rows(deals, seed, threads, cache)
    solved, aces, cut, train, held = data.solved, data.aces, data.cut, data.train, data.held
    kinds = data.kinds
    out: dict[str, Any] = {}
    check: dict[str, Any] = {}
    missing_two: dict[str, Any] = {}
    for kind, (tricks, est, eligible) in kinds.items():
        zone = eligible & (est >= SLAM_ZONE)
        resid = tricks - est
        groups: list[dict[str, float]] = []
        for a in range(5):
            m = zone & train & (aces == a)
            groups.append({"aces": a, "rows": int(m.sum()),
                           "mean": float(resid[m].mean()) if m.any() else 0.0,
                           "sd": float(resid[m].std()) if m.sum() > 1 else 1.0})
        # Thin groups (a slam zone with 0 or 1 ace is rare) take their neighbour's figures.
        for g in sorted(groups, key=lambda g: abs(g["aces"] - 3)):  # nearest first
            if g["rows"] < MIN_ROWS:
                near = groups[int(g["aces"]) + (1 if g["aces"] < 3 else -1)]
                g["mean"], g["sd"] = near["mean"], near["sd"]
        out[kind] = [{"aces": g["aces"], "rows": g["rows"], "mean": round(g["mean"], 3),
                      "sd": round(g["sd"], 3)} for g in groups]
        # Two aces missing, the defence cashes them: twelve tricks only with a void or a
        # discard. A normal error cannot say so, so the rate itself is kept.
        two = zone & train & (aces <= 2) & (est >= 11)
        rate = float((tricks[two] >= 12).mean()) if two.sum() >= MIN_ROWS else (
            missing_two["suit"]["made_12"])  # no-trump's few such rows borrow the suits'
        missing_two[kind] = {"rows": int(two.sum()), "made_12": round(rate, 3)}
        overall = float(resid[zone & train].std())
        m = zone & held
        made = (tricks[m] >= 12).astype(np.float64)
        plain = _p_at_least(est[m], overall, 12)
        shift = np.array([g["mean"] for g in groups])[aces[m]]
        spread = np.array([g["sd"] for g in groups])[aces[m]]
        corrected = _p_at_least(est[m] + shift, spread, 12)
        corrected = np.where(aces[m] <= 2, np.minimum(corrected, missing_two[kind]["made_12"]),
                             corrected)
        check[kind] = {"boards": int(m.sum()),
                       "brier_without": round(float(((plain - made) ** 2).mean()), 4),
                       "brier_with": round(float(((corrected - made) ** 2).mean()), 4),
                       "made_12": round(float(made.mean()), 3)}
    return {
        "schema": "bidbox-ace-tricks/1",
        "description": (
            "The trick model's error (double-dummy tricks minus its estimate) by the "
            "number of aces the partnership holds, on deals where slam is in question "
            f"(estimate {SLAM_ZONE:g}+): added to the estimate once Blackwood has told "
            "the captain the aces."),
        "build": {"script": "tools/build_ace_tricks.py", "seed": seed,
                  "deals": len(solved.tables), "train_deals": cut,
                  "date": dt.date.today().isoformat()},
        "by_aces": out,
        "missing_two_aces": missing_two,
        "holdout_check": check,
    }


def main(argv: list[str] | None = None) -> int:
    args = parse_options((__doc__ or "").split("\n\n")[0], DEFAULT_OUT, argv)
    data = build(args.deals, args.seed, args.threads, args.cache)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    for kind, c in data["holdout_check"].items():
        print(f"{kind}: held-out slam-zone boards {c['boards']}, P(12 tricks) Brier "
              f"{c['brier_without']} without the ace correction, {c['brier_with']} with it")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
