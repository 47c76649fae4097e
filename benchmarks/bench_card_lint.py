"""Convention card and lint speed for the shipped systems, against references in the same run.

Each measurement runs in a fresh Python process, as a user's `bidbox card` / `bidbox lint`
would: the dealt pool, the profile space and every cache start empty (the compiled-system
disk cache excepted: lint compiles the other option values through it, and the run says
how long loading, the walk and those compiles took). The warm figure fills that cache
first (one process compiling the system and its option values, untimed), as any earlier
command on the same code has; ``--cold`` adds lint with an empty cache, the first run after
installing bidbox or changing its compiling code. The PASS/ABOVE TARGET verdict is on the
whole process (start-up, imports and load included). Two references are
timed alongside:
1. *compile*: compiling the system's text (no disk cache), the one step every command
   shares; the card and lint times are reported as multiples of it;
2. *old path* (``--old-entries N``, default 60): the card as it was before issue 11, which
   explained every auction of the tree (all four seats' knowledge) to alert its last call;
   timed on N auctions spread evenly over the card's walk, in one process, beside the current
   path on the same auctions, giving a per-auction ratio and a full-card estimate.
Issue 11's target is a card and a lint under 10 s for either shipped system. Absolute
times depend on the machine and its load (the run says the load average); the ratios are
the claim.

    python benchmarks/bench_card_lint.py [--systems sbu-level1 tosr] [--repeats 1]
                                         [--old-entries 60] [--cold] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_SECONDS = 10.0

# Each snippet prints one JSON object on its last line; timing starts after the imports.
_COMPILE = """
import json, time
from bidbox.lang import compile_text, system_path
path = system_path({name!r})
text = path.read_text(encoding="utf-8")
start, cpu = time.perf_counter(), time.process_time()
compile_text(text, str(path))
print(json.dumps({{"seconds": time.perf_counter() - start,
                   "cpu_seconds": time.process_time() - cpu}}))
"""

_CARD = """
import json, time
from bidbox.lang import load_system
from bidbox.rules import SBU
from bidbox.rules.card import convention_card
system = load_system({name!r})
start, cpu = time.perf_counter(), time.process_time()
card = convention_card(system, SBU())
print(json.dumps({{"seconds": time.perf_counter() - start, "rows": len(card["alertable"]),
                   "cpu_seconds": time.process_time() - cpu}}))
"""

# Lint in its three parts: loading the system, the walk over every node in every table
# situation (with the open forcing calls), then compiling the other option values (from
# the disk cache when warm, as for a user's second run; compiled afresh when cold).
_LINT = """
import collections, json, time
start, cpu = time.perf_counter(), time.process_time()
from bidbox.lang import load_system
from bidbox.verify import lint_system
from bidbox.verify.lint import compile_variants
system = load_system({name!r})
load, load_cpu = time.perf_counter() - start, time.process_time() - cpu
start, cpu = time.perf_counter(), time.process_time()
findings = lint_system(system, variants=False)
walk, walk_cpu = time.perf_counter() - start, time.process_time() - cpu
start, cpu = time.perf_counter(), time.process_time()
findings += compile_variants(system)
variants, variants_cpu = time.perf_counter() - start, time.process_time() - cpu
kinds = collections.Counter(f"{{f.code}} {{f.severity}}" + (" sampled" if f.sampled else "")
                            for f in findings)
print(json.dumps({{"seconds": walk + variants, "walk_seconds": walk,
                   "cpu_seconds": walk_cpu + variants_cpu, "walk_cpu_seconds": walk_cpu,
                   "variants_seconds": variants, "variants_cpu_seconds": variants_cpu,
                   "load_seconds": load, "load_cpu_seconds": load_cpu,
                   "findings": len(findings),
                   "kinds": dict(sorted(kinds.items()))}}))
"""

# The card's walk, once with the current reading of a call and once explaining the whole
# auction first (the code path before issue 11), on the same N auctions.
_OLD_PATH = """
import json, time
from bidbox.core import Auction
from bidbox.engine import as_systems, explain
from bidbox.lang import load_system
from bidbox.rules import SBU, decide_alerts
from bidbox.rules.alerts import decide_call_alert
from bidbox.rules.card import ALERT_DEPTH
system = load_system({name!r})
systems = as_systems(system)
entries = []
def visit(node, depth):
    if depth > ALERT_DEPTH:
        return
    for entry in node.ordered():
        entries.append(entry)
        visit(entry.node, depth + 1)
    for opp in node.opp:
        if opp.pattern not in ("any", "bid"):
            visit(opp.node, depth + 1)
