"""Double-dummy tricks through endplay's DDS: only what a result needs, batched, cached.

A full double-dummy table is 20 results (5 strains x 4 declarers) and costs an order of
magnitude more than the one or two contracts a team match actually reaches on a board.
So contracts are solved one (strain, declarer) *cell* at a time: each needed cell becomes
one DDS board (the declarer's left-hand opponent on lead, the strain as trumps), many
boards go to DDS at once (``solve_all_boards``, which spreads them over threads), and a
cell already known for a deal (the other table reached the same contract, or an earlier
run solved it) is not solved again. Full tables (``calc_all_tables``) are computed only
where something needs every cell: par, and the best contract for a side alone.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bidbox.core.calls import Strain
from bidbox.core.seats import Seat, Vulnerability
from bidbox.errors import DoubleDummyError as DoubleDummyError

Cell = tuple[Strain, Seat]
"""A double-dummy cell: the strain and the declarer."""

BOARDS_PER_CALL = 200
"""DDS's limit on boards in one ``SolveAllBoards`` call (MAXNOOFBOARDS)."""
TABLES_PER_CALL = 40
"""DDS's limit on full tables in one ``CalcAllTables`` call (MAXNOOFTABLES)."""


def cell_key(cell: Cell) -> str:
    """The text form of a cell in the store: 'NT:N', 'S:E'."""
    return f"{cell[0]}:{cell[1]}"


def parse_cell(text: str) -> Cell:
    strain, _, seat = text.partition(":")
    return (Strain.parse(strain), Seat.parse(seat))


def set_dds_threads(threads: int) -> None:
    """Limit DDS to ``threads`` threads in this process (0: DDS decides, all cores).

    A pool of K worker processes on C cores gives each DDS C // K threads, so the
    workers do not fight over the cores (DDS otherwise takes them all in every process).
    """
    import endplay._dds as dds

    dds.SetMaxThreads(int(threads))


_DDS_CWD_LOCK = threading.Lock()


@contextmanager
def _outside_the_users_folder() -> Iterator[None]:
    """Run a DDS call in a temporary working folder: DDS writes its input to
    ``dump.txt`` in the current folder whenever a call fails (a duplicated card, say), and
    has no option to stop it, so without this a failed run leaves that file in the
    user's folder, or overwrites theirs (issue 17). The folder is process-wide, hence the
    lock; bidbox's own paths are absolute by the time DDS runs (``serve`` resolves its
    store and results folder first)."""
    with _DDS_CWD_LOCK, tempfile.TemporaryDirectory(prefix="bidbox-dds-") as scratch:
        try:
            here = os.getcwd()
        except OSError:  # the folder was deleted under us: nowhere to go back to
            here = os.path.expanduser("~")
        os.chdir(scratch)
        try:
            yield
        finally:
            os.chdir(here)


def _solve_board(deal: str, cell: Cell) -> Any:
    from endplay.types import Deal

    board = Deal(deal)
    board.trump = cell[0].to_endplay()
    board.first = cell[1].lho.to_endplay()
    return board


def solve_cells(deals: Sequence[str], needed: Sequence[Iterable[Cell]]
                ) -> list[dict[Cell, int]]:
    """Declarer's double-dummy tricks for each needed cell of each deal (PBN strings).

    Each cell is one DDS board with the declarer's left-hand opponent to lead; DDS
    returns the defenders' best, so declarer takes the rest of the 13 tricks. Duplicate
    cells of a deal are solved once.
    """
    from endplay.dds import solve_all_boards
    from endplay.dds.solve import SolveMode

    jobs: list[tuple[int, Cell]] = []
    for row, cells in enumerate(needed):
        jobs.extend((row, cell) for cell in dict.fromkeys(cells))
    out: list[dict[Cell, int]] = [{} for _ in deals]
    for start in range(0, len(jobs), BOARDS_PER_CALL):
        batch = jobs[start:start + BOARDS_PER_CALL]
        boards = [_solve_board(deals[row], cell) for row, cell in batch]
        try:
            with _outside_the_users_folder():
                solved = solve_all_boards(boards, SolveMode.OptimalOne)
        except RuntimeError as err:
            rows = ", ".join(sorted({deals[row] for row, _ in batch})[:3])
            raise DoubleDummyError(f"DDS failed on a batch of {len(batch)} contracts "
                                   f"(deals {rows}...): {err}") from None
        for (row, cell), result in zip(batch, solved, strict=True):
            defenders = max((tricks for _, tricks in result), default=None)
            if defenders is None:
                raise DoubleDummyError(f"DDS gave no result for {cell_key(cell)} on "
                                       f"{deals[row]}")
            out[row][cell] = 13 - int(defenders)
    return out


