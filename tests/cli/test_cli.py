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
    assert code == 2 and data["legal"] is False
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
    assert code == 2 and data["legal"] is False
    assert "call 2 of '1C 9Z'" in str(data["error"]) and "cannot read call '9Z'" in str(
        data["error"])


MINI = "tests/data/mini.bbx"


def test_bid_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "bid", "--system", MINI, "--hand", "K432.AQ32.32.K32",
                          "--auction", "1NT P", "--json")
    assert code == 0
    assert data["call"] == "2C" and data["forcing"] == "f1" and data["alert"] is True
    assert data["fallback"] is False
    code, data = run_json(capsys, "bid", "--system", MINI, "--hand", "AK2.QJ2.K432.Q32",
                          "--option", "nt=strong", "--json")
    assert data["call"] == "1NT"


def test_explain_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "explain", "--system", MINI, "--auction", "1NT P 2C P 2D",
                          "--json")
    assert code == 0
    calls = data["calls"]
    assert isinstance(calls, list) and [c["call"] for c in calls] == ["1NT", "P", "2C", "P",
                                                                      "2D"]
    assert set(calls[0]) >= {"seat", "call", "meaning", "forcing", "alert", "fallback"}
    knowledge = data["knowledge"]
    assert isinstance(knowledge, dict)
    assert knowledge["N"]["hcp"] == [12, 14] and knowledge["N"]["H"] == [2, 3]


def test_explain_with_two_systems(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "explain", "--ns", MINI, "--ew", "tests/data/mini.bbx",
                          "--auction", "1C 1NT", "--json")
    assert code == 0 and data["calls"][1]["fallback"] is False


def test_lint_and_systems(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "lint", "--system", MINI, "--json")
    assert code == 0 and any(f["code"] == "hole" for f in data["findings"])
    assert main(["systems"]) == 0


@pytest.mark.parametrize(("argv", "message"), [
    (["bid", "--system", "nosuch", "--hand", "AKQ2.J54.T9.8765"], "unknown system 'nosuch'"),
    (["bid", "--system", MINI, "--hand", "AKQ2.J54.T9.8765", "--option", "nt=medium"],
     "takes one of weak, strong"),
    (["explain", "--system", MINI, "--auction", "1C 1C"], "insufficient"),
    (["lint", "--system", "tests/data/broken.bbx"], "broken.bbx:3:3: error: cannot read call '1B'"),
])
def test_system_command_errors(argv: list[str], message: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "bidbox", *argv], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
