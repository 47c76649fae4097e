"""Do the kings matter once the slam corrections know the aces and the shape?

The captain's slam odds move the trick model's estimate by the partnership's aces
(``engine/data/ace_tricks.json``) and its shape (``engine/data/shape_tricks.json``).
Kings are not read. A relay that shows partner's controls would tell them: three
controls opposite our three kings are an ace and the fourth king. This script measures
whether that would be worth reading. On the same solved deals and the same slam-zone
rows as ``tools/build_shape_tricks.py``, it prints the error that is left (tricks minus
the estimate minus both shifts). The rows are grouped by the partnership's kings within
each ace count, by its total controls (ace 2, king 1) and by its kings alone.

Measured 2026-12-07 (6,000 deals, seed 10; 2,149 suit rows, 643 no-trump rows): the
residual by kings stays within +-0.1 tricks wherever a group holds 100 rows or more. The
only larger figures are in thin groups, such as 4 aces with 4 kings (-0.25, 18 rows). The
standard error there is about 0.2, so none of this is an effect. A kings correction was
not built.

Usage (from the repository root; reuses the trick model's checkpoint of solved tables,
``out/trick_model_tables.npz``, or solves the deals again, about 12 minutes on two
cores)::

    PYTHONPATH=src .venv/bin/python benchmarks/slam_kings.py [--deals 6000] [--seed 10]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from build_ace_tricks import SLAM_ZONE, slam_rows  # noqa: E402
from build_shape_tricks import GROUPS, shortness  # noqa: E402
from build_trick_model import DEFAULT_CACHE  # noqa: E402

from bidbox.evaluate.holdings import tables as holding_tables  # noqa: E402

DATA = ROOT / "src" / "bidbox" / "engine" / "data"


def _cell(resid: np.ndarray, m: np.ndarray) -> str:
    """A group's size and mean residual."""
    return f"n={int(m.sum()):4d} {resid[m].mean():+.2f}" if m.any() else "n=   0   -  "


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    data = slam_rows(args.deals, args.seed, args.threads, args.cache)
    masks = data.solved.masks
    hd = holding_tables()
    per_hand = hd["controls"][masks].sum(axis=2) - 2 * hd["aces"][masks].sum(axis=2)
    kings = np.stack([per_hand[:, 0] + per_hand[:, 2], per_hand[:, 1] + per_hand[:, 3]],
                     axis=1).reshape(-1)
    hand_len = hd["length"][masks].astype(np.int64)
    first = np.stack([hand_len[:, 0], hand_len[:, 1]], axis=1).reshape(-1, 4)
    second = np.stack([hand_len[:, 2], hand_len[:, 3]], axis=1).reshape(-1, 4)
    aces_file = json.loads((DATA / "ace_tricks.json").read_text(encoding="utf-8"))["by_aces"]
    shape_file = json.loads((DATA / "shape_tricks.json").read_text(encoding="utf-8"))
    features = {"suit": shortness(first, second, data.fit),
                "nt": np.maximum(first.max(axis=1), second.max(axis=1))}
    for kind in ("suit", "nt"):
        tricks, est, eligible = data.kinds[kind]
        ace_shift = np.array([g["mean"] for g in aces_file[kind]])[data.aces]
        _, low, high = GROUPS[kind]
        means = np.array([g["mean"] for g in shape_file["by_shape"][kind]["groups"]])
        shape_shift = means[np.clip(features[kind], low, high) - low]
        zone = eligible & (est >= SLAM_ZONE)
        resid = tricks - est - ace_shift - shape_shift
        print(f"{kind}: {int(zone.sum())} slam-zone rows, residual {resid[zone].mean():+.3f}")

        for a in range(2, 5):
            row = " | ".join(f"K{k} {_cell(resid, zone & (data.aces == a) & (kings == k))}"
                             for k in range(5))
            print(f"  aces {a}: {row}")
        for c in range(4, 13):
            print(f"  controls {c:2d}: {_cell(resid, zone & (2 * data.aces + kings == c))}")
        for k in range(5):
            print(f"  kings {k}: {_cell(resid, zone & (kings == k))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
