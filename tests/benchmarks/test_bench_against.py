"""The same-run comparison (benchmarks/bench_against.py): both sides run the workload in
their own process and the ratio is of the medians of what they measured."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_against.py"


def test_a_checkout_against_itself_reports_both_sides_and_their_ratio(tmp_path: Path) -> None:
    out = tmp_path / "against.json"
    subprocess.run([sys.executable, str(SCRIPT), "--reference", str(ROOT), "--workload",
                    "fresh", "--deals", "300", "--warm", "0", "--rounds", "2",
                    "--json", str(out)], check=True, capture_output=True, timeout=600)
    report = json.loads(out.read_text())
    assert report["workload"] == "fresh"
    assert set(report["runs"]) == {"reference", "this"}
    for runs in report["runs"].values():
        assert len(runs) == 2
        assert all(r["cpu_s"] > 0 and r["auctions_per_cpu_s"] > 0 for r in runs)
    median = report["median"]
    assert report["speedup_cpu"] == median["reference"]["cpu_s"] / median["this"]["cpu_s"]


def test_a_failing_workload_stops_the_run(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--reference", str(tmp_path),
                           "--workload", "fresh", "--deals", "50", "--warm", "0",
                           "--rounds", "1", "--system", "no-such-system"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "the workload failed" in done.stderr
