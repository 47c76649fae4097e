"""Scores and IMPs: the IMP scale, endplay's scoring, and the scores of real boards."""

from __future__ import annotations

import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bidbox.core import Contract, Seat, Side, Strain, Vulnerability
from bidbox.sim.scoring import (
    best_for_side,
    contract_class,
    declarer_score,
    imps,
    imps_array,
    ns_score,
    parse_contract,
)

DATA = Path(__file__).parent / "data"
REAL_PBN = Path(__file__).parents[2] / ".." / "shared" / "data" / "real-pbn"


def _rows(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


IMP_SCALE = [(int(a), int(b), int(c)) for a, b, c in _rows("imp_scale.tsv")]
SCORES = _rows("scores.tsv")


@pytest.mark.parametrize(("low", "high", "expected"), IMP_SCALE)
def test_imp_scale_matches_the_standard_table(low: int, high: int, expected: int) -> None:
    for diff in range(low, high + 1, 10):
        assert imps(diff) == expected, diff
        assert imps(-diff) == -expected, -diff


def test_imp_scale_rows_cover_every_difference() -> None:
    edges = [(a, b) for a, b, _ in IMP_SCALE]
    assert edges[0][0] == 0
    for (_, high), (low, _) in pairwise(edges):
        assert low == high + 10


def test_imps_array_agrees_with_imps() -> None:
    diffs = np.arange(-5000, 5001, 10, dtype=np.int64)
    assert list(imps_array(diffs)) == [imps(int(d)) for d in diffs]


@pytest.mark.parametrize("row", SCORES, ids=[" ".join(r[:4]) for r in SCORES])
def test_known_scores(row: list[str]) -> None:
    text, declarer, vul, tricks, expected = row
    contract = parse_contract(text, declarer)
    assert contract is not None
    assert ns_score(contract, int(tricks), Vulnerability.parse(vul)) == int(expected)


def test_score_table_is_endplays_scoring() -> None:
    """Every looked-up score equals endplay's own, for declarers on both sides."""
    from endplay.types import Contract as EpContract
    from endplay.types import Penalty, Vul

    rng = random.Random(7)
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    for _ in range(500):
        contract = Contract(rng.randint(1, 7), rng.choice(list(Strain)), rng.randint(0, 2),
                            rng.choice(list(Seat)))
        vul = rng.choice(list(Vulnerability))
        tricks = rng.randint(0, 13)
        theirs = EpContract(level=contract.level, denom=contract.strain.to_endplay(),
                            declarer=contract.declarer.to_endplay(),
                            penalty=penalties[contract.doubled],
                            result=tricks - 6 - contract.level)
        ep_vul = {"none": Vul.none, "ns": Vul.ns, "ew": Vul.ew, "both": Vul.both}[vul.value]
        assert declarer_score(contract, tricks, vul) == theirs.score(ep_vul)


def test_passed_out_scores_zero() -> None:
    assert ns_score(None, None, Vulnerability.BOTH) == 0
    assert parse_contract(None, None) is None and parse_contract("pass", "N") is None


def test_best_for_side_is_the_best_undoubled_contract() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        tricks = rng.integers(0, 14, size=(5, 4))
        vul = Vulnerability.NS
        best = best_for_side(tricks, Side.NS, vul)
        brute = max([0] + [declarer_score(Contract(level, strain, 0, seat),
                                          int(tricks[int(strain), int(seat)]), vul)
                           for level in range(1, 8) for strain in Strain
                           for seat in (Seat.N, Seat.S)])
        assert best.score == brute
        if best.contract is not None:
            assert best.contract.declarer.side is Side.NS
            took = int(tricks[int(best.contract.strain), int(best.contract.declarer)])
            assert declarer_score(best.contract, took, vul) == best.score


def test_contract_classes() -> None:
    def c(text: str) -> Contract:
        contract = parse_contract(text, "N")
        assert contract is not None
        return contract

    assert contract_class(None) == "passed out"
    assert [contract_class(c(t)) for t in ("2NT", "3NT", "4H", "4D", "5C", "6S", "7NT")] == [
        "partscore", "game", "game", "partscore", "game", "small slam", "grand slam"]


def _real_boards() -> list[Any]:
    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN} (shared/data beside the checkout)")
    from endplay.parsers import pbn

    boards = []
    for path in sorted(REAL_PBN.glob("*.pbn")):
        with path.open(encoding="utf-8") as f:
            boards.extend(pbn.load(f))
    return boards


def test_scores_of_real_boards() -> None:
    """The [Score] that BBO recorded for each real board, from its contract and result."""
    checked = 0
    for board in _real_boards():
        score = board.info.get("Score")
        played = board.contract
        if not score or played is None or played.is_passout():
            continue
        side, _, points = score.partition(" ")
        denom = int(played.denom)
        contract = Contract(played.level, Strain.NT if denom == 4 else Strain(3 - denom),
                            {1: 0, 2: 1, 4: 2}[int(played.penalty)], Seat(int(played.declarer)))
        vul = {0: Vulnerability.NONE, 1: Vulnerability.BOTH, 2: Vulnerability.NS,
               3: Vulnerability.EW}[int(board.vul)]
        expected = int(points) if side == "NS" else -int(points)
        tricks = played.level + 6 + played.result
        assert ns_score(contract, tricks, vul) == expected, (board.board_num, score)
        checked += 1
    assert checked > 200
