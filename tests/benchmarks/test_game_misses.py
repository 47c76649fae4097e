"""benchmarks/game_misses.py on hand-made replay rows: which boards are missed and failing
games, and the recorded tables' doubling of contested contracts two or more down."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from .support import load_benchmark


def tool() -> ModuleType:
    return load_benchmark("game_misses")


def _row(board: str, ours: str, ns: int, theirs: str, recorded_ns: int,
         recorded_auction: str = "1H P 4H P P P", vul: str = "none") -> dict[str, Any]:
    return {"board": board, "dealer": "N", "vul": vul, "auction": "1H P 2H P P P",
            "contract": ours, "ns": ns, "recorded_auction": recorded_auction,
            "recorded_contract": theirs, "recorded_ns": recorded_ns, "par": 0,
            "par_contracts": "", "gap": -6}


def test_missed_and_failing_games_are_told_apart() -> None:
    rows = [_row("missed", "2HN", 140, "4HN", 420),          # their game makes, our partscore
            _row("their game fails", "2HN", 140, "4HN", -50),
            _row("east's game", "3SE", 140, "4SE", -420),     # made by East: NS -420
            _row("our game fails", "4HN", -50, "2HN", 140),
            _row("both in game", "4HN", -50, "4HN", -50)]
    missed, failing = tool().classify(rows)
    assert [r["board"] for r in missed] == ["missed", "east's game"]
    assert [r["board"] for r in failing] == ["our game fails"]


def test_the_doubling_rate_counts_contested_contracts_two_down() -> None:
    contested = "1H 2C 2H 3C P P P"
    rows = [_row("a", "-", 0, "3CXE", 500, contested, vul="ew"),   # 3CX two down vul: -500
            _row("b", "-", 0, "3CE", 100, contested),             # 3C two down, undoubled
            _row("c", "-", 0, "3CE", 50, contested),              # one down: not counted
            _row("d", "-", 0, "2HN", -200, "1H P 2H P P P"),      # uncontested: not counted
            _row("e", "-", 0, "4HN", -300, "1H 2C 4H P P P")]     # a game three down
    rates = tool().doubling_rate(rows)
    assert rates == {"partscore": (2, 1), "game": (1, 0)}
