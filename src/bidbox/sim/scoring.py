"""Duplicate scores and IMPs for simulated tables.

Scores come from endplay's scoring, read once into ``bidbox.core.scoring.score_table``
(shared with the engine's contract choice) so that a run of many thousand boards does not
build thousands of endplay objects. IMPs follow the
standard (WBF) IMP scale.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Contract
from bidbox.core.calls import GAME_LEVEL, Strain
from bidbox.core.scoring import IMP_BOUNDARIES, imps, imps_array, score_table
from bidbox.core.seats import Seat, Side, Vulnerability


def declarer_score(contract: Contract, tricks: int, vul: Vulnerability) -> int:
    """The score of ``contract`` making ``tricks`` tricks, for the declaring side."""
    vulnerable = int(vul.is_vulnerable(contract.declarer))
    return int(score_table()[contract.level - 1, int(contract.strain), contract.doubled,
                             vulnerable, tricks])


def ns_score(contract: Contract | None, tricks: int | None, vul: Vulnerability) -> int:
    """North-South's score for a table result; a passed-out board scores 0."""
    if contract is None:
        return 0
    if tricks is None:
        raise ValueError(f"no trick count for {contract} by {contract.declarer}")
    score = declarer_score(contract, tricks, vul)
    return score if contract.declarer.side is Side.NS else -score


@dataclass(frozen=True)
class SideBest:
    """The best contract a side could reach alone, double dummy (or a pass-out)."""

    score: int
    contract: Contract | None

    def __str__(self) -> str:
        if self.contract is None:
            return "pass"
        return f"{self.contract}{self.contract.declarer}"


def best_for_side(tricks: npt.NDArray[np.int64], side: Side, vul: Vulnerability) -> SideBest:
    """The highest-scoring undoubled contract for ``side`` alone, or pass (0) if none scores.

    ``tricks[strain, seat]`` is the double-dummy trick table (bidbox ``Strain`` order,
    seats N E S W). This is par when the opponents never bid: what an uncontested
    auction should reach. Ties go to the lower contract, then to the first declarer.
    """
    best = SideBest(0, None)
    table = score_table()
    for declarer in side.seats:
        vulnerable = int(vul.is_vulnerable(declarer))
        for strain in Strain:
            took = int(tricks[int(strain), int(declarer)])
            for level in range(1, 8):
                score = int(table[level - 1, int(strain), 0, vulnerable, took])
                current = best.contract
                lower = (current is not None and
                         (level, int(strain)) < (current.level, int(current.strain)))
                if score > best.score or (score == best.score and current is not None
                                          and lower):
                    best = SideBest(score, Contract(level, strain, 0, declarer))
    return best


def contract_class(contract: Contract | None) -> str:
    """'passed out', 'partscore', 'game', 'small slam' or 'grand slam' (by level and strain)."""
    if contract is None:
        return "passed out"
    if contract.level == 7:
        return "grand slam"
    if contract.level == 6:
        return "small slam"
    return "game" if contract.level >= GAME_LEVEL[contract.strain] else "partscore"


def parse_contract(text: str | None, declarer: str | None) -> Contract | None:
    """Read back a stored contract ('4SX' and 'N'); None (or 'pass') for a passed-out board."""
    if text is None or text.lower() == "pass" or declarer is None:
        return None
    body = text.rstrip("X")
    doubled = len(text) - len(body)
    return Contract(int(body[0]), Strain.parse(body[1:]), doubled, Seat.parse(declarer))


__all__ = ["IMP_BOUNDARIES", "SideBest", "best_for_side", "contract_class", "declarer_score",
           "imps", "imps_array", "ns_score", "parse_contract", "score_table"]
