"""Duplicate scores as a look-up table, and the IMP scale, for the bidder's contract choice
and the simulator.

Scores come from endplay's scoring (``endplay.types.Contract.score``), read once into a
table over every (level, strain, doubled, vulnerable, tricks), so that choosing among 35
contracts for thousands of hands, or scoring many thousand boards, builds no endplay
objects in the hot path. It lives in ``core`` because both the engine (the captain's
placement weighs contracts by their score) and ``sim`` need it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from bidbox.core.calls import Strain

IMP_BOUNDARIES: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
    1750, 2000, 2250, 2500, 3000, 3500, 4000,
)
"""The lowest point difference worth 1, 2, ... 24 IMPs (standard IMP scale)."""


def imps(difference: int) -> int:
    """IMPs for a point difference, with its sign (+430 is 10 IMPs, -20 is -1)."""
    size = int(np.searchsorted(IMP_BOUNDARIES, abs(difference), side="right"))
    return size if difference >= 0 else -size


def imps_array(differences: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:func:`imps` over an array of point differences."""
    size = np.searchsorted(np.asarray(IMP_BOUNDARIES), np.abs(differences), side="right")
    return np.where(differences >= 0, size, -size).astype(np.int64)


@cache
def score_table() -> npt.NDArray[np.int32]:
    """Declarer's score by ``[level - 1, strain, doubled, vulnerable, tricks]``: endplay's
    scores, shipped as ``core/data/scores.npy`` (written by tools/build_score_table.py and
    checked against endplay by the tests) so that a bidder need not import endplay."""
    with resources.files("bidbox.core").joinpath("data/scores.npy").open("rb") as f:
        table = np.load(f)
    table.setflags(write=False)
    return np.asarray(table, dtype=np.int32)


def endplay_score_table() -> npt.NDArray[np.int32]:
    """The same table asked of endplay for each of the 7 x 5 x 3 x 2 x 14 cases."""
    from endplay.types import Contract as EpContract
    from endplay.types import Penalty, Player, Vul

    table = np.zeros((7, 5, 3, 2, 14), dtype=np.int32)
    penalties = (Penalty.passed, Penalty.doubled, Penalty.redoubled)
    for level in range(1, 8):
        for strain in Strain:
            for doubled in range(3):
                for vulnerable in (0, 1):
                    for tricks in range(14):
                        contract = EpContract(level=level, denom=strain.to_endplay(),
                                              declarer=Player.north,
                                              penalty=penalties[doubled],
                                              result=tricks - 6 - level)
                        vul = Vul.ns if vulnerable else Vul.none
                        table[level - 1, strain, doubled, vulnerable, tricks] = (
                            contract.score(vul))
    return table


__all__ = ["endplay_score_table", "score_table"]
