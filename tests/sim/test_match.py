"""The team match: auctions, fallbacks, openings, scores and IMPs of two systems.

Systems: ``tests/data/mini.bbx`` (the engine's tiny test system) and
``tests/sim/data/weak.bbx`` (a small weak-opening system), so nothing here depends on a
shipped system. DDS is slow: the match below plays 120 boards of one system against itself
(one contract per board to solve), the rest a few boards each.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bidbox.core import Auction, Seat, Side
from bidbox.core.calls import PASS
from bidbox.engine import bid_batch, bid_deal, choose_call
from bidbox.evaluate.dealer import DealBatch
from bidbox.sim.deals import deal_boards
from bidbox.sim.match import (
    BoardResult,
    MatchSpec,
    SystemRef,
    bid_table,
    call_name,
    opening_calls,
    play_boards,
)
from bidbox.sim.report import opening_weight
from bidbox.sim.runner import MatchRun, run_match
from bidbox.sim.scoring import imps, ns_score, parse_contract

ROOT = Path(__file__).parents[2]
MINI = str(ROOT / "tests" / "data" / "mini.bbx")
WEAK = str(Path(__file__).parent / "data" / "weak.bbx")


@pytest.fixture(scope="module")
def mini_vs_mini() -> MatchRun:
    spec = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(MINI))
    return run_match(spec, deal_boards(120, 2026), progress=False)


@pytest.fixture(scope="module")
def mini_vs_weak(tmp_path_factory: pytest.TempPathFactory) -> tuple[MatchRun, MatchRun]:
    """The same 24 boards with A and B swapped, sharing one store (and its DD cells)."""
    out = tmp_path_factory.mktemp("swap")
    boards = deal_boards(24, 77)
    mini, weak = SystemRef.resolve(MINI), SystemRef.resolve(WEAK)
    first = run_match(MatchSpec(mini, weak), boards, out, progress=False, plots=False)
    second = run_match(MatchSpec(weak, mini), boards, out, progress=False, plots=False)
    return first, second


def test_a_system_against_itself_is_level(mini_vs_mini: MatchRun) -> None:
    report = mini_vs_mini.report
    assert report.boards == 120
    low, high = report.ci95
    assert low <= 0 <= high
    assert report.ci95[0] <= report.imps_per_board <= report.ci95[1]
    for r in mini_vs_mini.results:
        t1, t2 = r.tables
        assert (t1.contract, t1.declarer, t1.tricks) == (t2.contract, t2.declarer, t2.tricks)
        assert r.imps == 0
    # One system at both tables: one contract per board at most was solved.
    assert report.extra["dds_cells_solved"] <= 120


def test_report_figures_are_consistent(mini_vs_mini: MatchRun) -> None:
    report = mini_vs_mini.report
    for s in ("a", "b"):
        freq = report.opening_frequencies[s]
        assert sum(freq.values()) == pytest.approx(1.0)
        weighted = sum(opening_weight(call) * share for call, share in freq.items())
        assert report.aggressiveness[s] == pytest.approx(weighted)
        assert 0.0 <= report.fallback_rate[s] <= 1.0
        shares = [v["share"] for v in report.extra["contracts"][s].values()]
        assert sum(shares) == pytest.approx(1.0)
    # 480 hands; the exact share of 8-12 HCP hands is 44.7%.
    assert 0.38 <= report.extra["hcp_8_12_share"]["measured"] <= 0.51
    data = report.to_json()
    for key in ("boards", "imps_per_board", "ci95", "aggressiveness", "opening_frequencies",
                "fallback_rate", "seconds", "dds_seconds"):
        assert key in data
    assert set(data["aggressiveness"]) == set(data["fallback_rate"]) == {"a", "b"}
    assert len(data["ci95"]) == 2


def test_swapping_the_systems_negates_every_board(
        mini_vs_weak: tuple[MatchRun, MatchRun]) -> None:
    first, second = mini_vs_weak
    assert [r.imps for r in first.results] == [-r.imps for r in second.results]
    assert any(r.imps for r in first.results), "mini and weak never differed on 24 boards"
    for r, s in zip(first.results, second.results, strict=True):
        assert r.tables[0].auction == s.tables[1].auction
        assert r.tables[1].ns_score == s.tables[0].ns_score
        assert r.openings["a"] == s.openings["b"]
    # Every contract of the swapped match was already solved: the store's DD cells served.
    assert second.report.extra["dds_cells_solved"] == 0
    assert first.report.extra["dds_cells_solved"] > 0


def test_table_results_follow_their_auctions(mini_vs_weak: tuple[MatchRun, MatchRun]) -> None:
    first, _ = mini_vs_weak
    boards = deal_boards(24, 77)
    systems = (MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK)).table_systems())
    for row, r in enumerate(first.results):
        dealer, vul = boards.dealer(row), boards.vul(row)
        hands = {seat: boards.deals().hand(row, seat) for seat in Seat}
        for k, table in enumerate(r.tables):
            auction = Auction.parse(table.auction, dealer, vul)
            contract = auction.contract
            assert parse_contract(table.contract, table.declarer) == contract
            assert table.ns_score == ns_score(contract, table.tricks, vul)
            # The one-hand bidder reaches the same auction and flags the same fallbacks.
            alone, calls = bid_deal(hands, systems[k], dealer, vul)
            assert str(alone) == table.auction
            flagged = {side: any(c.fallback for i, c in enumerate(calls)
                                 if auction.seat_of(i).side is side) for side in Side}
            assert (table.fallback_ns, table.fallback_ew) == (flagged[Side.NS],
                                                              flagged[Side.EW])
        assert r.imps == imps(r.tables[0].ns_score - r.tables[1].ns_score)
        assert (r.tables[0].ns, r.tables[1].ns) == ("a", "b")


def test_fallback_sides_cover_exactly_the_flagged_auctions() -> None:
    boards = deal_boards(300, 5)
    spec = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK))
    systems = spec.table_systems()[0]
    auctions, fallback = bid_table(boards, systems)
    for dealer, vul, rows in boards.table_groups():
        result = bid_batch(DealBatch(boards.masks[rows]), systems, dealer, vul)
        for auction, index, used in result.groups:
            either = fallback[Side.NS][rows[index]] | fallback[Side.EW][rows[index]]
            assert bool(either.all()) if used else not either.any(), str(auction)
            assert all(auctions[int(rows[i])] == auction for i in index)


def test_silent_side_never_falls_back() -> None:
    boards = deal_boards(200, 6)
    systems = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(MINI),
                        uncontested=True).table_systems()[0]
    auctions, fallback = bid_table(boards, systems, Side.EW)
    assert not fallback[Side.EW].any()
    for auction in auctions:
        assert all(c == PASS for i, c in enumerate(auction.calls)
                   if auction.seat_of(i).side is Side.EW)


def test_opening_calls_agree_with_the_one_hand_bidder() -> None:
    boards = deal_boards(48, 9)
    weak = SystemRef.resolve(WEAK).load()
    calls = opening_calls(weak, boards)
    for row in range(len(boards)):
        dealer, vul = boards.dealer(row), boards.vul(row)
        for position in range(4):
            seat = dealer.after(position)
            auction = Auction(dealer, vul, (PASS,) * position)
            chosen = choose_call(boards.deals().hand(row, seat), auction, {Side.NS: weak,
                                                                           Side.EW: weak})
            assert call_name(int(calls[row, int(seat)])) == str(chosen.call), (row, seat)


def test_weak_openings_are_more_aggressive() -> None:
    boards = deal_boards(400, 10)
    mini, weak = SystemRef.resolve(MINI).load(), SystemRef.resolve(WEAK).load()

    def measure(system: object) -> float:
        ranks = opening_calls(system, boards)  # type: ignore[arg-type]
        return float(np.mean(np.where(ranks < 0, 0, ranks.astype(int) + 1)))

    assert measure(weak) > measure(mini) > 0


def test_uncontested_match_is_measured_against_the_best_contract_alone() -> None:
    spec = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK), uncontested=True)
    chunk = play_boards(spec, deal_boards(6, 31))
    assert chunk.tables_solved == 6 and chunk.cells_solved == 0
    for r in chunk.boards:
        assert r.side_best_score is not None and r.par_score is not None
        for table in r.tables:
            assert table.ns_score <= r.side_best_score
            auction = Auction.parse(table.auction, Seat.parse(r.dealer))
            assert all(c == PASS for i, c in enumerate(auction.calls)
                       if auction.seat_of(i).side is Side.EW)
        # Par (both sides bidding) never beats North-South's best alone.
        assert r.par_score <= r.side_best_score
    from bidbox.sim.report import RunInfo, build_report

    report = build_report(chunk.boards, RunInfo(spec, "seed:31", 6))
    assert report.extra["mode"] == "uncontested"
    for s in ("a", "b"):
        assert report.extra["imps_vs_best_alone"][s] <= 0
        assert 0 <= report.extra["reached_best_alone"][s] <= 1


def test_par_mode_reports_results_against_par() -> None:
    spec = MatchSpec(SystemRef.resolve(MINI), SystemRef.resolve(WEAK), par=True)
    boards = deal_boards(4, 8)
    chunk = play_boards(spec, boards)
    from bidbox.sim.report import RunInfo, build_report, imps_vs_par

    report = build_report(chunk.boards, RunInfo(spec, "seed:8", 4))
    assert report.extra["imps_vs_par"] is not None
    r: BoardResult = chunk.boards[0]
    assert r.par_score is not None
    expected = np.mean([imps(r.tables[0].ns_score - r.par_score),
                        imps(r.par_score - r.tables[1].ns_score)])
    assert imps_vs_par([r], "a") == pytest.approx(expected)
