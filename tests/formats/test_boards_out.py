"""Boards out of `bidbox deal --system` and `bidbox simulate --pbn`: each auction bid by
the systems, alerted calls marked with the meaning as a PBN note (or LIN announcement),
read back by endplay and by bidbox's own reader with the same deals, auctions and notes;
each alert decision checked against the regulation deciding that call on its own."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from bidbox.api import get_regulation, load_system
from bidbox.cli.sim_commands import add_parsers
from bidbox.core.auction import Auction
from bidbox.core.seats import Side
from bidbox.errors import BidboxError
from bidbox.formats.pbn import board_auction, note_text, read_boards
from bidbox.lang.system import System
from bidbox.rules.alerts import decide_call_alert
from bidbox.sim.deals import deal_boards, read_pbn_boards


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="bidbox")
    add_parsers(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    code: int = args.func(args)
    return code


def check_notes(board: Any, systems: dict[Side, System]) -> int:
    """Every call's mark and note as the regulation decides it for that call alone;
    the number of alerted calls."""
    auction = board_auction(board)
    reg = get_regulation("sbu")
    alerted = 0
    for i, bid in enumerate(board.auction):
        before = Auction(auction.dealer, auction.vul, auction.calls[:i])
        decision = decide_call_alert(before, auction.calls[i], systems, reg)
        assert bid.alertable == decision.alert, (str(auction), i)
        if decision.alert:
            assert note_text(bid.announcement), (str(auction), i)
            alerted += 1
        else:
            assert not bid.announcement
    return alerted


def key(board: Any) -> tuple[object, ...]:
    return (board.deal.to_pbn(), int(board.dealer), int(board.vul),
            [(str(b), b.alertable, note_text(b.announcement)) for b in board.auction])


def test_deal_with_a_system_writes_pbn_and_lin_with_notes(tmp_path: Path) -> None:
    pbn, lin = tmp_path / "dealt.pbn", tmp_path / "dealt.lin"
    assert run("deal", "--count", "5", "--seed", "11", "--system", "tosr", "--ew",
               "sbu-level1", "-o", str(pbn)) == 0
    assert run("deal", "--count", "5", "--seed", "11", "--system", "tosr", "--ew",
               "sbu-level1", "-o", str(lin)) == 0
    text = pbn.read_text(encoding="utf-8")
    assert "=1=" in text and '[Note "1:' in text  # GIB's layout of notes
    assert '[Result "?"]' in text  # bid, not played: no result claimed
    boards, from_lin = read_boards(pbn), read_boards(lin)
    dealt = deal_boards(5, 11)
    ours = read_pbn_boards(pbn)  # bidbox's own reader: the same deals as dealt
    assert [ours.pbn(i) for i in range(5)] == [dealt.pbn(i) for i in range(5)]
    systems = {Side.NS: load_system("tosr").compiled, Side.EW: load_system("sbu-level1").compiled}
    alerted = 0
    for row, (board, other) in enumerate(zip(boards, from_lin, strict=True)):
        assert board.deal.to_pbn() == dealt.pbn(row)
        assert int(board.dealer) == int(dealt.dealer(row))
        assert board_auction(board).is_ended
        assert key(board) == key(other)
        contract = board_auction(board).contract
        if contract is not None:
            assert board.contract.declarer.abbr == str(contract.declarer)
        alerted += check_notes(board, systems)
    assert alerted > 0


def test_simulate_writes_both_tables_with_notes(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "match.pbn"
    assert run("simulate", "--a", "tosr", "--b", "sbu-level1", "--deals", "4", "--seed", "2",
               "--workers", "1", "--no-plots", "--out", str(tmp_path / "run"),
               "--pbn", str(path)) == 0
    assert "wrote 8 tables (4 boards)" in capsys.readouterr().out
    import json

    report = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    boards = read_boards(path)
    assert len(boards) == 8
    a, b = load_system("tosr").compiled, load_system("sbu-level1").compiled
    tables = ({Side.NS: a, Side.EW: b}, {Side.NS: b, Side.EW: a})
    alerted = 0
    for i, board in enumerate(boards):
        assert board.info["Room"] == ("Open", "Closed")[i % 2]
        assert board.info["North"] == ("tosr", "sbu-level1")[i % 2]
        alerted += check_notes(board, tables[i % 2])
    assert alerted > 0
    # The same deals as the run's own reader sees, in the file's order.
    ours = read_pbn_boards(path)
    assert [ours.pbn(i) for i in range(0, 8, 2)] == [ours.pbn(i) for i in range(1, 8, 2)]
    assert report["boards"] == 4


def test_simulate_results_match_the_file(tmp_path: Path) -> None:
    """The auctions and double-dummy results written are the match's own, in PBN and
    LIN."""
    from bidbox.cli.export_commands import write_match_boards
    from bidbox.sim.match import MatchSpec, SystemRef
    from bidbox.sim.runner import run_match

    spec = MatchSpec(SystemRef.resolve("sbu-level1"), SystemRef.resolve("sbu-level1"))
    done = run_match(spec, deal_boards(4, 9), progress=False, plots=False)
    for path in (tmp_path / "m.pbn", tmp_path / "m.lin"):
        assert write_match_boards(done.results, spec, path) == 8
        for i, board in enumerate(read_boards(path)):
            table = done.results[i // 2].tables[i % 2]
            assert " ".join(str(c) for c in board_auction(board).calls) == table.auction
            if path.suffix == ".pbn" and table.tricks is not None:
                assert board.contract.result + 6 + board.contract.level == table.tricks


def test_deal_ew_without_system_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(BidboxError, match="--system"):
        run("deal", "--count", "2", "--ew", "tosr", "-o", str(tmp_path / "x.pbn"))
