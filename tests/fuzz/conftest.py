"""Print how many inputs each fuzzer tried, and write them where tools/fuzz.py asks."""

from __future__ import annotations

import json
import os

import pytest

from tests.fuzz.harness import TRIED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TRIED:
        return
    counts = ", ".join(f"{name} {count:,}" for name, count in sorted(TRIED.items()))
    terminalreporter.write_line(f"fuzz inputs tried: {counts}")
    report = os.environ.get("BIDBOX_FUZZ_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as out:
            json.dump(dict(TRIED), out, indent=1, sort_keys=True)
