"""Write the golden explain texts anew (tests/data/explain_golden/<system>.txt) from the
auctions listed in tests/data/explain_golden/auctions.txt; review the diff before
committing: it is what a player will read differently.

    .venv/bin/python tools/update_explain_golden.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.cli.golden import write_golden

if __name__ == "__main__":
    for path in write_golden():
        print(f"wrote {path}")
