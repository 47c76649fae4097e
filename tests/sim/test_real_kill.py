"""A simulation killed with SIGKILL and started again ends with the same report as one
that was never interrupted: the store keeps whole batches only."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).parents[2]
MINI = str(ROOT / "tests" / "data" / "mini.bbx")
WEAK = str(Path(__file__).parent / "data" / "weak.bbx")
DEALS = 200


def command(out: Path) -> list[str]:
    return [sys.executable, "-m", "bidbox", "simulate", "--a", MINI, "--b", WEAK, "--deals",
            str(DEALS), "--seed", "77", "--workers", "2", "--out", str(out), "--no-plots",
            "--json"]


def stored(out: Path) -> int:
    path = out / "sim.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(str(path), timeout=0.1) as db:
            return int(db.execute("SELECT COUNT(*) FROM boards").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def test_sigkill_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    killed = tmp_path / "killed"
    proc = subprocess.Popen(command(killed), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 120
    while stored(killed) == 0 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the run and its worker processes
    proc.wait()
    at_kill = stored(killed)
    assert 0 < at_kill < DEALS, f"the kill came too late or too early ({at_kill} boards)"

    resumed = json.loads(subprocess.run(command(killed), capture_output=True, text=True,
                                        check=True).stdout)
    whole = json.loads(subprocess.run(command(tmp_path / "whole"), capture_output=True,
                                      text=True, check=True).stdout)
    assert resumed["boards_from_store"] == at_kill
    assert resumed["boards"] == whole["boards"] == DEALS
    for key in ("imps_per_board", "ci95", "imps_total", "contracts", "opening_frequencies",
                "aggressiveness"):
        assert resumed[key] == whole[key], key
