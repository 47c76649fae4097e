"""Benchmark the system compiler and a warm ``bidbox bid`` process, in one run.

(a) Compile time of tosr from text: today's compiler against the text-macro compiler of
    commit d5e7d93 (before modules were parsed once). The old ``src/bidbox/lang`` is
    taken out of git into a temporary folder and imported as ``bidbox.lang`` in a
    subprocess of its own (the rest of bidbox, core and evaluate, is today's); the new
    one runs in another subprocess. Both compile the same text: today's tosr.bbx, or, if
    the old compiler cannot read it any more, the tosr.bbx of d5e7d93. Each side is timed
    ``--repeats`` times per round, the rounds alternate old/new, and the best CPU time
    (``time.process_time``, less disturbed than wall time by other processes on a
    shared machine) of each side gives the ratio old / new; the target is at least 10x.
    The two trees are compared (node and call counts) so the ratio is like for like.

(b) A whole ``bidbox bid --system tosr --hand KQ2.AQ8732.32.K2 --auction "1C P"`` process
    with a warm cache against a ``bidbox eval KQ2.AQ8732.32.K2`` process: the cache lives
    in a temporary folder (``BIDBOX_CACHE_DIR``) warmed by one bid first; then the two
    commands run alternately ``--processes`` times each, and the medians of wall time and
    of CPU time (user + system of the child) give the ratio bid / eval; the target is at
    most 1.5x (Python's own start-up and bidbox's imports are the floor of both).

Run: ``python benchmarks/bench_compile.py [--repeats N] [--rounds N] [--processes N]
[--json PATH]``. The exit status is non-zero only when a side fails to run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OLD_COMMIT = "d5e7d93"
TOSR = "src/bidbox/systems/tosr.bbx"
HAND = "KQ2.AQ8732.32.K2"

# Run in a subprocess: compile TEXT_FILE with the lang package in LANG_DIR (or today's).
_COMPILE = r"""
import importlib.util, json, sys, time
lang_dir, text_file, system_file, repeats = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import bidbox
if lang_dir:
    spec = importlib.util.spec_from_file_location(
        "bidbox.lang", lang_dir + "/__init__.py", submodule_search_locations=[lang_dir])
    module = importlib.util.module_from_spec(spec)
    sys.modules["bidbox.lang"] = module
    spec.loader.exec_module(module)
from bidbox.lang.compiler import compile_text
from bidbox.lang.diagnostics import SystemFileError
text = open(text_file, encoding="utf-8").read()
times = []
try:
    for _ in range(repeats):
        start = time.process_time()
        system = compile_text(text, system_file)
        times.append(time.process_time() - start)
except SystemFileError as err:
    print(json.dumps({"error": str(err).splitlines()[0]}))
    sys.exit(0)
nodes = system.nodes()
print(json.dumps({"times": times, "file": sys.modules["bidbox.lang.compiler"].__file__,
                  "nodes": len(nodes), "calls": sum(len(n.calls) for n in nodes)}))
