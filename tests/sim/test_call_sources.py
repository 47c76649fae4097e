"""Who decided each call in a match: the notes, the natural base, or judgement.

The match counts each side's calls by source from the auctions the batch bidder made,
reading each call again with the walk (``sim.match.call_sources``). The one-hand bidder
says the same thing call by call (``BidResult.source``), so the two must agree. A shipped
system is used because only a system with a natural base has all three sources.
"""

from __future__ import annotations

import numpy as np
import pytest

from bidbox.core import Seat, Side
from bidbox.engine import as_systems, bid_deal
from bidbox.lang import load_system
from bidbox.sim.deals import deal_boards
from bidbox.sim.match import SOURCES, BoardResult, bid_table
from bidbox.sim.report import call_sources


@pytest.mark.parametrize("name", ["sbu-level1", "tosr"])
def test_the_match_counts_the_sources_the_one_hand_bidder_gives(name: str) -> None:
    systems = as_systems(load_system(name))
    boards = deal_boards(40, 7)
    sources = {side: np.zeros((len(boards), 3), dtype=np.int64) for side in Side}
    auctions, fallback = bid_table(boards, systems, sources=sources)
    seen = np.zeros(3, dtype=np.int64)
    for row in range(len(boards)):
        hands = {s: boards.deals().hand(row, s) for s in Seat}
        auction, results = bid_deal(hands, systems, boards.dealer(row), boards.vul(row))
        assert auction == auctions[row]
        for side in Side:
            expected = np.zeros(3, dtype=np.int64)
            for k, result in enumerate(results):
                if auction.seat_of(k).side is side:
                    expected[SOURCES.index(result.source)] += 1
            assert sources[side][row].tolist() == expected.tolist(), (row, side, str(auction))
            assert bool(fallback[side][row]) == bool(expected[SOURCES.index("placement")])
            seen += expected
    assert seen.all(), seen  # every source occurs, so a swapped column would show


def test_a_silent_side_has_no_calls_counted() -> None:
    systems = as_systems(load_system("sbu-level1"))
    boards = deal_boards(24, 8)
    sources = {side: np.zeros((len(boards), 3), dtype=np.int64) for side in Side}
    auctions, _ = bid_table(boards, systems, Side.EW, sources=sources)
    assert not sources[Side.EW].any()
    for row, auction in enumerate(auctions):
        ours = sum(1 for k in range(len(auction.calls)) if auction.seat_of(k).side is Side.NS)
        assert int(sources[Side.NS][row].sum()) == ours


def test_boards_stored_before_the_count_load_and_report_none() -> None:
    table = {"ns": "a", "auction": "P P P P", "contract": None, "declarer": None,
             "tricks": None, "ns_score": 0, "fallback_ns": True, "fallback_ew": True}
    stored = {"deal_index": 0, "board": 1, "dealer": "N", "vul": "None",
              "deal": "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
              "hcp": [10, 10, 10, 10], "tables": [table, {**table, "ns": "b"}], "imps": 0,
              "openings": {"a": ["P", "P", "P", "P"], "b": ["P", "P", "P", "P"]},
              "par_score": None, "par_contracts": None, "side_best_score": None,
              "side_best_contract": None}
    board = BoardResult.from_json(stored)
    assert board.tables[0].sources_ns == (0, 0, 0)
    assert call_sources([board], "a") is None
    counted = {**table, "sources_ns": [1, 0, 1], "sources_ew": [0, 0, 2]}
    board = BoardResult.from_json({**stored, "tables": [counted, {**counted, "ns": "b"}]})
    assert board.tables[0].sources_ns == (1, 0, 1)  # a tuple again, as written
    shares = call_sources([board], "a")
    assert shares == {"system": 0.25, "base": 0.0, "placement": 0.75}
