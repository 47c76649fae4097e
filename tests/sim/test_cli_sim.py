"""``bidbox simulate`` and ``bidbox deal``: the JSON contract, PBN files, user errors."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bidbox.cli.sim_commands import add_parsers, split_options
from bidbox.errors import BidboxError
from bidbox.sim.deals import read_pbn_boards

ROOT = Path(__file__).parents[2]
MINI = str(ROOT / "tests" / "data" / "mini.bbx")
WEAK = str(Path(__file__).parent / "data" / "weak.bbx")
REAL_PBN = ROOT / ".." / "shared" / "data" / "real-pbn"
PUBLIC_KEYS = {"boards", "imps_per_board", "ci95", "aggressiveness", "opening_frequencies",
               "fallback_rate", "seconds", "dds_seconds"}


def run(*argv: str) -> int:
    """Parse and run one command the way ``bidbox`` does (without the main module)."""
    parser = argparse.ArgumentParser(prog="bidbox")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    code: int = args.func(args)
    return code


def test_deal_writes_pbn_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "strong.pbn"
    assert run("deal", "--count", "6", "--seed", "3", "--where", "hcp 20+", "-o",
               str(path)) == 0
    assert "wrote 6 boards" in capsys.readouterr().err
    boards = read_pbn_boards(path)
    assert len(boards) == 6 and list(boards.numbers) == [1, 2, 3, 4, 5, 6]
    from bidbox.core import Seat
    from bidbox.evaluate import evaluate_hand

    for row in range(6):
        assert int(evaluate_hand(boards.deals().hand(row, Seat.N))["hcp"]) >= 20


def test_simulate_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("simulate", "--a", MINI, "--b", WEAK, "--deals", "8", "--seed", "5",
               "--workers", "1", "--out", str(tmp_path), "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= PUBLIC_KEYS
    assert data["boards"] == 8 and len(data["ci95"]) == 2
    assert set(data["opening_frequencies"]) == {"a", "b"}
    assert (tmp_path / "report.json").is_file() and (tmp_path / "imps.png").is_file()


def test_simulate_text_report_on_real_boards(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(REAL_PBN.glob("*.pbn")) if REAL_PBN.is_dir() else []
    if not files:
        pytest.skip(f"real boards not found at {REAL_PBN} (shared/data beside the checkout)")
    assert run("simulate", "--a", WEAK, "--b", MINI, "--boards", str(files[0]), "--deals",
               "4", "--workers", "1") == 0
    out = capsys.readouterr().out
    assert "4 boards (pbn:" in out and "IMPs per board to A" in out


def test_options_for_one_system_or_both() -> None:
    a, b = split_options(["nt=strong", "b:five-card-majors", "a:nt=weak"])
    assert a == {"nt": "weak"} and b == {"nt": "strong", "five-card-majors": True}


@pytest.mark.parametrize(("argv", "message"), [
    (("simulate", "--a", MINI, "--b", MINI), "--deals"),
    (("simulate", "--a", MINI, "--b", MINI, "--deals", "0"), "at least 1"),
    (("simulate", "--a", MINI, "--b", "no-such-system", "--deals", "2"), "no-such-system"),
    (("simulate", "--a", MINI, "--b", MINI, "--deals", "2", "--option", "b:nt=huge"), "nt"),
    (("simulate", "--a", MINI, "--b", MINI, "--boards", "missing.pbn"), "missing.pbn"),
    (("deal", "--count", "2", "--where", "hcp 12+ &", "-o", "x.pbn"), "--where"),
])
def test_user_errors_are_bidbox_errors(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises(BidboxError, match=message):
        run(*argv)