"""


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout


def old_lang(folder: Path) -> Path:
    """The lang package of OLD_COMMIT, written into ``folder``."""
    target = folder / "lang"
    target.mkdir()
    for path in _git("ls-tree", "--name-only", f"{OLD_COMMIT}:src/bidbox/lang").split():
        if path.endswith(".py"):
            (target / path).write_text(_git("show", f"{OLD_COMMIT}:src/bidbox/lang/{path}"),
                                       encoding="utf-8")
    return target


def compile_side(lang: Path | None, text_file: Path, repeats: int) -> dict[str, Any]:
    out = subprocess.run([sys.executable, "-c", _COMPILE, str(lang or ""), str(text_file),
                          str(ROOT / TOSR), str(repeats)], check=True, capture_output=True,
                         text=True, cwd=ROOT)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def bench_compile(repeats: int, rounds: int, folder: Path) -> dict[str, Any]:
    lang = old_lang(folder)
    text_file = ROOT / TOSR
    probe = compile_side(lang, text_file, 1)
    text_source = "today's tosr.bbx"
    if "error" in probe:
        text_file = folder / "tosr-old.bbx"
        text_file.write_text(_git("show", f"{OLD_COMMIT}:{TOSR}"), encoding="utf-8")
        text_source = f"tosr.bbx of {OLD_COMMIT} (the old compiler cannot read today's: " \
                      f"{probe['error']})"
    old: list[float] = []
    new: list[float] = []
    shapes = set()
    for _ in range(rounds):
        for side, times in ((lang, old), (None, new)):
            result = compile_side(side, text_file, repeats)
            if "error" in result:
                raise SystemExit(f"compile failed: {result['error']}")
            times.extend(result["times"])
            shapes.add((result["nodes"], result["calls"]))
    if len(shapes) != 1:
        raise SystemExit(f"the two compilers built different trees: {sorted(shapes)}")
    nodes, calls = shapes.pop()
    return {"text": text_source, "nodes": nodes, "calls": calls,
            "old_best_s": min(old), "new_best_s": min(new), "old_runs": old,
            "new_runs": new, "ratio": min(old) / min(new), "target": 10.0}


def _process(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one whole command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def bench_processes(count: int, folder: Path) -> dict[str, Any]:
    bidbox = str(Path(sys.executable).with_name("bidbox"))
    command = [bidbox] if Path(bidbox).exists() else [sys.executable, "-m", "bidbox"]
    env = {**os.environ, "BIDBOX_CACHE_DIR": str(folder / "cache")}
    env.pop("BIDBOX_NO_CACHE", None)
    bid = [*command, "bid", "--system", "tosr", "--hand", HAND, "--auction", "1C P"]
    evaluate = [*command, "eval", HAND]
    cold = _process(bid, env)  # compiles and fills the cache
    if not list((folder / "cache").glob("*.system")):
        raise SystemExit("the bid did not leave a cache entry")
    _process(evaluate, env)  # the same imports warmed in the OS's file cache
    bids: list[tuple[float, float]] = []
    evals: list[tuple[float, float]] = []
    for _ in range(count):
        bids.append(_process(bid, env))
        evals.append(_process(evaluate, env))
    bid_wall = statistics.median(w for w, _ in bids)
    bid_cpu = statistics.median(c for _, c in bids)
    eval_wall = statistics.median(w for w, _ in evals)
    eval_cpu = statistics.median(c for _, c in evals)
    return {"cold_bid_wall_s": cold[0], "bid_wall_s": bid_wall, "bid_cpu_s": bid_cpu,
            "eval_wall_s": eval_wall, "eval_cpu_s": eval_cpu,
            "ratio_wall": bid_wall / eval_wall, "ratio_cpu": bid_cpu / eval_cpu,
            "target": 1.5}


def verdict(ok: bool) -> str:
    return "PASS" if ok else "BELOW TARGET"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="compiles per side per round")
    parser.add_argument("--rounds", type=int, default=2, help="alternating old/new rounds")
    parser.add_argument("--processes", type=int, default=7,
                        help="bid and eval processes timed, alternately")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-compile-") as tmp:
        folder = Path(tmp)
        compiled = bench_compile(args.repeats, args.rounds, folder)
        processes = bench_processes(args.processes, folder)
    print(f"(a) tosr from text ({compiled['text']}; {compiled['nodes']:,} nodes, "
          f"{compiled['calls']:,} calls), best CPU time of "
          f"{args.repeats * args.rounds} compiles each:")
    print(f"    old compiler ({OLD_COMMIT}) {compiled['old_best_s']:.3f} s, new "
          f"{compiled['new_best_s']:.3f} s: {compiled['ratio']:.1f}x faster "
          f"(target 10x) {verdict(compiled['ratio'] >= 10)}")
    print(f"(b) median of {args.processes} processes each, cache warm "
          f"(the cold bid took {processes['cold_bid_wall_s']:.2f} s wall):")
    print(f"    bidbox bid  {processes['bid_wall_s']:.3f} s wall, "
          f"{processes['bid_cpu_s']:.3f} s CPU")
    print(f"    bidbox eval {processes['eval_wall_s']:.3f} s wall, "
          f"{processes['eval_cpu_s']:.3f} s CPU")
    print(f"    bid / eval: {processes['ratio_wall']:.2f}x wall, {processes['ratio_cpu']:.2f}x "
          f"CPU (target 1.5x) {verdict(processes['ratio_cpu'] <= 1.5)}")
    if args.json:
        args.json.write_text(json.dumps({"compile": compiled, "processes": processes},
                                        indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
