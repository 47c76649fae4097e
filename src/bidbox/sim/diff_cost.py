"""What a system change costs: a double-dummy team match on the deals it changes.

The two versions have already bid every deal at two tables (``verify.diff``: *now*
North-South against *was* at table 1, the reverse at table 2). Where the two auctions are
the same, both tables reach the same contract from the same seat and the board is 0 IMPs
by construction, so it is not solved. Only the changed deals go to DDS, one cell per
contract reached, and the cells are kept in the simulation lab's store (keyed by the deal),
so a second diff of the same deals, or a ``simulate`` run on them, solves nothing twice.

IMPs are the new version's (table 1's North-South score minus table 2's), per changed
board and per board over all deals, with the lab's 95% interval.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.auction import Auction
from bidbox.core.seats import Seat
from bidbox.engine.features import HandFeatures
from bidbox.sim.deals import Boards
from bidbox.sim.double_dummy import Cell, cells_from_json, cells_to_json, solve_cells
from bidbox.sim.match import BoardResult, TableResult
from bidbox.sim.report import confidence_interval, swings
from bidbox.sim.scoring import imps, ns_score
from bidbox.sim.store import ResultStore

CHUNK = 200
"""Changed boards solved and stored per step: a kill loses at most this many."""


@dataclass
class DiffCost:
    """The IMP cost of a change over ``deals`` deals, ``len(boards)`` of them changed."""

    deals: int
    boards: list[BoardResult]
    imps_per_board: float
    ci95: tuple[float, float]
    imps_per_changed_board: float
    ci95_changed: tuple[float, float]
    cells_solved: int = 0
    cells_from_store: int = 0
    dds_seconds: float = 0.0
    store: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def imps_total(self) -> int:
        return sum(b.imps for b in self.boards)

    def swings(self, count: int = 10) -> list[dict[str, Any]]:
        """The biggest swings, both auctions shown (table 1 has *now* North-South)."""
        return swings(self.boards, count)

    def to_json(self) -> dict[str, Any]:
        return {"imps_per_board": self.imps_per_board, "ci95": list(self.ci95),
                "imps_per_changed_board": self.imps_per_changed_board,
                "ci95_changed": list(self.ci95_changed), "imps_total": self.imps_total,
                "changed_boards": len(self.boards), "cells_solved": self.cells_solved,
                "cells_from_store": self.cells_from_store,
                "dds_seconds": round(self.dds_seconds, 2), "store": self.store}


def diff_cost(boards: Boards, now_ns: Sequence[Auction], was_ns: Sequence[Auction],
              changed: npt.NDArray[np.bool_], out: Path | None = None,
              progress: bool | None = None) -> DiffCost:
    """Solve and score the changed boards; every other board counts 0 IMPs.

    ``now_ns[i]`` and ``was_ns[i]`` are board ``i``'s auctions at table 1 and table 2;
    ``out`` is the folder of the store (None: in memory, for this call only).
    """
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    rows = np.flatnonzero(changed)
    results: list[BoardResult] = []
    solved_count = stored_count = 0
    started = time.perf_counter()
    with ResultStore(out) as store:
        bar = tqdm(total=len(rows), unit="board", desc="diff: double dummy",
                   disable=(not progress) if progress is not None else None)
        try:
            for start in range(0, len(rows), CHUNK):
                part = [int(r) for r in rows[start:start + CHUNK]]
                deals = [boards.pbn(r) for r in part]
                known = store.known_cells(deals)
                have = [cells_from_json(known.get(d, {})) for d in deals]
                needed: list[set[Cell]] = []
                for k, r in enumerate(part):
                    wanted = {(c.strain, c.declarer) for c in (now_ns[r].contract,
                                                               was_ns[r].contract)
                              if c is not None}
                    stored_count += len(wanted & have[k].keys())
                    needed.append(wanted - have[k].keys())
                solved = solve_cells(deals, needed)
                solved_count += sum(len(s) for s in solved)
                store.save("diff", boards.source, [],
                           {deals[k]: cells_to_json(s) for k, s in enumerate(solved) if s})
                hcp = np.stack([HandFeatures(boards.masks[part, int(seat), :]).value("hcp")
                                for seat in Seat], axis=1).astype(int)
                for k, r in enumerate(part):
                    results.append(_board(boards, r, now_ns[r], was_ns[r],
                                          {**have[k], **solved[k]}, hcp[k]))
                bar.update(len(part))
        finally:
            bar.close()
    n = len(boards)
    every = [0] * (n - len(results)) + [b.imps for b in results]
    mean, _, lo, hi = confidence_interval(every)
    changed_mean, _, clo, chi = confidence_interval([b.imps for b in results])
    return DiffCost(n, results, mean, (lo, hi), changed_mean, (clo, chi), solved_count,
                    stored_count, time.perf_counter() - started,
                    str(store.path) if store.path else None)


def _board(boards: Boards, row: int, one: Auction, two: Auction,
           cells: dict[Cell, int], hcp: npt.NDArray[np.int64]) -> BoardResult:
    vul = boards.vul(row)
    tables = []
    for ns, auction in (("a", one), ("b", two)):
        contract = auction.contract
        tricks = cells[(contract.strain, contract.declarer)] if contract else None
        tables.append(TableResult(ns, str(auction), str(contract) if contract else None,
                                  str(contract.declarer) if contract else None, tricks,
                                  ns_score(contract, tricks, vul), False, False))
    deal = boards.pbn(row)
    return BoardResult(deal_index=int(boards.indices[row]), board=int(boards.numbers[row]),
                       dealer=str(boards.dealer(row)), vul=str(vul), deal=deal,
                       hcp=(int(hcp[0]), int(hcp[1]), int(hcp[2]), int(hcp[3])),
                       tables=(tables[0], tables[1]),
                       imps=imps(tables[0].ns_score - tables[1].ns_score), openings={})


__all__ = ["DiffCost", "diff_cost"]
