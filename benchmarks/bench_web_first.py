"""The web table's first answer in a new server process, cold and warmed (issue 11).

Each run is a fresh Python process holding the app under a test client, as `bidbox serve`
holds it under uvicorn: its start-up (where ``warm=True`` deals and explains a table in
each warmed system, ``bidbox.web.table.warm_up``), then the first new table (the robots'
calls to the person's turn and every call explained, what ``POST /api/tables`` answers)
and the person's first call (``POST .../calls``). The reference, in the same process, is
the same two requests again (a second table on the same deal, every cache of the process
warm): the first table's time is reported as a multiple of it, so the claim does not
move with the machine's load as the seconds do. The deal is not the one ``warm_up``
plays.

    python benchmarks/bench_web_first.py [--system sbu-level1] [--repeats 3] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

_RUN = """
import json, tempfile, time, warnings
from pathlib import Path
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from bidbox.web.app import create_app
# Not the deal warm_up plays: the warmed process must not have seen these auctions.
FIRST = "N:KJ4.Q74.AJ62.K83 T876.J82.9543.72 AQ53.AK63.T7.J54 92.T95.KQ8.AQT96"
def table(client, deal):
    start = time.perf_counter()
    made = client.post("/api/tables", json={{"system": {system!r}, "deal": deal,
                                             "dealer": "E", "seat": "S"}}).json()
    client.post(f"/api/tables/{{made['id']}}/calls", json={{"call": "P"}})
    return time.perf_counter() - start
with tempfile.TemporaryDirectory() as folder:
    app = create_app(Path(folder) / "t.sqlite", warm={warm})
    start = time.perf_counter()
    with TestClient(app) as client:
        startup = time.perf_counter() - start
        first = table(client, FIRST)
        second = table(client, FIRST)
print(json.dumps({{"startup": startup, "first": first, "second": second}}))
"""


def run(system: str, warm: bool) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k != "BIDBOX_NO_WARM"}
    done = subprocess.run([sys.executable, "-c", _RUN.format(system=system, warm=warm)],
                          check=True, capture_output=True, text=True, env=env)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", default="sbu-level1")
    parser.add_argument("--repeats", type=int, default=3, help="fresh processes per mode")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.system}; median of {args.repeats} "
          "fresh processes each")
    out: dict[str, Any] = {"system": args.system, "load_before": os.getloadavg()}
    for warm in (False, True):  # alternate? each mode's runs are consecutive, medians kept
        runs = [run(args.system, warm) for _ in range(args.repeats)]
        row = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        row["first_vs_second"] = statistics.median(r["first"] / r["second"] for r in runs)
        out["warm" if warm else "cold"] = {**row, "runs": runs}
        print(f"  {'warmed' if warm else 'cold  '}: start-up {row['startup']:5.2f} s, first "
              f"table {row['first']:5.2f} s, second {row['second']:5.2f} s "
              f"(first = {row['first_vs_second']:.1f}x second)")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
