"""Print how many inputs each fuzzer tried, and write them where tools/fuzz.py asks.

Under pytest-xdist (``make test`` runs ``-n 2``) the fuzzers run in worker processes, so
each process writes its own counts (``REPORT.PID``) and the summary adds them up."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from tests.fuzz.harness import TRIED


def pytest_sessionfinish(session: pytest.Session) -> None:
    report = os.environ.get("BIDBOX_FUZZ_REPORT")
    if report and TRIED:
        with open(f"{report}.{os.getpid()}", "w", encoding="utf-8") as out:
            json.dump(dict(TRIED), out, indent=1, sort_keys=True)


def tried_counts(report: str | None) -> Counter[str]:
    """This process's counts, plus those the other processes wrote beside ``report``."""
    counts = Counter(TRIED)
    if report:
        own = f"{report}.{os.getpid()}"
        for path in Path(report).parent.glob(Path(report).name + ".*"):
            if str(path) != own:
                counts.update(json.loads(path.read_text(encoding="utf-8")))
    return counts


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if hasattr(terminalreporter.config, "workerinput"):
        return  # an xdist worker: the controller adds up every process's counts
    report = os.environ.get("BIDBOX_FUZZ_REPORT")
    counts = tried_counts(report)
    if not counts:
        return
    shown = ", ".join(f"{name} {count:,}" for name, count in sorted(counts.items()))
    terminalreporter.write_line(f"fuzz inputs tried: {shown}")
    if report:
        with open(report, "w", encoding="utf-8") as out:
            json.dump(dict(counts), out, indent=1, sort_keys=True)
