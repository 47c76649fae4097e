"""Double dummy through DDS: needed cells and full tables against real boards' own tables.

The real boards carry an ``[OptimumResultTable]`` computed by another program; a few of
them are enough to catch a wrong leader, a wrong strain mapping or a wrong trick count.
DDS is slow, so only a handful of boards are solved here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bidbox.core import Seat, Side, Strain, Vulnerability
from bidbox.sim.deals import from_endplay_vul, read_pbn_boards
from bidbox.sim.double_dummy import (
    cell_key,
    cells_from_json,
    cells_to_json,
    full_tables,
    parse_cell,
    solve_cells,
    table_cells,
)
from bidbox.sim.scoring import best_for_side

REAL_PBN = Path(__file__).parents[2] / ".." / "shared" / "data" / "real-pbn"


def optimum_boards(count: int) -> list[tuple[str, dict[tuple[Strain, Seat], int], Any]]:
    """(deal PBN, the board's own DD table, the endplay board) for the first boards that
    have an ``[OptimumResultTable]``."""
    if not REAL_PBN.is_dir():
        pytest.skip(f"real boards not found at {REAL_PBN} (shared/data beside the checkout)")
    from endplay.parsers import pbn

    out = []
    for path in sorted(REAL_PBN.glob("*.pbn")):
        with path.open(encoding="utf-8") as f:
            boards = pbn.load(f)
        ours = read_pbn_boards(path)
        for row, board in enumerate(boards):
            table = board.info.get("OptimumResultTable")
            if not table:
                continue
            cells = {(Strain.parse(strain), Seat.parse(declarer)): int(tricks)
                     for declarer, strain, tricks in table["rows"]}
            assert len(cells) == 20, f"{path} board {board.board_num}"
            out.append((ours.pbn(row), cells, board))
            if len(out) == count:
                return out
    return out


def test_needed_cells_agree_with_the_boards_tables() -> None:
    boards = optimum_boards(5)
    picks = [[(Strain.NT, Seat.N), (Strain.S, Seat.E)],
             [(Strain.H, Seat.W), (Strain.C, Seat.S), (Strain.H, Seat.W)],
             [(Strain.D, Seat.E)],
             [(Strain.S, Seat.S), (Strain.NT, Seat.W)],
             []]
    solved = solve_cells([deal for deal, _, _ in boards], picks)
    for (deal, table, _), wanted, got in zip(boards, picks, solved, strict=True):
        assert set(got) == set(wanted), deal
        for cell in wanted:
            assert got[cell] == table[cell], (deal, cell_key(cell))


def test_full_tables_and_par_agree_with_the_boards() -> None:
    boards = optimum_boards(2)
    deals = [deal for deal, _, _ in boards]
    dealers = [Seat(int(board.dealer)) for _, _, board in boards]
    vuls = [from_endplay_vul(board.vul) for _, _, board in boards]
    tricks, pars = full_tables(deals, dealers, vuls)
    assert pars is not None
    for k, (deal, table, _) in enumerate(boards):
        assert table_cells(tricks[k]) == table, deal
        # Par lies between what each side could score if the other never bid.
        ns_alone = best_for_side(tricks[k], Side.NS, vuls[k]).score
        ew_alone = best_for_side(tricks[k], Side.EW, vuls[k]).score
        assert -ew_alone <= pars[k].ns_score <= ns_alone, (deal, pars[k])
        assert pars[k].contracts


def test_cells_round_trip_through_json() -> None:
    cells = {(Strain.NT, Seat.N): 9, (Strain.C, Seat.W): 4}
    assert cells_from_json(cells_to_json(cells)) == cells
    assert parse_cell("NT:N") == (Strain.NT, Seat.N)


def test_best_for_side_on_a_table_with_a_cold_slam() -> None:
    import numpy as np

    tricks = np.full((5, 4), 6)
    tricks[int(Strain.S), int(Seat.S)] = 12
    best = best_for_side(tricks, Side.NS, Vulnerability.NONE)
    assert str(best) == "6SS" and best.score == 980
    assert str(best_for_side(tricks, Side.EW, Vulnerability.NONE)) == "pass"
