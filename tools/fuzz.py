"""The long fuzz run (issue 17): the fuzzers of tests/fuzz with fresh random inputs.

    .venv/bin/python tools/fuzz.py [--examples N] [-k EXPR]

``make test`` runs each fuzzer on the same few hundred derandomized inputs; this runs
each on N new random inputs (default 3,000) and prints how many each one tried. A failure
prints the input that broke it (hypothesis shrinks it first) and the exit status is 1:
add that input to tests/data/fuzz and fix the reader. Run it with ``nice``; on 2 shared
cores (pytest's ``-n 2``), 3,000 inputs per fuzzer took about 10 minutes, the system-file
fuzzer alone 160 s. The counts are added up over the worker processes
(tests/fuzz/conftest.py).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=3000,
                        help="inputs per fuzzer (default 3,000)")
    parser.add_argument("-k", default="test_fuzz", help="which fuzzers (pytest -k)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "tried.json"
        env = {**os.environ, "BIDBOX_FUZZ": "long", "BIDBOX_FUZZ_EXAMPLES": str(args.examples),
               "BIDBOX_FUZZ_REPORT": str(report)}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/fuzz", "-k", args.k], cwd=ROOT, env=env, check=False)
        seconds = time.perf_counter() - started
        tried = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    print(f"\nlong fuzz run, {args.examples:,} inputs asked per fuzzer, {seconds:.0f} s:")
    for name, count in sorted(tried.items()):
        print(f"  {name:<14} {count:>8,} inputs tried")
    print("result:", "nothing found" if done.returncode == 0 else "FAILED (see above)")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