visit(system.root, 1)
chosen = entries[::max(1, len(entries) // {count})][:{count}]  # spread over the tree
regulation = SBU()
def new_path():
    return [decide_call_alert(Auction().extend(e.auction[:-1]), e.call, systems, regulation)
            .alert for e in chosen]
def old_path():
    return [decide_alerts(explain(Auction().extend(e.auction), systems), regulation)[-1]
            .alert for e in chosen]
new_path()  # both paths then start from the same warm caches of the rules
start = time.perf_counter(); new = new_path(); new_s = time.perf_counter() - start
start = time.perf_counter(); old = old_path(); old_s = time.perf_counter() - start
assert new == old, "the two paths disagree on an alert"
print(json.dumps({{"new": new_s, "old": old_s, "auctions": len(chosen),
                   "card_auctions": len(entries)}}))
"""


# Fills the compiled-system disk cache for the system and its option values, so that a
# warm figure is warm even on the first run after a change to the compiling code.
_WARM = """
from bidbox.lang import load_system
from bidbox.verify.lint import compile_variants
compile_variants(load_system({name!r}))
print("{{}}")
"""


def run(snippet: str, cache: Path | None = None, **fields: Any) -> dict[str, Any]:
    """Run a snippet in a fresh interpreter; its last output line is its JSON result.
    ``cache``: the compiled-system cache folder to use (an empty one: a cold cache)."""
    env = dict(os.environ)
    if cache is not None:
        env["BIDBOX_CACHE_DIR"] = str(cache)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", snippet.format(**fields)], check=True,
                          capture_output=True, text=True, env=env)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process_seconds"] = time.perf_counter() - start
    return result


def best(snippet: str, repeats: int, cold: bool = False, **fields: Any) -> dict[str, Any]:
    """The fastest of ``repeats`` fresh processes (``cold``: each with an empty cache)."""
    runs = []
    for _ in range(repeats):
        if cold:
            with tempfile.TemporaryDirectory() as folder:
                runs.append(run(snippet, Path(folder), **fields))
        else:
            runs.append(run(snippet, **fields))
    return min(runs, key=lambda r: float(r["seconds"]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", nargs="+", default=["sbu-level1", "tosr"])
    parser.add_argument("--repeats", type=int, default=1, help="best of N fresh processes")
    parser.add_argument("--old-entries", type=int, default=60,
                        help="auctions timed on the old card path (0: skip)")
    parser.add_argument("--no-lint", action="store_true")
    parser.add_argument("--no-card", action="store_true")
    parser.add_argument("--cold", action="store_true",
                        help="also time lint with an empty compiled-system cache (the first "
                             "run after installing or changing the compiling code)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    out: dict[str, Any] = {"python": platform.python_version(), "machine": platform.machine(),
                           "load_before": os.getloadavg(), "target_seconds": TARGET_SECONDS,
                           "systems": {}}
    print(f"load average {os.getloadavg()[0]:.1f}; each figure a fresh process "
          f"(best of {args.repeats})")
    for name in args.systems:
        row: dict[str, Any] = {"compile": best(_COMPILE, args.repeats, name=name)}
        if not args.no_card:
            row["card"] = best(_CARD, args.repeats, name=name)
        if not args.no_lint:
            run(_WARM, name=name)
            row["lint"] = best(_LINT, args.repeats, name=name)
            if args.cold:
                row["lint_cold"] = best(_LINT, args.repeats, cold=True, name=name)
        compile_s = float(row["compile"]["seconds"])
        print(f"\n{name}: compile {compile_s:.2f} s")
        for what in ("card", "lint", "lint_cold"):
            if what not in row:
                continue
            seconds = float(row[what]["seconds"])
            row[what]["vs_compile"] = seconds / compile_s
            verdict = "PASS" if row[what]["process_seconds"] < TARGET_SECONDS else "ABOVE TARGET"
            print(f"  {what:<5} {seconds:6.2f} s ({seconds / compile_s:5.1f}x compile), "
                  f"{row[what]['process_seconds']:6.2f} s with start-up: {verdict}")
            if "cpu_seconds" in row[what]:  # the processor's time: less at the mercy of load
                cpu = float(row[what]["cpu_seconds"])
                row[what]["cpu_vs_compile"] = cpu / float(row["compile"]["cpu_seconds"])
                print(f"        cpu {cpu:.2f} s ({row[what]['cpu_vs_compile']:.1f}x compile's "
                      f"{float(row['compile']['cpu_seconds']):.2f} s)")
            if what.startswith("lint"):
                lint = row[what]
                print(f"        load {lint['load_seconds']:.2f} s (cpu "
                      f"{lint['load_cpu_seconds']:.2f} s), walk {lint['walk_seconds']:.2f} s "
                      f"(cpu {lint['walk_cpu_seconds']:.2f} s), other option values "
                      f"{lint['variants_seconds']:.2f} s (cpu "
                      f"{lint['variants_cpu_seconds']:.2f} s)")
                print(f"        {lint['findings']} findings: "
                      + ", ".join(f"{n} {k}" for k, n in lint["kinds"].items()))
        if args.old_entries:
            old = run(_OLD_PATH, name=name, count=args.old_entries)
            ratio = old["old"] / old["new"]
            estimate = old["old"] / old["auctions"] * old["card_auctions"]
            old["ratio"], old["old_card_estimate_seconds"] = ratio, estimate
            row["old_path"] = old
            print(f"  old card path on {old['auctions']} of {old['card_auctions']} auctions: "
                  f"{old['old']:.2f} s against {old['new']:.2f} s now ({ratio:.0f}x); "
                  f"the whole old card about {estimate:.0f} s")
        out["systems"][name] = row
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