@dataclass(frozen=True)
class Par:
    """The double-dummy par of a board: North-South's score and the par contracts."""

    ns_score: int
    contracts: str


def full_tables(deals: Sequence[str], dealers: Sequence[Seat] | None = None,
                vuls: Sequence[Vulnerability] | None = None
                ) -> tuple[npt.NDArray[np.int64], list[Par] | None]:
    """Every cell of every deal as an ``(n, 5 strains, 4 seats)`` array (bidbox order).

    With dealers and vulnerabilities, also each board's par (endplay's ``par`` on the
    table just computed, so it costs no further solving).
    """
    from endplay.dds import calc_all_tables, par
    from endplay.types import Deal, Player

    from bidbox.sim.deals import to_endplay_vul

    out = np.zeros((len(deals), 5, 4), dtype=np.int64)
    pars: list[Par] | None = [] if dealers is not None and vuls is not None else None
    for start in range(0, len(deals), TABLES_PER_CALL):
        chunk = deals[start:start + TABLES_PER_CALL]
        try:
            with _outside_the_users_folder():
                tables = calc_all_tables([Deal(d) for d in chunk])
        except RuntimeError as err:
            raise DoubleDummyError(f"DDS failed on the tables of {len(chunk)} deals "
                                   f"(first {chunk[0]}): {err}") from None
        for k, table in enumerate(tables):
            for strain in Strain:
                for seat in Seat:
                    out[start + k, int(strain), int(seat)] = table[strain.to_endplay(),
                                                                   Player(int(seat))]
            if pars is not None and dealers is not None and vuls is not None:
                i = start + k
                result = par(table, to_endplay_vul(vuls[i]), Player(int(dealers[i])))
                pars.append(Par(int(result.score),
                                " ".join(sorted({_contract_text(c) for c in result}))))
    return out, pars


def _contract_text(contract: Any) -> str:
    """A par contract as '4SN', '5DXE' or '6HE+1' (plain letters, whatever endplay prints)."""
    strain = Strain.NT if int(contract.denom) == 4 else Strain(3 - int(contract.denom))
    doubled = {1: "", 2: "X", 4: "XX"}[int(contract.penalty)]
    result = int(contract.result)
    extra = f"+{result}" if result > 0 else (str(result) if result < 0 else "")
    return f"{contract.level}{strain}{doubled}{Seat(int(contract.declarer))}{extra}"


def table_cells(table: npt.NDArray[np.int64]) -> dict[Cell, int]:
    """The 20 cells of one ``(5, 4)`` trick table."""
    return {(strain, seat): int(table[int(strain), int(seat)])
            for strain in Strain for seat in Seat}


def cells_to_json(cells: Mapping[Cell, int]) -> dict[str, int]:
    return {cell_key(c): t for c, t in cells.items()}


def cells_from_json(data: Mapping[str, int]) -> dict[Cell, int]:
    return {parse_cell(k): int(v) for k, v in data.items()}


__all__ = ["BOARDS_PER_CALL", "TABLES_PER_CALL", "Cell", "DoubleDummyError", "Par",
           "cell_key", "cells_from_json", "cells_to_json", "full_tables", "parse_cell",
           "set_dds_threads", "solve_cells", "table_cells"]
