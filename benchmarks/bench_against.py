"""The bidder of this checkout against a reference checkout's, timed in the same run.

On a shared machine the load moves within minutes, so a speed-up is claimed only as a
ratio of two runs made side by side: each round runs one workload in a fresh process
with the reference's ``src`` first, then this checkout's, and the figure is the median
over the rounds of the CPU time (``time.process_time``, steadier than the wall clock
under load) of the timed part. The workloads are the two of issue 10:

- ``fresh``: fresh uncontested batches (``bid_batch`` with one side silent, as
  ``bench_bidding.py``'s "fresh deals, warm caches" line): ``--warm`` batches of
  ``--deals`` deals, then one more, timed;
- ``match``: the bidding of ``bench_simulate.py`` (sbu-level1 against tosr by default,
  ``bid_table`` at both tables, both sides bidding), after warming on 8 deals.

    python benchmarks/bench_against.py --reference ../h_speed_ref [--workload fresh]
        [--rounds 3] [--deals 50000] [--system sbu-level1] [--json PATH]

Both processes import the workload from this file, so only the engine differs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def fresh(system: str, deals: int, warm: int, seed: int) -> dict[str, float]:
    """A fresh uncontested batch after ``warm`` others of the same size."""
    from bidbox.core.seats import Side
    from bidbox.engine import as_systems, bid_batch
    from bidbox.evaluate import deal_batch
    from bidbox.lang import load_system

    systems = as_systems(load_system(system))
    for k in range(warm):
        bid_batch(deal_batch(deals, seed + k), systems, silent=Side.EW)
    batch = deal_batch(deals, seed + warm)
    cpu, wall = time.process_time(), time.perf_counter()
    bid_batch(batch, systems, silent=Side.EW)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu_s": cpu, "wall_s": wall, "auctions_per_cpu_s": deals / cpu}


def match(a: str, b: str, deals: int, seed: int) -> dict[str, float]:
    """Both tables of ``deals`` boards bid as ``bench_simulate.py`` bids them."""
    from bidbox.sim.deals import deal_boards
    from bidbox.sim.match import MatchSpec, SystemRef, bid_table

    tables = MatchSpec(SystemRef.resolve(a), SystemRef.resolve(b)).table_systems()
    boards = deal_boards(deals, seed)
    warm = boards.take(range(min(8, deals)))
    for systems in tables:
        bid_table(warm, systems)
    cpu, wall = time.process_time(), time.perf_counter()
    for systems in tables:
        bid_table(boards, systems)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu_s": cpu, "wall_s": wall, "boards_per_cpu_s": deals / cpu}


def run_one(src: Path, args: argparse.Namespace) -> dict[str, float]:
    """The workload in a fresh process whose ``bidbox`` is the one under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--child", "--workload", args.workload,
               "--deals", str(args.deals), "--warm", str(args.warm), "--seed", str(args.seed),
               "--system", args.system, "--a", args.a, "--b", args.b]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the workload failed under {src}:\n{done.stderr[-2000:]}")
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    loaded = Path(out.pop("bidbox"))
    if not loaded.is_relative_to(src.resolve()):
        raise SystemExit(f"the workload ran the bidbox of {loaded}, not the one under {src}")
    return {key: float(value) for key, value in out.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=False,
                        help="the reference checkout (its src/ is put first on the path)")
    parser.add_argument("--workload", choices=("fresh", "match"), default="fresh")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=None,
                        help="deals per batch (fresh, default 50,000) or boards (match, 200)")
    parser.add_argument("--warm", type=int, default=2, help="fresh: batches bid first")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--system", default="sbu-level1", help="fresh: the system")
    parser.add_argument("--a", default="sbu-level1", help="match: system A")
    parser.add_argument("--b", default="tosr", help="match: system B")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.deals is None:
        args.deals = 50_000 if args.workload == "fresh" else 200
    if args.child:
        result = (fresh(args.system, args.deals, args.warm, args.seed)
                  if args.workload == "fresh" else match(args.a, args.b, args.deals, args.seed))
        import bidbox

        print(json.dumps({**result, "bidbox": str(Path(bidbox.__file__).resolve())}))
        return 0
    if args.reference is None:
        parser.error("--reference is required")
    sides = {"reference": args.reference.resolve() / "src", "this": ROOT / "src"}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    for k in range(args.rounds):
        for name, src in sides.items():
            runs[name].append(run_one(src, args))
            print(f"round {k + 1} {name:<9} cpu {runs[name][-1]['cpu_s']:7.2f} s  "
                  f"wall {runs[name][-1]['wall_s']:7.2f} s", flush=True)
    median = {name: {key: statistics.median(r[key] for r in rs) for key in rs[0]}
              for name, rs in runs.items()}
    ratio = median["reference"]["cpu_s"] / median["this"]["cpu_s"]
    what = (f"fresh uncontested {args.system} batch of {args.deals:,} deals after {args.warm}"
            if args.workload == "fresh" else
            f"bidding of {args.a} against {args.b}, {args.deals} boards, both tables")
    print(f"{what}: median CPU {median['reference']['cpu_s']:.2f} s (reference) against "
          f"{median['this']['cpu_s']:.2f} s (this checkout): {ratio:.2f}x")
    if args.json:
        report: dict[str, Any] = {"workload": args.workload, "what": what,
                                  "reference": str(args.reference), "runs": runs,
                                  "median": median, "speedup_cpu": ratio}
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
