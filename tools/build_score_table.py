"""Write bidbox's duplicate score table from endplay's scoring.

The engine weighs contracts by their score on every judged call; importing endplay (and
through it matplotlib) costs seconds, which a one-hand `bidbox bid` should not pay. So
the table is endplay's, read once here and shipped as data; tests/core/test_scoring.py
checks the shipped file against endplay cell by cell.

    .venv/bin/python tools/build_score_table.py        # rewrites src/bidbox/core/data/scores.npy
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bidbox.core.scoring import endplay_score_table

OUT = Path(__file__).parents[1] / "src" / "bidbox" / "core" / "data" / "scores.npy"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    np.save(args.out, endplay_score_table())
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
