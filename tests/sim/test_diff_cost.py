"""``sim.diff_cost``: only the changed deals are solved, the IMPs agree with the team match,
and a second diff of the same deals solves nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bidbox.sim.deals import deal_boards
from bidbox.sim.diff_cost import diff_cost
from bidbox.sim.match import MatchSpec, SystemRef, play_boards
from bidbox.sim.report import confidence_interval
from bidbox.verify.diff import behaviour_diff, load_version

STRONG = """system small
1NT hcp 15-17, balanced
1C hcp 12+
P hcp 0-11
"""
WEAK = STRONG.replace("15-17", "12-14")
N = 48


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    folder = tmp_path_factory.mktemp("diffcost")
    (folder / "strong.bbx").write_text(STRONG, encoding="utf-8")
    (folder / "weak.bbx").write_text(WEAK, encoding="utf-8")
    return str(folder / "strong.bbx"), str(folder / "weak.bbx")


def test_cost_of_the_changed_deals(files: tuple[str, str], tmp_path: Path) -> None:
    now, was = load_version(files[0]), load_version(files[1])
    boards = deal_boards(N, 3)
    found = behaviour_diff(now.system, was.system, boards.masks,
                           [boards.dealer(r) for r in range(N)],
                           [boards.vul(r) for r in range(N)], explain_top=0)
    assert 0 < found.changed.sum() < N
    cost = diff_cost(boards, found.now_ns, found.was_ns, found.changed, tmp_path,
                     progress=False)
    changed_rows = np.flatnonzero(found.changed)
    assert [b.deal_index for b in cost.boards] == [int(r) for r in changed_rows]
    assert cost.cells_solved <= 2 * len(changed_rows) and cost.cells_from_store == 0
    every = [0] * (N - len(cost.boards)) + [b.imps for b in cost.boards]
    mean, _, lo, hi = confidence_interval(every)
    assert cost.imps_per_board == pytest.approx(mean) and cost.ci95 == (lo, hi)
    assert cost.imps_per_board * N == pytest.approx(cost.imps_per_changed_board
                                                    * len(cost.boards))

    # The simulation lab's own team match (now = A) agrees board by board, and scores
    # the unchanged boards 0, which is why the diff does not solve them.
    spec = MatchSpec(SystemRef.resolve(files[0]), SystemRef.resolve(files[1]))
    match = play_boards(spec, boards).boards
    by_index = {b.deal_index: b for b in cost.boards}
    for result in match:
        if result.deal_index in by_index:
            mine = by_index[result.deal_index]
            assert mine.imps == result.imps
            assert [t.auction for t in mine.tables] == [t.auction for t in result.tables]
        else:
            assert result.imps == 0
            assert result.tables[0].auction == result.tables[1].auction

    again = diff_cost(boards, found.now_ns, found.was_ns, found.changed, tmp_path,
                      progress=False)
    assert again.cells_solved == 0 and again.cells_from_store > 0
    assert [b.imps for b in again.boards] == [b.imps for b in cost.boards]
    assert again.swings(3) == cost.swings(3)
    for swing in cost.swings(3):
        assert len(swing["tables"]) == 2 and swing["imps"] != 0


def test_nothing_changed_costs_nothing() -> None:
    boards = deal_boards(10, 1)
    from bidbox.core.auction import Auction

    auctions = [Auction.parse("P P P P", boards.dealer(r)) for r in range(10)]
    cost = diff_cost(boards, auctions, auctions, np.zeros(10, dtype=bool), None,
                     progress=False)
    assert cost.boards == [] and cost.imps_per_board == 0 and cost.ci95 == (0.0, 0.0)
    assert cost.cells_solved == 0
