"""Duplicate scores as a look-up table, for the bidder's contract choice and the simulator.

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
