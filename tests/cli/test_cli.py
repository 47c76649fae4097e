"""The command line: JSON contracts of `eval` and `auction`, and user errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bidbox.cli.main import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_eval_json_has_one_key_per_measure(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "eval", "AKQ2.J54.T9.8765", "--json")
    assert code == 0
    assert data["hcp"] == 10 and data["controls"] == 3 and data["lengths"] == [4, 3, 2, 4]
    assert data["pattern"] == "4432" and data["balanced"] is True
    for key in ("roman_losers", "ltc", "rule_of_18", "quick_tricks", "playing_tricks"):
        assert key in data


def test_eval_accepts_voids(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "eval", "AKQJT98765.432.-.", "--json")
    assert code == 0 and data["lengths"] == [10, 3, 0, 0]


def test_auction_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "auction", "1C P 1H X", "--json")
    assert code == 0
    assert data["legal"] is True and data["error"] is None and data["ended"] is False
    assert data["next_seat"] == "N" and data["contract"] is None and data["declarer"] is None
    assert data["legal_calls"][:3] == ["P", "XX", "1S"]
    code, data = run_json(capsys, "auction", "P 1H P 4H X AP", "--dealer", "W", "--vul", "both",
                          "--json")
    assert data["ended"] is True and data["contract"] == "4HX" and data["declarer"] == "N"


def test_illegal_auction_reports_the_call(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "auction", "1S P 1H", "--json")
    assert code == 1 and data["legal"] is False
    assert "call 3 '1H'" in str(data["error"]) and "insufficient" in str(data["error"])
    assert data["next_seat"] == "S"


@pytest.mark.parametrize(("argv", "message"), [
    (["eval", "AKQ2.J54.T9.876"], "has 12 cards, not 13"),
    (["eval", "AKQ2.J54.T9.8775"], "appears twice"),
    (["eval", "AKQ2.J54.T9"], "four suits"),
    (["auction", "1C", "--dealer", "Q"], "unknown seat"),
])
def test_user_errors_are_one_line_without_traceback(argv: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "bidbox", *argv], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= 2


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "roman_losers" in out and "ended: 3H by E" in out


def test_unreadable_call_in_an_auction_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "auction", "1C 9Z", "--json")
    assert code == 1 and data["legal"] is False
    assert "call 2 of '1C 9Z'" in str(data["error"]) and "cannot read call '9Z'" in str(
        data["error"])
